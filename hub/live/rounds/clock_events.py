"""The round clock's events and their limits (decisions D10): the time a round is allowed
from the event's rules, and what the director (or the hub) does to the clock. Values checked
here before they are stored or shown. Sans-I/O."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

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
    BREAK = "break"  # minutes of break, the round clock waits (and runs on after it)
    BREAK_AFTER = "break_after"  # minutes of break when ``round`` ends: the next one waits


# the values each action takes: (lowest, highest, whether the lowest itself is refused)
LIMITS = {
    ClockAction.ADJUST: (-MAX_ADJUST_SECONDS, MAX_ADJUST_SECONDS, False),
    ClockAction.EXTEND: (-MAX_CLOCK_MINUTES, MAX_CLOCK_MINUTES, False),
    ClockAction.BREAK: (0, MAX_CLOCK_MINUTES, True),
    ClockAction.BREAK_AFTER: (0, MAX_CLOCK_MINUTES, True),
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
