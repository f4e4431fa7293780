"""A knockout's movement (issue [KNOCKOUT], decisions D23): rounds appended while it runs,
earlier rounds never touched. A bracket round's matches are published together: match i of
the round at tables 2i−1 (open room, home team NS) and 2i (closed room), each segment a
movement round of new boards after every board the event holds (the room plays one set of
deals at a time); a match shorter than the round's longest sits out its last segments. A
match level after its segments gets an extension (an extra set, sudden-death boards): one
more movement round at its own tables, in the same event round. ``KnockoutPlan`` says which
bracket match each pair of tables plays and the carry-over each team starts with."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from hub.event.movement.model import (
    KnockoutPlan,
    Layout,
    Movement,
    MovementError,
    MovementKind,
    MovementRow,
    ThreeWay,
)


@dataclass(frozen=True, slots=True)
class KoTableMatch:
    """A bracket match as the movement seats it: the pair of tables (index in
    ``Layout.matches``), its teams (home first), its segments, boards and carry-over."""

    match: str
    pair: int
    home: int
    away: int
    segments: int = 1
    boards_per_segment: int = 16
    carry: tuple[Fraction, Fraction] = (Fraction(0), Fraction(0))


@dataclass(frozen=True, slots=True)
class KoThreeWay:
    """A three-way knockout match (seed 000) as the movement seats it: teams A, B, C, each
    NS at its own table over the round's two segments (``ThreeWay``), each pairing over
    ``boards_per_segment`` boards of a set of its own."""

    match: str
    teams: tuple[int, int, int]
    boards_per_segment: int = 16


def knockout_layout(tables: int, description: str) -> Layout:
    """The layout of a knockout before its first round: ``tables`` tables, two a match
    (three a three-way: an odd count has a last pair of its own)."""
    pairs = (tables + 1) // 2
    return Layout(
        kind=MovementKind.TEAMS,
        winners=1,
        copies=max(1, pairs),
        matches=tuple((2 * m + 1, 2 * m + 2) for m in range(pairs)),
        description=description,
        draw="knockout",
        drawn=0,
        knockout=KnockoutPlan(),
    )


def _plan(movement: Movement) -> KnockoutPlan:
    plan = movement.layout.knockout
    if plan is None:
        raise MovementError("the section is not a knockout", None, "knockout")
    return plan


def _rows(
    movement: Movement,
    section: str,
    rnd: int,
    boards: tuple[int, ...],
    seated: Iterable[KoTableMatch],
) -> list[MovementRow]:
    """Round ``rnd``'s rows: each match at its two tables, the other tables empty."""
    tables = movement.layout.matches
    rows: dict[int, MovementRow] = {
        t: MovementRow(section, t, rnd, 0, 0, ()) for pair in tables for t in pair
    }
    for m in seated:
        if not 0 <= m.pair < len(tables):
            raise MovementError(
                f"{m.match}: no pair of tables {m.pair + 1} (the room has {len(tables)})",
                None,
                "knockout",
            )
        open_t, closed_t = tables[m.pair]
        mine = boards[: m.boards_per_segment]
        rows[open_t] = MovementRow(section, open_t, rnd, m.home, m.away, mine)
        rows[closed_t] = MovementRow(section, closed_t, rnd, m.away, m.home, mine)
    return list(rows.values())


def first_free_board(movements: Iterable[Movement]) -> int:
    return max((b for m in movements for r in m.rows for b in r.boards), default=0) + 1


