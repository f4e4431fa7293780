"""Team penalties as the standings take them: who pays a confirmed penalty (decisions
D10), in VP off the team's total or in IMP off its match of the round. Pure, any thread."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any


@dataclass(frozen=True, slots=True)
class TeamPenalty:
    """One paying team's share of a confirmed penalty (``round``: the movement round;
    ``table``: where it was given, if it says: in a three-way a team plays two matches in
    a round, and the table tells which)."""

    team: int
    unit: str  # "VP" or "IMP"
    amount: Fraction
    round: int | None
    table: int | None = None


PAYERS = {"NS": (0,), "EW": (1,), "both": (0, 1), "shared": (0, 1)}


def team_penalties(penalty: Mapping[str, Any]) -> list[TeamPenalty]:
    """Who pays a confirmed penalty and how much (decisions D10: the TD sets the payer;
    ``shared`` halves it); [] for a unit team standings do not carry (warnings, the TD's
    own decisions, percent of a top) or an IMP penalty that names no round."""
    unit = penalty.get("unit")
    rnd = penalty.get("round")
    if unit not in ("VP", "IMP") or (unit == "IMP" and not rnd):
        return []
    payer = penalty.get("payer") or ""
    share = Fraction(1, 2) if payer == "shared" else Fraction(1)
    try:
        amount = Fraction(str(penalty.get("amount"))) * share
    except (ValueError, ZeroDivisionError):
        return []  # no amount to take (the store keeps what the scale proposed)
    sides = penalty.get("contestants") or (None, None)
    out = []
    for i in PAYERS.get(payer, ()):
        team = sides[i]
        if team:
            table = penalty.get("table")
            out.append(
                TeamPenalty(int(team), str(unit), amount, rnd, int(table) if table else None)
            )
    return out
