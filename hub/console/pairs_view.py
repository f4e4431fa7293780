"""The Pairs tab (issue13 "Late pairs…", "Names"; TD trial F17): every pair with its
label, names and member numbers; Enter on a pair for what can happen to it (names and
numbers, a substitute, a withdrawal), ``a`` for a late pair, ``M`` for another movement
from round N. Each is a small form, confirmed, and the hub's reply is shown here."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from hub.console.choice import ChoiceScreen
from hub.console.commands import Console
from hub.console.labels import pair_label
from hub.console.pairs_book import PairsBook
from hub.console.pairs_forms import (
    EditPairForm,
    LatePairForm,
    MovementForm,
    SubstituteForm,
    WithdrawForm,
)
from hub.console.tables import ConsoleTable

HINT = (
    "Enter on a pair: names and numbers, a substitute, withdraw it   "
    "a: a late pair   M: another movement from round N"
)
PAIR_CHOICES = [
    ("edit", "edit the names and member numbers"),
    ("substitute", "a substitute for one player, from now on"),
    ("withdraw", "withdraw the pair from a round on (their opponents sit out)"),
    ("late", "add a late pair to this section"),
    ("movement", "change this section's movement from a round on"),
]


class PairsTable(ConsoleTable):
    """Every pair of every section. Lives on the Textual app's event loop."""

    COLUMNS = ("sec", "pair", "dir", "names", "numbers", "")
    BINDINGS: ClassVar = [
        Binding("a", "pairs('late')", "Late pair"),
        Binding("M", "pairs('movement')", "Change movement"),
    ]

    def action_pairs(self, what: str) -> None:
        parent = self.parent
        if isinstance(parent, PairsView):
            parent.act(what, parent.section_here(), None)


class PairsView(Vertical):
    """The Pairs tab's content. Lives on the Textual app's event loop (key handlers,
    pop-up answers, and a redraw timer)."""

    DEFAULT_CSS = """
    PairsView #pairs-status { color: $warning; height: auto; }
    """

    def __init__(self, console: Console, book: PairsBook, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.console = console
        self.book = book
        self._sections_seen: object = None

    def compose(self) -> ComposeResult:
        yield Static(HINT, id="pairs-hint")
        yield Static("", id="pairs-status")
        yield PairsTable(id="pairs-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.set_interval(0.25, self.redraw)

    def redraw(self) -> None:
        """The list again when the book or the snapshot changed, the cursor kept on the
        same pair."""
        sections = self.console.room.sections
        if not self.book.dirty and sections is self._sections_seen:
            return
        self.book.dirty, self._sections_seen = False, sections
        self.query_one(PairsTable).fill(self.book.rows(sections))

    def section_here(self) -> str:
        """The section of the pair under the cursor, else the room's filter, else the
        first."""
        key = self.query_one(PairsTable).cursor_key()
        if key:
            return key.split(":")[1]
        sections = sorted(self.console.room.sections)
        return self.console.section_filter or (sections[0] if sections else "A")

    def status(self, text: str) -> None:
        self.query_one("#pairs-status", Static).update(text)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a pair: what the TD can do to it, or to its section."""
        event.stop()
        what, section, pair = (str(event.row_key.value or "") + "::").split(":")[:3]
        if what != "pair" or not pair.isdigit():
            return
        sec = self.console.room.sections.get(section, {})
        label = pair_label(sec, int(pair))

        async def chosen(choice: str | None) -> None:
            if choice is not None:
                self.act(choice, section, int(pair))

        self.console.ask(ChoiceScreen(f"{label} in section {section}", PAIR_CHOICES), chosen)

    def act(self, what: str, section: str, pair: int | None) -> None:
        """Open the form for ``what`` (late, movement, edit, substitute, withdraw)."""
        sec = self.console.room.sections.get(section, {})
        rnd = int(sec.get("round") or 1)
        book, console = self.book, self.console
        if what == "late":
            self.app.push_screen(LatePairForm(console, book, section, rnd), self._told)
        elif what == "movement":
            self.app.push_screen(MovementForm(console, book, section, rnd + 1), self._told)
        elif pair is not None:
            label = pair_label(sec, pair)
            if what == "withdraw":
                form: Any = WithdrawForm(console, book, section, pair, label, rnd + 1)
            elif what == "substitute":
                form = SubstituteForm(console, book, section, pair, label)
            else:
                info = (sec.get("pairs") or {}).get(str(pair)) or {}
                names = [n.strip() for n in str(info.get("names") or "").split("&") if n.strip()]
                form = EditPairForm(console, book, section, pair, label, names)
            self.app.push_screen(form, self._told)

    async def _told(self, text: str | None) -> None:
        if text:
            self.status(text)
            self.book.dirty = True
