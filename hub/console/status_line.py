"""The status line above the key bar (issue13, TD trial F12): which key settles the row
under the cursor of the tab's table ("held result 23: Enter to decide"), else what the
tab's keys do; a refusal of the TD's command in red, until the tab or the row changes."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static

from hub.console.hints import TAB_HINTS, row_hint
from hub.console.tables import ConsoleTable


class StatusLine(Static):
    """One line of text. Lives on the Textual app's event loop."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        self._about: tuple[str, str | None] = ("", None)  # the tab and row it speaks of

    def about(self, tab: str, table: ConsoleTable | None) -> None:
        """Say what Enter does on ``table``'s row under the cursor (the tab's keys when
        there is none); said again only when the tab or the row changes, so a refusal
        shown here stays while the lists refresh."""
        key = table.cursor_key() if table is not None else None
        if (tab, key) == self._about:
            return
        self._about = (tab, key)
        hint = row_hint(table.id, key) if table is not None and key else ""
        self.update(hint or TAB_HINTS.get(tab, ""))

    def warn(self, text: str) -> None:
        """A refusal, in red."""
        self.update(Text(text, style="bold red"))
