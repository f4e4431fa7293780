"""Butler: each result IMPed against a datum, the trimmed mean of the NS scores."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

import numpy as np

from scoring.board_score import BoardScore, ScoreKind
from scoring.errors import ScoringInputError
from scoring.imp_awards import ImpAwards, apply_imp_awards
from scoring.imps import imps_array
from scoring.numbers import round_half_away, round_half_even
from scoring.traveller import Traveller
from scoring.weighted import score_weighted


class DatumRounding(Enum):
    """Rounding of the datum to a multiple of 10."""

    NEAREST = "nearest"
    """Halves away from zero (NBB, most programs)."""
    EVEN = "even"
    """Halves to the even ten, 425 → 420, 435 → 440 (ACBLscore)."""


@dataclass(frozen=True)
class DropRule:
    """How many scores are dropped at each end before the datum is averaged.

    ``count`` drops that many; ``percent`` drops that share of the results, rounded up.
    At least one score is always kept.
    """

    count: int = 0
    percent: Fraction | None = None

    @classmethod
    def parse(cls, text: str) -> DropRule:
        raw = text.strip()
        m = re.fullmatch(r"(\d+(?:\.\d+)?)%", raw)
        if m:
            pct = Fraction(m.group(1))
            if pct >= 50:
                raise ScoringInputError(
                    "butler_drop", f"dropping {raw} at each end leaves nothing: use less than 50%"
                )
            return cls(percent=pct)
        if raw.isdigit():
            return cls(count=int(raw))
        raise ScoringInputError(
            "butler_drop", f"Butler drop rule {text!r}: write N (scores at each end) or N%"
        )

    def at_each_end(self, n: int) -> int:
        k = math.ceil(self.percent * n / 100) if self.percent is not None else self.count
        return max(0, min(k, (n - 1) // 2))

    def __str__(self) -> str:
        return f"{self.percent}%" if self.percent is not None else str(self.count)


@dataclass(frozen=True)
class ButlerRules:
    """The event's datum rule and artificial awards. Default: drop 10 % at each end."""

    drop: DropRule = field(default_factory=lambda: DropRule(percent=Fraction(10)))
    rounding: DatumRounding = DatumRounding.NEAREST
    awards: ImpAwards = field(default_factory=ImpAwards)


def datum(scores: np.ndarray, rules: ButlerRules) -> int:
    """The board's datum: drop the extremes, average, round to a multiple of 10."""
    ordered = np.sort(scores)
    k = rules.drop.at_each_end(ordered.size)
    kept = ordered[k : ordered.size - k]
    mean = Fraction(int(kept.sum()), int(kept.size)) / 10
    tens = round_half_even(mean) if rules.rounding is DatumRounding.EVEN else round_half_away(mean)
    return tens * 10


def score_butler(traveller: Traveller, rules: ButlerRules | None = None) -> BoardScore:
    """Butler-score one board: NS gets IMP(score − datum), EW the negative."""
    rules = rules or ButlerRules()
    if traveller.weighted_lines():
        return score_weighted(traveller, lambda t: score_butler(t, rules))
    size = len(traveller)
    ns_num = np.zeros(size, np.int64)
    den = np.ones(size, np.int64)
    for idx in traveller.real_groups():
        scores = traveller.scores[idx]
        ns_num[idx] = imps_array(scores - datum(scores, rules))
    ew_num = -ns_num
    apply_imp_awards(traveller, rules.awards, ns_num, ew_num, den)
    return BoardScore(traveller, ScoreKind.IMPS, ns_num, ew_num, den)


def board_datums(traveller: Traveller, rules: ButlerRules | None = None) -> list[int]:
    """The datum of each group of the board (one unless the board was fouled)."""
    rules = rules or ButlerRules()
    return [datum(traveller.scores[idx], rules) for idx in traveller.real_groups()]
