"""Fast balance arithmetic for movement generators (Manning's amount of competition).

With D[set, pair] = +1 (NS) / −1 (EW) / 0 (not played), the same-or-opposite-direction
part of the competition between every two pairs is Dᵀ·D; the meeting bonus M (the times a
set is played, for two pairs that meet on it) does not depend on who sits which way, so
generators move directions to minimise the spread of Dᵀ·D + M.
"""

from __future__ import annotations

import numpy as np


def spread(directions: np.ndarray, meetings: np.ndarray | float = 0.0) -> float:
    """Σ over pairs of pairs of (competition − mean)²: 0 for a perfectly balanced movement."""
    c = directions.T @ directions + meetings
    iu = np.triu_indices(c.shape[0], 1)
    vals = c[iu]
    return float(((vals - vals.mean()) ** 2).sum())


def flip_gain(c: np.ndarray, d_row: np.ndarray, a: int, b: int, mean: float) -> float:
    """Change of ``spread`` when pairs ``a`` and ``b`` both change direction on one set."""
    gain = 0.0
    for p in (a, b):
        delta = -2.0 * d_row[p] * d_row
        delta[[a, b]] = 0.0
        gain += float(((c[p] + delta - mean) ** 2 - (c[p] - mean) ** 2).sum())
    return gain
