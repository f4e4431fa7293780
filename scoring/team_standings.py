"""Team standings over the matches the hub scored: each team's sums, placed by
``scoring.team_ties`` (the one engine for team places) with the event's rule.

``team_standings`` is what the hub's views, rebuild, reports and exports read: a
``TeamRecord`` of sums per team beside its ``TeamPlace``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.team_tie_criteria import PlayedMatch, from_played, quotient
from scoring.team_ties import TeamPlace, TieBreakRule, place_teams, rule_from_names

__all__ = [
    "PlayedMatch",
    "TeamRecord",
    "TeamStanding",
    "team_order",
    "team_records",
    "team_standings",
]


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
        return quotient(self.imps_won, self.imps_lost)

    @property
    def total_point_quotient(self) -> Fraction | float:
        return quotient(self.points_won, self.points_lost)


@dataclass(frozen=True, slots=True)
class TeamStanding:
    """A team's sums and its place (``placed.tie`` says why a shared place stays open)."""

    record: TeamRecord
    placed: TeamPlace

    @property
    def rank(self) -> str:
        return self.placed.rank


def team_records(
    matches: Sequence[PlayedMatch], vp_adjustments: Mapping[Hashable, Fraction] | None = None
) -> dict[Hashable, TeamRecord]:
    """Per-team sums; ``vp_adjustments`` adds fixed VPs (late-joiner carry-over, penalties)."""
    recs: dict[Hashable, TeamRecord] = {}
    for m in matches:
        r = m.result
        home_imps, away_imps = r.home_imps + r.home_carry_over, r.away_imps + r.away_carry_over
        sides = (
            (m.home, m.away, r.home_vp, home_imps, away_imps, r.home_points, r.away_points),
            (m.away, m.home, r.away_vp, away_imps, home_imps, r.away_points, r.home_points),
        )
        for team, opp, vp, won, lost, pw, pl in sides:
            rec = recs.setdefault(team, TeamRecord(team))
            rec.vp += vp or 0
            rec.imps_won += won
            rec.imps_lost += lost
            rec.points_won += pw
            rec.points_lost += pl
            rec.opponents.append(opp)
    for team, adj in (vp_adjustments or {}).items():
        recs.setdefault(team, TeamRecord(team)).vp += Fraction(adj)
    return recs


def team_order(team: Hashable) -> tuple[int, int, str]:
    """How teams that stay level are listed: by number (2 before 10, [MENDS] #25), a team
    known by a name or letter after every number, by its text."""
    if isinstance(team, int):
        return 0, team, ""
    text = str(team)
    return (0, int(text), text) if text.isdigit() else (1, 0, text)


def team_standings(
    matches: Sequence[PlayedMatch],
    tie_breaks: Sequence[str] | TieBreakRule = (),
    *,
    vp_adjustments: Mapping[Hashable, Fraction] | None = None,
    lot_seed: int | None = None,
) -> list[TeamStanding]:
    """Teams by VP, then the event's tie-break rule: a ``TieBreakRule``, or the event file's
    names (a rule's name such as ``wbf``, or a chain of criteria) for ``rule_from_names``.

    Teams that stay level are listed by their number, 2 before 10 (the order a lot is drawn
    from, as a draw's standing ranks them: ``scoring.draw.standing``), by ``team_order``.
    """
    recs = team_records(matches, vp_adjustments)
    rule = tie_breaks if isinstance(tie_breaks, TieBreakRule) else rule_from_names(tie_breaks)
    placed = place_teams(
        (from_played(m, i) for i, m in enumerate(matches)),
        rule,
        teams=sorted(recs, key=team_order),
        vp_adjustments=vp_adjustments,
        lot_seed=lot_seed,
    )
    return [TeamStanding(recs[p.team], p) for p in placed]
