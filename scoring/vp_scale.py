"""Victory-point scales: WBF continuous and discrete 20-0, and tables a TD supplies.

A scale maps a match's IMP margin and number of boards to (winner VP, loser VP). VPs are
exact ``Fraction`` values (hundredths for the WBF scales).
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Protocol

from scoring.errors import ScoringInputError
from scoring.numbers import round_half_away

TAU = (math.sqrt(5) - 1) / 2
R = TAU**3


class VPScale(Protocol):
    """What every scale offers: a lookup for a whole, non-negative IMP margin."""

    @property
    def name(self) -> str:
        """The scale's name as events refer to it."""
        ...

    def lookup(self, boards: int, imps: int) -> tuple[Fraction, Fraction]:
        """(winner VP, loser VP) for a margin of ``imps`` ≥ 0 in a match of ``boards``."""
        ...


def _check_boards(boards: int) -> None:
    if not isinstance(boards, int) or boards < 1:
        raise ScoringInputError("boards", f"a match has at least 1 board, got {boards!r}")


def blitz(boards: int) -> float:
    """The WBF blitz margin 15·√N: at or beyond it the winner has 20 VP."""
    return 15 * math.sqrt(boards)


@cache
def wbf_continuous_table(boards: int) -> tuple[int, ...]:
    """Winner VP in hundredths for margins 0, 1, … up to the first 20.00 (WBF 2013 scale).

    Built as the WBF tables are: the raw curve rounded half-up to 2 dp, then corrected so
    that no step is larger than the step before it (each extra IMP is worth no more).
    """
    _check_boards(boards)
    b = blitz(boards)
    values: list[int] = []
    m = 0
    while True:
        raw = 20.0 if m >= b else 10 + 10 * (1 - R ** (m / b)) / (1 - R)
        v = min(2000, math.floor(raw * 100 + 0.5))
        values.append(v)
        if v >= 2000:
            break
        m += 1
    changed = True
    while changed:
        changed = False
        for k in range(2, len(values)):
            if values[k] - values[k - 1] > values[k - 1] - values[k - 2]:
                values[k - 1] += 1
                changed = True
                break
    return tuple(values)


@dataclass(frozen=True)
class WBFContinuousScale:
    """The WBF continuous 20-0 scale for any number of boards."""

    name: str = "wbf_continuous_20"

    def lookup(self, boards: int, imps: int) -> tuple[Fraction, Fraction]:
        table = wbf_continuous_table(boards)
        w = table[min(imps, len(table) - 1)]
        return Fraction(w, 100), Fraction(2000 - w, 100)


@cache
def wbf_discrete_bounds(boards: int) -> tuple[int, ...]:
    """Upper IMP bound of the bands for 10, 11, …, 19 VP on the WBF discrete 20-0 scale.

    Inverts the continuous curve at 10.5, 11.5, …, 19.5 VP and floors; then widens bands so
    the 11-VP band is at least as wide as the draw band (−u₀…u₀) and each later band at
    least as wide as the one before (the EBU generator's rule).
    """
    _check_boards(boards)
    b = blitz(boards)
    bounds = [
        math.floor(b * math.log(1 - (1 - R) * ((10.5 + k) / 10 - 1)) / math.log(R))
        for k in range(10)
    ]
    while True:
        widths = [2 * bounds[0] + 1] + [bounds[k] - bounds[k - 1] for k in range(1, 10)]
        bad = next((k for k in range(1, 10) if widths[k] < widths[k - 1]), None)
        if bad is None:
            return tuple(bounds)
        bounds[bad - 1] -= 1


@dataclass(frozen=True)
class WBFDiscreteScale:
    """The WBF discrete (whole-VP) 20-0 scale."""

    name: str = "wbf_discrete_20"

    def lookup(self, boards: int, imps: int) -> tuple[Fraction, Fraction]:
        bounds = wbf_discrete_bounds(boards)
        w = 10 + sum(1 for u in bounds if imps > u)
        return Fraction(w), Fraction(20 - w)


@dataclass(frozen=True, slots=True)
class Band:
    """One row of a VP table file: margins ``imps_from``…``imps_to`` (None: and above)."""

    imps_from: int
    imps_to: int | None
    winner: Fraction
    loser: Fraction


@dataclass(frozen=True)
class TableScale:
    """A scale read from a table file (25-0 and national scales), by board-count ranges."""

    name: str
    tables: tuple[tuple[int, int | None, tuple[Band, ...]], ...] = field(repr=False)

    def bands(self, boards: int) -> tuple[Band, ...]:
        _check_boards(boards)
        for lo, hi, bands in self.tables:
            if boards >= lo and (hi is None or boards <= hi):
                return bands
        raise ScoringInputError(
            "boards", f"VP table {self.name!r} has no scale for a match of {boards} boards"
        )

    def lookup(self, boards: int, imps: int) -> tuple[Fraction, Fraction]:
        for band in self.bands(boards):
            if imps >= band.imps_from and (band.imps_to is None or imps <= band.imps_to):
                return band.winner, band.loser
        raise AssertionError("validated tables cover every margin")  # pragma: no cover


