"""The audit trail of the live hub: who did what (log-ons, refusals, held results, the
director's commands), written to the store by a background task so that no part on the
loop waits for the disk; ``flush`` is awaited at stop.

``AuditTrail`` belongs to the hub's asyncio loop; the writes run in a worker thread.
"""

from __future__ import annotations

import asyncio
from typing import Any

from hub.store.store import Store

Entry = tuple[str, str, dict[str, Any]]


class AuditTrail:
    """Audit entries queued on the hub's loop and written in order in a worker thread."""

    def __init__(self, store: Store, event_id: int) -> None:
        self.store = store
        self.event_id = event_id
        self._waiting: list[Entry] = []
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()

    def record(self, actor: str, action: str, detail: dict[str, Any]) -> None:
        """Queue one entry (never blocks)."""
        self._waiting.append((actor, action, detail))
        self._wake.set()

    async def run(self) -> None:
        while True:  # what waits is written first (after a failed write, too)
            self._wake.clear()
            await self.flush()
            if not self._waiting:
                await self._wake.wait()

    async def flush(self) -> None:
        """Write everything queued so far (in order)."""
        async with self._lock:
            batch, self._waiting = self._waiting, []
            if batch:
                try:
                    await asyncio.to_thread(self._write, batch)
                except Exception:
                    self._waiting[:0] = batch  # kept for the next try
                    raise

    def _write(self, batch: list[Entry]) -> None:
        for actor, action, detail in batch:
            self.store.audit(self.event_id, actor, action, detail)
