"""What every kind of section's live scores offers the hub (decisions D17: one strategy per
kind of section behind one interface): results in, standings rows and travellers out.

Owned by the hub's asyncio loop: nothing here reads the store or runs in a worker thread;
the hub reads the store in a worker thread and hands the lines in.

Standings rows (the feed's format, decisions D4): exact values travel as ``str(Fraction)``
(``"1123/20"``) beside a display string made by ``scoring.numbers.display``.
- pairs: ``{"pair", "direction" ("NS"/"EW"/None), "name", "rank" ("3="), "boards",
  "total" (percent at MP, IMPs otherwise; exact), "text" (two decimals, signed at IMPs),
  "points" (exact), "top" (int, None at IMPs)}``
- teams: ``{"team", "pair" (the team number again, so a client can key rows alike),
  "direction": None, "name", "rank", "matches", "boards", "total" (VP, exact),
  "text" (two decimals), "imps" (net IMPs, exact)}``
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from hub.standings.left_out import LeftOut
from hub.store.store import LiveLine
from scoring.board_score import BoardScore


@dataclass(frozen=True, slots=True)
class TravellerRow:
    """One line of a board's traveller as a table is shown it."""

    ns_pair: int
    ew_pair: int
    contract: str  # "" for an artificial score
    declarer: str | None  # "N", "E", "S", "W"
    tricks: int | None
    score_ns: int  # 0 for an artificial score
    value: Fraction  # NS's matchpoint percentage, or NS's IMPs on the line


@dataclass(frozen=True, slots=True)
class TravellerView:
    """A table's own score on a board and the board's traveller as scored now."""

    section: str
    board: int
    own_score_ns: int
    own_value: Fraction
    imps: bool
    rows: tuple[TravellerRow, ...]


class SectionScores(Protocol):
    """One section's live scores, updated result by result on the hub's loop."""

    unit: str  # "%", "IMPs" or "VP": how the section's totals read
    on_left_out: Callable[[LeftOut], None] | None  # told of each line scored without (F2)

    def put(self, line: LiveLine) -> None:
        """A new live result (the latest accepted revision of its key)."""

    def reload_board(self, board: int, lines: list[LiveLine]) -> None:
        """Every live result of a board as the store now has them (after a TD change)."""

    def rename(self, names: dict[int, str]) -> None:
        """The entrants' names as rows show them (after the director set a player)."""

    def rows(self) -> list[dict[str, Any]]:
        """The standings now, best first, in the feed's format (module docstring)."""

    def traveller(self, board: int, table: int, rnd: int) -> TravellerView | None:
        """What the table that played ``board`` in round ``rnd`` is shown; None when it has
        not played it (or the board cannot be scored yet)."""

    def scored_board(self, board: int) -> BoardScore | None:
        """The board as scored now (pairs), for the director's traveller; None for teams."""

    def apply_penalty(self, penalty: dict[str, Any]) -> bool:
        """A confirmed penalty off the payer's total; False when this kind of standings
        cannot carry its unit."""


def traveller_row(x: LiveLine, score_ns: int | None, value: Fraction) -> TravellerRow:
    """A live result as a traveller line; an artificial score (no NS score) shows no
    contract, declarer or tricks."""
    artificial = score_ns is None
    return TravellerRow(
        x.ns_pair,
        x.ew_pair,
        "" if artificial else (x.contract or ""),
        None if artificial else x.declarer,
        None if artificial else x.tricks,
        score_ns or 0,
        value,
    )
