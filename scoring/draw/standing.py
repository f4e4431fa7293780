"""The standing a draw is made from: the team standings of ``scoring.team_ties`` with the
event's tie-break rule, so a draw and ``bridgehub teams standings`` order the teams alike.

Teams the rule leaves sharing a place (a play-off, sudden death, data not given, a lot
without a recorded seed) are drawn in team-number order: a draw cannot wait for a play-off,
and team-number order is what a TD would use by hand.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction

from scoring.draw.model import MatchPlayed, Team
from scoring.team_ties import GRONA_HISSEN, WBF, YEH_SWISS, TieBreakRule, place_teams

# The rule each draw ranks by unless the event names another (``scoring.team_ties.RULES``):
# seed 000 "during the event": IMP quotient, total-point quotient, then a draw (lot)
SWISS_RULE = YEH_SWISS
# seed 001 XII: the WBF procedures (its head-to-head steps only where the tied teams met)
DANISH_RULE = WBF
# seed 002 "Särskiljning Gröna Hissen": Swiss points, then IMP quotient
MONRAD_RULE = GRONA_HISSEN


def current_standing(
    teams: Sequence[Team],
    matches: Sequence[MatchPlayed],
    *,
    after_round: int | None = None,
    rule: TieBreakRule = SWISS_RULE,
    vp_adjustments: Mapping[str, Fraction] | None = None,
    lot_seed: int | None = None,
) -> tuple[str, ...]:
    """Every team, best first, from the scored matches and byes of rounds up to
    ``after_round``; ``vp_adjustments`` adds fixed VPs (a late joiner's assigned score,
    penalties). A lot in the rule is drawn only with a recorded ``lot_seed``."""
    known = {t.team for t in teams}
    scored = [
        m
        for m in matches
        if m.is_scored
        and (after_round is None or m.round <= after_round)
        and (m.home in known or m.away in known)  # a team withdrawn since: its opponents' VPs
    ]
    by_number = [t.team for t in sorted(teams, key=lambda t: (t.number, t.team))]
    adjust: dict[Hashable, Fraction] = {t: Fraction(v) for t, v in (vp_adjustments or {}).items()}
    places = place_teams(scored, rule, teams=by_number, vp_adjustments=adjust, lot_seed=lot_seed)
    return tuple(str(p.team) for p in places if p.team in known)
