"""What the tables of a team match are shown beyond their own traveller (issue 16 [TEAMS]):
the other room's table gets the board's traveller again as soon as the second room has
played it (both results and the IMPs), and a table that has a result on every board of its
round (the end of its segment) gets the running match score in IMPs and VPs, again each
time the other room brings a board to compare or the director changes one. A three-way
match's rooms are a round apart (``Layout.three_ways``): its tables get the match score
at the end of its second round only, each the match it has just completed; the first
room, at another match by then, is not told.

Both follow the event's display rules: nothing with ``travellers = "never"`` (the issue:
"events can hide these as they hide travellers"), and no match score in the rounds whose
rankings the event hides (``hide_rankings_last_rounds``: the last round's too, the final
results follow as ranking pages). Only the current round's tables are told.

``TeamTables`` belongs to the hub's asyncio loop.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

from hub.event.event_file import EventFile
from hub.event.movement.model import Movement
from hub.live.port.gateway import TerminalGateway
from hub.live.port.port_views import MatchScoreView
from hub.live.teams.team_matches import other_room, table_match
from hub.live.views import LiveViews


@runtime_checkable
class ShowsMatchScore(Protocol):
    """A terminal port that carries the match score (the base station's MATCH_SCORE, the
    browser terminal's ``match_score``); a port without it shows none."""

    def match_score(self, address: int, view: MatchScoreView) -> None: ...


class TeamTables:
    """The team tables' comparisons and match scores; on the hub's loop."""

    def __init__(
        self,
        event: EventFile,
        views: LiveViews,
        movement: Callable[[str], Movement | None],
        gateway: TerminalGateway,
        current_round: Callable[[str], int],
    ) -> None:
        self.event = event
        self.views = views
        self.movement = movement
        self.gateway = gateway
        self.current_round = current_round

    @property
    def travellers_shown(self) -> bool:
        return self.event.rules.display.travellers != "never"

    def score_shown(self, movement: Movement, rnd: int) -> bool:
        """The match score of round ``rnd`` may be shown at the tables: travellers are, and
        the round is not one whose rankings the event hides."""
        return self.travellers_shown and not rankings_hidden(self.event, movement, rnd)

    def result(self, section: str, table: int, rnd: int, board: int) -> None:
        """A table's result is scored: the other room sees the comparison, and the tables
        of the match that have finished their boards see the match score. A three-way
        table's other room plays a round apart: it is told nothing (it plays another
        match now), and a table of a three-way's first round gets no match score (only one
        room of its match has played)."""
        movement = self._teams(section)
        if movement is None or rnd != self.current_round(section):
            return
        other = other_room(movement, table, rnd)
        if other is None:
            return
        if other[1] != rnd:
            if other[1] < rnd:
                self.match_scores(section, movement, rnd, (table,))
            return
        if self.travellers_shown:
            view = self.views.traveller(section, board, other[0], rnd)
            if view is not None:
                self.gateway.show_result(section, other[0], view)
        self.match_scores(section, movement, rnd, (table, other[0]))

    def board_changed(self, section: str, board: int) -> None:
        """The director changed a board: the match score again at the finished tables of
        the current round that play it (a three-way's in its second round only)."""
        movement = self._teams(section)
        if movement is None:
            return
        rnd = self.current_round(section)
        for open_t, closed_t in movement.layout.matches:
            row = movement.row(section, open_t, rnd)
            if row is None or board not in row.boards:
                continue
            if not movement.layout.three_way_at(open_t, rnd):
                self.match_scores(section, movement, rnd, (open_t, closed_t))
        for way in movement.layout.three_ways:
            for table in way.tables if rnd == way.round + 1 else ():
                row = movement.row(section, table, rnd)
                if row is not None and board in row.boards:
                    self.match_scores(section, movement, rnd, (table,))

    def match_scores(
        self, section: str, movement: Movement, rnd: int, tables: tuple[int, ...]
    ) -> None:
        """The match of ``tables`` (its rooms of round ``rnd``: both, or a three-way's
        second) to those of them that have finished."""
        if not self.score_shown(movement, rnd):
            return
        finished = [
            table
            for table in tables
            if (row := movement.row(section, table, rnd)) is not None
            and self._finished(section, table, rnd, row.boards)
        ]
        live = self.views.sections.get(section)
        match = table_match(live, movement, section, tables[0], rnd) if finished else None
        if match is None:
            return
        view = score_view(section, match)
        for table in finished:
            self._send(section, table, view)

    def _finished(self, section: str, table: int, rnd: int, boards: Iterable[int]) -> bool:
        """The table has a scored result on every board of its round."""
        boards = tuple(boards)
        return bool(boards) and all(
            self.views.traveller(section, b, table, rnd) is not None for b in boards
        )

    def _send(self, section: str, table: int, view: MatchScoreView) -> None:
        for seat in self.gateway.at_table(section, table):
            port = self.gateway.ports.get(seat.ref.port)
            if isinstance(port, ShowsMatchScore):
                port.match_score(seat.address, view)

    def _teams(self, section: str) -> Movement | None:
        """The section's movement when it is a teams section with matches."""
        movement = self.movement(section)
        if self.views.unit(section) != "VP" or movement is None or not movement.layout.matches:
            return None
        return movement


def rankings_hidden(event: EventFile, movement: Movement, rnd: int) -> bool:
    """Round ``rnd`` is one of the last rounds whose rankings the event hides
    (``hide_rankings_last_rounds``): its match results are shown nowhere in the room
    before the final standings (TD trial F13)."""
    hide = event.rules.display.hide_rankings_last_rounds
    return bool(hide) and rnd > movement.rounds - hide


def score_view(section: str, match: dict[str, Any]) -> MatchScoreView:
    """A match as ``team_matches`` gives it, as the tables are shown it (0 before a board
    is scored in both rooms)."""

    def exact(key: str) -> Fraction:
        return Fraction(match[key] or 0)

    return MatchScoreView(
        section,
        match["round"],
        match["home"],
        match["away"],
        match["home_name"],
        match["away_name"],
        exact("home_imps"),
        exact("away_imps"),
        exact("home_vp"),
        exact("away_vp"),
        match["scored"],
        len(match["out"]),
    )
