"""A traveller: all results of one board, as value types plus the arrays scoring runs on."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

import numpy as np

from scoring.contract import Play, parse_play
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


MAX_WEIGHTED_PARTS = 6
_WEIGHTED = re.compile(r"^\s*[\d./]+%?\s+(?:[1-7]|P)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class WeightedPart:
    """One component of a weighted score (Law 12C1(c)): a result and its weight."""

    weight: Fraction
    play: Play

    def __str__(self) -> str:
        return f"{self.weight} {self.play}"


@dataclass(frozen=True, slots=True)
class Artificial:
    """An adjusted score the director gives a table. Artificial (Law 12C2): an award per
    side, e.g. 60/40, 40/40, A+/A-, or 60/A-. Or assigned and weighted (Law 12C1(c)):
    ``parts``, results whose weights sum to 1, e.g. ``1/2 4S N =; 1/2 4S N -1``; each part
    is scored as if it were the table's result and the scores weighted (``scoring.weighted``).
    """

    ns: Award
    ew: Award
    parts: tuple[WeightedPart, ...] = ()

    @property
    def weighted(self) -> bool:
        return bool(self.parts)

    @classmethod
    def parse(cls, text: str) -> Artificial:
        """Parse ``P/Q`` (percent for NS/EW), tokens such as ``A+/A-``, or a weighted score
        ``W CONTRACT DECLARER RESULT; ...`` (weights such as ``1/2``, ``0.25``, ``30%``)."""
        if _WEIGHTED.match(text or ""):
            return cls.weighted_of(_parse_parts(text))
        raw = (text or "").strip().upper().replace(" ", "").replace("%", "")
        parts = raw.split("/")
        if len(parts) != 2 or not all(parts):
            raise ScoringInputError(
                "adjusted",
                f"adjusted score {text!r} is not valid: write NS%/EW% such as 60/40, "
                "or A+, A, A- per side such as A+/A-, or a weighted score such as "
                "'1/2 4S N =; 1/2 4S N -1'",
            )
        return cls(_parse_award(parts[0], text), _parse_award(parts[1], text))

    @classmethod
    def weighted_of(cls, parts: list[WeightedPart] | tuple[WeightedPart, ...]) -> Artificial:
        """A weighted score from its parts, checked: 2 to 6 parts, weights above 0 summing
        to exactly 1."""
        parts = tuple(parts)
        if not 2 <= len(parts) <= MAX_WEIGHTED_PARTS:
            raise ScoringInputError(
                "weighted",
                f"a weighted score has 2 to {MAX_WEIGHTED_PARTS} results, got {len(parts)}",
            )
        if any(p.weight <= 0 for p in parts):
            raise ScoringInputError("weighted", "every weight of a weighted score is above 0")
        total = sum((p.weight for p in parts), Fraction(0))
        if total != 1:
            raise ScoringInputError(
                "weighted", f"the weights of a weighted score sum to 1, these sum to {total}"
            )
        return cls(Token.AVE, Token.AVE, parts)

    def __str__(self) -> str:
        if self.parts:
            return "; ".join(str(p) for p in self.parts)

        def one(a: Award) -> str:
            return a.value if isinstance(a, Token) else f"{float(a):g}"

        return f"{one(self.ns)}/{one(self.ew)}"


MAX_WEIGHT_DENOMINATOR = 100  # 1/2, 1/3, 0.25, 12.5 %: a TD's weights; finer ones overflow
_WEIGHT = re.compile(r"\d{1,3}/\d{1,3}|\d?\.\d{1,3}|[01]|\d{1,3}(?:\.\d{1,2})?%")


def parse_weight(text: str) -> Fraction:
    """A weight: ``1/2``, ``0.25`` or ``30%``, its denominator at most 100. Only these plain
    forms: ``Fraction`` would also read ``1e-99999999``, and take minutes to."""
    raw = (text or "").strip()
    if not _WEIGHT.fullmatch(raw):
        raise ScoringInputError("weighted", f"weight {text!r} is not valid: write 1/2, 0.25 or 30%")
    try:
        weight = Fraction(raw[:-1]) / 100 if raw.endswith("%") else Fraction(raw)
    except (ValueError, ZeroDivisionError):
        raise ScoringInputError(
            "weighted", f"weight {text!r} is not valid: write 1/2, 0.25 or 30%"
        ) from None
    if weight.denominator > MAX_WEIGHT_DENOMINATOR:
        raise ScoringInputError(
            "weighted",
            f"weight {text!r} is finer than hundredths: write a weight such as 1/3, 1/8, "
            "0.25 or 30%",
        )
    return weight


def _parse_parts(text: str) -> list[WeightedPart]:
    """``W CONTRACT DECLARER RESULT; ...`` (``W PASS`` for a pass-out) as parts."""
    out = []
    for chunk in text.split(";"):
        words = chunk.split()
        if len(words) == 2:  # a pass-out
            play = parse_play(words[1])
        elif len(words) == 4:
            play = parse_play(words[1], words[2], words[3])
        else:
            raise ScoringInputError(
                "weighted",
                f"weighted score part {chunk.strip()!r}: write WEIGHT CONTRACT DECLARER "
                "RESULT, e.g. 1/2 4S N -1",
            )
        out.append(WeightedPart(parse_weight(words[0]), play))
    return out


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

    def weighted_lines(self) -> list[int]:
        """Indices of the lines with a weighted score (Law 12C1(c))."""
        return [i for i, ln in enumerate(self.lines) if ln.artificial and ln.artificial.parts]

    def real_groups(self) -> list[np.ndarray]:
        """Indices of the played results, one array per group (fouled-board version)."""
        idx = np.flatnonzero(self.real)
        if idx.size == 0:
            return []
        g = self.groups[idx]
        if (g == g[0]).all():
            return [idx]
        return [idx[g == v] for v in np.unique(g)]
