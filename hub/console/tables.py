"""The console's tables, one widget per tab: each knows its columns and puts the rows
built elsewhere (``hub.console.rows``, the traveller, the devices) on the screen."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from textual import events
from textual.coordinate import Coordinate
from textual.widgets import DataTable, Input

from hub.console.rows import Row


class ConsoleTable(DataTable[Any]):
    """A tab's table with its own columns, refilled whole on each change. Lives on the
    Textual app's event loop."""

    COLUMNS: ClassVar[tuple[str, ...]] = ()

    def on_mount(self) -> None:
        self.add_columns(*self.COLUMNS)

    def fill(self, rows: Iterable[tuple[str | None, Row]]) -> None:
        """Show these (key, row) pairs instead of the rows shown; the cursor stays on the
        same item (by its key, not its place: TD trial F12), or at the same place when its
        item is gone."""
        kept = self.cursor_key()
        at = self.cursor_row
        self.clear()
        for key, row in rows:
            self.add_row(*row, key=key)
        if not self.row_count:
            return
        row_keys = [r.key.value for r in self.ordered_rows]
        target = row_keys.index(kept) if kept in row_keys else min(at, self.row_count - 1)
        self.move_cursor(row=target, animate=False)

    def cursor_key(self) -> str | None:
        """The key of the row under the cursor (None on an empty table)."""
        if not self.row_count or not self.is_valid_row_index(self.cursor_row):
            return None
        return self.ordered_rows[self.cursor_row].key.value


class RoomTable(ConsoleTable):
    """Every table of the room, one row each; only the cells that changed are redrawn.
    Lives on the Textual app's event loop."""

    COLUMNS = (
        "sec",
        "table",
        "round",
        "NS",
        "EW",
        "done",
        "behind",
        "verify",
        "online",
        "call",
        "batt",
        "device",
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._shown: dict[str, Row] = {}

    def show(self, rows: dict[str, Row]) -> None:
        """Change only the cells that changed; rebuild when the tables themselves change
        (a new round's seating), so a 200-table room costs little per result."""
        if list(rows) != list(self._shown):
            self.fill(rows.items())
        else:
            for key, row in rows.items():
                old = self._shown[key]
                for col, (was, now) in enumerate(zip(old, row, strict=True)):
                    if was != now:
                        self.update_cell_at(Coordinate(self.get_row_index(key), col), now)
        self._shown = rows


class StandingsTable(ConsoleTable):
    """Each section's standings, or one overall ranking. Lives on the Textual app's event
    loop."""

    COLUMNS = ("sec", "rank", "pair", "names", "total", "boards", "moved")


class CallsTable(ConsoleTable):
    """TD calls, held results, suspicious scores and withheld standings. Lives on the
    Textual app's event loop."""

    COLUMNS = ("what", "id", "table", "status", "text")


class SlowTable(ConsoleTable):
    """Slow tables and slow-play penalties. Lives on the Textual app's event loop."""

    COLUMNS = ("what", "sec", "table", "round", "behind", "status", "detail")


class TravellerTable(ConsoleTable):
    """The results of one board; a board number typed on it goes to the board box. Lives
    on the Textual app's event loop."""

    def on_key(self, event: events.Key) -> None:
        char = event.character or ""
        if len(char) == 1 and (char.isdigit() or char.isupper()):
            box = self.screen.query_one("#board-input", Input)
            box.value = char
            box.cursor_position = len(char)
            box.focus()
            event.stop()
            event.prevent_default()

    COLUMNS = (
        "table",
        "round",
        "NS",
        "EW",
        "contract",
        "by",
        "result",
        "lead",
        "NS score",
        "EW score",
        "NS %/IMP",
        "EW %/IMP",
        "entered by",
    )


class DevicesTable(ConsoleTable):
    """Base stations, clock displays and terminals (hardware or browser). Lives on the
    Textual app's event loop."""

    COLUMNS = (
        "device",
        "where",
        "state",
        "kind",
        "battery",
        "signal",
        "heard",
        "frames in/out",
        "retries",
        "garbage",
        "refused",
    )


class BoardInput(Input):
    """The Traveller tab's board box: digits and section letters (upper case) are typed
    into it; a view key (a lower-case letter, ``?``, ``+``, ``-``) leaves the box and acts,
    so typing never swallows the view keys (TD trial F12). Lives on the Textual app's event
    loop."""

    VIEW_KEYS = frozenset("?+-")

    async def _on_key(self, event: events.Key) -> None:
        char = event.character or ""
        if len(char) == 1 and (char.islower() or char in self.VIEW_KEYS):
            event.stop()
            event.prevent_default()
            self.value = ""
            self.screen.set_focus(None)
            self.app.simulate_key(event.key)
            return
        await super()._on_key(event)
