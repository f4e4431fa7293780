"""The projector screen: one section's published standings at a time in large type,
paged automatically, with the places each entrant moved in the round and the round clock
(a teams section's round's matches on pages of their own after them), then the overall
ranking. A client of the hub's feed (decisions D1, D17), like the console.
Keys: space or → next page, ← previous, q quit."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Digits, Static

from drivers.clock.show import Phase
from hub.api.client import Source
from hub.result_screen.barometer import (
    MatchLine,
    ScreenSection,
    clock_show,
    played_text,
    screen_sections,
)
from hub.result_screen.bracket_text import bracket_text
from hub.result_screen.state import ScreenState
from hub.standings.places import moved_text

PHASES = {
    Phase.PLAY: "play",
    Phase.LAST_BOARD: "last board",
    Phase.NO_NEW_BOARD: "no new board",
    Phase.MOVE: "move",
    Phase.PAUSED: "clock paused",
    Phase.BREAK: "break",
}
Page = tuple[ScreenSection, list[Any], int, int]


def pages(sections: list[ScreenSection], per_page: int, width: int | None = None) -> list[Page]:
    """Every section cut into pages: (section, rows, page number, pages); a teams
    section's round's matches follow on pages of their own (``matches_page``), a knockout
    section's bracket on its own (``bracket_page``, drawn ``width`` characters wide)."""
    out: list[Page] = []
    for sec in sections:
        out += _cut(sec, sec.rows, per_page)
        if sec.match_round:
            out += _cut(replace(sec, matches_page=True), list(sec.matches), per_page)
        if sec.knockout:
            lines = list(bracket_text(sec.knockout, width).split("\n"))
            out += _cut(replace(sec, bracket_page=True), lines, per_page)
    return out


def _cut(sec: ScreenSection, lines: list[Any], per_page: int) -> list[Page]:
    chunks = [lines[i : i + per_page] for i in range(0, len(lines), per_page)] or [[]]
    return [(sec, chunk, n + 1, len(chunks)) for n, chunk in enumerate(chunks)]


class ScreenApp(App[None]):
    """The screen for one projector. Runs on Textual's asyncio loop; the feed is followed
    by a worker on that same loop, which alone changes ``state``."""

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
        source: Source,
        page_s: float = 10.0,
        now: Callable[[], float] = time.time,
        redraw_s: float = 0.25,
    ) -> None:
        super().__init__()
        self.source = source
        self.page_s = page_s
        self.now = now
        self.redraw_s = redraw_s
        self.state = ScreenState()
        self.sections: list[ScreenSection] = []
        self.page = 0
        self._changed: set[str] = set()

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield Static("", id="title")
            with Vertical(id="clock-box"):
                yield Digits("--:--", id="clock")
                yield Static("", id="phase")
        yield Static("", id="rows")

    def on_mount(self) -> None:
        self.draw()
        self.run_worker(self._follow(), exclusive=True)
        self.set_interval(self.redraw_s, self._redraw)
        self.set_interval(self.page_s, lambda: self.action_page(1))
        self.set_interval(1.0, self.draw_clock)

    async def _follow(self) -> None:
        async for msg in self.source():
            changed = self.state.apply(msg, self.now())
            if changed:
                self._changed.add(changed)

    def _redraw(self) -> None:
        """Coalesced: the pages are rebuilt at most every ``redraw_s``, however busy the
        feed; a clock tick only redraws the clock."""
        changed, self._changed = self._changed, set()
        if "standings" in changed:
            self.sections = screen_sections(self.state)
            self.draw()
        elif "clock" in changed:
            self.draw_clock()

    def action_page(self, step: int) -> None:
        self.page += step
        self.draw()

    def current(self) -> Page | None:
        per_page = max(1, self.size.height - 5 - 3)
        all_pages = pages(self.sections, per_page, max(1, self.size.width - 4))
        return all_pages[self.page % len(all_pages)] if all_pages else None

    def draw(self) -> None:
        shown = self.current()
        rows = self.query_one("#rows", Static)
        title = self.query_one("#title", Static)
        lost = (
            ""
            if self.state.linked or not self.state.sections
            else "   (lost the hub: reconnecting)"
        )
        if shown is None:
            title.update((self.state.event or "bridgehub") + lost)
            rows.update("Waiting for the hub" if not self.state.linked else "No sections yet")
            self.draw_clock()
            return
        sec, lines, n, of = shown
        heading = f"{self.state.event}   {sec.heading or 'Section ' + sec.section}".strip()
        if sec.bracket_page:
            name = (sec.knockout or {}).get("name") or "knockout"
            heading = f"{self.state.event}   Section {sec.section}: {name}"
            title.update(heading + (f"   page {n}/{of}" if of > 1 else "") + lost)
            rows.update(Text("\n").join(lines))
            self.draw_clock()
            return
        if sec.matches_page:
            heading = f"{self.state.event}   Section {sec.section}: matches of round "
            heading += str(sec.match_round)
            done = sum(1 for m in sec.matches if not m.out)
            line = "" if sec.matches_hidden else f"{done} of {len(sec.matches)} matches complete"
            title.update(f"{heading}\n{line}" + (f"   page {n}/{of}" if of > 1 else "") + lost)
            rows.update(matches_table(sec, lines))
            self.draw_clock()
            return
        played = played_text(sec)
        if sec.provisional:
            played += f"   provisional: board{'s' * (len(sec.provisional) > 1)} " + ", ".join(
                map(str, sec.provisional)
            )
        title.update(f"{heading}\n{played}" + (f"   page {n}/{of}" if of > 1 else "") + lost)
        if sec.hidden:
            rows.update("The standings of the last rounds are hidden: the final results follow")
            self.draw_clock()
            return
        if not sec.rows:
            rows.update("No standings published yet")
            self.draw_clock()
            return
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
        """The clock of the section on screen, once a second and at each tick of the hub."""
        shown = self.current()
        sec = shown[0] if shown else None
        final = sec is not None and sec.final
        show = clock_show(self.state, sec, self.now()) if sec and not final else None
        self.query_one("#clock", Digits).update(show.time_text if show else "--:--")
        over = " (over time)" if show is not None and show.seconds_left < 0 else ""
        phase = "" if show is None else f"round {show.round}: {PHASES[show.phase]}{over}"
        if final:
            phase = "Final results"
        elif show is None and sec is not None and sec.waiting:
            phase = "waiting for the director"
        self.query_one("#phase", Static).update(phase)


def matches_table(sec: ScreenSection, lines: list[MatchLine]) -> Table | str:
    """A page of a teams round's matches: tables, home v away, IMPs, VPs, boards out."""
    if sec.matches_hidden:
        return "The match results of the last rounds are hidden: the final results follow"
    table = Table(expand=True, show_edge=False, header_style="bold")
    table.add_column("Tables", justify="right")
    table.add_column("Home", justify="left", ratio=1)
    table.add_column("Away", justify="left", ratio=1)
    table.add_column("IMPs", justify="center")
    table.add_column("VP", justify="center")
    table.add_column("", justify="left")
    for m in lines:
        table.add_row(m.tables, m.home, m.away, m.imps, m.vp, m.out)
    return table
