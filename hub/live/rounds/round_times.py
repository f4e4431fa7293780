"""Each round's time as the movement gives it: the boards its tables play (the most any
table of the round plays), and a time of its own where the event sets one (a knockout's
extra set or sudden death: seed 003 §12.8, ``KnockoutPlan.minutes``). The clock is set
from it at the start, after a movement change, and for rounds appended while the event
runs (a drawn round, a knockout's round). Pure; the hub's loop owns the clock."""

from __future__ import annotations

from hub.event.movement.model import Movement
from hub.live.rounds.round_clock import RoundClock


def timed(clock: RoundClock, movement: Movement, section: str, first: int = 1) -> None:
    """Rounds ``first`` … the last of ``movement`` on ``clock``."""
    plan = movement.layout.knockout
    own = dict(plan.minutes) if plan is not None else {}
    for r in range(first, movement.rounds + 1):
        rows = movement.round_rows(r, section)
        clock.boards_per_round[r] = max((len(row.boards) for row in rows), default=0)
        if r in own:
            clock.round_seconds[r] = float(own[r]) * 60
        else:
            clock.round_seconds.pop(r, None)
