"""The lines an export writes, as the standings score them: each board's results that
scoring can read (the standings' left-out rule, F2), in table order, and each line's scored
points by board, round and pairs. Shared by ``pbn.py`` and ``usebio.py``; the printed
report (``hub/report/build.py``) builds the same for its travellers."""

from __future__ import annotations

import datetime as dt
import logging
from collections import defaultdict

from hub.standings.left_out import usable_lines
from hub.standings.rebuild import SectionView, traveller_line
from hub.store.store import Store, StoredResult
from scoring.board_score import ScoredLine
from scoring.traveller import TravellerLine

log = logging.getLogger(__name__)

LineKey = tuple[int, int | None, int, int]
"""A scored line's board, round, NS pair and EW pair."""

BoardLines = dict[int, list[tuple[StoredResult, TravellerLine]]]
"""Each board's usable results with their traveller lines, in table order."""


def scored_lines(view: SectionView) -> dict[LineKey, ScoredLine]:
    """Every scored line of the section's boards (matchpoints or IMPs of both sides)."""
    return {
        (board.board, sl.line.round, sl.line.ns, sl.line.ew): sl
        for board in view.boards
        for sl in board.scored_lines()
    }


def board_lines(results: list[StoredResult], export: str) -> BoardLines:
    """The results by board, those scoring cannot read (pair 0, no score) left out and
    logged with ``export``'s name; a board whose results are all left out has none."""
    by_board: dict[int, list[StoredResult]] = defaultdict(list)
    for r in results:
        by_board[r.board].append(r)
    out: BoardLines = {}
    for board, rows in sorted(by_board.items()):
        good, bad = usable_lines(sorted(rows, key=lambda x: (x.table, x.round)), traveller_line)
        for item in bad:
            log.warning("%s: %s", export, item.text())
        out[board] = good
    return out


def first_result_day(store: Store, event_id: int) -> dt.date | None:
    """The session's day when the event file gives none: that of its first result."""
    times = [r.received_at for r in store.live_results(event_id) if r.received_at]
    return min(times).date() if times else None
