"""The hub's time base, kept in the store beside the round clock's events (TD trial turn 3
G3, issue 25): a rehearsal hub (``bridgehub run --clock-speed X``) runs X times faster than
the wall clock, and stamps its clock events in that time. A hub restarted after a crash
continues that time, so the stored events and the restarted clock read one time base (the
room played on at the rehearsal's pace while the hub was down), instead of starting again
from the wall clock and holding the round clock until the wall clock "catches up".

The base is a clock event of kind ``time_base`` without a section (the section clocks never
replay it): the hub's time ``at`` at the wall-clock time ``detail.wall``, running at
``detail.speed``. Read and written once, at the hub's start, before its loop runs.
"""

from __future__ import annotations

import datetime as dt
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hub.store.store import Store

KIND = "time_base"


@dataclass(frozen=True, slots=True)
class TimeBase:
    """The hub's time ``hub_at`` at the wall-clock time ``wall_at``, running ``speed`` times
    faster than the wall clock from there."""

    hub_at: float
    wall_at: float
    speed: float

    def at(self, wall: float) -> float:
        """The hub's time at the wall-clock time ``wall``."""
        return self.hub_at + (wall - self.wall_at) * self.speed

    @property
    def is_wall_clock(self) -> bool:
        """The hub's time is the wall clock itself (a real session, never rehearsed)."""
        return self.speed == 1 and self.hub_at == self.wall_at


def stored_base(records: Sequence[dict[str, Any]]) -> TimeBase | None:
    """The last time base stored (``Store.clock_events``); None: none, or unreadable."""
    for r in reversed(records):
        if r.get("kind") != KIND or r.get("section") is not None:
            continue
        detail = r.get("detail") or {}
        try:
            base = TimeBase(r["at"].timestamp(), float(detail["wall"]), float(detail["speed"]))
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
        if all(math.isfinite(v) for v in (base.hub_at, base.wall_at, base.speed)):
            return base
    return None


def resumed_base(records: Sequence[dict[str, Any]], wall_now: float, speed: float) -> TimeBase:
    """The time base of a hub starting at ``wall_now`` with ``speed``: a rehearsal at the
    stored base's speed continues it to now (its time never runs backwards); another
    rehearsal, or one over a store of an older hub (events, no base), goes on from the last
    event; a hub at speed 1 reads the wall clock, whatever was rehearsed before (a
    rehearsal's time is never carried into a real session)."""
    last = stored_base(records)
    if speed == 1:
        hub_now = wall_now
    elif last is not None and last.speed == speed:
        hub_now = max(last.at(wall_now), last.hub_at)
    else:
        stamps = [r["at"].timestamp() for r in records if isinstance(r.get("at"), dt.datetime)]
        hub_now = max([wall_now, *stamps])
    return TimeBase(hub_now, wall_now, speed)


def hub_clock(
    store: Store, event_id: int, speed: float, wall: Callable[[], float] = time.time
) -> Callable[[], float]:
    """The hub's clock for this start: ``speed`` times the wall clock, continuing the time
    base the stored clock events use; the base is stored for the next start (none when the
    hub's time is the wall clock itself)."""
    now = wall()
    base = resumed_base(store.clock_events(event_id), now, speed)
    if base.is_wall_clock:
        return wall
    detail = {"wall": base.wall_at, "speed": base.speed}
    stamp = dt.datetime.fromtimestamp(base.hub_at, dt.UTC)
    store.add_clock_event(event_id, KIND, None, None, detail, at=stamp)
    return lambda: base.at(wall())
