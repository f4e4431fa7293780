"""The scored traveller: exact per-result values for both sides, held as integer arrays."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

import numpy as np

from scoring.board import Side
from scoring.traveller import Traveller, TravellerLine


class ScoreKind(Enum):
    """Matchpoints (scores are percentages) or IMPs (scores are IMPs)."""

    MATCHPOINTS = "mp"
    IMPS = "imps"


@dataclass(frozen=True, slots=True)
class ScoredLine:
    """One result with both sides' exact board scores (percent at MP, IMPs at IMP scoring)."""

    line: TravellerLine
    ns_score: Fraction
    ew_score: Fraction
    ns_mp: Fraction | None = None
    ew_mp: Fraction | None = None
    top: Fraction | None = None


@dataclass(frozen=True, eq=False)
class BoardScore:
    """Scores of every line on a board.

    Line *i* earns ``ns_num[i]/den[i]`` and ``ew_num[i]/den[i]`` points: matchpoints on the
    2/1 scale out of ``top[i]`` at MP, IMPs at IMP scoring. Integers keep every value exact
    and let standings add thousands of results with numpy.
    """

    traveller: Traveller
    kind: ScoreKind
    ns_num: np.ndarray
    ew_num: np.ndarray
    den: np.ndarray
    top: np.ndarray | None = None
    half_points: bool = False

    @property
    def board(self) -> int:
        return self.traveller.board

    def points(self, i: int, side: Side) -> Fraction:
        """Matchpoints (on the event's scale) or IMPs for one side of line ``i``."""
        num = self.ns_num[i] if side is Side.NS else self.ew_num[i]
        value = Fraction(int(num), int(self.den[i]))
        return value / 2 if self.half_points else value

    def score(self, i: int, side: Side) -> Fraction:
        """The board score shown on a traveller: percent at MP, IMPs at IMP scoring."""
        num = self.ns_num[i] if side is Side.NS else self.ew_num[i]
        if self.kind is ScoreKind.IMPS:
            return Fraction(int(num), int(self.den[i]))
        assert self.top is not None
        return Fraction(int(num) * 100, int(self.den[i]) * int(self.top[i]))

    def scored_lines(self) -> list[ScoredLine]:
        out = []
        for i, line in enumerate(self.traveller.lines):
            if self.kind is ScoreKind.MATCHPOINTS:
                assert self.top is not None
                top = Fraction(int(self.top[i]), 2 if self.half_points else 1)
                out.append(
                    ScoredLine(
                        line,
                        self.score(i, Side.NS),
                        self.score(i, Side.EW),
                        self.points(i, Side.NS),
                        self.points(i, Side.EW),
                        top,
                    )
                )
            else:
                out.append(ScoredLine(line, self.score(i, Side.NS), self.score(i, Side.EW)))
        return out


def fraction_arrays(values: list[Fraction]) -> tuple[np.ndarray, np.ndarray]:
    """Numerators and denominators of exact values as int64 arrays."""
    num = np.fromiter((v.numerator for v in values), np.int64, len(values))
    den = np.fromiter((v.denominator for v in values), np.int64, len(values))
    return num, den
