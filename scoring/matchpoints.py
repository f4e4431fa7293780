"""Matchpoints (Law 78A) with Neuberg and the other ways of scoring incomplete boards.

Results are compared within their group (a fouled board's version); artificial scores are
never compared with the others. Every value is exact (``BoardScore`` integer arrays).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from types import MappingProxyType

import numpy as np

from scoring.board_score import BoardScore, ScoreKind
from scoring.errors import ScoringInputError
from scoring.traveller import Award, Token, Traveller
from scoring.weighted import score_weighted


class AdjustedMethod(Enum):
    """How a board with fewer comparable results than expected is scored."""

    NEUBERG = "neuberg"
    """MP_N = (MP_n + 1)·N/n − 1 out of 2(N−1) (WBF, EBU, SBF; seed 002 mandates it)."""
    OLDSTYLE = "oldstyle"
    """Top lowered by one per missing result: MP_n + (N − n) out of 2(N−1) (NBF §3.2.3)."""
    PERCENT_OF_ACTUAL = "percent-of-actual"
    """MP_n out of the actual top 2(n−1): 'stretched to 100 %' (as JFR Pary does)."""


class BoardTop(Enum):
    """Which N a board with fewer results is factored to (decisions D22)."""

    SECTION = "section"
    """The section's common top: the most results any board of the section has."""
    BOARD = "board"
    """Each board its own top: the results it has."""


DEFAULT_AVERAGES: Mapping[Token, Fraction] = MappingProxyType(
    {Token.AVE_PLUS: Fraction(60), Token.AVE: Fraction(50), Token.AVE_MINUS: Fraction(40)}
)


@dataclass(frozen=True)
class MatchpointRules:
    """An event's matchpoint options.

    ``expected`` is N, the results a full board has. Unset, ``score_matchpoints`` takes the
    lines on the board; ``section_top`` sets it to the section's common top first unless
    ``top`` is ``BoardTop.BOARD`` (decisions D22).
    ``half_points`` shows MPs on the 1/½ scale (percentages are the same).
    ``ebu_small_groups`` applies EBU White Book 4.2.3.3: a group of at most 3 results that
    is also at most a third of the board scores 60 % + 5 % × (M − (A − 1)) instead.
    """

    expected: int | None = None
    method: AdjustedMethod = AdjustedMethod.NEUBERG
    half_points: bool = False
    ebu_small_groups: bool = False
    averages: Mapping[Token, Fraction] = field(default_factory=lambda: DEFAULT_AVERAGES)
    top: BoardTop = BoardTop.SECTION


def section_top(rules: MatchpointRules, plays: Iterable[int]) -> MatchpointRules:
    """The rules a section's boards are scored with (decisions D22): N is the event's
    ``expected`` when set, else the most results (``plays``: each board's count) any board
    of the section has, so a board played once fewer (a sit-out, a late pair) is factored
    to the same top as the rest. ``BoardTop.BOARD`` keeps each board's own top."""
    if rules.expected is not None or rules.top is BoardTop.BOARD:
        return rules
    most = max(plays, default=0)
    return replace(rules, expected=most) if most >= 1 else rules


def matchpoints_2_1(scores: np.ndarray) -> np.ndarray:
    """NS matchpoints on the 2/1 scale within one group: 2 per score beaten, 1 per tie."""
    ordered = np.sort(scores)
    below = np.searchsorted(ordered, scores, side="left")
    upto = np.searchsorted(ordered, scores, side="right")
    return 2 * below + (upto - below - 1)


def award_percent(award: Award, rules: MatchpointRules) -> Fraction:
    """An artificial award as a percentage of the top."""
    return rules.averages[award] if isinstance(award, Token) else Fraction(award)


def score_matchpoints(traveller: Traveller, rules: MatchpointRules | None = None) -> BoardScore:
    """Matchpoint one board."""
    rules = rules or MatchpointRules()
    if traveller.weighted_lines():
        return score_weighted(traveller, lambda t: score_matchpoints(t, rules))
    n_lines = len(traveller)
    expected = rules.expected if rules.expected is not None else n_lines
    if expected < 1:
        raise ScoringInputError(
            "expected", f"expected results per board must be ≥ 1, got {expected}"
        )
    top = 2 * (expected - 1)
    ns_num = np.zeros(n_lines, np.int64)
    ew_num = np.zeros(n_lines, np.int64)
    den = np.ones(n_lines, np.int64)
    tops = np.full(n_lines, top, np.int64)
    n_real = int(traveller.real.sum())
    for idx in traveller.real_groups():
        n = idx.size
        mp = matchpoints_2_1(traveller.scores[idx])
        ew = 2 * (n - 1) - mp
        if rules.ebu_small_groups and n <= 3 and 3 * n <= n_real:
            # percentage 60 + 5(M − (n−1)) as MP on the normal top: (60 + 5(M−n+1))·top/100
            ns_num[idx] = (60 + 5 * (mp - n + 1)) * top
            ew_num[idx] = (60 + 5 * (ew - n + 1)) * top
            den[idx] = 100
        elif rules.method is AdjustedMethod.PERCENT_OF_ACTUAL or n == expected:
            ns_num[idx], ew_num[idx] = mp, ew
            tops[idx] = 2 * (n - 1)
        elif rules.method is AdjustedMethod.NEUBERG:
            ns_num[idx] = (mp + 1) * expected - n
            ew_num[idx] = (ew + 1) * expected - n
            den[idx] = n
        else:  # OLDSTYLE
            ns_num[idx] = mp + (expected - n)
            ew_num[idx] = ew + (expected - n)
    if rules.method is AdjustedMethod.PERCENT_OF_ACTUAL:
        art_top = 2 * (n_real - 1) if n_real > 1 else top
    else:
        art_top = top
    for i in np.flatnonzero(~traveller.real):
        art = traveller.lines[i].artificial
        assert art is not None
        ns_mp = award_percent(art.ns, rules) * art_top / 100
        ew_mp = award_percent(art.ew, rules) * art_top / 100
        d = math.lcm(ns_mp.denominator, ew_mp.denominator)
        ns_num[i], ew_num[i], den[i] = ns_mp * d, ew_mp * d, d
        tops[i] = art_top
    # A board that can have only one result (top 0) scores an average.
    flat = tops == 0
    if flat.any():
        tops[flat] = 2
        ns_num[flat] = den[flat]
        ew_num[flat] = den[flat]
    return BoardScore(
        traveller, ScoreKind.MATCHPOINTS, ns_num, ew_num, den, tops, rules.half_points
    )
