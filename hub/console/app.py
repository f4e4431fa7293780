"""The TD console: the room, standings, TD calls, slow tables and the event log, fed by
the hub API.

Keyboard first (``?`` lists every key): ``r`` room, ``s`` standings, ``c`` calls, held
results and suspicious scores, ``w`` slow tables and penalties, ``l`` log, ``p``
pause/resume the clock, ``q`` quit. A tab's key puts the focus on its table, so Enter at
once decides the row under the cursor, and the status line says what it does; Escape
leaves a box; a refused command is shown as a notification and on the status line, not
only in the log (TD trial F12). Updates are coalesced: the screen redraws what changed at
most four times a second, however busy the room; a refilled list keeps its cursor on the
same item.

The app composes its parts: the tables (``tables``) show rows built from the room
(``rows``, ``devices``, ``traveller``, ``held``); the clock keys (``clock_keys``), the
decisions on a row (``decisions``) and the traveller's corrections send commands
(``commands``); ``login`` asks for the PIN; ``status_line`` says which key settles the row.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.reactive import var
from textual.widget import Widget
from textual.widgets import (
    DataTable,
    Footer,
    Header,
    Input,
    RichLog,
    Static,
    TabbedContent,
    TabPane,
)

from hub.api.client import Send, Source
from hub.console.bracket_keys import open_bracket
from hub.console.choice import PopUp
from hub.console.clock_keys import ClockKeys
from hub.console.commands import Answer, Commands, Reply
from hub.console.decisions import Decisions
from hub.console.desk_state import NotPlayed
from hub.console.desk_view import DeskView
from hub.console.devices import device_rows
from hub.console.draw_keys import DrawKeys
from hub.console.keys import HELP, KEYS
from hub.console.login import Connect, Login
from hub.console.matches import MatchesBook, MatchesView
from hub.console.pairs_book import PairsBook
from hub.console.pairs_view import PairsView
from hub.console.penalty_keys import PenaltyKeys
from hub.console.rows import SORTS, calls_rows, clock_line, room_rows, slow_rows, standings_rows
from hub.console.state import RoomState, standings_note
from hub.console.status_line import StatusLine
from hub.console.tables import (
    BoardInput,
    CallsTable,
    ConsoleTable,
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
    ENABLE_COMMAND_PALETTE = False  # every key is on the Help tab; the footer needs the room
    # the status line sits just above the key bar, whatever the tab's height
    CSS = """
    Screen > TabbedContent { height: 1fr; }
    #status { height: 1; padding: 0 1; background: $boost; }
    #traveller-dd { display: none; padding: 0 1; }
    """

    # what the TD looks at; each key press marks its tab for the next redraw
    sort: var[str] = var("table", init=False, always_update=True)
    overall: var[bool] = var(False, init=False, always_update=True)
    measure: var[str] = var("total", init=False, always_update=True)
    section_filter: var[str | None] = var(None, init=False, always_update=True)

    def __init__(
        self,
        source: Source,
        send: Send | None = None,
        refresh_s: float = 0.25,
        connect: Connect | None = None,
        ask_pin: bool = False,
    ) -> None:
        """``connect`` makes a new connection with a PIN the TD types (asked for at once
        with ``ask_pin``, and whenever the hub refuses one)."""
        super().__init__()
        self.source = source
        self.refresh_s = refresh_s
        self.room = RoomState()
        self.login = Login(self, connect)
        self.ask_pin = ask_pin
        self._log_seen = 0  # log lines already on the Log tab
        self.commands = Commands(send, self.room, self.login.ask if connect else None)
        self.clock_keys = ClockKeys(self)
        self.draw_keys = DrawKeys(self)
        self.penalty_keys = PenaltyKeys(self)
        self.decisions = Decisions(self)
        self.traveller_tab = Traveller(self, lambda: self.query_one(TravellerTable))
        self.not_played = NotPlayed()  # the Scores tab's boards awaiting a score
        self.pairs_book = PairsBook()  # the Pairs tab's pairs as the commands changed them
        self.matches_book = MatchesBook()  # the Matches tab's news from the feed (teams)

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
            with TabPane("Matches", id="matches"):  # its tab shows in a teams event only
                yield MatchesView(lambda: self.room.sections, self.matches_book, id="matches-view")
            with TabPane("Calls", id="calls"):
                yield CallsTable(id="calls-table", cursor_type="row")
            with TabPane("Slow", id="slow"):
                yield SlowTable(id="slow-table", cursor_type="row", zebra_stripes=True)
            with TabPane("Traveller", id="traveller"):
                yield BoardInput(
                    placeholder="board (or section and board: B 7), then Enter", id="board-input"
                )
                # makeable contracts and par, shown when the hub has the board's hand record
                yield Static("", id="traveller-dd", markup=False)
                yield TravellerTable(id="traveller-table", cursor_type="row", zebra_stripes=True)
            with TabPane("Scores", id="desk"):
                yield DeskView(self, self.not_played, id="desk-view")
            with TabPane("Pairs", id="pairs"):
                yield PairsView(self, self.pairs_book, id="pairs-view")
            with TabPane("Devices", id="devices"):
                yield DevicesTable(id="devices-table", zebra_stripes=True)
            with TabPane("Log", id="log"):
                yield RichLog(id="log-view", wrap=True, max_lines=500)
            with TabPane("Help", id="help"), VerticalScroll(id="help-text"):
                yield Static(Text(HELP))  # as written (indented); the arrows scroll it
        yield StatusLine(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.set_interval(5.0, self._refresh_devices)
        self.run_worker(self._follow(), exclusive=True)
        self.set_interval(self.refresh_s, self.redraw)
        self.focus_tab("room")
        if self.ask_pin:
            self.login.ask()

    def reconnect(self, source: Source, send: Send) -> None:
        """Follow the hub over a new connection (a new log-in); the old one is closed."""
        self.source = source
        self.commands.use(send)
        self.run_worker(self._follow(), exclusive=True)

    async def _follow(self) -> None:
        async for msg in self.source():
            self.login.seen(msg)
            self.commands.take_reply(msg)
            if (
                msg.get("event") == "board_changed"
                and self.traveller_tab.board
                and (msg.get("section"), msg.get("board")) == self.traveller_tab.board
            ):
                await self.fetch_traveller(*self.traveller_tab.board)
            self.not_played.apply(msg, self.room.sections)
            self.pairs_book.apply(msg)
            self.room.apply(msg)
            self.matches_book.apply(msg, self.room.sections)
            if self.matches_book.wants_history and await self.commands.request(
                "results", {}, self.matches_book.take_history
            ):  # earlier rounds, for a console started late (once its session is open)
                self.matches_book.wants_history = False

    async def command(
        self,
        name: str,
        what: str,
        /,
        on_reply: Reply | None = None,
        quiet: bool = False,
        **args: Any,
    ) -> bool:
        """Send a director's command (``Commands.send``); False when it could not go out."""
        return await self.commands.send(name, what, on_reply, quiet, **args)

    def ask(self, popup: PopUp, then: Answer) -> None:
        """Put a pop-up over the console; the TD's answer goes to ``then``."""
        self.push_screen(popup, then)

    def action_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab
        self.focus_tab(tab)

    def focus_tab(self, tab: str) -> None:
        """Focus the tab's table (or else its first box), so Enter acts on the row under
        the cursor at once (TD trial F12)."""
        pane = self.query_one(f"#{tab}", TabPane)
        target: Widget | None = next(iter(pane.query(DataTable)), None)
        if target is None:
            target = next((w for w in pane.query(Widget) if w.focusable), None)
        if target is not None:
            target.focus()
        self.show_hint(tab)

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        """A tab chosen with the mouse gets the focus on its table too."""
        if event.pane.id and not (self.focused and event.pane in self.focused.ancestors):
            self.focus_tab(event.pane.id)

    def action_leave_box(self) -> None:
        """Escape in a box: back to the tab's table, so the view keys work again."""
        if isinstance(self.focused, Input):
            self.focus_tab(self.query_one(TabbedContent).active)

    def action_log_in(self) -> None:
        self.login.ask()

    def show_hint(self, tab: str | None = None) -> None:
        """The status line about the row under the cursor of the tab's table (none while
        Textual closes the app: a highlighted row may come with the screen gone)."""
        if not self.is_running:
            return
        tab = tab or self.query_one(TabbedContent).active
        table = next(iter(self.query_one(f"#{tab}", TabPane).query(ConsoleTable)), None)
        self.query_one(StatusLine).about(tab, table)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_hint()

    async def action_pause(self) -> None:
        await self.clock_keys.pause()

    async def action_adjust(self, seconds: int) -> None:
        await self.clock_keys.adjust(seconds)

    async def action_start_clock(self) -> None:
        await self.clock_keys.start()

    def action_next_round(self) -> None:
        self.clock_keys.next_round()

    async def action_draw(self) -> None:
        await self.draw_keys.show()

    def action_withdraw_team(self) -> None:
        self.draw_keys.withdraw()

    def action_penalty(self) -> None:
        self.penalty_keys.ask_table()

    action_knockout = open_bracket  # K: the bracket of a knockout section

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
        if self.is_running and self.query_one(TabbedContent).active == "devices":
            await self._fetch_devices()

    async def _fetch_devices(self) -> None:
        await self.command("devices", "devices", on_reply=self._show_devices, quiet=True)

    def _show_devices(self, reply: dict[str, Any]) -> None:
        if reply.get("ok") and self.is_running:
            self.query_one(DevicesTable).fill((None, row) for row in device_rows(reply))

    def action_traveller(self) -> None:
        """The Traveller tab: its results when a board is open, else the board box."""
        self.action_tab("traveller")
        if not self.query_one(TravellerTable).row_count:
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
            self.traveller_tab.change_result(ident)
        else:
            self.decisions.row_selected(event.data_table.id, key)

    def redraw(self) -> None:
        """Coalesced refresh: only the parts marked dirty since the last redraw. Nothing
        while Textual closes the app (its timer may still fire with the screen gone)."""
        if not self.is_running:
            return
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
            log = self.query_one("#log-view", RichLog)
            for line in self.room.log_lines(min(self.room.logged - self._log_seen, 500)):
                log.write(Text(line))
            self._log_seen = self.room.logged
        self.show_hint()  # a list filled or emptied under the cursor: its row's hint
        self._tell()

    def _tell(self) -> None:
        """Refusals and answers shown where the TD is looking: a notification over any
        tab, and the status line (TD trial F12)."""
        warnings, self.room.warnings = self.room.warnings, []
        news, self.room.news = self.room.news, []
        for text in warnings:
            self.notify(text, severity="error", timeout=10)
        for text in news:
            self.notify(text, timeout=10)
        if warnings:
            self.query_one(StatusLine).warn(warnings[-1])
