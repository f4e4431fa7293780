"""A team event drawn while it runs (decisions D19): the movement of a Swiss, Danish or
Monrad holds every round's tables and boards from the start; a round's matches fill its
rows only when its draw is published (``with_round``). Earlier rounds are never touched.

Match m of a round plays at tables 2m−1 (open room, home team NS) and 2m (closed room);
every match of round r plays boards (r−1)·B+1 … r·B (duplicated sets, as seeds 000-002).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from hub.event.movement.model import Layout, Movement, MovementError, MovementKind, MovementRow
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
) -> Movement:
    """The movement of a drawn event before play: ``first_rounds`` (drawn before the
    event, as (home, away) team numbers in table order; ``higher_number_home`` seats the
    higher number at home, as a Swiss does by default, seed 000 §8) filled in, later
    rounds waiting for their draw (their rows hold the tables and boards, no teams)."""
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
        description=f"{method} of {teams} teams, {rounds} rounds x {boards_per_round} boards",
        draw=method,
        drawn=0,
    )
    rows = tuple(
        MovementRow(section, t, r, 0, 0, round_boards(r, boards_per_round))
        for r in range(1, rounds + 1)
        for t in range(1, 2 * matches + 1)
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
) -> Movement:
    """The movement with round ``rnd``'s draw published: its matches (home, away) in table
    order; it must be the round after the last one drawn. ``teams``, when given, is the
    field's size (team numbers 1 … teams)."""
    layout = movement.layout
    if not layout.draw:
        raise MovementError(f"section {section} is not drawn while it runs", None, "draw")
    if rnd != layout.drawn + 1:
        raise MovementError(
            f"round {rnd} cannot be drawn now: the next round to draw is {layout.drawn + 1}",
            None,
            "draw",
        )
    placeholders = [r for r in movement.round_rows(rnd, section)]
    if not placeholders:
        raise MovementError(f"section {section} has no round {rnd}", None, "draw")
    problem = _pairs_problem(pairs, len(placeholders) // 2, teams) or (
        None if pairs else "no match to draw (fewer than two teams play)"
    )
    if problem:
        raise MovementError(f"round {rnd}: {problem}", None, "draw")
    boards = placeholders[0].boards
    drawn = team_round(section, rnd, pairs, boards)
    tables = {r.table for r in drawn}
    rest = [
        MovementRow(section, r.table, rnd, 0, 0, ()) for r in placeholders if r.table not in tables
    ]
    later = [r for r in movement.rows if not (r.round == rnd and r.section == section)]
    return replace(
        movement, rows=tuple([*later, *drawn, *rest]), layout=replace(layout, drawn=rnd)
    ).sorted()


def _pairs_problem(pairs: Sequence[tuple[int, int]], tables: int, teams: int | None) -> str | None:
    seen: list[int] = [t for pair in pairs for t in pair]
    twice = sorted({t for t in seen if seen.count(t) > 1})
    if twice:
        return f"team {twice[0]} is drawn twice"
    if len(pairs) > tables:
        return f"{len(pairs)} matches, but the room has tables for {tables}"
    outside = sorted(t for t in seen if t < 1 or (teams is not None and t > teams))
    if outside:
        return f"no team {outside[0]} (teams are numbered 1-{teams})"
    return None
