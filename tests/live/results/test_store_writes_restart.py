"""Review R4 (issue 12 [FAULTS]: a database restart during the campaign; 100,000 hostile
messages): what the hub writes while its store is down, and how the audit trail writes.

- the result writer says a lost store in one WARNING line per failed commit, not a full
  traceback each (about 20 per 3 s outage buried the log), and tries the batch once more
  together, not each result alone (against a lost server, a connect timeout per result); a
  fault of another kind keeps its traceback and the one-by-one retry;
- the audit trail writes what is queued in one commit (about 29,000 single commits after a
  flood of hostile messages kept the disk busy 15 s after the last answer), in order, and
  an entry the store refuses still costs only itself.

Real SQLite (and PostgreSQL) stores; a store is "down" as a real one is: its file cannot
be opened."""

from __future__ import annotations

import asyncio
import logging

from event_text import one_section_event
from sqlalchemy import event

from hub.live.oversight.audit_trail import AuditTrail
from hub.live.port.terminal_port import Outcome, Reason, ResultSubmission, TerminalRef
from hub.live.results.intake import Intake
from hub.live.results.result_writer import Queued, ResultWriter
from hub.store.engine import make_engine
from hub.store.store import Store

EVENT = one_section_event("Writes", 'kind = "howell", tables = 3, boards_per_round = 2')


def _submission(token: int, table: int, rnd: int, board: int, ns: int, ew: int):
    return ResultSubmission(
        TerminalRef("line", table), token, "A", table, rnd, board, ns, ew, "3NT", "N", "", 9, 1
    )


def test_a_store_that_is_down_is_logged_in_one_warning_line_per_failed_commit(tmp_path, caplog):
    """Issue 12 (a database restart mid-session), D11: results the store cannot take are
    answered "busy, resend" after two attempts of the batch (not one more per result: against
    a lost server every attempt costs a connect timeout); the log says why in one WARNING
    line per failed commit, without a traceback (the store is down: nothing to debug)."""
    good = Store.open(f"sqlite:///{tmp_path / 'club.db'}")
    eid = good.create_event(EVENT)
    movement = good.movement(eid, "A")
    down = Store(make_engine(f"sqlite:///{tmp_path / 'gone' / 'club.db'}"))  # no such folder
    intake = Intake({"A": movement}, lambda *_: None)
    intake.load([], {})
    batch = []
    for table in (1, 2):
        row = movement.row("A", table, 1)
        assert row is not None
        assert intake.logon(f"BM-{table}", "A", table).outcome is Outcome.OK
        sub = _submission(table, table, 1, row.boards[0], row.ns_pair, row.ew_pair)
        batch.append(Queued(f"BM-{table}", sub))
    answers: list = []

    async def then(*_: object) -> None:
        return None

    writer = ResultWriter(down, eid, intake, lambda s, out: answers.append(out), then)
    try:
        with caplog.at_level(logging.WARNING, logger="hub.live.results.result_writer"):
            asyncio.run(writer.write(batch))
    finally:
        good.close()
    assert [a.verdict.reason for a in answers] == [Reason.BUSY, Reason.BUSY]
    mine = [r for r in caplog.records if r.name == "hub.live.results.result_writer"]
    assert len(mine) == 2, [r.getMessage() for r in mine]  # once more together, not each
    assert all(r.levelno == logging.WARNING and r.exc_info is None for r in mine)
    assert all("OperationalError" in r.getMessage() for r in mine), mine[0].getMessage()
    assert all("\n" not in r.getMessage() for r in mine)


def test_a_fault_that_is_not_the_store_being_down_keeps_its_traceback(tmp_path, caplog):
    """The one-line warning is for a lost store only: any other failure of a commit (a bug,
    a refused row) is logged with its traceback, as before."""
    store = Store.open(f"sqlite:///{tmp_path / 'club.db'}")
    eid = store.create_event(EVENT)
    movement = store.movement(eid, "A")
    intake = Intake({"A": movement}, lambda *_: None)
    intake.load([], {})
    row = movement.row("A", 1, 1)
    assert row is not None and intake.logon("BM-1", "A", 1).outcome is Outcome.OK
    sub = _submission(1, 1, 1, row.boards[0], row.ns_pair, row.ew_pair)
    answers: list = []

    async def then(*_: object) -> None:
        return None

    writer = ResultWriter(store, eid + 99, intake, lambda s, out: answers.append(out), then)
    try:  # an event the store does not hold: refused, not down
        with caplog.at_level(logging.WARNING, logger="hub.live.results.result_writer"):
            asyncio.run(writer.write([Queued("BM-1", sub)]))
    finally:
        store.close()
    assert [a.verdict.reason for a in answers] == [Reason.BUSY]
    mine = [r for r in caplog.records if r.name == "hub.live.results.result_writer"]
    assert mine and all(r.exc_info is not None for r in mine), [r.getMessage() for r in mine]


def test_the_audit_trail_writes_what_is_queued_in_one_commit_in_order(store_url):
    """C's finding (issue 12, 100,000 hostile messages): 1,000 queued entries are written
    in a handful of commits, not 1,000, in the order they were queued (SQLite and
    PostgreSQL)."""
    store = Store.open(store_url)
    eid = store.create_event(EVENT)
    commits = [0]
    event.listen(store.engine, "commit", lambda _conn: commits.__setitem__(0, commits[0] + 1))

    async def main() -> None:
        trail = AuditTrail(store, eid)
        for n in range(1000):
            trail.record(f"BM-{n % 7}", "refused", {"n": n})
        await trail.flush()

    try:
        asyncio.run(main())
        rows = store.audit_log(eid, "refused")
    finally:
        store.close()
    assert [r["detail"]["n"] for r in rows] == list(range(1000))
    assert commits[0] <= 5, f"{commits[0]} commits for 1,000 audit entries"


def test_an_audit_entry_the_store_refuses_costs_only_itself_in_a_batch(store_url, caplog):
    """The batch's commit fails for one entry the store refuses (its content, not the store
    being down): the others are still written, in order, and the refused one is logged in
    full and told to the director (the audit trail's rule before batching)."""
    store = Store.open(store_url)
    eid = store.create_event(EVENT)
    told: list[str] = []

    async def main() -> None:
        trail = AuditTrail(store, eid, alert=told.append)
        trail.record("BM-1", "refused", {"n": 1})
        trail.record("BM-2", "refused", {"n": object()})  # no JSON can hold it
        trail.record("BM-3", "refused", {"n": 3})
        await trail.flush()

    try:
        with caplog.at_level(logging.ERROR, logger="hub.live.oversight.audit_trail"):
            asyncio.run(main())
        rows = store.audit_log(eid, "refused")
    finally:
        store.close()
    assert [r["detail"]["n"] for r in rows] == [1, 3]
    assert len(told) == 1 and "refused 1 audit entry" in told[0]
    assert any("BM-2" in r.getMessage() for r in caplog.records)
