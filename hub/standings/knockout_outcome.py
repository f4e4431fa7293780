"""A knockout match decided from its boards by the event's rule (issue [KNOCKOUT]): the one
call of ``scoring.knockout.ko_match.decide`` that the running hub (``hub.live.knockout``)
and the report (``hub.report.knockout_build``) both make, so the two always agree. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from hub.event.knockout_movement import KnockoutMovement
from scoring.knockout.bracket import Bracket, Match
from scoring.knockout.ko_match import KoBoard, KoOutcome, Side, TieRule, decide

Board = tuple[int, int, int, int]  # segment from 1, board, home NS room's NS, home EW room's NS


def match_lot_seed(section_seed: int, bracket: Bracket, match: str) -> int:
    """The seed of a lot of ``match``'s tie rule: the section's seed (its seeding's) plus
    the match's place in the bracket plus one, so no match's lot is the seeding's."""
    index = next(i for i, m in enumerate(bracket.matches) if m.name == match)
    return section_seed + index + 1


def match_outcome(
    m: Match,
    spec: KnockoutMovement,
    boards: Sequence[Board],
    carry: tuple[Fraction, Fraction],
    teams: tuple[int, int],
    entry_ranks: tuple[int, int],
    lot_seed: int,
    absent: str | None = None,
) -> KoOutcome:
    """The match's outcome: ``carry`` the IMPs each side starts with (its carry-over less
    its IMP penalties: a penalty beyond the carry-over moves to the other side, the margin
    the same), ``entry_ranks`` the teams' ranks before the knockout (seed 002 §19: the
    higher placed in the qualifier wins a level match), ``absent`` a team that did not
    come. ``ScoringInputError`` when the rule cannot read the boards."""
    low = min(carry[0], carry[1], Fraction(0))
    walk_over = None
    if absent is not None:
        walk_over = Side.HOME if absent == str(teams[0]) else Side.AWAY
    return decide(
        [KoBoard(s, b, ns, ew) for s, b, ns, ew in boards],
        regular_segments=m.segments,
        home_carry_over=carry[0] - low,
        away_carry_over=carry[1] - low,
        tie=[TieRule(t) for t in m.tie],
        lot_seed=lot_seed,
        higher=Side.HOME if entry_ranks[0] <= entry_ranks[1] else Side.AWAY,
        walk_over=walk_over,
        boards_per_segment=m.boards_per_segment,
        extra_set_boards=spec.extra_set_boards,
        sudden_death_boards=spec.sudden_death_boards,
    )
