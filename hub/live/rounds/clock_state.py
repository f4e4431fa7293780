"""A section's round clock as the director's desk reads it (issue 13, TD trial F20): running
or waiting for the director's start, between rounds (when a break starts at once), a break
waiting for the round's end, and the end of the session (final results).

Plain reads of the loop's state: called on the hub's asyncio loop.
"""

from __future__ import annotations

from typing import Any

from hub.live.rounds.section_rounds import Rounds, SectionRounds

GRACE_S = 120.0  # a round this young with no board played is still "between rounds"


def between_rounds(state: SectionRounds, now: float) -> bool:
    """The section is between rounds: its current round is complete (waiting for the
    director's next round), or it has just begun (within the move time, at least two
    minutes, of its clock) and no table has finished a board of it. A break asked for now
    starts now; later in a round it waits for the round's end."""
    if state.waiting:
        return False
    ctl, rnd = state.controller, state.round
    if ctl.is_complete(rnd):
        return True
    if state.clock.official_start(rnd) is None:
        return False
    played = any(tr.finished_at for tr in ctl.playing(rnd))
    grace = max(GRACE_S, state.clock.timing.move_minutes * 60)
    return not played and state.clock.play_seconds(now) <= grace


def clock_view(state: SectionRounds, now: float) -> dict[str, Any] | None:
    """The clock for the snapshot: phase and seconds left; "waiting" (with the round's
    full time) while the round waits for the director's start; None before any round."""
    if state.waiting:
        rnd = state.round
        full = state.clock.full_seconds(rnd)
        return {"phase": "waiting", "seconds_left": int(full), "round": rnd}
    show = state.clock.show(now)
    if show is None:
        return None
    return {"phase": show.phase.name.lower(), "seconds_left": show.seconds_left}


def section_clock(rounds: Rounds, letter: str, now: float) -> dict[str, Any]:
    """The snapshot section's clock keys: ``clock``, ``between_rounds``,
    ``break_after_round`` ({round, minutes} or None) and ``final``."""
    state = rounds.sections[letter]
    final = letter in rounds.final
    pending = state.clock.scheduled_break()
    return {
        "clock": None if final else clock_view(state, now),
        "between_rounds": not final and between_rounds(state, now),
        "break_after_round": None
        if pending is None
        else {"round": pending[0], "minutes": pending[1]},
        "final": final,
    }
