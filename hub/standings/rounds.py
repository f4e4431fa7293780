"""How far a section has got: the rounds complete at every table, from the stored results."""

from __future__ import annotations

from hub.event.movement.model import Movement
from hub.store.store import LiveLine


def complete_rounds(movement: Movement, section: str, lines: list[LiveLine]) -> int:
    """How many rounds, from the first, have a live result on every board at every table.

    A round nobody is seated in yet (a drawn team event's round before its draw is
    published, D19) is not complete: nothing of it has been played, so the standings
    after it cannot go out ([MENDS] #25, D1: a hub-drawn Swiss, Danish or Monrad counted
    every undrawn round as played and published "final" standings at the start)."""
    have = {(ln.table, ln.round, ln.board) for ln in lines}
    done = 0
    for rnd in range(1, movement.rounds + 1):
        seated = [row for row in movement.round_rows(rnd, section) if row.ns_pair and row.ew_pair]
        if movement.layout.undrawn(rnd) or not seated:
            break
        if not all((row.table, rnd, b) in have for row in seated for b in row.boards):
            break
        done = rnd
    return done
