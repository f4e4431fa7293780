"""The next round by the event's method (decisions D19): one entry for the command line
and the running hub, with each method's own defaults (seed 000 Swiss: the higher team
number at home; seeds 001 and 002: the higher-ranked team)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction

from scoring.draw.danish import danish_draw
from scoring.draw.model import Draw, MatchPlayed, Team
from scoring.draw.monrad import monrad_draw
from scoring.draw.seating import HomeRule
from scoring.draw.standing import DANISH_RULE, MONRAD_RULE, SWISS_RULE
from scoring.draw.swiss import swiss_draw
from scoring.team_ties import TieBreakRule

METHODS = ("swiss", "danish", "monrad")
DEFAULT_HOME = {
    "swiss": HomeRule.HIGHER_NUMBER,
    "danish": HomeRule.HIGHER_RANKED,
    "monrad": HomeRule.HIGHER_RANKED,
}
DEFAULT_RULE = {"swiss": SWISS_RULE, "danish": DANISH_RULE, "monrad": MONRAD_RULE}


def next_draw(
    method: str,
    teams: Sequence[Team],
    matches: Sequence[MatchPlayed],
    *,
    delayed: bool = False,
    rule: TieBreakRule | None = None,
    home_rule: HomeRule | None = None,
    vp_adjustments: Mapping[str, Fraction] | None = None,
    joiners: Collection[str] = (),
    lot_seed: int | None = None,
) -> Draw:
    """The round after ``matches`` drawn by ``method`` (``swiss``, ``danish``,
    ``monrad``); ``delayed`` is for a Swiss only; ``joiners``, teams starting this round,
    meet each other by lot in a Swiss (seed 000; the other methods place them by their
    assigned VPs). Raises ``ValueError`` saying why a draw cannot be made (a lot without a
    seed, too few teams)."""
    if method not in METHODS:
        raise ValueError(f"{method!r} is not a draw method; use {', '.join(METHODS)}")
    if delayed and method != "swiss":
        raise ValueError("only a Swiss is drawn one round delayed")
    rule = rule or DEFAULT_RULE[method]
    home = home_rule or DEFAULT_HOME[method]
    if method == "swiss":
        return swiss_draw(
            teams,
            matches,
            delayed=delayed,
            rule=rule,
            home_rule=home,
            vp_adjustments=vp_adjustments,
            joiners=joiners,
            lot_seed=lot_seed,
        )
    if method == "danish":
        return danish_draw(
            teams,
            matches,
            rule=rule,
            home_rule=home,
            vp_adjustments=vp_adjustments,
            lot_seed=lot_seed,
        )
    return monrad_draw(
        teams, matches, rule=rule, home_rule=home, vp_adjustments=vp_adjustments, lot_seed=lot_seed
    )
