"""A team event drawn while it runs (decisions D19): the movement of a Swiss, Danish or
Monrad holds every round's tables and boards from the start; a round's matches fill its
rows only when its draw is published (``with_round``). Earlier rounds are never touched.

Match m of a round plays at tables 2m−1 (open room, home team NS) and 2m (closed room);
every match of round r plays boards (r−1)·B+1 … r·B (duplicated sets, as seeds 000-002).
An odd field that plays three-way matches instead of byes has one more table: a three-way
drawn for round N takes the last three tables in rounds N and N+1 (``ThreeWay``) and plays
three sets of its own, numbered after every board of the event's sections (``free_board``):
the field's sets are played by all at once, and a three-way table playing one of them a
round early or late would see its deals out of turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from hub.event.movement.model import (
    Layout,
    Movement,
    MovementError,
    MovementKind,
    MovementRow,
    ThreeWay,
)
from hub.event.movement.teams import team_round


def round_boards(rnd: int, boards_per_round: int) -> tuple[int, ...]:
    return tuple(range((rnd - 1) * boards_per_round + 1, rnd * boards_per_round + 1))


def drawn_teams(
    teams: int,
    rounds: int,
    boards_per_round: int,
    method: str,
    first_rounds: Sequence[Sequence[tuple[int, int]]] = (),
    *,
    section: str = "A",
    higher_number_home: bool | None = None,
    three_ways: bool = False,
) -> Movement:
    """The movement of a drawn event before play: ``first_rounds`` (drawn before the
    event, as (home, away) team numbers in table order; ``higher_number_home`` seats the
    higher number at home, as a Swiss does by default, seed 000 §8) filled in, later
    rounds waiting for their draw (their rows hold the tables and boards, no teams); with
    ``three_ways`` an odd field has the table a three-way match needs."""
    if teams < 2:
        raise MovementError("a drawn team event needs at least 2 teams", None, "size")
    if len(first_rounds) > rounds:
        raise MovementError(
            f"{len(first_rounds)} rounds drawn before the event, but it has {rounds}",
            None,
            "size",
        )
    matches = teams // 2
    layout = Layout(
        kind=MovementKind.TEAMS,
        winners=1,
        copies=matches,
        matches=tuple((2 * m + 1, 2 * m + 2) for m in range(matches)),
        description=f"{method} of {teams} teams, {rounds} rounds x {boards_per_round} boards"
        + (", three-way matches" if three_ways and teams % 2 else ""),
        draw=method,
        drawn=0,
    )
    tables = 2 * matches + (1 if three_ways and teams % 2 and teams > 2 else 0)
    rows = tuple(
        MovementRow(section, t, r, 0, 0, round_boards(r, boards_per_round))
        for r in range(1, rounds + 1)
        for t in range(1, tables + 1)
    )
    movement = Movement(rows, layout)
    for rnd, pairs in enumerate(first_rounds, start=1):
        if higher_number_home or (higher_number_home is None and method == "swiss"):
            pairs = [(max(a, b), min(a, b)) for a, b in pairs]
        movement = with_round(movement, section, rnd, pairs, teams=teams)
    return movement


def with_round(
    movement: Movement,
    section: str,
    rnd: int,
    pairs: Sequence[tuple[int, int]],
    *,
    teams: int | None = None,
    three_way: Sequence[int] = (),
    first_board: int = 0,
) -> Movement:
    """The movement with round ``rnd``'s draw published: its matches (home, away) in table
    order, and the ``three_way`` (A, B, C) it starts, if any, at the last three tables of
    rounds ``rnd`` and ``rnd`` + 1; it must be the round after the last one drawn. The
    tables a three-way of the round before holds are left as they are. ``teams``, when
    given, is the field's size (team numbers 1 … teams). A new three-way's own sets are
    numbered from ``first_board`` (``free_board``: after every board the session's
    sections hold, their deals being one set of hand records), else after this
    section's."""
    layout = movement.layout
    if not layout.draw:
        raise MovementError(f"section {section} is not drawn while it runs", None, "draw")
    if rnd != layout.drawn + 1:
        raise MovementError(
            f"round {rnd} cannot be drawn now: the next round to draw is {layout.drawn + 1}",
            None,
            "draw",
        )
    placeholders = [
        r for r in movement.round_rows(rnd, section) if not layout.three_way_at(r.table, rnd)
    ]
    held = [r for r in movement.round_rows(rnd, section) if layout.three_way_at(r.table, rnd)]
    if not placeholders and not held:
        raise MovementError(f"section {section} has no round {rnd}", None, "draw")
    free = {r.table for r in placeholders}
    boards = placeholders[0].boards if placeholders else ()
    new_way = _three_way(movement, section, rnd, three_way, free)
    if new_way is not None:
        free -= set(new_way.tables)
    slots = [m for m in layout.matches if set(m) <= free]
    problem = _pairs_problem(pairs, len(slots), teams, three_way) or (
        None if pairs or three_way or held else "no match to draw (fewer than two teams play)"
    )
    if problem:
        raise MovementError(f"round {rnd}: {problem}", None, "draw")
    drawn = team_round(section, rnd, pairs, boards, tables=slots)
    ways = layout.three_ways
    if new_way is not None:
        ways += (new_way,)
        first = first_board or free_board([movement])
        drawn += _three_way_rows(section, new_way, len(boards), first)
    taken = {(r.table, r.round) for r in drawn}
    replaced = taken | {(r.table, rnd) for r in placeholders}
    empty = [r.table for r in placeholders if (r.table, rnd) not in taken]
    rest = [MovementRow(section, t, rnd, 0, 0, ()) for t in empty]
    later = [r for r in movement.rows if r.section != section or (r.table, r.round) not in replaced]
    return replace(
        movement,
        rows=tuple([*later, *drawn, *rest]),
        layout=replace(layout, drawn=rnd, three_ways=ways),
    ).sorted()


