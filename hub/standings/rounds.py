"""How far a section has got: the rounds complete at every table, from the stored results."""

from __future__ import annotations

from hub.event.movement.model import Movement
from hub.store.store import LiveLine


def complete_rounds(movement: Movement, section: str, lines: list[LiveLine]) -> int:
    """How many rounds, from the first, have a live result on every board at every table."""
    have = {(ln.table, ln.round, ln.board) for ln in lines}
    done = 0
    for rnd in range(1, movement.rounds + 1):
        if not all(
            (row.table, rnd, b) in have
            for row in movement.round_rows(rnd, section)
            if row.ns_pair and row.ew_pair
            for b in row.boards
        ):
            break
        done = rnd
    return done
