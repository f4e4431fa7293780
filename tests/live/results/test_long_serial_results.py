"""A terminal's serial may be as long as the wire allows (STR8: 255 bytes), but the store
keeps who entered a result and who did an audited act in 64 characters. On PostgreSQL a
longer serial made every result of that terminal fail its commit ("busy, resend" for ever:
never stored, never scored) and its first audited act wedge the audit trail (a write that
fails is retried at the head of the queue). Such a terminal is refused at log-on with the
reason, the refusal is audited, and a 64-character serial plays normally (decisions D9,
D11, D21; "bad input never crashes the hub")."""

from __future__ import annotations

import asyncio
from pathlib import Path

from hub.live.port.terminal_port import Outcome, Reason, ResultSubmission, TerminalRef
from hub.live.results.intake import MAX_SERIAL, Intake, IntakeResult
from hub.live.results.result_writer import Queued, ResultWriter
from hub.store.store import Store

ROOT = Path(__file__).parents[3]
EVENT = (ROOT / "examples" / "club_howell.toml").read_text("utf-8")
LONGEST = "BM-" + "9" * 252  # 255 characters, the longest a LOGON carries
LONG_OK = "BM-" + "7" * 61  # 64 characters


def submission(revision: int = 255) -> ResultSubmission:
    ref = TerminalRef("line", 1)
    return ResultSubmission(ref, None, "A", 1, 1, 1, 10, 1, "4S", "N", "", 10, revision)


def test_a_serial_longer_than_the_store_keeps_is_refused_at_logon_and_audited(store_url):
    store = Store.open(store_url, migrate=True)
    try:
        eid = store.create_event(EVENT)
        movements = {s: store.movement(eid, s) for s in store.sections(eid)}
        intake = Intake(movements, lambda *_: None)
        verdict = intake.logon(LONGEST, "A", 1)
        assert verdict.outcome is Outcome.REFUSED and verdict.reason is Reason.NOT_REGISTERED
        assert f"at most {MAX_SERIAL}" in verdict.text, verdict.text
        assert intake.holders == {}
        store.audit(eid, LONGEST, "refused", {"code": verdict.reason.name})  # the caller's
        refused = store.audit_log(eid, "refused")
        assert [a["actor"] for a in refused] == [LONGEST[:64]]
    finally:
        store.close()


def test_a_64_character_serial_is_stored_and_its_resend_is_a_duplicate_d21(store_url):
    store = Store.open(store_url, migrate=True)
    try:
        eid = store.create_event(EVENT)
        movements = {s: store.movement(eid, s) for s in store.sections(eid)}
        intake = Intake(movements, lambda *_: None)
        assert intake.logon(LONG_OK, "A", 1).outcome is Outcome.OK
        answered: list[Outcome] = []

        def answer(s: ResultSubmission, out: IntakeResult) -> None:
            answered.append(out.outcome)

        async def then(s: ResultSubmission, out: IntakeResult) -> None:
            return None

        w = ResultWriter(store, eid, intake, answer, then)
        asyncio.run(w.write([Queued(LONG_OK, submission())]))
        asyncio.run(w.write([Queued(LONG_OK, submission())]))  # the ACK was lost: sent again
        assert answered == [Outcome.ACCEPTED, Outcome.DUPLICATE], answered
        stored = [r for r in store.results(eid, "A") if r.board == 1]
        assert len(stored) == 1 and stored[0].entered_by == LONG_OK
    finally:
        store.close()


def test_a_serial_with_a_nul_is_refused_and_its_audit_is_written(store_url):
    """PostgreSQL text refuses NUL: a LOGON whose serial carries one (STR8 is any bytes)
    is refused, and its audit row is written (NUL shown as U+FFFD) instead of failing at
    the head of the audit trail's queue for ever."""
    store = Store.open(store_url, migrate=True)
    try:
        eid = store.create_event(EVENT)
        movements = {s: store.movement(eid, s) for s in store.sections(eid)}
        intake = Intake(movements, lambda *_: None)
        verdict = intake.logon("BM\x00-1", "A", 1)
        assert verdict.outcome is Outcome.REFUSED and "cannot be printed" in verdict.text
        assert intake.holders == {}
        store.audit(eid, "BM\x00-1", "refused", {"code": "NOT_REGISTERED"})
        assert [a["actor"] for a in store.audit_log(eid, "refused")] == ["BM\ufffd-1"]
    finally:
        store.close()
