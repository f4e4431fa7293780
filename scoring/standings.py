"""Pair standings: exact totals over any set of boards, places, and pair tie-breaks.

At MP a pair's total is Σ matchpoints ÷ Σ tops × 100; at IMP scoring the sum of its IMPs
(decisions D6). ``Tally`` keeps integer sums per denominator, so totals stay exact while a
board of thousands of results is added or replaced with numpy.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from scoring.board import Side
from scoring.board_score import BoardScore, ScoreKind
from scoring.errors import ScoringInputError
from scoring.tie_break import Placed, place_entrants


@dataclass(frozen=True, order=True, slots=True)
class PairKey:
    """A pair: its number, and its direction in a two-winner (Mitchell) field."""

    number: int
    direction: str | None = None

    def __str__(self) -> str:
        return f"{self.direction} {self.number}" if self.direction else str(self.number)


def pair_keys(number: int, side: Side, winners: int) -> PairKey:
    return PairKey(number, side.value if winners == 2 else None)


@dataclass(frozen=True, slots=True)
class PairTotal:
    """Exact totals of one pair: ``total`` is a percentage at MP, IMPs at IMP scoring."""

    pair: PairKey
    points: Fraction
    top: int | None
    boards: int

    @property
    def total(self) -> Fraction:
        if self.top is None:
            return self.points
        return self.points * 100 / self.top if self.top else Fraction(50)


@dataclass(frozen=True, slots=True)
class Standing:
    """A line of the standings."""

    total: PairTotal
    placed: Placed

    @property
    def pair(self) -> PairKey:
        return self.total.pair

    @property
    def rank(self) -> str:
        return self.placed.rank


@dataclass
class _BoardEntry:
    score: BoardScore
    ns_idx: np.ndarray
    ew_idx: np.ndarray


class Tally:
    """Running exact totals for a field; replace a board's scores as results arrive."""

    def __init__(self, kind: ScoreKind, winners: int = 2) -> None:
        if winners not in (1, 2):
            raise ScoringInputError("winners", f"winners must be 1 or 2, got {winners}")
        self.kind = kind
        self.winners = winners
        self._index: dict[PairKey, int] = {}
        self._keys: list[PairKey] = []
        # pair number → index, one array per direction (both the same at one winner)
        self._lookup: dict[Side, np.ndarray] = {
            Side.NS: np.full(0, -1, np.int64),
            Side.EW: np.full(0, -1, np.int64),
        }
        self._sums: dict[int, np.ndarray] = {}
        self._tops = np.zeros(0, np.int64)
        self._boards = np.zeros(0, np.int64)
        self._entries: dict[int, _BoardEntry] = {}
        self._adjustments: dict[PairKey, Fraction] = {}

    def adjust(self, pair: PairKey, points: Fraction | int) -> None:
        """Add (or with a minus, take) points to a pair's total: a confirmed penalty, in MPs
        at matchpoints or IMPs at IMP scoring."""
        self._adjustments[pair] = self._adjustments.get(pair, Fraction(0)) + Fraction(points)

    # -- pairs --------------------------------------------------------------------------
    def _pair_index(self, number: int, side: Side) -> int:
        key = pair_keys(number, side, self.winners)
        i = self._index.get(key)
        if i is None:
            i = self._index[key] = len(self._keys)
            self._keys.append(key)
        return i

    def _indices(self, numbers: np.ndarray, side: Side) -> np.ndarray:
        """Tally indices of pair numbers, registering pairs seen for the first time."""
        lookup_side = side if self.winners == 2 else Side.NS
        table = self._lookup[lookup_side]
        top = int(numbers.max(initial=0))
        if top >= table.size:
            table = np.concatenate([table, np.full(top + 1 - table.size + 64, -1, np.int64)])
            self._lookup[lookup_side] = table
        idx = table[numbers]
        if (idx < 0).any():
            for number in np.unique(numbers[idx < 0]).tolist():
                table[number] = self._pair_index(number, side)
            idx = table[numbers]
        return idx

    def _grow(self) -> None:
        n = len(self._keys)
        if self._tops.size < n:
            size = max(n, 2 * self._tops.size, 64)
            pad = size - self._tops.size
            self._tops = np.concatenate([self._tops, np.zeros(pad, np.int64)])
            self._boards = np.concatenate([self._boards, np.zeros(pad, np.int64)])
            for d, arr in self._sums.items():
                self._sums[d] = np.concatenate([arr, np.zeros(pad, np.int64)])

    # -- boards -------------------------------------------------------------------------
    def _apply(self, entry: _BoardEntry, sign: int) -> None:
        s = entry.score
        size = self._tops.size
        idx = np.concatenate([entry.ns_idx, entry.ew_idx])
        num = np.concatenate([s.ns_num, s.ew_num])
        den = np.concatenate([s.den, s.den])
        for d in np.unique(den):
            sel = den == d
            add = np.bincount(idx[sel], weights=num[sel], minlength=size)
            arr = self._sums.get(int(d))
            if arr is None:
                arr = self._sums[int(d)] = np.zeros(size, np.int64)
            arr += sign * np.rint(add).astype(np.int64)
        if s.top is not None:
            tops = np.concatenate([s.top, s.top])
            self._tops += sign * np.rint(np.bincount(idx, weights=tops, minlength=size)).astype(
                np.int64
            )
        self._boards += sign * np.bincount(idx, minlength=size)

    def set_board(self, score: BoardScore) -> None:
        """Add a scored board, replacing whatever was tallied for that board before."""
        if score.kind is not self.kind:
            raise ScoringInputError("method", "a tally adds boards of one scoring method")
        ns_idx = self._indices(score.traveller.ns_pairs, Side.NS)
        ew_idx = self._indices(score.traveller.ew_pairs, Side.EW)
        self._grow()
        old = self._entries.pop(score.board, None)
        if old is not None:
            self._apply(old, -1)
        entry = _BoardEntry(score, ns_idx, ew_idx)
        self._apply(entry, +1)
        self._entries[score.board] = entry

    def remove_board(self, board: int) -> None:
        old = self._entries.pop(board, None)
        if old is not None:
            self._apply(old, -1)

    @property
    def boards(self) -> list[BoardScore]:
        return [e.score for _, e in sorted(self._entries.items())]

    # -- totals -------------------------------------------------------------------------
    def totals(self) -> list[PairTotal]:
        """Exact totals of every pair with at least one board."""
        out = []
        for i, key in enumerate(self._keys):
            if self._boards[i] == 0:
                continue
            points = sum(
                (Fraction(int(a[i]), d) for d, a in self._sums.items() if a[i]), Fraction(0)
            ) + self._adjustments.get(key, Fraction(0))
            if self.kind is ScoreKind.MATCHPOINTS:
                out.append(PairTotal(key, points, int(self._tops[i]), int(self._boards[i])))
            else:
                out.append(PairTotal(key, points, None, int(self._boards[i])))
        return out

    def board_scores_of(self, pair: PairKey) -> dict[int, Fraction]:
        """The pair's board score (percent or IMPs) on every board it played."""
        i = self._index.get(pair)
        out: dict[int, Fraction] = {}
        if i is None:
            return out
        for board, e in self._entries.items():
            for idx_arr, side in ((e.ns_idx, Side.NS), (e.ew_idx, Side.EW)):
                hit = np.flatnonzero(idx_arr == i)
                if hit.size:
                    out[board] = e.score.score(int(hit[0]), side)
        return out

    def opponents_on(self, pair: PairKey) -> dict[int, PairKey]:
        """Who the pair met on each board."""
        i = self._index.get(pair)
        out: dict[int, PairKey] = {}
        if i is None:
            return out
        for board, e in self._entries.items():
            hit = np.flatnonzero(e.ns_idx == i)
            if hit.size:
                out[board] = self._keys[int(e.ew_idx[hit[0]])]
            hit = np.flatnonzero(e.ew_idx == i)
            if hit.size:
                out[board] = self._keys[int(e.ns_idx[hit[0]])]
        return out


