"""Each section's rounds as a hub starts (decisions D10, D17): the round clock from the
event's time rules with every stored clock event replayed, and the section's round
controller. Called by the composition root on the hub's asyncio loop."""

from __future__ import annotations

from typing import Any

from hub.event.event_file import EventFile
from hub.event.movement.model import Movement
from hub.live.rounds.round_clock import RoundClock, RoundTiming
from hub.live.rounds.round_controller import RoundController
from hub.live.rounds.round_times import timed
from hub.live.rounds.section_rounds import SectionRounds


def section_rounds(
    event: EventFile,
    movements: dict[str, Movement],
    clock_events: list[dict[str, Any]],
    *,
    auto_advance: bool,
    verification: bool,
) -> dict[str, SectionRounds]:
    """Every section's movement, round clock (its stored events replayed, in order: one
    stamped after "now" happened too, the wall clock stepped back before this start; the
    clock ticker reports it) and round controller."""
    timing = event.rules.timing
    round_timing = RoundTiming(
        timing.minutes_per_board,
        timing.move_minutes,
        timing.round_up_to_minutes,
        timing.extra_minutes,
    )
    sections = {}
    for letter, movement in movements.items():
        round_clock = RoundClock(round_timing, {})
        timed(round_clock, movement, letter)
        round_clock.replay([c for c in clock_events if c["section"] == letter])
        controller = RoundController(
            letter, movement, auto_advance=auto_advance, needs_verification=verification
        )
        sections[letter] = SectionRounds(movement, round_clock, controller)
    return sections
