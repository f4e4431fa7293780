"""The feed: every change as a numbered event, kept for a while so a client that
reconnects can resume from the last number it saw (or take a fresh snapshot)."""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

QUEUE_LIMIT = 5000


class Feed:
    """Numbered change events for the API's clients; used on the hub's asyncio loop only."""

    def __init__(self, keep: int = 20_000) -> None:
        self.seq = 0
        self._events: deque[dict[str, Any]] = deque(maxlen=keep)
        self._subscribers: set[asyncio.Queue[dict[str, Any] | None]] = set()

    def publish(self, event: str, **data: Any) -> dict[str, Any]:
        self.seq += 1
        ev = {"type": "event", "seq": self.seq, "event": event, **data}
        self._events.append(ev)
        for q in list(self._subscribers):
            if q.qsize() > QUEUE_LIMIT:  # a client that cannot keep up re-snapshots
                self._subscribers.discard(q)
                q.put_nowait(None)
            else:
                q.put_nowait(ev)
        return ev

    def since(self, seq: int) -> list[dict[str, Any]] | None:
        """Events after ``seq``, or None when they are no longer all kept."""
        if seq > self.seq:
            return None
        if seq == self.seq:
            return []
        if not self._events or self._events[0]["seq"] > seq + 1:
            return None
        return [e for e in self._events if e["seq"] > seq]

    def subscribe(self) -> asyncio.Queue[dict[str, Any] | None]:
        q: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._subscribers.add(q)
        return q

    def unsubscribe(self, q: asyncio.Queue[dict[str, Any] | None]) -> None:
        self._subscribers.discard(q)
