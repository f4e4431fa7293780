"""Slow play (decisions D10) counts the table's time, not the director's: a result held for
the TD was played when the table entered it. Before (review R4 of issue [EVENING]), a table
whose last result waited at the desk finished when the TD decided, and was proposed a
penalty for the minutes the result sat on the held list."""

from __future__ import annotations

from hub.event.movement.mitchell import mitchell
from hub.live.rounds.round_controller import (
    DirectorEntered,
    ResultAccepted,
    ResultHeld,
    Resume,
    RoundController,
    TableFinished,
)

MITCHELL = mitchell(3, 2)  # 3 tables, 3 rounds of 2 boards


def finished(effects):
    return [e.table_round for e in effects if isinstance(e, TableFinished)]


def test_a_result_the_td_accepts_later_finishes_the_table_when_it_was_entered():
    """Table 1 round 1: its first board accepted at 600 s, its second held at 840 s (a wrong
    board number, say) and accepted by the TD at 2,400 s: the table finished at 840 s."""
    c = RoundController("A", MITCHELL)
    c.handle(Resume(frozenset(), None, 0.0))
    first, second = MITCHELL.row("A", 1, 1).boards
    assert c.handle(ResultAccepted(1, 1, first, 600.0)) == []
    assert c.handle(ResultHeld(1, 1, second, 840.0)) == []
    (tr,) = finished(c.handle(DirectorEntered(1, 1, second, 2400.0)))
    assert tr.finished_at[second] == 840.0


def test_a_board_the_td_enters_without_a_held_result_finishes_when_entered():
    """A paper slip typed at the desk (nothing held for it) ends the board at that time."""
    c = RoundController("A", MITCHELL)
    c.handle(Resume(frozenset(), None, 0.0))
    first, second = MITCHELL.row("A", 2, 1).boards
    c.handle(ResultAccepted(2, 1, first, 600.0))
    (tr,) = finished(c.handle(DirectorEntered(2, 1, second, 1500.0)))
    assert tr.finished_at[second] == 1500.0
