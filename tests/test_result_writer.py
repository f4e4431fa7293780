"""The result writer (decisions D9, D11): a burst shares durable commits, each result is
answered only after the commit that holds it, and a commit that fails never turns a stored
result into a "duplicate" nor answers one that was not stored.

The store is real (SQLite); its failure is injected (``Store.record`` raising), since a
real disk cannot be made to fail on cue."""

from __future__ import annotations

import asyncio
from pathlib import Path

from hub.live.intake import Intake, IntakeResult
from hub.live.result_writer import Queued, ResultWriter
from hub.live.terminal_port import Outcome, ResultSubmission, TerminalRef
from hub.store.store import Store

ROOT = Path(__file__).parents[1]
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


def test_a_result_that_cannot_be_stored_is_not_answered(tmp_path):
    """D11: no answer without a durable commit; unanswered, the terminal sends it again (the
    link resends), and the next commit stores it once."""
    store, eid, w, answered = writer(tmp_path)
    record = store.record

    def record_never(*args, **kwargs):
        raise OSError("injected: disk full")

    store.record = record_never
    asyncio.run(w.write([Queued("BM-1", submission(1))]))
    assert answered == [] and store.results(eid) == []
    store.record = record
    asyncio.run(w.write([Queued("BM-1", submission(1))]))  # the resend
    assert answered == [(1, Outcome.ACCEPTED)] and len(store.results(eid)) == 1
    store.close()
