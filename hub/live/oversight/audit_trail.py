"""The audit trail of the live hub: who did what (log-ons, refusals, held results, the
director's commands), written to the store by a background task so that no part on the
loop waits for the disk, what is queued in one commit (a flood of refusals must not cost a
commit each); ``flush`` is awaited at stop.

What a noisy line repeats (refused frames) is counted, not written one by one: ``tally``
keeps one row per actor and action per minute, with the count and the reasons, so no line
can force a disk write per frame (decisions D20).

An entry the store refuses (its content, tried twice alone) cannot hold the queue for
good: it is logged at ERROR in full (the log keeps it), skipped, and the director is told
once per write. A store that is down keeps every entry for the next try.

``AuditTrail`` belongs to the hub's asyncio loop; the writes run in a worker thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hub.store.failures import store_unavailable
from hub.store.store import Store

log = logging.getLogger(__name__)
Entry = tuple[str, str, dict[str, Any]]
WINDOW_S = 60.0  # one tallied row per actor and action per minute
REASONS_KEPT = 10  # distinct reasons kept in a row (the rest are counted as "other")
CHUNK = 500  # audit entries written in one commit


@dataclass
class _Window:
    since: float
    count: int = 0
    reasons: Counter[str] = field(default_factory=Counter)


class AuditTrail:
    """Audit entries queued on the hub's loop and written in order in a worker thread."""

    def __init__(
        self,
        store: Store,
        event_id: int,
        clock: Callable[[], float] = time.time,
        alert: Callable[[str], None] | None = None,
    ) -> None:
        self.store = store
        self.event_id = event_id
        self.clock = clock
        self.alert = alert  # the director's alerts (on the loop)
        self._waiting: list[Entry] = []
        self._windows: dict[tuple[str, str], _Window] = {}
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()

    def record(self, actor: str, action: str, detail: dict[str, Any]) -> None:
        """Queue one entry (never blocks)."""
        self._waiting.append((actor, action, detail))
        self._wake.set()

    def tally(self, actor: str, action: str, reason: str) -> bool:
        """Count one occurrence in the actor's current minute; its row is queued when the
        minute is over (or at ``flush``). True for the first of its minute (worth a log
        line)."""
        now = self.clock()
        key = (actor, action)
        window = self._windows.get(key)
        if window is not None and now - window.since >= WINDOW_S:
            self._close(key)
            window = None
        first = window is None
        if window is None:
            window = self._windows[key] = _Window(now)
            self._wake.set()  # the writer learns when this minute ends
        window.count += 1
        if reason in window.reasons or len(window.reasons) < REASONS_KEPT:
            window.reasons[reason] += 1
        else:
            window.reasons["other"] += 1
        return first

    def _close(self, key: tuple[str, str]) -> None:
        window = self._windows.pop(key)
        detail = {
            "count": window.count,
            "reasons": dict(window.reasons),
            "since": window.since,
            "seconds": WINDOW_S,
        }
        self._waiting.append((*key, detail))

    def close_due(self) -> float | None:
        """Queue the rows of every minute that is over; seconds until the next one ends."""
        now = self.clock()
        for key in [k for k, w in self._windows.items() if now - w.since >= WINDOW_S]:
            self._close(key)
        ends = [w.since + WINDOW_S - now for w in self._windows.values()]
        return max(0.0, min(ends)) if ends else None

    async def run(self) -> None:
        while True:  # what waits is written first (after a failed write, too)
            self._wake.clear()
            due = self.close_due()
            await self.flush(final=False)
            if not self._waiting:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), due)

    async def flush(self, final: bool = True) -> None:
        """Write everything queued so far (in order); ``final`` (at stop) also the minutes
        still counting."""
        async with self._lock:
            if final:
                for key in list(self._windows):
                    self._close(key)
            batch, self._waiting = self._waiting, []
            if not batch:
                return
            written = [0]  # entries the worker thread is done with (committed or skipped)
            lost: list[Entry] = []  # of those, the ones the store refused
            write = asyncio.ensure_future(asyncio.to_thread(self._write, batch, written, lost))
            try:  # a cancelled writer (the hub stopping) lets its write finish first
                await asyncio.shield(write)
            except asyncio.CancelledError:
                with contextlib.suppress(BaseException):
                    await asyncio.wait({write})  # the thread runs on: wait for its end
                self._waiting[:0] = batch[written[0] :]  # the final flush writes the rest
                raise
            except Exception:
                self._waiting[:0] = batch[written[0] :]  # kept for the next try, none twice
                raise
            finally:
                self._tell_lost(lost)

    def _tell_lost(self, lost: list[Entry]) -> None:
        if lost and self.alert is not None:
            actor, action, _ = lost[0]
            self.alert(
                f"the store refused {len(lost)} audit entr{'y' if len(lost) == 1 else 'ies'} "
                f"(first: {action} by {actor}); each is in the hub's log in full"
            )

    def _write(self, batch: list[Entry], written: list[int], lost: list[Entry]) -> None:
        """In order, ``CHUNK`` entries a commit (worker thread: a flood of refusals must not
        cost a commit each). A store that is down raises (the rest waits for the next try);
        a chunk the store refuses is written again one entry a commit, and an entry it
        refuses twice on its own is logged in full and skipped."""
        for start in range(0, len(batch), CHUNK):
            chunk = batch[start : start + CHUNK]
            if len(chunk) == 1:  # the quiet case: a lone entry, written as always
                self._write_alone(chunk, written, lost)
                continue
            try:
                self.store.audit_many(self.event_id, chunk)  # all or none
            except Exception as e:
                if store_unavailable(e):
                    raise
                self._write_alone(chunk, written, lost)
                continue
            written[0] += len(chunk)

    def _write_alone(self, batch: list[Entry], written: list[int], lost: list[Entry]) -> None:
        """Each entry its own commit, in order (worker thread)."""
        for entry in batch:
            for attempt in (1, 2):
                try:
                    self.store.audit(self.event_id, *entry)
                    break
                except Exception as e:
                    if store_unavailable(e):
                        raise
                    if attempt == 2:
                        actor, action, detail = entry
                        log.error(
                            "audit entry not stored (the store refused it: %s); kept here: "
                            "event %s, actor %r, action %r, detail %r",
                            f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}",
                            self.event_id, actor, action, detail,
                        )  # fmt: skip
                        lost.append(entry)
            written[0] += 1
