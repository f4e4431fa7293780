"""The round clock of a section: allowed time from the event's rules, warnings, the move,
pauses, adjustments, extensions and breaks; time is injected, so nothing sleeps.

The clock is a fold over its events (start, pause, resume, adjust, extend, break), which
the store keeps: after a restart the same events give the same clock (decisions D10).

Its time never runs backwards: an event stamped earlier than the one before it (the wall
clock stepped back, before a restart or during the evening) happened after it all the
same, so it counts at that one's time; and the clock is read no earlier than its last
event (it holds there until the wall clock catches up). Replayed in stored order, the
same events give the same clock again.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from drivers.clock.show import ClockShow, Phase
from hub.api.command_models import MAX_ADJUST_SECONDS, MAX_CLOCK_MINUTES


@dataclass(frozen=True, slots=True)
class RoundTiming:
    """Seed 004: 7.5 minutes a board, rounded up to 5 minutes, +5 when dealt at the table."""

    minutes_per_board: float = 7.5
    move_minutes: float = 0.0
    round_up_to_minutes: int = 1
    extra_minutes: float = 0.0

    def allowed_seconds(self, boards: int) -> float:
        minutes = self.minutes_per_board * boards + self.extra_minutes
        step = max(1, self.round_up_to_minutes)
        return math.ceil(minutes / step - 1e-9) * step * 60.0


class ClockAction(Enum):
    START = "start"
    PAUSE = "pause"
    RESUME = "resume"
    ADJUST = "adjust"  # seconds added to the time left (negative: taken away)
    EXTEND = "extend"  # minutes added to this round's allowed time
    BREAK = "break"  # minutes of break, the round clock waits


# the values each action takes: (lowest, highest, whether the lowest itself is refused)
LIMITS = {
    ClockAction.ADJUST: (-MAX_ADJUST_SECONDS, MAX_ADJUST_SECONDS, False),
    ClockAction.EXTEND: (-MAX_CLOCK_MINUTES, MAX_CLOCK_MINUTES, False),
    ClockAction.BREAK: (0, MAX_CLOCK_MINUTES, True),
}


@dataclass(frozen=True, slots=True)
class ClockEvent:
    action: ClockAction
    at: float
    round: int | None = None
    value: float = 0.0


def check(event: ClockEvent) -> None:
    """A value the clock cannot keep (not a finite number, or out of its range) is refused
    here, before it is stored or shown: one NaN would otherwise break every later reading."""
    if not math.isfinite(event.at):
        raise ValueError(f"{event.action.value}: the time {event.at} is not a finite number")
    limits = LIMITS.get(event.action)
    if limits is None:
        return
    lo, hi, open_low = limits
    value = event.value
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or not (lo < value if open_low else lo <= value)
        or value > hi
    ):
        low = f"more than {lo}" if open_low else f"from {lo}"
        raise ValueError(f"{event.action.value}: {value!r} is not a number {low} to {hi}")


@dataclass
class _Round:
    number: int
    start: float
    allowed: float
    paused_total: float = 0.0
    paused_since: float | None = None
    adjust: float = 0.0


@dataclass
class RoundClock:
    """A section's clock, a fold over its events. Sans-I/O (times come in as arguments); its
    state belongs to the hub's loop."""

    timing: RoundTiming
    boards_per_round: dict[int, int]
    events: list[ClockEvent] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # stored events replay skipped

    # -- events -------------------------------------------------------------------------------
    def apply(self, event: ClockEvent) -> None:
        check(event)
        if self.events and event.at < self.events[-1].at:  # the wall clock stepped back
            event = replace(event, at=self.events[-1].at)
        if event.action is ClockAction.START:
            if event.round not in self.boards_per_round:
                raise ValueError(f"round {event.round} is not in the movement")
        elif self._current() is None:
            raise ValueError(f"{event.action.value}: no round has started")
        self.events.append(event)

    def replay(self, records: list[dict[str, Any]]) -> list[str]:
        """Apply the clock events the hub stored (``Store.clock_events``), in order. A
        record the clock refuses (a value an older hub stored unchecked, such as NaN) is
        skipped, and said in the list returned and kept in ``refused`` for the director:
        the hub starts without it."""
        kinds = {"start_break": ClockAction.BREAK} | {a.value: a for a in ClockAction}
        refused = []
        for r in records:
            action = kinds.get(r.get("kind", ""))
            if action is None:
                continue
            try:
                value = (r.get("detail") or {}).get("value")
                value = 0.0 if value is None else value
                self.apply(ClockEvent(action, r["at"].timestamp(), r.get("round"), value))
            except (ValueError, TypeError, KeyError, AttributeError) as e:
                at = r.get("at")
                when = at.strftime("%H:%M:%S") if isinstance(at, dt.datetime) else repr(at)
                refused.append(
                    f"the stored clock event {r.get('kind')!r} of {when} is ignored: {e}"
                )
        self.refused += refused
        return refused

    def start_round(self, rnd: int, at: float) -> None:
        self.apply(ClockEvent(ClockAction.START, at, rnd))

    def pause(self, at: float) -> None:
        self.apply(ClockEvent(ClockAction.PAUSE, at))

    def resume(self, at: float) -> None:
        self.apply(ClockEvent(ClockAction.RESUME, at))

    def adjust(self, seconds: float, at: float) -> None:
        self.apply(ClockEvent(ClockAction.ADJUST, at, value=seconds))

    def extend(self, minutes: float, at: float) -> None:
        self.apply(ClockEvent(ClockAction.EXTEND, at, value=minutes))

    def start_break(self, minutes: float, at: float) -> None:
        self.apply(ClockEvent(ClockAction.BREAK, at, value=minutes))

    # -- state --------------------------------------------------------------------------------
    def last_event_at(self) -> float | None:
        """When the clock's last event happened (None: no event yet)."""
        return self.events[-1].at if self.events else None

    def _read_at(self, at: float) -> float:
        """``at``, or the last event's time when the wall clock is behind it."""
        return max(at, self.events[-1].at) if self.events else at

    def _fold(self, until: float) -> tuple[_Round | None, tuple[float, float] | None]:
        current: _Round | None = None
        brk: tuple[float, float] | None = None
        for ev in self.events:
            if ev.at > until:
                break
            if ev.action is ClockAction.START:
                assert ev.round is not None
                current = _Round(
                    ev.round, ev.at, self.timing.allowed_seconds(self.boards_per_round[ev.round])
                )
                brk = None
                continue
            assert current is not None
            if ev.action is ClockAction.PAUSE and current.paused_since is None:
                current.paused_since = ev.at
            elif ev.action is ClockAction.RESUME and current.paused_since is not None:
                current.paused_total += ev.at - current.paused_since
                current.paused_since = None
                brk = None
            elif ev.action is ClockAction.ADJUST:
                current.adjust += ev.value
            elif ev.action is ClockAction.EXTEND:
                current.allowed += ev.value * 60
            elif ev.action is ClockAction.BREAK:
                brk = (ev.at, ev.at + ev.value * 60)
                if current.paused_since is None:
                    current.paused_since = ev.at
        return current, brk

    def _current(self) -> _Round | None:
        return self._fold(math.inf)[0]

    def official_start(self, rnd: int) -> float | None:
        """When the TD started the round (its allowed time runs from here: seed 002); a
        round started again (the director's clock start) counts from the last start."""
        starts = [ev.at for ev in self.events if ev.action is ClockAction.START and ev.round == rnd]
        return starts[-1] if starts else None

    def allowed_seconds(self, rnd: int) -> float:
        total = self.timing.allowed_seconds(self.boards_per_round[rnd])
        active = False
        for ev in self.events:
            if ev.action is ClockAction.START:
                active = ev.round == rnd
            elif active and ev.action is ClockAction.EXTEND:
                total += ev.value * 60
        return total

    def play_seconds(self, at: float) -> float:
        """Playing time used in the current round (pauses and breaks excluded)."""
        at = self._read_at(at)
        r, _ = self._fold(at)
        if r is None:
            return 0.0
        paused = r.paused_total + ((at - r.paused_since) if r.paused_since is not None else 0)
        return at - r.start - paused

    def seconds_left(self, at: float) -> float:
        at = self._read_at(at)
        r, _ = self._fold(at)
        if r is None:
            return 0.0
        return r.allowed + r.adjust - self.play_seconds(at)

    def show(self, at: float) -> ClockShow | None:
        """What the displays and terminals show at ``at``."""
        at = self._read_at(at)
        r, brk = self._fold(at)
        if r is None:
            return None
        if brk is not None and r.paused_since is not None:
            return ClockShow(r.number, Phase.BREAK, math.ceil(brk[1] - at))
        left = self.seconds_left(at)
        board = self.timing.minutes_per_board * 60
        if r.paused_since is not None:
            phase = Phase.PAUSED
        elif left <= 0:
            move_left = left + self.timing.move_minutes * 60
            if move_left > 0:
                return ClockShow(r.number, Phase.MOVE, math.ceil(move_left))
            phase = Phase.NO_NEW_BOARD
        elif left <= board / 2:
            phase = Phase.NO_NEW_BOARD
        elif left <= board:
            phase = Phase.LAST_BOARD
        else:
            phase = Phase.PLAY
        return ClockShow(r.number, phase, math.ceil(left) if left > 0 else math.floor(left))

    def predicted_finish(self, at: float, last_round: int) -> float | None:
        """When the session ends if every later round runs to time with its move."""
        at = self._read_at(at)
        r, _ = self._fold(at)
        if r is None:
            return None
        move = self.timing.move_minutes * 60
        end = at + max(0.0, self.seconds_left(at))
        for later in range(r.number + 1, last_round + 1):
            if later in self.boards_per_round:
                end += move + self.timing.allowed_seconds(self.boards_per_round[later])
        return end