def _parse_boards(spec: str, where: str) -> tuple[int, int | None]:
    spec = spec.strip()
    if spec in ("*", ""):
        return 1, None
    try:
        if "-" in spec:
            lo, hi = spec.split("-", 1)
            return int(lo), (int(hi) if hi.strip() else None)
        return int(spec), int(spec)
    except ValueError:
        raise ScoringInputError(
            "boards", f"{where}: boards {spec!r} must be N, A-B, A- or *"
        ) from None


def parse_vp_table(text: str, name: str = "table") -> TableScale:
    """Read a VP table: CSV ``boards,imps_from,imps_to,winner,loser`` (``#`` comments).

    Per board range the bands must start at 0, be contiguous, end open (empty
    ``imps_to``), with the winner's VP never falling and the loser's never rising.
    """
    rows = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    reader = csv.DictReader(io.StringIO("\n".join(rows)))
    need = {"boards", "imps_from", "imps_to", "winner", "loser"}
    if reader.fieldnames is None or not need <= {f.strip() for f in reader.fieldnames}:
        raise ScoringInputError(
            "vp_table", f"VP table {name!r} needs the columns {', '.join(sorted(need))}"
        )
    groups: dict[tuple[int, int | None], list[Band]] = {}
    for i, row in enumerate(reader, start=2):
        where = f"VP table {name!r}, row {i}"
        row = {k.strip(): (v or "").strip() for k, v in row.items() if k}
        rng = _parse_boards(row["boards"], where)
        try:
            band = Band(
                int(row["imps_from"]),
                int(row["imps_to"]) if row["imps_to"] else None,
                Fraction(row["winner"]),
                Fraction(row["loser"]),
            )
        except ValueError:
            raise ScoringInputError("vp_table", f"{where}: numbers expected") from None
        groups.setdefault(rng, []).append(band)
    if not groups:
        raise ScoringInputError("vp_table", f"VP table {name!r} has no rows")
    for (lo, hi), bands in groups.items():
        label = f"VP table {name!r}, boards {lo}-{hi if hi else ''}"
        bands.sort(key=lambda b: b.imps_from)
        expect = 0
        for k, band in enumerate(bands):
            if band.imps_from != expect:
                raise ScoringInputError(
                    "vp_table",
                    f"{label}: bands must be contiguous from 0; "
                    f"expected a band from {expect} IMPs, found {band.imps_from}",
                )
            if k > 0 and (band.winner < bands[k - 1].winner or band.loser > bands[k - 1].loser):
                raise ScoringInputError(
                    "vp_table",
                    f"{label}: VPs must not favour the loser more at "
                    f"{band.imps_from} IMPs than at smaller margins",
                )
            if band.imps_to is None:
                if k != len(bands) - 1:
                    raise ScoringInputError(
                        "vp_table", f"{label}: only the last band may be open-ended"
                    )
                break
            if band.imps_to < band.imps_from:
                raise ScoringInputError(
                    "vp_table", f"{label}: band {band.imps_from}-{band.imps_to} is empty"
                )
            expect = band.imps_to + 1
        else:
            raise ScoringInputError("vp_table", f"{label}: the last band must be open-ended")
    ordered = sorted(groups.items(), key=lambda kv: kv[0][0])
    return TableScale(name, tuple((lo, hi, tuple(b)) for (lo, hi), b in ordered))


BUILT_IN: dict[str, VPScale] = {
    "wbf_continuous_20": WBFContinuousScale(),
    "wbf_discrete_20": WBFDiscreteScale(),
}


def builtin_scale(name: str) -> VPScale:
    """A built-in scale by name (table files are read by the hub: hub/vp_table_file.py)."""
    try:
        return BUILT_IN[name]
    except KeyError:
        raise ScoringInputError(
            "scale", f"unknown VP scale {name!r}: use {', '.join(BUILT_IN)} or a table file"
        ) from None


def match_vps(
    scale: VPScale,
    boards: int,
    margin: Fraction | int,
    *,
    a_won_total_points: bool | None = None,
    interpolate: bool = False,
) -> tuple[Fraction, Fraction]:
    """VPs of sides A and B for a margin of IMPs A − B (may be fractional).

    Fractional margins are rounded to a whole IMP, halves towards the side that won on
    total points (halves away from zero when that is not given) (decisions D5), unless
    ``interpolate`` asks for linear interpolation between the neighbouring whole margins.
    """
    margin = Fraction(margin)
    mag = abs(margin)
    if interpolate and mag.denominator != 1:
        lo = math.floor(mag)
        w_lo, l_lo = scale.lookup(boards, lo)
        w_hi, l_hi = scale.lookup(boards, lo + 1)
        t = mag - lo
        w, loser = w_lo + (w_hi - w_lo) * t, l_lo + (l_hi - l_lo) * t
    else:
        if margin.denominator == 2 and a_won_total_points is not None:
            towards_a = a_won_total_points
            whole = math.floor(margin) + (1 if towards_a else 0)
        else:
            whole = round_half_away(margin)
        if whole == 0:
            w, loser = scale.lookup(boards, 0)
            return w, loser
        w, loser = scale.lookup(boards, abs(whole))
        return (w, loser) if whole > 0 else (loser, w)
    return (w, loser) if margin > 0 else (loser, w)
