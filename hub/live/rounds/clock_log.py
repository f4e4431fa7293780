"""The round clock's record in the store: what the clock did, at the hub's time, so a
restarted hub (or a later audit) replays the clock exactly (decisions D10).

``ClockLog`` belongs to the hub's asyncio loop; each write runs in a worker thread."""

from __future__ import annotations

import asyncio
import datetime as dt
import math

from hub.store.store import Store


class ClockLog:
    """The clock's events into the store: called on the hub's loop, written in a worker thread."""

    def __init__(self, store: Store, event_id: int) -> None:
        self.store = store
        self.event_id = event_id

    async def record(
        self, section: str, kind: str, at: float, rnd: int | None = None, value: float | None = None
    ) -> None:
        if value is not None and not math.isfinite(value):  # the clock refused it already
            raise ValueError(f"{kind}: {value} is not a finite number; not stored")
        detail = {"value": value} if value is not None else {}
        when = dt.datetime.fromtimestamp(at, dt.UTC)
        await asyncio.to_thread(
            self.store.add_clock_event, self.event_id, kind, section, rnd, detail, at=when
        )
