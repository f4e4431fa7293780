"""A traveller: all results of one board, as value types plus the arrays scoring runs on."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

import numpy as np

from scoring.contract import Play
from scoring.errors import ScoringInputError


class Token(Enum):
    """Artificial adjusted scores by name (Law 12C2): average-plus, average, average-minus."""

    AVE_PLUS = "A+"
    AVE = "A"
    AVE_MINUS = "A-"


Award = Fraction | Token
"""One side's artificial award: a percentage, or a token the event converts."""

_TOKENS = {
    "A+": Token.AVE_PLUS,
    "A": Token.AVE,
    "A-": Token.AVE_MINUS,
    "AVE+": Token.AVE_PLUS,
    "AVE": Token.AVE,
    "AVE-": Token.AVE_MINUS,
}


@dataclass(frozen=True, slots=True)
class Artificial:
    """An artificial score for both sides, e.g. 60/40, 40/40, A+/A-, or 60/A-."""

    ns: Award
    ew: Award

    @classmethod
    def parse(cls, text: str) -> Artificial:
        """Parse ``P/Q`` (percent for NS/EW) or tokens such as ``A+/A-``."""
        raw = (text or "").strip().upper().replace(" ", "").replace("%", "")
        parts = raw.split("/")
        if len(parts) != 2 or not all(parts):
            raise ScoringInputError(
                "adjusted",
                f"adjusted score {text!r} is not valid: write NS%/EW% such as 60/40, "
                "or A+, A, A- per side such as A+/A-",
            )
        return cls(_parse_award(parts[0], text), _parse_award(parts[1], text))

    def __str__(self) -> str:
        def one(a: Award) -> str:
            return a.value if isinstance(a, Token) else f"{float(a):g}"

        return f"{one(self.ns)}/{one(self.ew)}"


def _parse_award(part: str, text: str) -> Award:
    if part in _TOKENS:
        return _TOKENS[part]
    if re.fullmatch(r"\d{1,3}(\.\d+)?", part):
        pct = Fraction(part)
        if pct <= 100:
            return pct
    raise ScoringInputError(
        "adjusted",
        f"adjusted score {text!r}: {part!r} must be a percentage 0-100 or A+, A, A-",
    )


@dataclass(frozen=True, slots=True)
class TravellerLine:
    """One table's result on a board.

    ``ns``/``ew`` are pair numbers. A played result has ``score_ns``; an artificial one has
    ``artificial`` instead. ``group`` separates versions of a fouled board: results are
    compared only within their group.
    """

    ns: int
    ew: int
    score_ns: int | None = None
    artificial: Artificial | None = None
    group: int = 0
    play: Play | None = None
    round: int | None = None

    def __post_init__(self) -> None:
        if self.ns < 1 or self.ew < 1:
            raise ScoringInputError(
                "pair", f"pair numbers are 1 or more, got {self.ns} and {self.ew}"
            )
        if (self.score_ns is None) == (self.artificial is None):
            raise ScoringInputError(
                "score_ns", "a result has either a score or an artificial adjusted score"
            )


@dataclass(frozen=True, eq=False)
class Traveller:
    """All results of one board, with numpy views of them for fast scoring."""

    board: int
    lines: tuple[TravellerLine, ...]
    scores: np.ndarray = field(repr=False)
    real: np.ndarray = field(repr=False)
    groups: np.ndarray = field(repr=False)
    ns_pairs: np.ndarray = field(repr=False)
    ew_pairs: np.ndarray = field(repr=False)

    @classmethod
    def of(cls, board: int, lines: list[TravellerLine] | tuple[TravellerLine, ...]) -> Traveller:
        lines = tuple(lines)
        scores = np.fromiter(
            (0 if ln.score_ns is None else ln.score_ns for ln in lines), np.int64, len(lines)
        )
        real = np.fromiter((ln.artificial is None for ln in lines), bool, len(lines))
        groups = np.fromiter((ln.group for ln in lines), np.int64, len(lines))
        ns = np.fromiter((ln.ns for ln in lines), np.int64, len(lines))
        ew = np.fromiter((ln.ew for ln in lines), np.int64, len(lines))
        return cls(board, lines, scores, real, groups, ns, ew)

    def with_line(self, line: TravellerLine) -> Traveller:
        """This traveller with one more result: O(n) copies, no per-line Python work."""
        return Traveller(
            self.board,
            (*self.lines, line),
            np.append(self.scores, 0 if line.score_ns is None else line.score_ns),
            np.append(self.real, line.artificial is None),
            np.append(self.groups, line.group),
            np.append(self.ns_pairs, line.ns),
            np.append(self.ew_pairs, line.ew),
        )

    def up_to_round(self, last_round: int) -> Traveller:
        """The results of rounds 1..``last_round`` (lines without a round are kept)."""
        keep = [ln for ln in self.lines if ln.round is None or ln.round <= last_round]
        return self if len(keep) == len(self.lines) else Traveller.of(self.board, keep)

    def __len__(self) -> int:
        return len(self.lines)

    def real_groups(self) -> list[np.ndarray]:
        """Indices of the played results, one array per group (fouled-board version)."""
        idx = np.flatnonzero(self.real)
        if idx.size == 0:
            return []
        g = self.groups[idx]
        if (g == g[0]).all():
            return [idx]
        return [idx[g == v] for v in np.unique(g)]
