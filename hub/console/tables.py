"""The console's tables, one widget per tab: each knows its columns and puts the rows
built elsewhere (``hub.console.rows``, the traveller, the devices) on the screen."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from textual.coordinate import Coordinate
from textual.widgets import DataTable

from hub.console.rows import Row


class ConsoleTable(DataTable[Any]):
    """A tab's table with its own columns, refilled whole on each change. Lives on the
    Textual app's event loop."""

    COLUMNS: ClassVar[tuple[str, ...]] = ()

    def on_mount(self) -> None:
        self.add_columns(*self.COLUMNS)

    def fill(self, rows: Iterable[tuple[str | None, Row]]) -> None:
        """Show these (key, row) pairs instead of the rows shown."""
        self.clear()
        for key, row in rows:
            self.add_row(*row, key=key)


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

    COLUMNS = ("sec", "rank", "pair", "dir", "total", "boards", "moved")


class CallsTable(ConsoleTable):
    """TD calls, held results, suspicious scores and withheld standings. Lives on the
    Textual app's event loop."""

    COLUMNS = ("what", "id", "table", "status", "text")


class SlowTable(ConsoleTable):
    """Slow tables and slow-play penalties. Lives on the Textual app's event loop."""

    COLUMNS = ("what", "sec", "table", "round", "behind", "status", "detail")


class TravellerTable(ConsoleTable):
    """The results of one board. Lives on the Textual app's event loop."""

    COLUMNS = (
        "table",
        "round",
        "NS",
        "EW",
        "contract",
        "by",
        "tricks",
        "score NS",
        "NS",
        "EW",
        "entered by",
    )


class DevicesTable(ConsoleTable):
    """Base stations, clock displays and terminals. Lives on the Textual app's event loop."""

    COLUMNS = (
        "device",
        "where",
        "state",
        "battery",
        "signal",
        "heard",
        "frames in/out",
        "retries",
        "garbage",
        "refused",
    )
