"""The result writer (decisions D9, D11): a burst shares durable commits, each result is
answered only after the commit that holds it, and a commit that fails never turns a stored
result into a "duplicate", never answers "stored" for one that was not, and never leaves a
terminal without an answer ("busy, resend").

The store is real (SQLite); its failure is injected (``Store.record`` raising), since a
real disk cannot be made to fail on cue."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from hub.api.feed import Feed
from hub.live.oversight.alerts import Alerts
from hub.live.port.base_station import REFUSALS
from hub.live.port.terminal_port import Outcome, Reason, ResultSubmission, TerminalRef
from hub.live.results.intake import Intake, IntakeResult
from hub.live.results.result_writer import Queued, ResultWriter
from hub.live.tables.store_faults import StoreFaults
from hub.store.store import Store

ROOT = Path(__file__).parents[3]
EVENT = (ROOT / "examples" / "club_howell.toml").read_text("utf-8")


def submission(board: int, ns: int = 10, ew: int = 1, revision: int = 1) -> ResultSubmission:
    ref = TerminalRef("line", 1)
    return ResultSubmission(ref, None, "A", 1, 1, board, ns, ew, "4S", "N", "", 10, revision)


def writer(tmp_path: Path) -> tuple[Store, int, ResultWriter, list[tuple[int, Outcome]]]:
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(EVENT)
    movements = {s: store.movement(eid, s) for s in store.sections(eid)}
    intake = Intake(movements, lambda *_: None)
    intake.logon("BM-1", "A", 1)
    answered: list[tuple[int, Outcome]] = []

    def answer(s: ResultSubmission, out: IntakeResult) -> None:
        answered.append((s.board, out.outcome))

    async def then(s: ResultSubmission, out: IntakeResult) -> None:
        assert (s.board, out.outcome) in answered  # scoring comes after the answer

    return store, eid, ResultWriter(store, eid, intake, answer, then), answered


def test_a_failed_held_commit_leaves_the_accepted_results_accepted(tmp_path):
    """Board 1 (this table's) is accepted; boards 5 and 6 (not this table's) are held. The
    held group's commit fails once: board 1 is still answered "accepted" — it was stored —
    and boards 5 and 6 are stored one by one on the retry."""
    store, eid, w, answered = writer(tmp_path)
    record = store.record
    failed = []

    def record_failing_held(event_id, entries, status="accepted", also=None):
        if status == "held" and not failed:
            failed.append(entries)
            raise OSError("injected: disk full")
        return record(event_id, entries, status, also)

    store.record = record_failing_held
    batch = [Queued("BM-1", submission(b)) for b in (1, 5, 6)]
    asyncio.run(w.write(batch))
    assert failed and answered == [(1, Outcome.ACCEPTED), (5, Outcome.HELD), (6, Outcome.HELD)]
    assert [r.board for r in store.live_results(eid)] == [1]
    store.close()


def test_a_result_that_cannot_be_stored_is_answered_busy_resend_at_once(tmp_path):
    """D11, never silence: a result whose commit keeps failing is answered at once with the
    link-level "busy, resend" (a NAK code below 16, docs/protocol.md §3), not left for the
    terminal's 12 s of resends; its resend, once the store works, is stored once."""
    store, eid, w, answered = writer(tmp_path)
    record = store.record

    def record_never(*args, **kwargs):
        raise OSError("injected: disk full")

    store.record = record_never
    verdicts = []
    w.answer = lambda s, out: verdicts.append(out.verdict)
    asyncio.run(w.write([Queued("BM-1", submission(1))]))
    (busy,) = verdicts
    assert busy.outcome is Outcome.REFUSED and busy.reason is Reason.BUSY
    assert REFUSALS[busy.reason] < 16  # link-level: the terminal resends after a pause
    assert store.results(eid) == []
    store.record = record
    w.answer = lambda s, out: answered.append((s.board, out.outcome))
    asyncio.run(w.write([Queued("BM-1", submission(1))]))  # the resend
    assert answered == [(1, Outcome.ACCEPTED)] and len(store.results(eid)) == 1
    store.close()


def test_the_answer_goes_out_only_after_the_commit_d11(tmp_path):
    """Deterministic: the commit is held on an event inside the store call (a worker
    thread); while it is held the terminal has no answer; the order is commit, answer."""
    store, eid, w, _ = writer(tmp_path)
    record = store.record
    entered, release = threading.Event(), threading.Event()
    order: list[str] = []

    def record_held(*args, **kwargs):
        entered.set()
        assert release.wait(10), "the test never released the commit"
        out = record(*args, **kwargs)
        order.append("commit")
        return out

    store.record = record_held
    w.answer = lambda s, out: order.append(f"answer {out.outcome.value}")

    async def scenario():
        task = asyncio.create_task(w.write([Queued("BM-1", submission(1))]))
        assert await asyncio.to_thread(entered.wait, 10), "the commit never started"
        await asyncio.sleep(0)  # the loop is free while the commit waits
        assert order == [] and not task.done()
        release.set()
        await asyncio.wait_for(task, 10)

    asyncio.run(scenario())
    assert order == ["commit", "answer accepted"]
    assert [r.board for r in store.live_results(eid)] == [1]
    store.close()


def test_a_commit_that_raises_once_is_answered_within_a_second(tmp_path):
    """A passing fault (the first commit raises): the entry is stored on the retry and the
    terminal answered "accepted" within a second, no resend needed."""
    store, eid, w, answered = writer(tmp_path)
    record = store.record
    calls = []

    def record_once_failing(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise OSError("injected: database is locked")
        return record(*args, **kwargs)

    store.record = record_once_failing

    async def scenario():
        await asyncio.wait_for(w.write([Queued("BM-1", submission(1))]), 1.0)

    asyncio.run(scenario())
    assert len(calls) == 2 and answered == [(1, Outcome.ACCEPTED)]
    assert [r.board for r in store.live_results(eid)] == [1]
    store.close()


def test_the_director_is_told_once_a_minute_while_the_store_will_not_take_results():
    """Never silence for the director either: while results are answered "busy", one
    alert a minute names the tables that wait (the clock is injected)."""
    now = [1000.0]
    feed = Feed()
    alerts = Alerts(feed)
    faults = StoreFaults(alerts, lambda: now[0])
    faults([submission(1)])
    faults([submission(2)])  # the same minute: no second alert
    now[0] += 59.9
    faults([submission(3)])
    assert len(alerts.recent()) == 1 and "tables A1 wait" in alerts.recent()[0]
    now[0] += 0.2
    faults([submission(4)])
    assert len(alerts.recent()) == 2
