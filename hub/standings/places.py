"""Places in the standings as the console and the result screen show them, and the one
overall ranking of every section of a pairs event."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rich.text import Text


def place(rank: str) -> int:
    """The place in a rank such as ``"3="``."""
    digits = "".join(ch for ch in str(rank) if ch.isdigit())
    return int(digits) if digits else 0


def moved_text(moved: int | None) -> Text:
    """Places gained (▲3, green) or lost (▼2, red) since the previous standings."""
    if not moved:
        return Text("")
    return (
        Text(f"▲{moved}", style="bold green") if moved > 0 else Text(f"▼{-moved}", style="bold red")
    )


@dataclass(frozen=True, slots=True)
class OverallPlace:
    """One entrant in the overall ranking: its place (``"3="`` when shared), its section
    and its standings row as the feed sent it."""

    rank: str
    section: str
    row: Mapping[str, Any]


def overall_ranking(
    sections: Iterable[tuple[str, Iterable[Mapping[str, Any]]]],
) -> list[OverallPlace]:
    """Every section's entrants in one ranking by their exact total (``row["total"]``,
    ``str(Fraction)``: percentages, or IMPs, are comparable across the sections of one
    pairs event), best first. Level totals share the place (1=, 1=, 3): ties are ties of
    exact values (decisions D4), never of rounded or float ones. Entrants on the same
    total keep the order of ``sections`` and of their rows."""
    entries = [
        (Fraction(str(row["total"])), section, row) for section, rows in sections for row in rows
    ]
    entries.sort(key=lambda e: -e[0])
    out: list[OverallPlace] = []
    start = 0
    while start < len(entries):
        end = start
        while end < len(entries) and entries[end][0] == entries[start][0]:
            end += 1
        rank = f"{start + 1}{'=' if end - start > 1 else ''}"
        out += [OverallPlace(rank, section, row) for _, section, row in entries[start:end]]
        start = end
    return out
