"""The projector screen: one section's barometer at a time in large type, paged
automatically, with the places each entrant moved in the last round and the round
clock. Keys: space or → next page, ← previous, q quit."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import ClassVar

from rich.table import Table
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Digits, Static

from drivers.clock.show import Phase
from hub.result_screen.barometer import ScreenRow, ScreenSection
from hub.standings.places import moved_text

Load = Callable[[], list[ScreenSection]]
PHASES = {
    Phase.PLAY: "play",
    Phase.LAST_BOARD: "last board",
    Phase.NO_NEW_BOARD: "no new board",
    Phase.MOVE: "move",
    Phase.PAUSED: "clock paused",
    Phase.BREAK: "break",
}


def pages(
    sections: list[ScreenSection], per_page: int
) -> list[tuple[ScreenSection, list[ScreenRow], int, int]]:
    """Every section cut into pages: (section, rows, page number, pages)."""
    out = []
    for sec in sections:
        chunks = [sec.rows[i : i + per_page] for i in range(0, len(sec.rows), per_page)] or [[]]
        out += [(sec, rows, n + 1, len(chunks)) for n, rows in enumerate(chunks)]
    return out


class ScreenApp(App[None]):
    TITLE = "bridgehub screen"
    CSS = """
    #top { height: 5; background: $primary-background; }
    #title { width: 1fr; height: 5; content-align: left middle; padding: 0 2;
             text-style: bold; }
    #clock-box { width: 34; height: 5; padding: 0 1; }
    #clock { width: 100%; text-align: center; }
    #phase { width: 100%; content-align: center middle; }
    #rows { height: 1fr; padding: 0 2; }
    """
    BINDINGS: ClassVar = [
        Binding("space,right", "page(1)", "Next page"),
        Binding("left", "page(-1)", "Previous page"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        load: Load,
        event_name: str = "",
        page_s: float = 10.0,
        refresh_s: float = 5.0,
        now: Callable[[], float] = time.time,
    ) -> None:
        super().__init__()
        self.load = load
        self.event_name = event_name
        self.page_s = page_s
        self.refresh_s = refresh_s
        self.now = now
        self.sections: list[ScreenSection] = []
        self.page = 0

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield Static("", id="title")
            with Vertical(id="clock-box"):
                yield Digits("--:--", id="clock")
                yield Static("", id="phase")
        yield Static("", id="rows")

    async def on_mount(self) -> None:
        await self.reload()
        self.set_interval(self.refresh_s, self.reload)
        self.set_interval(self.page_s, lambda: self.action_page(1))
        self.set_interval(1.0, self.draw_clock)

    async def reload(self) -> None:
        """Read the store again (in a thread: a big event takes a moment to rebuild)."""
        self.sections = await asyncio.to_thread(self.load)
        self.draw()

    def action_page(self, step: int) -> None:
        self.page += step
        self.draw()

    def _pages(self) -> list[tuple[ScreenSection, list[ScreenRow], int, int]]:
        per_page = max(1, self.size.height - 5 - 3)
        return pages(self.sections, per_page)

    def current(self) -> tuple[ScreenSection, list[ScreenRow], int, int] | None:
        all_pages = self._pages()
        return all_pages[self.page % len(all_pages)] if all_pages else None

    def draw(self) -> None:
        shown = self.current()
        rows = self.query_one("#rows", Static)
        title = self.query_one("#title", Static)
        if shown is None:
            title.update(self.event_name or "bridgehub")
            rows.update("No sections yet")
            return
        sec, lines, n, of = shown
        heading = f"{self.event_name}   {sec.heading or 'Section ' + sec.section}".strip()
        played = (
            f"after round {sec.after_round} of {sec.rounds}"
            if sec.after_round
            else "no round complete yet"
        )
        if sec.provisional:
            played += f"   provisional: board{'s' * (len(sec.provisional) > 1)} " + ", ".join(
                map(str, sec.provisional)
            )
        title.update(f"{heading}\n{played}" + (f"   page {n}/{of}" if of > 1 else ""))
        table = Table(expand=True, show_edge=False, header_style="bold")
        table.add_column("Place", justify="right")
        table.add_column("Team" if sec.unit == "VP" else "Pair", justify="right")
        named = any(r.names for r in sec.rows)
        if named:
            table.add_column("", justify="left", ratio=1)
        table.add_column(sec.unit, justify="right")
        table.add_column("Round", justify="left")
        for r in lines:
            table.add_row(
                r.rank, r.entrant, *([r.names] if named else []), r.score, moved_text(r.moved)
            )
        rows.update(table)
        self.draw_clock()

    def draw_clock(self) -> None:
        """The clock of the section on screen, once a second."""
        shown = self.current()
        show = shown[0].clock.show(self.now()) if shown else None
        self.query_one("#clock", Digits).update(show.time_text if show else "--:--")
        over = " (over time)" if show is not None and show.seconds_left < 0 else ""
        self.query_one("#phase", Static).update(
            "" if show is None else f"round {show.round}: {PHASES[show.phase]}{over}"
        )
