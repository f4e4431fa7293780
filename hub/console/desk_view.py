"""The Scores tab, the director's desk (issue13, TD trial F4): the boards awaiting a score
after a round ended without them, Enter on one to score it (a result, an artificial or a
weighted score), ``e`` to score any table, round and board, ``k`` to type a paper
traveller or a round's slips in one screen."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from hub.console.commands import Console
from hub.console.desk_score import ScoreForm, Where
from hub.console.desk_slips import SlipLine, SlipsScreen
from hub.console.desk_state import NotPlayed
from hub.console.tables import ConsoleTable

HINT = (
    "Boards awaiting a score.  Enter: score the board   e: score any table, round and board"
    "   k: type a traveller or a round's slips"
)


class NotPlayedTable(ConsoleTable):
    """Boards of finished rounds with no result and no score. Lives on the Textual app's
    event loop."""

    COLUMNS = ("sec", "table", "round", "board", "NS", "EW", "")
    BINDINGS: ClassVar = [
        Binding("e", "desk('any')", "Score any board"),
        Binding("k", "desk('slips')", "Slips / traveller"),
    ]

    def action_desk(self, what: str) -> None:
        parent = self.parent
        if isinstance(parent, DeskView):
            parent.open(what)


class DeskView(Vertical):
    """The Scores tab's content. Lives on the Textual app's event loop (key handlers,
    pop-up answers, and a redraw timer reading what the feed's worker folded in)."""

    DEFAULT_CSS = """
    DeskView #desk-status { color: $warning; height: auto; }
    """

    def __init__(self, console: Console, boards: NotPlayed, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.console = console
        self.boards = boards

    def compose(self) -> ComposeResult:
        yield Static(HINT, id="desk-hint")
        yield Static("", id="desk-status")
        yield NotPlayedTable(id="desk-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.set_interval(0.25, self.redraw)

    async def redraw(self) -> None:
        """The list again when the feed changed it, the cursor kept on the same board;
        a listed board changed elsewhere is read again first."""
        while self.boards.to_check:
            section, board = self.boards.to_check.pop()
            await self.console.command(
                "traveller",
                f"traveller {section} board {board}",
                on_reply=self.boards.checked,
                quiet=True,
                section=section,
                board=board,
            )
        if not self.boards.dirty or not self.is_attached:
            return  # nothing new, or the app closing (the table may be gone)
        self.boards.dirty = False
        self.query_one(NotPlayedTable).fill(self.boards.rows(self.console.room.sections))

    def status(self, text: str) -> None:
        self.query_one("#desk-status", Static).update(text)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a board awaiting a score: its score form, the pairs known."""
        event.stop()
        key = event.row_key.value or ""
        what, *ident = key.split(":")
        if what != "not" or len(ident) != 4:
            return
        section, table, rnd, board = ident
        b = self.boards.boards.get((section, int(table), int(rnd), int(board)), {})
        self.score(
            Where(section, int(table), int(rnd), int(board), b.get("ns_pair"), b.get("ew_pair"))
        )

    def open(self, what: str) -> None:
        """``any``: a blank score form; ``slips``: the slips screen with a line for every
        board awaiting a score, or else for every table and board of the current round."""
        if what == "any":
            self.score(Where(self.section()))
        elif what == "slips":
            self.slips()

    def section(self) -> str:
        sections = sorted(self.console.room.sections)
        return self.console.section_filter or (sections[0] if sections else "A")

    def score(self, where: Where) -> None:
        form = ScoreForm(self.console, where, on_stored=self._stored)
        self.app.push_screen(form, self._told)

    def slips(self) -> None:
        section = self.section()
        lines = [SlipLine(t, r, b) for (s, t, r, b) in sorted(self.boards.boards) if s == section]
        sec = self.console.room.sections.get(section, {})
        if not lines:
            lines = [
                SlipLine(t["table"], sec.get("round"), board)
                for t in sec.get("tables", [])
                for board in t.get("boards", [])
            ]
        self.app.push_screen(
            SlipsScreen(self.console, section, lines, on_stored=self._stored), self._told
        )

    def _stored(self, args: dict[str, Any]) -> None:
        self.boards.scored(args["section"], args["table"], args["round"], args["board"])

    async def _told(self, text: str | None) -> None:
        if text:
            self.status(text)
