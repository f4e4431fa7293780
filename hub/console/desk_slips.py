"""A paper traveller or a whole round's slips typed in one screen (issue13, TD trial F4):
one line per table and board (table, round, board, score), filled with the keyboard
(Enter moves on; Enter on the last line's score opens a new line), sent in one
``enter_results``. The hub checks every line and stores the good ones; each refusal is
shown on its line, the stored lines are marked and not sent again."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from hub.console.commands import Console
from hub.console.desk_entry import FieldError, describe, number, score
from hub.console.desk_form import failures_since

COLUMNS = ("t", "r", "b", "s")  # table, round, board, score: the ids' prefixes
HINT = (
    "Score: 4S N = HA, PASS, A+/A-, 60/40, or 1/2 4S N =; 1/2 4S N -1.   Enter: next   "
    "Ctrl+N: new line   Ctrl+S: send   Escape: leave"
)


@dataclass(frozen=True)
class SlipLine:
    """A line to type, with what is known of it already (a board awaiting a score)."""

    table: int | None = None
    round: int | None = None
    board: int | None = None


def _text(x: int | None) -> str:
    return "" if x is None else str(x)


class SlipsScreen(ModalScreen[str | None]):
    """The slips grid. Answers how many lines were stored (for the tab's status line), or
    None when nothing was. Lives on the Textual app's event loop (key handlers, and the
    feed's worker for the hub's reply)."""

    DEFAULT_CSS = """
    SlipsScreen { align: center middle; }
    SlipsScreen > Vertical { width: 100; max-width: 100%; height: auto; max-height: 100%;
                             border: thick $accent; background: $surface; padding: 0 1; }
    SlipsScreen VerticalScroll { height: auto; max-height: 24; }
    SlipsScreen .slip { height: auto; }
    SlipsScreen .slip Input { height: 1; border: none; padding: 0 1; width: 8; }
    SlipsScreen .slip .score { width: 30; }
    SlipsScreen .slip Input:focus { background: $accent 40%; }
    SlipsScreen .slip Input:disabled { color: $success; }
    SlipsScreen .mark { width: 1fr; height: auto; color: $error; text-style: bold; }
    SlipsScreen .mark.stored { color: $success; }
    SlipsScreen #slip-status { color: $warning; }
    """
    BINDINGS: ClassVar = [
        Binding("escape", "leave", "Leave"),
        Binding("ctrl+s", "send", "Send"),
        Binding("ctrl+n", "new_line", "New line"),
        Binding("enter", "next_box", "Next", show=False, priority=True),
    ]

    def __init__(
        self,
        console: Console,
        section: str,
        lines: list[SlipLine],
        on_stored: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        super().__init__()
        self.console = console
        self.section = section
        self.first = lines or [SlipLine()]
        self.count = 0
        self.stored: set[int] = set()  # lines the hub has stored
        self.on_stored = on_stored
        self.sending: list[tuple[int, dict[str, Any]]] | None = None  # (line, entry) sent

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Paper traveller or a round's slips: one line per table and board")
            with Horizontal(classes="slip"):
                yield Label("section ")
                yield Input(self.section, id="slip-section")
            yield Static("  table   round   board   score")
            with VerticalScroll(id="slip-lines"):
                for line in self.first:
                    yield self._line(line)
            yield Static("", id="slip-status")
            yield Static(HINT)

    def _line(self, line: SlipLine) -> Horizontal:
        i = self.count
        self.count += 1
        return Horizontal(
            Input(_text(line.table), placeholder="table", id=f"t-{i}"),
            Input(_text(line.round), placeholder="round", id=f"r-{i}"),
            Input(_text(line.board), placeholder="board", id=f"b-{i}"),
            Input(placeholder="4S N = HA", id=f"s-{i}", classes="score"),
            Static("", id=f"m-{i}", classes="mark"),
            classes="slip",
        )

    def on_mount(self) -> None:
        self._first_empty(0).focus()

    def _input(self, column: str, i: int) -> Input:
        return self.query_one(f"#{column}-{i}", Input)

    def _first_empty(self, i: int) -> Input:
        """The line's first empty box (its score when the rest is filled in)."""
        return next(
            (self._input(c, i) for c in COLUMNS if not self._input(c, i).value),
            self._input("s", i),
        )

    async def action_next_box(self) -> None:
        """Enter moves on: along the line, then to the next line not yet stored, then to
        a new line. At once, while the app reads the key, so keys typed fast (a keypad)
        land in the boxes in order ([MENDS] #25, TD trial turn 3 G6)."""
        focused = self.focused
        if not isinstance(focused, Input):
            raise SkipAction()
        ident = focused.id or ""
        if ident == "slip-section":
            self.set_focus(self._first_empty(0))
            return
        column, _, n = ident.partition("-")
        i = int(n)
        if column != "s":
            self.set_focus(self._input(COLUMNS[COLUMNS.index(column) + 1], i))
            return
        later = [j for j in range(i + 1, self.count) if j not in self.stored]
        if later:
            self.set_focus(self._first_empty(later[0]))
        else:
            await self.action_new_line()

    async def action_new_line(self) -> None:
        """One more line, the round copied from the last one."""
        last = self._input("r", self.count - 1).value if self.count else ""
        line = SlipLine(round=int(last) if last.isdigit() else None)
        await self.query_one("#slip-lines", VerticalScroll).mount(self._line(line))
        self.set_focus(self._input("t", self.count - 1))
        self.query_one("#slip-lines", VerticalScroll).scroll_end(animate=False)

    def mark(self, i: int, text: str, stored: bool = False) -> None:
        m = self.query_one(f"#m-{i}", Static)
        m.update(text)
        m.set_class(stored, "stored")

    def entries(self, section: str) -> list[tuple[int, dict[str, Any]]]:
        """Each typed line not yet stored, checked: (line, ``enter_results`` entry); a
        line with a mistake is marked and left out."""
        out = []
        for i in range(self.count):
            if i in self.stored:
                continue
            typed = {c: self._input(c, i).value for c in COLUMNS}
            if not typed["s"].strip():
                self.mark(i, "")
                continue  # an empty line (or one still waiting for its score)
            try:
                entry: dict[str, Any] = {"section": section}
                for c, key in zip(COLUMNS, ("table", "round", "board"), strict=False):
                    entry[key] = number(key, typed[c], key)
                entry |= score(typed["s"])
            except FieldError as e:
                self.mark(i, e.message)
                continue
            self.mark(i, "")
            out.append((i, entry))
        return out

    async def action_send(self) -> None:
        """The good lines to the hub in one ``enter_results``."""
        if self.sending is not None:
            return
        section = self.query_one("#slip-section", Input).value.strip().upper()
        if self.console.room.sections and section not in self.console.room.sections:
            known = ", ".join(sorted(self.console.room.sections))
            self.status(f"! section {section!r} is not in this event ({known})")
            return
        lines = self.entries(section)
        if not lines:
            self.status("nothing to send: type a score on a line (mistakes are marked)")
            return
        self.sending = lines
        self.status(f"sending {len(lines)} line{'s' * (len(lines) > 1)} …")
        seen = self.console.room.logged
        went = await self.console.command(
            "enter_results",
            f"{len(lines)} slip line{'s' * (len(lines) > 1)} of section {section}",
            on_reply=self.replied,
            entries=[entry for _, entry in lines],
        )
        if not went:  # read-only console, or the hub out of reach (an alert meanwhile is not)
            failed = failures_since(self.console.room, seen)
            self.sending = None
            self.status(failed[-1] if failed else "! the slips were not sent")

    def replied(self, reply: dict[str, Any]) -> None:
        """Each line's fate from the hub: stored (marked, not sent again) or refused (the
        reason on the line)."""
        lines, self.sending = self.sending or [], None
        if not self.is_attached:
            return
        if not reply.get("ok"):
            error = str(reply.get("error") or "refused, no reason given")
            self.status(f"! {error}")
            m = re.search(r"entries\D{0,3}(\d+)", error)
            if m and int(m.group(1)) < len(lines):
                self.mark(lines[int(m.group(1))][0], error)
            return
        if not isinstance(reply.get("entries"), list):
            self.status("! the hub did not answer line by line: look at the traveller")
            return
        stored = refused = 0
        for k, answer in enumerate(reply["entries"]):
            index = answer.get("index", k)
            if not isinstance(index, int) or not 0 <= index < len(lines):
                continue
            i, entry = lines[index]
            if answer.get("status") == "stored":
                stored += 1
                self.stored.add(i)
                self.mark(i, f"stored: {describe(entry)}", stored=True)
                for c in COLUMNS:
                    self._input(c, i).disabled = True
                if self.on_stored is not None:
                    self.on_stored(entry)
            else:
                refused += 1
                self.mark(i, str(answer.get("reason") or "refused"))
        self.status(
            f"{stored} stored, {refused} refused"
            + (": correct the marked lines and send again (Ctrl+S)" if refused else "")
        )

    def status(self, text: str) -> None:
        self.query_one("#slip-status", Static).update(text)

    def action_leave(self) -> None:
        n = len(self.stored)
        self.dismiss(f"slips: {n} line{'s' * (n != 1)} stored" if n else None)
