"""The TD console: the room, standings, TD calls, slow tables and the event log, fed by
the hub API.

Keyboard first (``?`` lists every key): ``r`` room, ``s`` standings, ``c`` calls, held
results and suspicious scores, ``w`` slow tables and penalties, ``l`` log, ``p``
pause/resume the clock, ``q`` quit; Enter on a row decides it. Updates are coalesced:
the screen redraws what changed at most four times a second, however busy the room.

The app composes its parts: the tables (``tables``) show rows built from the room
(``rows``, ``devices``, ``traveller``); the clock keys (``keys``), the decisions on a
row (``decisions``) and the traveller's corrections send commands (``commands``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.reactive import var
from textual.widgets import DataTable, Footer, Header, Input, Log, Static, TabbedContent, TabPane

from hub.api.client import Send, Source
from hub.console.choice import PopUp
from hub.console.commands import Answer, Commands, Reply
from hub.console.decisions import Decisions
from hub.console.devices import device_rows
from hub.console.keys import HELP, KEYS, ClockKeys
from hub.console.rows import SORTS, calls_rows, clock_line, room_rows, slow_rows, standings_rows
from hub.console.state import RoomState, standings_note
from hub.console.tables import (
    CallsTable,
    DevicesTable,
    RoomTable,
    SlowTable,
    StandingsTable,
    TravellerTable,
)
from hub.console.traveller import Traveller


class ConsoleApp(App[None]):
    """The TD console. Runs Textual's event loop: the feed is followed by a worker on it,
    and every part (keys, pop-ups, tables) is called from it."""

    TITLE = "bridgehub"
    BINDINGS: ClassVar = KEYS

    # what the TD looks at; each key press marks its tab for the next redraw
    sort: var[str] = var("table", init=False, always_update=True)
    overall: var[bool] = var(False, init=False, always_update=True)
    measure: var[str] = var("total", init=False, always_update=True)
    section_filter: var[str | None] = var(None, init=False, always_update=True)

    def __init__(self, source: Source, send: Send | None = None, refresh_s: float = 0.25) -> None:
        super().__init__()
        self.source = source
        self.refresh_s = refresh_s
        self.room = RoomState()
        self.commands = Commands(send, self.room)
        self.clock_keys = ClockKeys(self)
        self.decisions = Decisions(self)
        self.traveller_tab = Traveller(self, lambda: self.query_one(TravellerTable))

    @property
    def traveller(self) -> list[dict[str, Any]]:
        """The results of the board open on the Traveller tab."""
        return self.traveller_tab.results

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="clock")
        with TabbedContent(initial="room"):
            with TabPane("Room", id="room"):
                yield RoomTable(id="room-table", zebra_stripes=True, cursor_type="row")
            with TabPane("Standings", id="standings"):
                yield Static("", id="standings-note")
                yield StandingsTable(id="standings-table", zebra_stripes=True)
            with TabPane("Calls", id="calls"):
                yield CallsTable(id="calls-table", cursor_type="row")
            with TabPane("Slow", id="slow"):
                yield SlowTable(id="slow-table", cursor_type="row", zebra_stripes=True)
            with TabPane("Traveller", id="traveller"):
                yield Input(
                    placeholder="board (or section and board: B 7), then Enter", id="board-input"
                )
                yield TravellerTable(id="traveller-table", cursor_type="row", zebra_stripes=True)
            with TabPane("Devices", id="devices"):
                yield DevicesTable(id="devices-table", zebra_stripes=True)
            with TabPane("Log", id="log"):
                yield Log(id="log-view")
            with TabPane("Help", id="help"):
                yield Static(HELP)
        yield Footer()

    def on_mount(self) -> None:
        self.set_interval(5.0, self._refresh_devices)
        self.run_worker(self._follow(), exclusive=True)
        self.set_interval(self.refresh_s, self.redraw)

    async def _follow(self) -> None:
        async for msg in self.source():
            self.commands.take_reply(msg)
            if (
                msg.get("event") == "board_changed"
                and self.traveller_tab.board
                and (msg.get("section"), msg.get("board")) == self.traveller_tab.board
            ):
                await self.fetch_traveller(*self.traveller_tab.board)
            self.room.apply(msg)

    async def command(
        self,
        name: str,
        what: str,
        on_reply: Reply | None = None,
        quiet: bool = False,
        **args: Any,
    ) -> None:
        """Send a director's command (``Commands.send``)."""
        await self.commands.send(name, what, on_reply, quiet, **args)

    def ask(self, popup: PopUp, then: Answer) -> None:
        """Put a pop-up over the console; the TD's answer goes to ``then``."""
        self.push_screen(popup, then)

    def action_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab

    async def action_pause(self) -> None:
        await self.clock_keys.pause()

    async def action_adjust(self, seconds: int) -> None:
        await self.clock_keys.adjust(seconds)

    async def action_start_clock(self) -> None:
        await self.clock_keys.start()

    def action_next_round(self) -> None:
        self.clock_keys.next_round()

    def action_break(self) -> None:
        self.clock_keys.take_break()

    def action_measure(self) -> None:
        """Standings total as published (MP % or IMPs), or as points (matchpoints of the
        top, IMPs a board)."""
        self.measure = "points" if self.measure == "total" else "total"
        self.action_tab("standings")

    def action_overall(self) -> None:
        """Standings per section, or every section in one ranking."""
        self.overall = not self.overall
        self.action_tab("standings")

    def action_sort(self) -> None:
        """Room in table order, or the most behind first."""
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]

    def action_filter(self) -> None:
        """Room of every section, then each section in turn."""
        choices: list[str | None] = [None, *sorted(self.room.sections)]
        self.section_filter = choices[(choices.index(self.section_filter) + 1) % len(choices)]

    def watch_measure(self) -> None:
        self.room.dirty.add("standings")

    def watch_overall(self) -> None:
        self.room.dirty.add("standings")

    def watch_sort(self) -> None:
        self.room.dirty.add("room")

    def watch_section_filter(self) -> None:
        self.room.dirty.add("room")

    async def action_devices(self) -> None:
        self.action_tab("devices")
        await self._fetch_devices()

    async def _refresh_devices(self) -> None:
        if self.query_one(TabbedContent).active == "devices":
            await self._fetch_devices()

    async def _fetch_devices(self) -> None:
        await self.command("devices", "devices", on_reply=self._show_devices, quiet=True)

    def _show_devices(self, reply: dict[str, Any]) -> None:
        if reply.get("ok"):
            self.query_one(DevicesTable).fill((None, row) for row in device_rows(reply))

    def action_traveller(self) -> None:
        self.action_tab("traveller")
        self.query_one("#board-input", Input).focus()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "board-input":
            await self.traveller_tab.open_typed(event.value)

    async def fetch_traveller(self, section: str, board: int) -> None:
        await self.traveller_tab.fetch(section, board)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        key = event.row_key.value or ""
        what, _, ident = key.partition(":")
        if what == "result":
            self.traveller_tab.change_result(int(ident))
        else:
            self.decisions.row_selected(event.data_table.id, key)

    def redraw(self) -> None:
        """Coalesced refresh: only the parts marked dirty since the last redraw."""
        dirty, self.room.dirty = self.room.dirty, set()
        if "clock" in dirty or "room" in dirty:
            self.query_one("#clock", Static).update(clock_line(self.room))
        if "room" in dirty:
            self.query_one(RoomTable).show(room_rows(self.room, self.sort, self.section_filter))
        if "standings" in dirty:
            self.query_one("#standings-note", Static).update(standings_note(self.room))
            rows = standings_rows(self.room, self.overall, self.measure)
            self.query_one(StandingsTable).fill((None, row) for row in rows)
        if "calls" in dirty:
            self.query_one(CallsTable).fill(calls_rows(self.room))
        if "slow" in dirty:
            self.query_one(SlowTable).fill(slow_rows(self.room).items())
        if "log" in dirty:
            log = self.query_one("#log-view", Log)
            log.clear()
            log.write_lines(self.room.log[-200:])
