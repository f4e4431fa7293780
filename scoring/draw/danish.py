"""Danish (seed 001): every round 1v2, 3v4 … by the current standing, repeats allowed;
round 1 seeded by the teams' average masterpoints ("1st vs 2nd, 3rd vs 4th etc.")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from scoring.draw.byes import split_bye
from scoring.draw.model import Draw, MatchPlayed, Team
from scoring.draw.seating import HomeRule, seated_draw
from scoring.draw.standing import DANISH_RULE, current_standing
from scoring.draw.swiss import next_round
from scoring.team_ties import TieBreakRule


def masterpoint_order(teams: Sequence[Team]) -> tuple[str, ...]:
    """Teams by average masterpoints, highest first; level teams (or teams without
    masterpoints, last) in team-number order."""
    return tuple(
        t.team
        for t in sorted(
            teams,
            key=lambda t: (
                t.masterpoints is None,
                -(t.masterpoints or 0),
                t.number,
                t.team,
            ),
        )
    )


def danish_draw(
    teams: Sequence[Team],
    matches: Sequence[MatchPlayed],
    *,
    rule: TieBreakRule = DANISH_RULE,
    home_rule: HomeRule = HomeRule.HIGHER_RANKED,
    vp_adjustments: Mapping[str, Fraction] | None = None,
    lot_seed: int | None = None,
) -> Draw:
    """The next round: 1v2, 3v4 … (table 1 the top match), repeats allowed; a bye, with an
    odd number of teams, to the lowest-ranked team that has not had one."""
    rnd = next_round(matches)
    if rnd == 1:
        order = masterpoint_order(teams)
    else:
        order = current_standing(
            teams,
            matches,
            rule=rule,
            vp_adjustments=vp_adjustments,
            lot_seed=lot_seed,
        )
    byes, playing = split_bye(order, matches)
    pairs = list(zip(playing[::2], playing[1::2], strict=True))
    return seated_draw(rnd, pairs, byes, teams, matches, home_rule, lot_seed)