def with_ko_round(
    movement: Movement,
    section: str,
    k: int,
    matches: Sequence[KoTableMatch],
    *,
    first_board: int,
    to_come: bool = True,
    three_ways: Sequence[KoThreeWay] = (),
) -> Movement:
    """The movement with event round ``k``'s matches appended after its last round, one
    movement round a segment, boards from ``first_board``; its ``three_ways`` at the
    tables after the matches', each over two segments with three sets of its own after
    the round's boards."""
    plan = _plan(movement)
    if not matches and not three_ways:
        raise MovementError(f"event round {k}: no match to play", None, "knockout")
    pairs = [m.pair for m in matches]
    if len(set(pairs)) != len(pairs):
        raise MovementError(f"event round {k}: two matches at one pair of tables", None, "knockout")
    segments = max([m.segments for m in matches] + [2 for _ in three_ways])
    per_set = max(
        [m.boards_per_segment for m in matches] + [w.boards_per_segment for w in three_ways]
    )
    start = movement.rounds
    rows: list[MovementRow] = []
    for s in range(segments):
        boards = tuple(range(first_board + s * per_set, first_board + (s + 1) * per_set))
        playing = [m for m in matches if s < m.segments]
        rows += _rows(movement, section, start + s + 1, boards, playing)
    ways, rows = _three_ways(
        movement, section, start + 1, three_ways, rows, 2 * (max(pairs, default=-1) + 1),
        first_board + segments * per_set,
    )  # fmt: skip
    carried = tuple(
        (k, team, imps)
        for m in matches
        for team, imps in zip((m.home, m.away), m.carry, strict=True)
        if imps
    )
    held = len(movement.layout.three_ways)
    new_plan = replace(
        plan,
        event_rounds=plan.event_rounds + (k,) * segments,
        matches=plan.matches + tuple((k, m.pair, m.match) for m in matches),
        three_ways=plan.three_ways
        + tuple((k, held + j, w.match) for j, w in enumerate(three_ways)),
        carried=plan.carried + carried,
        to_come=to_come,
    )
    appended = _appended(movement, rows, new_plan)
    layout = replace(appended.layout, three_ways=movement.layout.three_ways + tuple(ways))
    return replace(appended, layout=layout)


def _three_ways(
    movement: Movement,
    section: str,
    first: int,
    three_ways: Sequence[KoThreeWay],
    rows: list[MovementRow],
    after_table: int,
    first_board: int,
) -> tuple[list[ThreeWay], list[MovementRow]]:
    """Each three-way at the next three tables after ``after_table`` in rounds ``first``
    and ``first`` + 1 (``ThreeWay``'s seats), its sets X, Y, Z from ``first_board``."""
    ways: list[ThreeWay] = []
    taken: dict[tuple[int, int], MovementRow] = {}
    board = first_board
    tables = {t for pair in movement.layout.matches for t in pair}
    for j, w in enumerate(three_ways):
        at = tuple(after_table + 3 * j + n for n in (1, 2, 3))
        if not set(at) <= tables:
            raise MovementError(f"{w.match}: no three tables free for it", None, "knockout")
        way = ThreeWay(first, w.teams, at)  # type: ignore[arg-type]
        b = w.boards_per_segment
        sets = [tuple(range(board + n * b, board + (n + 1) * b)) for n in range(3)]
        board += 3 * b
        for table, rnd, ns, ew, x in way.seats():
            taken[(table, rnd)] = MovementRow(section, table, rnd, ns, ew, sets[x])
        ways.append(way)
    kept = [r for r in rows if (r.table, r.round) not in taken]
    return ways, kept + list(taken.values())


def with_extension(
    movement: Movement,
    section: str,
    k: int,
    matches: Sequence[KoTableMatch],
    *,
    boards: int,
    first_board: int,
    minutes: Fraction | None = None,
) -> Movement:
    """The movement with one more round for event round ``k``'s level ``matches`` (an
    extra set or sudden-death boards: ``boards`` new ones, each match playing the first
    ``boards_per_segment`` of them), each at its own tables, in ``minutes`` when the event
    gives the round a time of its own."""
    plan = _plan(movement)
    if plan.event_round(movement.rounds) != k:
        raise MovementError(
            f"event round {k} is not the last one played: no extension now", None, "knockout"
        )
    known = {(e, i) for e, i, _ in plan.matches}
    for m in matches:
        if (k, m.pair) not in known:
            raise MovementError(f"{m.match} does not play in event round {k}", None, "knockout")
    numbers = tuple(range(first_board, first_board + boards))
    rows = _rows(movement, section, movement.rounds + 1, numbers, matches)
    timed = ((movement.rounds + 1, minutes),) if minutes else ()
    new_plan = replace(plan, event_rounds=(*plan.event_rounds, k), minutes=plan.minutes + timed)
    return _appended(movement, rows, new_plan)


def decided(movement: Movement) -> Movement:
    """The movement of a knockout whose bracket is decided: no round is to come."""
    return replace(
        movement, layout=replace(movement.layout, knockout=replace(_plan(movement), to_come=False))
    )


def _appended(movement: Movement, rows: list[MovementRow], plan: KnockoutPlan) -> Movement:
    new = Movement(movement.rows + tuple(rows), movement.layout)
    layout = replace(movement.layout, knockout=plan, drawn=new.rounds)
    return replace(new, layout=layout).sorted()
