"""The WBF IMP table (Law 78B), for single values and numpy arrays."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from scoring.numbers import round_half_away

# Lower bound of each IMP step: IMPs = how many of these are <= |difference|.
IMP_THRESHOLDS: tuple[int, ...] = (
    20,
    50,
    90,
    130,
    170,
    220,
    270,
    320,
    370,
    430,
    500,
    600,
    750,
    900,
    1100,
    1300,
    1500,
    1750,
    2000,
    2250,
    2500,
    3000,
    3500,
    4000,
)
_THRESH = np.array(IMP_THRESHOLDS, dtype=np.int64)


def imps(difference: int | Fraction, cap: int | None = None) -> int:
    """IMPs for a points difference; the sign follows the difference.

    A difference that is not a multiple of 10 (a datum or an average) is first rounded to
    the nearest 10, halves away from zero (decisions D4). ``cap`` limits the IMPs of one
    comparison (e.g. 17 in Polish cross-IMP pairs).
    """
    d = round_half_away(Fraction(difference) / 10) * 10
    mag = int(np.searchsorted(_THRESH, abs(d), side="right"))
    if cap is not None:
        mag = min(mag, cap)
    return mag if d >= 0 else -mag


def imps_array(differences: np.ndarray, cap: int | None = None) -> np.ndarray:
    """Vectorised ``imps`` for integer differences (int64 array in, int64 array out)."""
    d = np.asarray(differences, dtype=np.int64)
    mag = np.abs(d)
    mag = (mag + 5) // 10 * 10  # nearest 10, halves away from zero
    out = np.searchsorted(_THRESH, mag, side="right").astype(np.int64)
    if cap is not None:
        np.minimum(out, cap, out=out)
    return np.where(d < 0, -out, out)