def _three_way(
    movement: Movement,
    section: str,
    rnd: int,
    teams: Sequence[int],
    free: set[int],
) -> ThreeWay | None:
    """The three-way that round ``rnd``'s draw starts at the last three free tables."""
    if not teams:
        return None
    if len(teams) != 3:
        raise MovementError(f"round {rnd}: a three-way match is three teams", None, "draw")
    if rnd >= movement.rounds:
        text = f"round {rnd}: a three-way match needs two rounds, and {rnd} is the last"
        raise MovementError(text, None, "draw")
    later = {r.table for r in movement.round_rows(rnd + 1, section)}
    tables = sorted(free & later)[-3:]
    if len(tables) < 3:
        text = f"round {rnd}: no three tables free for a three-way match"
        raise MovementError(text, None, "draw")
    a, b, c = teams
    ta, tb, tc = tables
    return ThreeWay(rnd, (a, b, c), (ta, tb, tc))


def _pairs_problem(
    pairs: Sequence[tuple[int, int]], tables: int, teams: int | None, three_way: Sequence[int]
) -> str | None:
    seen: list[int] = [t for pair in pairs for t in pair] + list(three_way)
    twice = sorted({t for t in seen if seen.count(t) > 1})
    if twice:
        return f"team {twice[0]} is drawn twice"
    if len(pairs) > tables:
        return f"{len(pairs)} matches, but the room has tables for {tables}"
    outside = sorted(t for t in seen if t < 1 or (teams is not None and t > teams))
    if outside:
        return f"no team {outside[0]} (teams are numbered 1-{teams})"
    return None


def free_board(movements: Iterable[Movement]) -> int:
    """The first board of the next three-way's own sets: after the highest board any of
    ``movements`` holds (its rounds' and its earlier three-ways')."""
    return max((b for m in movements for r in m.rows for b in r.boards), default=0) + 1


def _three_way_rows(
    section: str, way: ThreeWay, boards_per_round: int, first: int
) -> list[MovementRow]:
    """The six rows of a three-way: its sets X, Y and Z its own, boards ``first`` on."""
    sets = tuple(
        tuple(range(first + k * boards_per_round, first + (k + 1) * boards_per_round))
        for k in range(3)
    )
    return [
        MovementRow(section, table, rnd, ns, ew, sets[k]) for table, rnd, ns, ew, k in way.seats()
    ]
