"""Live scores per kind of section (decisions D17): ``LiveViews`` hands each section's
results to its strategy (pairs or teams, ``base.SectionScores``) and asks it for standings
rows and travellers. No store access here: the hub reads the store in a worker thread and
hands the lines in.

May import: ``oversight`` (it needs nothing of ``hub.live``: every other part reads it).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

from hub.event.event_file import EventFile, Scoring
from hub.event.movement.model import Movement
from hub.live.views.base import SectionScores, TravellerRow, TravellerView
from hub.live.views.pairs import PairsLive
from hub.live.views.teams import TeamsLive
from hub.standings.left_out import LeftOut, left_out
from hub.store.store import LiveLine
from scoring.board_score import BoardScore

__all__ = ["LiveViews", "PairsLive", "SectionScores", "TeamsLive", "TravellerRow", "TravellerView"]


class LiveViews:
    """Every section's live scores, by section letter. Owned by the hub's asyncio loop."""

    def __init__(
        self,
        event: EventFile,
        movements: dict[str, Movement],
        names: dict[str, dict[int, str]],
        alert: Callable[..., None] | None = None,
    ) -> None:
        """``alert`` (the director's alerts) hears of each stored line a board is scored
        without, once (F2)."""
        kind = TeamsLive if event.rules.scoring is Scoring.TEAMS else PairsLive
        self.names = {section: dict(names.get(section, {})) for section in movements}
        self.sections: dict[str, SectionScores] = {
            section: kind(event, section, movement, names.get(section, {}))
            for section, movement in movements.items()
        }
        # the director is told once of each stored line a board is scored without (F2)
        self.alert = alert
        self._told: set[tuple[str, int, int, int, str]] = set()
        for live in self.sections.values():
            live.on_left_out = self._left_out

    def replace_section(self, section: str, live: SectionScores) -> None:
        """A section scored afresh (another movement from a round on) takes the old one's
        place; the lines it leaves out still reach the director."""
        live.on_left_out = self._left_out
        self.sections[section] = live

    def _left_out(self, item: LeftOut) -> None:
        if item.key in self._told:
            return
        self._told.add(item.key)
        live = self.sections.get(item.section)  # a Mitchell's pairs as the room writes them
        labels = live.labels if isinstance(live, PairsLive) else None
        if self.alert is not None:
            self.alert(
                item.text(labels),
                section=item.section,
                table=item.table,
                round=item.round,
                board=item.board,
            )

    def load(self, lines: list[LiveLine], penalties: list[dict[str, Any]]) -> None:
        """After a restart: every live line (each board scored once), then the confirmed
        penalties."""
        for _ in self.load_steps(lines, penalties):
            pass

    def load_steps(self, lines: list[LiveLine], penalties: list[dict[str, Any]]) -> Iterator[None]:
        """``load`` one board at a time: the hub's loop answers its lines between steps."""
        by_board: dict[tuple[str, int], list[LiveLine]] = defaultdict(list)
        for line in lines:
            by_board[(line.section, line.board)].append(line)
        for (section, board), mine in by_board.items():
            self.reload_board(section, board, mine)
            yield
        for penalty in penalties:
            if penalty.get("status", "confirmed") == "confirmed":
                self.apply_penalty(penalty)

    def result_stored(self, line: LiveLine) -> None:
        """A new accepted result (the latest revision of its key)."""
        live = self.sections.get(line.section)
        if live is not None and self._usable(live, line):
            live.put(line)

    def reload_board(self, section: str, board: int, lines: list[LiveLine]) -> None:
        """Every live result of a board as the store now has them (after a correction, an
        erasure, a TD entry or an accepted held result)."""
        live = self.sections.get(section)
        if live is not None:
            live.reload_board(board, [x for x in lines if self._usable(live, x)])

    def _usable(self, live: SectionScores, line: LiveLine) -> bool:
        """A teams section never sees a pair-0 line (pairs sections leave out their own)."""
        if isinstance(live, PairsLive) or (line.ns_pair >= 1 and line.ew_pair >= 1):
            return True
        self._left_out(left_out(line, "no team 0 plays: no result is scored against it"))
        return False

    def set_names(self, section: str, names: dict[int, str]) -> None:
        """New names for a section's rows (the director set a player)."""
        live = self.sections.get(section)
        if live is not None:
            self.names[section] = dict(names)
            live.rename(names)

    def rows(self, section: str) -> list[dict[str, Any]]:
        """The section's standings now, best first (feed format: ``base`` docstring)."""
        live = self.sections.get(section)
        return [] if live is None else live.rows()

    def unit(self, section: str) -> str:
        """How the section's totals read: "%", "IMPs" or "VP" ("" for no such section)."""
        live = self.sections.get(section)
        return "" if live is None else live.unit

    def traveller(self, section: str, board: int, table: int, rnd: int) -> TravellerView | None:
        live = self.sections.get(section)
        return None if live is None else live.traveller(board, table, rnd)

    def scored_board(self, section: str, board: int) -> BoardScore | None:
        live = self.sections.get(section)
        return None if live is None else live.scored_board(board)

    def apply_penalty(self, penalty: dict[str, Any]) -> bool:
        """A confirmed penalty off the payer's total; False when the section's standings
        cannot carry its unit (or it names no known section or payer)."""
        live = self.sections.get(penalty["section"])
        return live is not None and live.apply_penalty(penalty)
