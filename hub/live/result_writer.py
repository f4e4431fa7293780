"""The result writer: terminals' results queue here and are stored in groups; each durable
commit is followed by the answers to every result it holds (decisions D11: the answer only
after the commit; group commit for bursts).

``ResultWriter`` belongs to the hub's asyncio loop; the commit itself runs in a worker
thread and returns plain stored records that the loop hands back to intake.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from hub.live.intake import Intake, IntakeResult, Pending
from hub.live.terminal_port import ResultSubmission
from hub.store.store import Store, StoredResult

log = logging.getLogger(__name__)
BATCH = 256
Answer = Callable[[ResultSubmission, IntakeResult], None]
Then = Callable[[ResultSubmission, IntakeResult], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Queued:
    serial: str
    submission: ResultSubmission


def store_pending(store: Store, event_id: int, batch: list[Pending]) -> list[StoredResult]:
    """One transaction for the batch (worker thread; the batch holds one status, accepted
    or held); the stored records in the order of ``batch``."""
    statuses = {p.status for p in batch}
    assert len(statuses) == 1, statuses
    return store.record(event_id, [p.entry for p in batch], status=statuses.pop())


class ResultWriter:
    """Queue, group commit, answers after the commit: on the hub's loop, each commit in a
    worker thread."""

    def __init__(
        self, store: Store, event_id: int, intake: Intake, answer: Answer, then: Then
    ) -> None:
        self.store = store
        self.event_id = event_id
        self.intake = intake
        self.answer = answer  # to the terminal, at once
        self.then = then  # scoring and the room, once the whole batch is answered
        self.queue: asyncio.Queue[Queued] = asyncio.Queue()

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
        done = [(q, out) for q, out in zip(batch, answers, strict=True) if out is not None]
        for q, out in done:  # not stored (None): no answer, so the terminal sends it again
            self.answer(q.submission, out)
        for q, out in done:  # every terminal of the batch has its answer before any of this
            try:
                await self.then(q.submission, out)
            except Exception:
                log.exception("after the result of %s", q.serial)

    async def _commit(self, pending: list[Pending]) -> list[StoredResult | None]:
        """The group commit; if it fails, each entry alone, so one bad entry cannot fail the
        others (None: not stored; the terminal is not answered and sends it again)."""
        if not pending:
            return []
        try:
            return list(await asyncio.to_thread(store_pending, self.store, self.event_id, pending))
        except Exception:
            if len(pending) == 1:
                log.exception("storing a result of %s failed", pending[0].serial)
                return [None]
            log.exception("storing %d results together failed; one by one", len(pending))
        out: list[StoredResult | None] = []
        for p in pending:
            out += await self._commit([p])
        return out
