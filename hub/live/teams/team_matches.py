"""The matches of a teams section's round as the console's Matches tab draws them: both
tables (open room: home NS; closed room: home EW), the two teams, running IMPs and VPs on
the event's scale, and the boards still out (not yet played in both rooms).

A three-way match (``Layout.three_ways``) has its rooms at two tables a round apart: it is
listed in both rounds, its boards out until its second room has played them.

The match's IMPs and VPs are the live standings' own (``TeamsLive.match``); the boards
still out are read from the tables' travellers. Exact values travel as strings (decisions
D4), beside no display: the client rounds them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hub.event.movement import rooms
from hub.event.movement.model import Movement, MovementRow
from hub.event.movement.rooms import three_way_rooms
from hub.live.views import SectionScores, TeamsLive, TravellerRow


def round_matches(
    live: SectionScores | None, movement: Movement, section: str, rnd: int
) -> list[dict[str, Any]]:
    """Every match of round ``rnd``, in the movement's order; [] for a pairs section. A
    three-way match is listed in both rounds where one of its rooms plays (``open_round``
    and ``closed_round`` tell them apart), after the pairs of tables' matches."""
    if not isinstance(live, TeamsLive):
        return []
    layout = movement.layout
    out = []
    for number, (open_t, closed_t) in enumerate(layout.matches, start=1):
        row = movement.row(section, open_t, rnd)
        if layout.three_way_at(open_t, rnd) or row is None or not (row.ns_pair and row.ew_pair):
            continue
        out.append(_match(live, row, number, (closed_t, rnd)))
    for index, home, away, home_ns, home_ew in three_way_rooms(layout, rnd):
        row = movement.row(section, *home_ns)
        if row is not None and (row.ns_pair, row.ew_pair) == (home, away):
            out.append(_match(live, row, index + 1, home_ew, rnd))
    return out


def table_match(
    live: SectionScores | None, movement: Movement, section: str, table: int, rnd: int
) -> dict[str, Any] | None:
    """The one match that ``table`` (either room) plays in round ``rnd``, as
    ``round_matches`` gives it; None for a pairs section or a table without a match (a
    bye, a round not drawn yet)."""
    if not isinstance(live, TeamsLive):
        return None
    if movement.layout.three_way_at(table, rnd):
        return next(
            (
                m
                for m in round_matches(live, movement, section, rnd)
                if (table, rnd) in _rooms_of(m)
            ),
            None,
        )
    for number, (open_t, closed_t) in enumerate(movement.layout.matches, start=1):
        if table in (open_t, closed_t):
            row = movement.row(section, open_t, rnd)
            if row is None or not (row.ns_pair and row.ew_pair):
                return None
            return _match(live, row, number, (closed_t, rnd))
    return None


def other_room(movement: Movement, table: int, rnd: int) -> tuple[int, int] | None:
    """The (table, round) that plays the same boards in the other room of ``table``'s match
    in round ``rnd``: the paired table in the same round, or a three-way's other room a
    round apart."""
    return rooms.other_room(movement.layout, table, rnd)


def _rooms_of(match: dict[str, Any]) -> tuple[tuple[int, int], tuple[int, int]]:
    return (
        (match["open_table"], match["open_round"]),
        (match["closed_table"], match["closed_round"]),
    )


def _segments(live: TeamsLive, row: MovementRow) -> list[tuple[int, int]]:
    """(movement round, board) of every board of the match ``row`` plays: all its
    segments (seed 004: 24 boards in two halves), the IMPs and VPs being the whole match's."""
    key = live.plan.key_of(row.table, row.round)
    if key is None or key not in live.plan.plan:
        return [(row.round, b) for b in row.boards]
    return [(s.round, b) for s in live.plan.plan[key].segments for b in s.boards]


def _match(
    live: TeamsLive, row: MovementRow, number: int, closed: tuple[int, int], rnd: int = 0
) -> dict[str, Any]:
    """The match whose open room is ``row`` (its NS the home team) and whose closed room
    is ``closed`` (table, round), as listed in round ``rnd`` (the open room's round)."""
    home, away = row.ns_pair, row.ew_pair
    boards = _segments(live, row)
    out = [b for r, b in boards if _rooms(live, b, row.table, r, home) is None]
    played = live.match(row.table, row.round)  # as the standings score it
    result = None if played is None else played.result
    return {
        "match": number,
        "round": rnd or row.round,
        "open_table": row.table,
        "closed_table": closed[0],
        "open_round": row.round,
        "closed_round": closed[1],
        "home": home,
        "away": away,
        "home_name": live.names.get(home, ""),
        "away_name": live.names.get(away, ""),
        "boards": [b for _, b in boards],
        "out": out,
        "scored": 0 if result is None else result.boards_scored,
        "home_imps": _exact(None if result is None else result.home_imps),
        "away_imps": _exact(None if result is None else result.away_imps),
        "home_vp": _exact(None if result is None else result.home_vp),
        "away_vp": _exact(None if result is None else result.away_vp),
    }


def _rooms(
    live: TeamsLive, board: int, open_t: int, rnd: int, home: int
) -> tuple[TravellerRow, TravellerRow] | None:
    """The open and the closed room's lines of the board; None while either is out."""
    view = live.traveller(board, open_t, rnd)
    if view is None or len(view.rows) != 2:
        return None
    first, second = view.rows
    return (first, second) if first.ns_pair == home else (second, first)


def _exact(x: Fraction | None) -> str | None:
    return None if x is None else str(x)