# -- pair tie-breaks ---------------------------------------------------------------------
PAIR_TIE_BREAKS = ("boards_with_positive_imps", "boards_won_between", "h2h_score", "lot")


def _pair_primitives(tally: Tally) -> dict:
    cache: dict[PairKey, dict[int, Fraction]] = {}

    def scores(p: PairKey) -> dict[int, Fraction]:
        if p not in cache:
            cache[p] = tally.board_scores_of(p)
        return cache[p]

    def boards_with_positive_imps(group: Sequence[PairKey]) -> dict[PairKey, int]:
        """Seed 000 §6-4: more boards on which the pair scored positive IMPs."""
        return {p: sum(1 for v in scores(p).values() if v > 0) for p in group}

    def boards_won_between(group: Sequence[PairKey]) -> dict[PairKey, int]:
        """Seed 004: boards won between the tied pairs (better score on a board both played)."""
        out = {}
        for p in group:
            mine = scores(p)
            won = 0
            for q in group:
                if q == p:
                    continue
                theirs = scores(q)
                won += sum(1 for b, v in mine.items() if b in theirs and v > theirs[b])
            out[p] = won
        return out

    def h2h_score(group: Sequence[PairKey]) -> dict[PairKey, Fraction]:
        """Seed 004: the tied pairs' scores on the boards they played against each other."""
        members = set(group)
        out = {}
        for p in group:
            opp = tally.opponents_on(p)
            out[p] = sum((v for b, v in scores(p).items() if opp.get(b) in members), Fraction(0))
        return out

    return {
        "boards_with_positive_imps": boards_with_positive_imps,
        "boards_won_between": boards_won_between,
        "h2h_score": h2h_score,
    }


def standings(
    tally: Tally, tie_breaks: Sequence[str] = (), lot_seed: int | None = None
) -> list[Standing]:
    """Standings with places; pairs level on the exact total share a place unless the
    event's tie-break chain separates them (seed 002: exact ties share)."""
    totals = tally.totals()
    by_key = {t.pair: t for t in totals}
    placed = place_entrants(
        [t.pair for t in totals],
        {t.pair: t.total for t in totals},
        tie_breaks,
        _pair_primitives(tally),
        lot_seed,
        natural=lambda p: (p.direction or "", p.number),
    )
    return [Standing(by_key[p.key], p) for p in placed]


def standings_by_direction(
    tally: Tally, tie_breaks: Sequence[str] = (), lot_seed: int | None = None
) -> dict[str | None, list[Standing]]:
    """One list per direction in a two-winner field; one list (key None) otherwise."""
    if tally.winners == 1:
        return {None: standings(tally, tie_breaks, lot_seed)}
    out: dict[str | None, list[Standing]] = {}
    totals = tally.totals()
    prims = _pair_primitives(tally)
    for direction in ("NS", "EW"):
        group = [t for t in totals if t.pair.direction == direction]
        placed = place_entrants(
            [t.pair for t in group],
            {t.pair: t.total for t in group},
            tie_breaks,
            prims,
            lot_seed,
            natural=lambda p: p.number,
        )
        by_key = {t.pair: t for t in group}
        out[direction] = [Standing(by_key[p.key], p) for p in placed]
    return out


def tally_boards(scores: Iterable[BoardScore], kind: ScoreKind, winners: int = 2) -> Tally:
    """A tally of the given scored boards (e.g. the boards of rounds 1..r of a barometer)."""
    tally = Tally(kind, winners)
    for s in scores:
        tally.set_board(s)
    return tally
