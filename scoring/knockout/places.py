"""The final table of a knockout (issue [KNOCKOUT]): every team's place or shared range.

A bracket writes its place ranges for the full bracket ("17-32" for the round of 32's
losers); when fewer teams enter, the ranges are renumbered by the teams actually there,
in order, each taking as many consecutive places as it holds teams (21 teams: the R32
losers share 17-21). Teams sharing a range are listed by their rank before the knockout
(JFR's final table).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.knockout.bracket_check import place_range


@dataclass(frozen=True, slots=True)
class PlaceRow:
    """A team's final place: ``first`` the place or the first of the range it shares,
    ``last`` == ``first`` when alone."""

    team: str
    first: int
    last: int

    def __str__(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


def final_table(
    placed: Sequence[tuple[str, str | None]], entry_rank: Mapping[str, int]
) -> tuple[PlaceRow, ...]:
    """The rows of the teams placed so far, best first. ``placed``: every finishing
    position of the bracket that goes to a place and holds a team that is there (not a
    bye's missing team), as (the bracket's range text, the team or None while its match
    is not played); ``entry_rank``: each team's rank before the knockout."""
    ranges: dict[tuple[int, int], list[str | None]] = {}
    for text, team in placed:
        found = place_range(text)
        if found is None:
            raise ValueError(f"not a place range: {text!r}")  # the checker refuses these
        ranges.setdefault(found, []).append(team)
    rows: list[PlaceRow] = []
    first = 1
    for key in sorted(ranges):
        holders = ranges[key]
        last = first + len(holders) - 1
        known = sorted((t for t in holders if t is not None), key=lambda t: (entry_rank[t], t))
        rows.extend(PlaceRow(team, first, last) for team in known)
        first = last + 1
    return tuple(rows)
