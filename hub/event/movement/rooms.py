"""The two rooms of a team match, from the movement's layout alone: a match at a pair of
tables (``Layout.matches``) has its rooms at the two tables in the same round; a three-way
match's rooms are at two of its tables a round apart (``ThreeWay``, movements.md 5.5).
Pure: the live views, the console's Matches tab and the PBN export ask it alike."""

from __future__ import annotations

from hub.event.movement.model import Layout


def other_room(layout: Layout, table: int, rnd: int) -> tuple[int, int] | None:
    """The (table, round) where the other room of the match that ``table`` plays in round
    ``rnd`` plays the same boards; None for a table in no match (a three-way's partner
    table of a pair in that round is in no pair's match either)."""
    way = layout.three_way_at(table, rnd)
    if way is not None:
        for _, _, home_ns, home_ew in way.matches():
            if (table, rnd) in (home_ns, home_ew):
                return home_ew if (table, rnd) == home_ns else home_ns
        return None
    for open_t, closed_t in layout.matches:
        if table in (open_t, closed_t):
            other = closed_t if table == open_t else open_t
            return None if layout.three_way_at(other, rnd) else (other, rnd)
    return None


def three_way_rooms(
    layout: Layout, rnd: int
) -> list[tuple[int, int, int, tuple[int, int], tuple[int, int]]]:
    """(index, home, away, home's NS room, home's EW room) of every three-way match one of
    whose rooms plays in round ``rnd``; ``index`` numbers the match after the pairs of
    tables' (``len(layout.matches)`` + 3·j + n, as ``TeamSection`` keys it)."""
    out = []
    for j, way in enumerate(layout.three_ways):
        if rnd not in (way.round, way.round + 1):
            continue
        for n, (home, away, ns, ew) in enumerate(way.matches()):
            out.append((len(layout.matches) + 3 * j + n, home, away, ns, ew))
    return out
