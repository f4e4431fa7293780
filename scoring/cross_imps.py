"""Cross-IMPs (IMPs across the field): each result IMPed against every other in its group."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from scoring.board_score import BoardScore, ScoreKind
from scoring.imp_awards import ImpAwards, apply_imp_awards
from scoring.imps import imps_array
from scoring.traveller import Traveller
from scoring.weighted import score_weighted


class CrossImpDivisor(Enum):
    """Average IMPs (÷ n−1: BBO, EBU, KOPS) or total IMPs (ACBLscore, Cavendish)."""

    AVERAGE = "n-1"
    TOTAL = "total"


@dataclass(frozen=True)
class CrossImpRules:
    """``cap`` limits each comparison (Polish 'Cavendish uśredniony': 17)."""

    divisor: CrossImpDivisor = CrossImpDivisor.AVERAGE
    cap: int | None = None
    awards: ImpAwards = field(default_factory=ImpAwards)


def raw_cross_imps(scores: np.ndarray, cap: int | None = None) -> np.ndarray:
    """Σ_j IMP(s_i − s_j) for each score, computed once per distinct score."""
    values, inverse, counts = np.unique(scores, return_inverse=True, return_counts=True)
    table = imps_array(values[:, None] - values[None, :], cap)
    return (table @ counts)[inverse]


def score_cross_imps(traveller: Traveller, rules: CrossImpRules | None = None) -> BoardScore:
    """Cross-IMP one board; NS and EW are negatives, and at ÷(n−1) a board sums to zero."""
    rules = rules or CrossImpRules()
    if traveller.weighted_lines():
        return score_weighted(traveller, lambda t: score_cross_imps(t, rules))
    size = len(traveller)
    ns_num = np.zeros(size, np.int64)
    den = np.ones(size, np.int64)
    widest = 1
    for idx in traveller.real_groups():
        n = idx.size
        ns_num[idx] = raw_cross_imps(traveller.scores[idx], rules.cap)
        if rules.divisor is CrossImpDivisor.AVERAGE and n > 1:
            den[idx] = n - 1
        widest = max(widest, n - 1)
    ew_num = -ns_num
    factor = widest if rules.divisor is CrossImpDivisor.TOTAL else 1
    apply_imp_awards(traveller, rules.awards, ns_num, ew_num, den, factor)
    return BoardScore(traveller, ScoreKind.IMPS, ns_num, ew_num, den)
