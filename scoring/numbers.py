"""Exact rounding rules (decisions D4): values stay exact; rounding is for display."""

from __future__ import annotations

import math
from fractions import Fraction


def round_half_away(x: Fraction | int) -> int:
    """Nearest integer, halves away from zero."""
    x = Fraction(x)
    n = math.floor(abs(x) + Fraction(1, 2))
    return n if x >= 0 else -n


def round_half_even(x: Fraction | int) -> int:
    """Nearest integer, halves to the even neighbour."""
    return round(Fraction(x))


def display(x: Fraction | int | float, decimals: int) -> str:
    """A value rounded half-up (away from zero) to ``decimals`` places, as text."""
    scaled = round_half_away(Fraction(x) * 10**decimals)
    sign = "-" if scaled < 0 else ""
    whole, frac = divmod(abs(scaled), 10**decimals)
    return f"{sign}{whole}.{frac:0{decimals}d}" if decimals > 0 else f"{sign}{whole}"


def as_float(x: Fraction | int) -> float:
    """A JSON-friendly float of an exact value."""
    return float(x)
