"""Monrad, "Gröna Hissen" (seed 002): 1v2, 3v4 … by standing without repeats, untangled
from the bottom as Swedish scoring software does; round 1 drawn by lot ("den inledande
ronden är lottad"); Swiss points as tie-break.

The pairing rule is not in the seed; this follows Magic Contest / Ruter, the Swedish
federation's program (shared gaps-and-swedish-practice.md):

1. With an odd number, the bye goes to the lowest-ranked team that has not had one.
2. The top-ranked team meets the first team below it that it has not yet played; then the
   next unpaired team does the same, down the list (the first unpaired team below it when
   it has played them all: a repeat).
3. Then, from the highest table number upward, a table with a repeat (A-B) looks at the
   lower-numbered tables, nearest first, for a table (C-D) where A-C + B-D, or else A-D +
   B-C, makes no repeat, and swaps; the match with the better-placed team keeps the lower
   table number.
4. The untangling stops half-way up (it touches only tables numbered above half the number
   of tables) and never touches tables 1-3, so a repeat can remain.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from fractions import Fraction

from scoring.draw.byes import split_bye
from scoring.draw.model import Draw, MatchPlayed, Team, meetings
from scoring.draw.seating import HomeRule, seated_draw
from scoring.draw.standing import MONRAD_RULE, current_standing
from scoring.draw.swiss import next_round
from scoring.lot import draw_lots
from scoring.team_ties import TieBreakRule

UNTOUCHED_TOP_TABLES = 3


def monrad_pairs(
    order: Sequence[str], met: Collection[frozenset[Hashable]]
) -> list[tuple[str, str]]:
    """Rule 2: top-down, each team the first unpaired team below it it has not met."""
    left = list(order)
    pairs = []
    while left:
        top = left.pop(0)
        pick = next((t for t in left if frozenset((top, t)) not in met), left[0])
        left.remove(pick)
        pairs.append((top, pick))
    return pairs


def first_untangled_table(tables: int) -> int:
    """Rule 4: the lowest table number the untangling may touch (1-based)."""
    return max(UNTOUCHED_TOP_TABLES + 1, tables // 2 + 1)


def untangle(
    pairs: Sequence[tuple[str, str]],
    met: Collection[frozenset[Hashable]],
    order: Sequence[str],
) -> list[tuple[str, str]]:
    """Rule 3 on matches in table order, each as (better-placed, other); ``order`` is
    the standing they were paired from."""
    out = list(pairs)
    place = {t: i for i, t in enumerate(order)}

    def new(a: str, b: str) -> bool:
        return frozenset((a, b)) not in met

    def ordered(a: str, b: str) -> tuple[str, str]:
        return (a, b) if place[a] < place[b] else (b, a)

    lowest = first_untangled_table(len(out)) - 1  # 0-based
    for t in range(len(out) - 1, lowest, -1):
        a, b = out[t]
        if new(a, b):
            continue
        for u in range(t - 1, lowest - 1, -1):
            c, d = out[u]  # c is placed above a, b and d: it keeps table u
            if new(a, c) and new(b, d):
                out[u], out[t] = ordered(c, a), ordered(b, d)
                break
            if new(a, d) and new(b, c):
                out[u], out[t] = ordered(c, b), ordered(a, d)
                break
    return out


def monrad_draw(
    teams: Sequence[Team],
    matches: Sequence[MatchPlayed],
    *,
    lot_seed: int | None = None,
    rule: TieBreakRule = MONRAD_RULE,
    home_rule: HomeRule = HomeRule.HIGHER_RANKED,
    vp_adjustments: Mapping[str, Fraction] | None = None,
) -> Draw:
    """The next round of a Gröna Hissen; round 1 needs ``lot_seed`` (it is drawn)."""
    rnd = next_round(matches)
    if rnd == 1:
        if lot_seed is None:
            raise ValueError("round 1 is drawn by lot: give a lot seed")
        order: Sequence[str] = draw_lots([t.team for t in teams], lot_seed)
    else:
        order = current_standing(
            teams,
            matches,
            rule=rule,
            vp_adjustments=vp_adjustments,
            lot_seed=lot_seed,
        )
    byes, playing = split_bye(order, matches)
    met = meetings(matches)
    pairs = untangle(monrad_pairs(playing, met), met, playing)
    return seated_draw(rnd, pairs, byes, teams, matches, home_rule, lot_seed)
