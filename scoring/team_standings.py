"""Team standings over many matches, with the tie-break primitives of the seeds.

Primitives (decisions D2): ``imp_quotient`` (IMPs won ÷ lost), ``total_point_quotient``,
``h2h_vp``, ``h2h_imps``, ``h2h_boards_won``, ``h2h_total_points`` (among the tied teams
only), ``swiss_points`` (Σ VPs of every opponent met: seed 002 Gröna Hissen), ``lot``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.team_match import MatchResult
from scoring.tie_break import Placed, TieBreakFn, place_entrants

TEAM_TIE_BREAKS = (
    "imp_quotient",
    "total_point_quotient",
    "h2h_vp",
    "h2h_imps",
    "h2h_boards_won",
    "h2h_total_points",
    "swiss_points",
    "lot",
)


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """A scored match between two teams."""

    home: Hashable
    away: Hashable
    result: MatchResult


@dataclass(slots=True)
class TeamRecord:
    """Sums for one team."""

    team: Hashable
    vp: Fraction = Fraction(0)
    imps_won: Fraction = Fraction(0)
    imps_lost: Fraction = Fraction(0)
    points_won: int = 0
    points_lost: int = 0
    opponents: list[Hashable] = field(default_factory=list)

    @property
    def imp_quotient(self) -> Fraction | float:
        return (
            Fraction(self.imps_won / self.imps_lost)
            if self.imps_lost
            else (math.inf if self.imps_won else Fraction(1))
        )

    @property
    def total_point_quotient(self) -> Fraction | float:
        return (
            Fraction(self.points_won, self.points_lost)
            if self.points_lost
            else (math.inf if self.points_won else Fraction(1))
        )


@dataclass(frozen=True, slots=True)
class TeamStanding:
    record: TeamRecord
    placed: Placed

    @property
    def rank(self) -> str:
        return self.placed.rank


def _sides(m: PlayedMatch) -> tuple[tuple, tuple]:
    r = m.result
    home = (
        m.home,
        m.away,
        r.home_vp or 0,
        r.home_imps + r.home_carry_over,
        r.away_imps + r.away_carry_over,
        r.home_points,
        r.away_points,
        r.home_boards_won,
    )
    away = (
        m.away,
        m.home,
        r.away_vp or 0,
        r.away_imps + r.away_carry_over,
        r.home_imps + r.home_carry_over,
        r.away_points,
        r.home_points,
        r.away_boards_won,
    )
    return home, away


def team_records(
    matches: Sequence[PlayedMatch], vp_adjustments: Mapping[Hashable, Fraction] | None = None
) -> dict[Hashable, TeamRecord]:
    """Per-team sums; ``vp_adjustments`` adds fixed VPs (late-joiner carry-over, penalties)."""
    recs: dict[Hashable, TeamRecord] = {}
    for m in matches:
        for team, opp, vp, won, lost, pw, pl, _ in _sides(m):
            rec = recs.setdefault(team, TeamRecord(team))
            rec.vp += vp
            rec.imps_won += won
            rec.imps_lost += lost
            rec.points_won += pw
            rec.points_lost += pl
            rec.opponents.append(opp)
    for team, adj in (vp_adjustments or {}).items():
        recs.setdefault(team, TeamRecord(team)).vp += Fraction(adj)
    return recs


def team_standings(
    matches: Sequence[PlayedMatch],
    tie_breaks: Sequence[str] = (),
    *,
    vp_adjustments: Mapping[Hashable, Fraction] | None = None,
    lot_seed: int | None = None,
) -> list[TeamStanding]:
    """Teams by VP, then the event's tie-break chain."""
    recs = team_records(matches, vp_adjustments)

    def h2h(index: int) -> TieBreakFn:
        def fn(group: Sequence[Hashable]) -> dict[Hashable, Fraction]:
            members = set(group)
            out: dict[Hashable, Fraction] = defaultdict(Fraction)
            for m in matches:
                if m.home in members and m.away in members:
                    for side in _sides(m):
                        out[side[0]] += side[index]
            return {t: out[t] for t in group}

        return fn

    def h2h_imps(group: Sequence[Hashable]) -> dict[Hashable, Fraction]:
        members = set(group)
        out: dict[Hashable, Fraction] = defaultdict(Fraction)
        for m in matches:
            if m.home in members and m.away in members:
                for side in _sides(m):
                    out[side[0]] += side[3] - side[4]
        return {t: out[t] for t in group}

    def h2h_points(group: Sequence[Hashable]) -> dict[Hashable, Fraction]:
        members = set(group)
        out: dict[Hashable, Fraction] = defaultdict(Fraction)
        for m in matches:
            if m.home in members and m.away in members:
                for side in _sides(m):
                    out[side[0]] += side[5] - side[6]
        return {t: out[t] for t in group}

    primitives: dict[str, TieBreakFn] = {
        "imp_quotient": lambda g: {t: recs[t].imp_quotient for t in g},
        "total_point_quotient": lambda g: {t: recs[t].total_point_quotient for t in g},
        "h2h_vp": h2h(2),
        "h2h_imps": h2h_imps,
        "h2h_boards_won": h2h(7),
        "h2h_total_points": h2h_points,
        "swiss_points": lambda g: {
            t: sum((recs[o].vp for o in recs[t].opponents if o in recs), Fraction(0)) for t in g
        },
    }
    placed = place_entrants(
        list(recs),
        {t: r.vp for t, r in recs.items()},
        tie_breaks,
        primitives,
        lot_seed,
        natural=str,
    )
    return [TeamStanding(recs[p.key], p) for p in placed]
