"""The result writer: terminals' results queue here and are stored in groups; each durable
commit is followed by the answers to every result it holds (decisions D11: the answer only
after the commit; group commit for bursts). A NO PLAY is recorded the same way (its
director's alert outlives a restart, D21). A result that cannot be stored is answered
"busy, resend" (a link-level refusal), so its terminal sends it again at once.

``ResultWriter`` belongs to the hub's asyncio loop; the commit itself runs in a worker
thread and returns plain stored records that the loop hands back to intake.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from hub.live.oversight import crash_points
from hub.live.port.terminal_port import Reason, ResultSubmission, Verdict
from hub.live.results.intake import Intake, IntakeResult, Pending
from hub.live.results.no_play import ACTION, NoPlay
from hub.store.failures import store_unavailable
from hub.store.store import Store, StoredResult

log = logging.getLogger(__name__)
BATCH = 256
Answer = Callable[[ResultSubmission, IntakeResult], None]
Then = Callable[[ResultSubmission, IntakeResult], Awaitable[None]]
Fault = Callable[[list[ResultSubmission]], None]


BUSY = IntakeResult(
    Verdict.refused(Reason.BUSY, "the hub could not store it just now: sending it again")
)  # a link-level refusal: the terminal sends the result again at once (D11: never silence)


@dataclass(frozen=True, slots=True)
class Queued:
    serial: str
    submission: ResultSubmission


def store_pending(store: Store, event_id: int, batch: list[Pending]) -> list[StoredResult]:
    """One transaction for the batch (worker thread; the batch holds one status, accepted
    or held); the stored records in the order of ``batch``."""
    statuses = {p.status for p in batch}
    assert len(statuses) == 1, statuses
    entries, status = [p.entry for p in batch], statuses.pop()
    plan = crash_points.PLAN
    if plan is None or len(batch) < 2:
        return store.record(event_id, entries, status=status)
    out = store.record(  # a campaign's kill -9 in the commit, or just after it
        event_id,
        entries,
        status=status,
        before_commit=lambda _db: plan.reached(crash_points.CrashKind.GROUP_COMMIT),
    )
    plan.reached(crash_points.CrashKind.AFTER_COMMIT)
    return out


def store_no_plays(store: Store, event_id: int, batch: list[NoPlay]) -> list[bool]:
    """The batch's NO PLAYs in one transaction (worker thread): True for each recorded
    now, False for one recorded before (the terminal's resend)."""
    return store.audit_once(event_id, ACTION, [(n.serial, n.detail()) for n in batch])


def failed(error: Exception, text: str, *args: object) -> None:
    """A store call failed: a store that is down (a database restart, a lost disk) in one
    WARNING line, its traceback tells nothing and an outage repeats it for every commit;
    any other fault with its traceback."""
    if not store_unavailable(error):
        log.exception(text, *args)
        return
    first = str(error).strip().splitlines()[0] if str(error).strip() else ""
    log.warning(
        text + " (the store is unavailable: %s: %.200s)", *args, type(error).__name__, first
    )


class ResultWriter:
    """Queue, group commit, answers after the commit: on the hub's loop, each commit in a
    worker thread."""

    def __init__(
        self,
        store: Store,
        event_id: int,
        intake: Intake,
        answer: Answer,
        then: Then,
        fault: Fault | None = None,
    ) -> None:
        self.store = store
        self.event_id = event_id
        self.intake = intake
        self.answer = answer  # to the terminal, at once
        self.then = then  # scoring and the room, once the whole batch is answered
        self.fault = fault  # the director is told when the store will not take a result
        self.queue: asyncio.Queue[Queued] = asyncio.Queue()
        # set while the hub starts: reads the live results of a batch's keys into intake
        self.priors: Callable[[list[tuple[str, int, int, int]]], Awaitable[None]] | None = None

    def submit(self, serial: str, submission: ResultSubmission) -> None:
        self.queue.put_nowait(Queued(serial, submission))

    async def run(self) -> None:
        """The writer's task: take what is queued, store it, answer it."""
        while True:
            batch = [await self.queue.get()]
            while not self.queue.empty() and len(batch) < BATCH:
                batch.append(self.queue.get_nowait())
            await self.write(batch)

    async def write(self, batch: list[Queued]) -> None:
        if self.priors is not None:  # intake does not hold every live result yet
            subs = [q.submission for q in batch]
            keys = [(s.section, s.table, s.round, s.board) for s in subs]
            try:
                await self.priors(keys)
            except Exception as e:  # unchecked, never stored: "busy, resend"
                failed(e, "reading the live results of %d key(s) failed", len(keys))
                if self.fault is not None:
                    self.fault(subs)
                for q in batch:
                    self.answer(q.submission, BUSY)
                return
        checked = [self.intake.prepare(q.serial, q.submission) for q in batch]
        answers: list[IntakeResult | None] = [
            p if isinstance(p, IntakeResult) else None for p in checked
        ]
        for status in ("accepted", "held"):  # one commit each: a failure never mixes them
            group = [
                (k, p)
                for k, p in enumerate(checked)
                if isinstance(p, Pending) and p.status == status
            ]
            stored = await self._commit([p for _, p in group])
            for (k, p), st in zip(group, stored, strict=True):
                if st is not None:
                    answers[k] = self.intake.stored(p, st)
        plays = [(k, n) for k, n in enumerate(checked) if isinstance(n, NoPlay)]
        recorded = await self._record_no_plays([n for _, n in plays])
        for (k, n), new in zip(plays, recorded, strict=True):
            if new is not None:
                answers[k] = self.intake.no_play_recorded(n, new)
        done = [(q, out or BUSY) for q, out in zip(batch, answers, strict=True)]
        refused = [q.submission for q, out in done if out is BUSY]
        if refused and self.fault is not None:
            self.fault(refused)
        for q, out in done:  # not stored: "busy, resend", so the terminal sends it at once
            self.answer(q.submission, out)
        for q, out in done:  # every terminal of the batch has its answer before any of this
            if out is BUSY:
                continue
            try:
                await self.then(q.submission, out)
            except Exception:
                log.exception("after the result of %s", q.serial)

    async def _record_no_plays(self, plays: list[NoPlay]) -> list[bool | None]:
        """The NO PLAYs' commit (None each when it fails: "busy, resend")."""
        if not plays:
            return []
        try:
            return list(await asyncio.to_thread(store_no_plays, self.store, self.event_id, plays))
        except Exception as e:
            failed(e, "recording %d NO PLAY(s) failed; they must resend", len(plays))
            return [None] * len(plays)

    async def _commit(
        self, pending: list[Pending], again: bool = False
    ) -> list[StoredResult | None]:
        """The group commit; if it fails, once more, so a passing fault costs no resend
        (None: not stored; the terminal is answered "busy, resend"): each entry alone, so
        one bad entry cannot fail the others, or, when the store itself is unavailable
        (down, full, locked), the group together (against a lost server each try waits for
        its connect timeout: once per result would hold the whole batch for minutes)."""
        if not pending:
            return []
        try:
            return list(await asyncio.to_thread(store_pending, self.store, self.event_id, pending))
        except Exception as e:
            if again:
                failed(e, "storing %d result(s) failed; they must resend", len(pending))
                return [None] * len(pending)
            if store_unavailable(e):
                failed(e, "storing %d result(s) failed; trying again", len(pending))
                return await self._commit(pending, again=True)
            failed(e, "storing %d result(s) together failed; one by one", len(pending))
        out: list[StoredResult | None] = []
        for p in pending:
            out += await self._commit([p], again=True)
        return out
