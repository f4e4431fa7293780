"""Artificial adjusted scores at IMP scoring (Law 86A: average-plus is +3 IMPs)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from scoring.traveller import Award, Token, Traveller


@dataclass(frozen=True)
class ImpAwards:
    """IMPs for artificial scores: A+ = +3, A = 0, A− = −3 unless the event says otherwise.

    A percentage award is converted linearly, ``per_10_percent`` IMPs for every 10 % away
    from 50 % (default 3, so that 60 % equals average-plus).
    """

    ave_plus: Fraction = Fraction(3)
    ave: Fraction = Fraction(0)
    ave_minus: Fraction = Fraction(-3)
    per_10_percent: Fraction = Fraction(3)

    def imps(self, award: Award) -> Fraction:
        if award is Token.AVE_PLUS:
            return self.ave_plus
        if award is Token.AVE:
            return self.ave
        if award is Token.AVE_MINUS:
            return self.ave_minus
        return (Fraction(award) - 50) * self.per_10_percent / 10


def apply_imp_awards(
    traveller: Traveller,
    awards: ImpAwards,
    ns_num: np.ndarray,
    ew_num: np.ndarray,
    den: np.ndarray,
    factor: int = 1,
) -> None:
    """Write the IMPs of each artificial line (times ``factor``) into the score arrays."""
    for i in np.flatnonzero(~traveller.real):
        art = traveller.lines[i].artificial
        assert art is not None
        ns = awards.imps(art.ns) * factor
        ew = awards.imps(art.ew) * factor
        d = math.lcm(ns.denominator, ew.denominator)
        ns_num[i], ew_num[i], den[i] = ns * d, ew * d, d
