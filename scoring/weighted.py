"""Weighted scores (Law 12C1(c)): a table's result assigned as several results with weights.

Each part is scored as if it had been the table's result, and every score on the board is
the weighted sum: the weighted table gets Σ wₖ·(its score with part k), and each other table
Σ wₖ·(its score against part k). At matchpoints this is the EBU White Book's rule (each
part matchpointed against the rest of the field, and the other tables matchpointed against
each part, the weights applied to the matchpoints); at IMPs it is the weighted IMPs. With
several weighted tables on a board every combination of their parts is scored, weighted by
the product of the weights.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from scoring.board import board_vulnerability
from scoring.board_score import BoardScore
from scoring.errors import ScoringInputError
from scoring.law77 import score_ns
from scoring.traveller import Traveller, TravellerLine, WeightedPart

MAX_COMBINATIONS = 1024
INT64_MAX = 2**63 - 1  # the score arrays' integers


def _as_played(line: TravellerLine, part: WeightedPart, board: int) -> TravellerLine:
    score = score_ns(part.play, board_vulnerability(board))
    return TravellerLine(line.ns, line.ew, score, None, line.group, part.play, line.round)


def variants(traveller: Traveller) -> list[tuple[Fraction, Traveller]]:
    """Every combination of the weighted lines' parts, as a traveller of plain lines with
    the combination's weight (the weights sum to 1)."""
    where = traveller.weighted_lines()
    choices = []
    for i in where:
        art = traveller.lines[i].artificial
        assert art is not None
        choices.append(art.parts)
    if math.prod(len(c) for c in choices) > MAX_COMBINATIONS:
        raise ScoringInputError(
            "weighted",
            f"board {traveller.board} has too many weighted scores to combine "
            f"(more than {MAX_COMBINATIONS} combinations)",
        )
    out = []
    for combo in itertools.product(*choices):
        lines = list(traveller.lines)
        weight = Fraction(1)
        for i, part in zip(where, combo, strict=True):
            lines[i] = _as_played(lines[i], part, traveller.board)
            weight *= part.weight
        out.append((weight, Traveller.of(traveller.board, lines)))
    return out


def score_weighted(traveller: Traveller, scorer: Callable[[Traveller], BoardScore]) -> BoardScore:
    """Score a board that has weighted lines with ``scorer`` (the event's method, for plain
    travellers): each combination scored, every line's points weighted and summed. At
    matchpoints a line's top is the first combination's (they are the same unless the
    method's top depends on the results; then points are scaled to it)."""
    scored = [(w, scorer(t)) for w, t in variants(traveller)]
    first = scored[0][1]
    size = len(traveller)
    ns_num = np.zeros(size, np.int64)
    ew_num = np.zeros(size, np.int64)
    den = np.ones(size, np.int64)
    for i in range(size):
        ns = ew = Fraction(0)
        for w, s in scored:
            scale = Fraction(1)
            if first.top is not None and s.top is not None and s.top[i] != first.top[i]:
                scale = Fraction(int(first.top[i]), int(s.top[i]))
            ns += w * scale * Fraction(int(s.ns_num[i]), int(s.den[i]))
            ew += w * scale * Fraction(int(s.ew_num[i]), int(s.den[i]))
        d = math.lcm(ns.denominator, ew.denominator)
        exact = (ns.numerator * (d // ns.denominator), ew.numerator * (d // ew.denominator), d)
        if any(abs(x) > INT64_MAX for x in exact):  # a refusal, never an OverflowError
            raise ScoringInputError(
                "weighted",
                f"board {traveller.board}: its weighted scores' weights are too fine to "
                "combine; use simpler weights (1/2, 1/3, 1/4 …)",
            )
        ns_num[i], ew_num[i], den[i] = exact
    top = None if first.top is None else first.top.copy()
    return BoardScore(traveller, first.kind, ns_num, ew_num, den, top, first.half_points)
