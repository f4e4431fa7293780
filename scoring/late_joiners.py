"""Teams that join a Swiss or Monrad after it has started: the VPs they are given, where they
are placed, whom they meet first (seeds 000, 001, 002).

- Seed 000 (Swiss plate): teams joining in round 4 (6) get "a VP score equal to that of the
  4th position score at the end of the round 3 (5)"; the joiners meet each other in their
  first round "by means of a random draw".
- Seed 001 (Swiss for the 3rd place): knockout losers join "with number of VP equal to the
  average of 3rd and 4th team after a previous round" (after the semi-finals: of the 2nd and
  3rd), at places set by their rank in the Qualification Swiss, "highest ranking team the
  lowest place": after the round of 16 at places 3-10, highest placed against lowest placed;
  after the quarter-finals at places 9, 7, 5, 3; after the semi-finals at places 5 and 3.
- Seed 002: a Chairman's Cup team starting in round 3 carries over exactly 30 VP; an SM Lag
  Veteran team starting in round 6 exactly 16 VP per round missed (80 VP). Either may start
  late only when at most three of its players are free for round 1 ("vid tre eller färre").
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from scoring.errors import ScoringInputError
from scoring.lot import draw_lots

T = TypeVar("T", bound=Hashable)


@dataclass(frozen=True, slots=True)
class VPOfPosition:
    """The VP of the team at ``position`` (1-based, by VP) after the previous round."""

    position: int


@dataclass(frozen=True, slots=True)
class AverageOfPositions:
    """The average VP of the teams at ``positions`` after the previous round."""

    positions: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FixedVP:
    """Exactly ``vp`` for a team starting in ``start_round``."""

    vp: Fraction
    start_round: int


@dataclass(frozen=True, slots=True)
class VPPerMissedRound:
    """``vp_per_round`` for each round missed by a team starting in ``start_round``."""

    vp_per_round: Fraction
    start_round: int


JoinerVP = VPOfPosition | AverageOfPositions | FixedVP | VPPerMissedRound

# seed 000, Swiss plate: rounds 4 and 6, "the 4th position score" after rounds 3 and 5
SEED000_PLATE = VPOfPosition(4)
# seed 001, Swiss for the 3rd place
SEED001_AFTER_ROUND_OF_16 = AverageOfPositions((3, 4))
SEED001_AFTER_QUARTER_FINALS = AverageOfPositions((3, 4))
SEED001_AFTER_SEMI_FINALS = AverageOfPositions((2, 3))
# seed 002: Chairman's Cup from round 3, SM Lag Veteran from round 6
SEED002_CHAIRMANS_CUP = FixedVP(Fraction(30), start_round=3)
SEED002_VETERAN = VPPerMissedRound(Fraction(16), start_round=6)

# seed 001: the places joiners take, the best-ranked in the Qualification Swiss first
SEED001_PLACES_AFTER_ROUND_OF_16 = (10, 9, 8, 7, 6, 5, 4, 3)
SEED001_PLACES_AFTER_QUARTER_FINALS = (9, 7, 5, 3)
SEED001_PLACES_AFTER_SEMI_FINALS = (5, 3)


def _vp_at(vps: Sequence[Fraction], position: int) -> Fraction:
    ordered = sorted((Fraction(v) for v in vps), reverse=True)
    if not 1 <= position <= len(ordered):
        raise ScoringInputError(
            "position", f"position {position} is not in a field of {len(ordered)} teams"
        )
    return ordered[position - 1]


def joiner_vp(rule: JoinerVP, field_vps: Iterable[Fraction] = ()) -> Fraction:
    """The VPs a late joiner starts with; ``field_vps`` are the VPs of the teams already
    playing, after the round before the joiner's first (any order: a position's VP does not
    depend on how teams level on VP are separated)."""
    vps = list(field_vps)
    if isinstance(rule, VPOfPosition):
        return _vp_at(vps, rule.position)
    if isinstance(rule, AverageOfPositions):
        total = sum((_vp_at(vps, p) for p in rule.positions), Fraction(0))
        return total / len(rule.positions)
    if isinstance(rule, FixedVP):
        return Fraction(rule.vp)
    return Fraction(rule.vp_per_round) * (rule.start_round - 1)


def may_start_late(players_free_for_round_1: int) -> bool:
    """Seed 002: with four or more players free the team starts in round 1; with three or
    fewer it may start late (round 3 of the Chairman's Cup, round 6 of SM Lag Veteran)."""
    return players_free_for_round_1 <= 3


def place_joiners(
    standing: Sequence[T], joiners_by_rank: Sequence[T], places: Sequence[int]
) -> list[T]:
    """The standing with the joiners put at ``places`` (1-based; ``places[i]`` for the
    i-th best-ranked joiner), the teams already playing keeping their order around them."""
    if len(places) != len(joiners_by_rank) or len(set(places)) != len(places):
        raise ScoringInputError(
            "places", f"{len(joiners_by_rank)} joiners need as many distinct places"
        )
    size = len(standing) + len(joiners_by_rank)
    if any(not 1 <= p <= size for p in places):
        raise ScoringInputError("places", f"places must lie in 1..{size}, got {list(places)}")
    at = dict(zip(places, joiners_by_rank, strict=True))
    rest = iter(standing)
    return [at[p] if p in at else next(rest) for p in range(1, size + 1)]


def pair_highest_with_lowest(joiners_by_rank: Sequence[T]) -> list[tuple[T, T]]:
    """Seed 001 after the round of 16: "highest placed will play with the lowest placed"."""
    if len(joiners_by_rank) % 2:
        raise ScoringInputError("joiners", "an odd number of joiners cannot all be paired")
    n = len(joiners_by_rank)
    return [(joiners_by_rank[i], joiners_by_rank[n - 1 - i]) for i in range(n // 2)]


def pair_by_lot(joiners: Iterable[T], lot_seed: int) -> list[tuple[T, T]]:
    """Seed 000: the joiners meet each other "by means of a random draw", drawn from a
    recorded seed (decisions D19): the joiners in a fixed order (by name), shuffled, paired
    first with second, third with fourth …"""
    drawn = draw_lots(joiners, lot_seed)
    if len(drawn) % 2:
        raise ScoringInputError("joiners", "an odd number of joiners cannot all be paired")
    return [(drawn[i], drawn[i + 1]) for i in range(0, len(drawn), 2)]
