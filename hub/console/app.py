"""The TD console: the room, standings, TD calls, slow tables and the event log, fed by
the hub API.

Keyboard first (``?`` lists every key): ``r`` room, ``s`` standings, ``c`` calls, held
results and suspicious scores, ``w`` slow tables and penalties, ``l`` log, ``p``
pause/resume the clock, ``q`` quit; Enter on a row decides it. Updates are coalesced:
the screen redraws what changed at most four times a second, however busy the room.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.coordinate import Coordinate
from textual.widgets import (
    DataTable,
    Footer,
    Header,
    Input,
    Log,
    Static,
    TabbedContent,
    TabPane,
)

from hub.console.choice import AskScreen, ChoiceScreen
from hub.console.state import RoomState, clock_text, standings_note
from hub.standings.places import moved_text, place

Source = Callable[[], AsyncIterator[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

HELP = """Keys
  r  room: every table, boards done, minutes behind (+) or ahead (-) of an
     even pace, results awaiting verification, online, TD call, battery;
     Enter on a table: let a replacement terminal take it over (a dead
     terminal), or its traveller
  s  standings of each section, with places gained or lost since the last
     standings; v switches to one overall ranking of every section and back;
     m switches the total between MP % and matchpoints (IMPs and IMPs a board)
  c  TD calls, held results, suspicious scores and withheld standings; Enter
     on a row decides it (a call: in progress, resolved, deferred; a held
     result: accept, accept as another board, reject; a suspicious score:
     the contract is valid, or open the traveller to correct it; withheld
     standings: release them now, open boards marked provisional)
  w  slow tables, most behind first, and slow-play penalties; Enter on a
     penalty: NS, EW, both or shared pay, or waive
  t  traveller of a board: type its number (or section and number), Enter;
     Enter on a result: correct, erase or adjust it (audited, re-scored,
     sent on to the screens)
  d  devices: base stations (link counters), clock displays and terminals
     (table, battery, signal, last heard), refreshed every 5 s
  l  event log
  g  start the round's clock now (the room is seated)
  n  next round now, whether or not every table is done (asks first)
  p  pause or resume the round clock (resume also ends a break)
  +  one more minute on the clock      -  one minute less
  b  a break: 5, 10, 15 or 20 minutes
  o  room order: by table, or the most behind first
  f  room filter: every section, then one section at a time; the clock
     keys then act on that section only
  ?  this help
  q  quit"""


PENALTY_CHOICES = [
    ("NS", "confirm: NS pays"),
    ("EW", "confirm: EW pays"),
    ("both", "confirm: both pay in full"),
    ("shared", "confirm: shared, half each"),
    ("waive", "waive"),
]
RESULT_CHOICES = [
    ("correct", "correct the contract or the tricks"),
    ("erase", "erase (the table plays it again or the TD rules)"),
    ("60/40", "adjust: 60 % NS, 40 % EW"),
    ("50/50", "adjust: 50 % each"),
    ("40/60", "adjust: 40 % NS, 60 % EW"),
    ("A+/A-", "adjust: A+ NS, A- EW"),
    ("A-/A+", "adjust: A- NS, A+ EW"),
]
TABLE_CHOICES = [
    ("takeover", "let a replacement terminal take over this table"),
    ("traveller", "traveller of the table's first board this round"),
]
FLAG_CHOICES = [
    ("valid", "the contract is valid (clear the flag)"),
    ("traveller", "open the traveller to correct the result"),
]
RELEASE_CHOICES = [("release", "release the standings now (open boards provisional)")]
NEXT_CHOICES = [("next", "end this round now and start the next")]
HELD_CHOICES = [
    ("accept", "accept as sent"),
    ("rekey", "accept as another board (the terminal had the wrong one)"),
    ("reject", "reject"),
]
BREAK_CHOICES = [(str(m), f"{m} minutes") for m in (5, 10, 15, 20)]
CALL_CHOICES = [
    ("in_progress", "director on the way / at the table"),
    ("resolved", "resolved"),
    ("deferred", "deferred (ruling later)"),
]


class ConsoleApp(App[None]):
    TITLE = "bridgehub"
    BINDINGS: ClassVar = [
        Binding("r", "tab('room')", "Room"),
        Binding("s", "tab('standings')", "Standings"),
        Binding("v", "overall", "Overall", show=False),
        Binding("m", "measure", "MP%/points", show=False),
        Binding("c", "tab('calls')", "Calls"),
        Binding("w", "tab('slow')", "Slow"),
        Binding("l", "tab('log')", "Log"),
        Binding("t", "traveller", "Traveller"),
        Binding("d", "devices", "Devices"),
        Binding("p", "pause", "Pause/resume"),
        Binding("g", "start_clock", "Start clock", show=False),
        Binding("n", "next_round", "Next round", show=False),
        Binding("plus", "adjust(60)", "+1 min", show=False),
        Binding("minus", "adjust(-60)", "-1 min", show=False),
        Binding("b", "break", "Break", show=False),
        Binding("o", "sort", "Sort"),
        Binding("f", "filter", "Section"),
        Binding("question_mark", "tab('help')", "Help"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, source: Source, send: Send | None = None, refresh_s: float = 0.25) -> None:
        super().__init__()
        self.source = source
        self.send = send
        self.refresh_s = refresh_s
        self.room = RoomState()
        self._n = 0
        self._room_shown: dict[str, tuple[Any, ...]] = {}
        self._on_reply: dict[str, Callable[[dict[str, Any]], None]] = {}
        self.traveller_of: tuple[str, int] | None = None
        self.traveller: list[dict[str, Any]] = []
        self.sort = "table"
        self.overall = False
        self.measure = "total"
        self.section_filter: str | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="clock")
        with TabbedContent(initial="room"):
            with TabPane("Room", id="room"):
                yield DataTable(id="room-table", zebra_stripes=True, cursor_type="row")
            with TabPane("Standings", id="standings"):
                yield Static("", id="standings-note")
                yield DataTable(id="standings-table", zebra_stripes=True)
            with TabPane("Calls", id="calls"):
                yield DataTable(id="calls-table", cursor_type="row")
            with TabPane("Slow", id="slow"):
                yield DataTable(id="slow-table", cursor_type="row", zebra_stripes=True)
            with TabPane("Traveller", id="traveller"):
                yield Input(
                    placeholder="board (or section and board: B 7), then Enter", id="board-input"
                )
                yield DataTable(id="traveller-table", cursor_type="row", zebra_stripes=True)
            with TabPane("Devices", id="devices"):
                yield DataTable(id="devices-table", zebra_stripes=True)
            with TabPane("Log", id="log"):
                yield Log(id="log-view")
            with TabPane("Help", id="help"):
                yield Static(HELP)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#room-table", DataTable).add_columns(
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
        self.query_one("#standings-table", DataTable).add_columns(
            "sec", "rank", "pair", "dir", "total", "boards", "moved"
        )
        self.query_one("#traveller-table", DataTable).add_columns(
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
        self.query_one("#devices-table", DataTable).add_columns(
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
        self.set_interval(5.0, self._refresh_devices)
        self.query_one("#calls-table", DataTable).add_columns(
            "what", "id", "table", "status", "text"
        )
        self.query_one("#slow-table", DataTable).add_columns(
            "what", "sec", "table", "round", "behind", "status", "detail"
        )
        self.run_worker(self._follow(), exclusive=True)
        self.set_interval(self.refresh_s, self.redraw)

    async def _follow(self) -> None:
        async for msg in self.source():
            if msg.get("type") == "reply" and msg.get("id") in self._on_reply:
                self._on_reply.pop(msg["id"])(msg)
            if (
                msg.get("event") == "board_changed"
                and self.traveller_of
                and (msg.get("section"), msg.get("board")) == self.traveller_of
            ):
                await self.fetch_traveller(*self.traveller_of)
            self.room.apply(msg)

    def action_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab

    async def command(
        self,
        name: str,
        what: str,
        on_reply: Callable[[dict[str, Any]], None] | None = None,
        quiet: bool = False,
        **args: Any,
    ) -> None:
        """Send a director's command; its reply lands in the log (and in ``on_reply``);
        ``quiet`` logs only a refusal (for reads repeated every few seconds)."""
        if self.send is None:
            self.room.note(f"! {what}: this console is read-only (no PIN)")
            return
        self._n += 1
        command_id = f"console-{self._n}"
        self.room.sent(command_id, what, quiet)
        if on_reply is not None:
            self._on_reply[command_id] = on_reply
        try:
            await self.send({"id": command_id, "name": name, "args": args})
        except (ConnectionError, OSError) as e:
            self.room.pending.pop(command_id, None)
            self.room.note(f"! {what} not sent: {e}")

    async def action_pause(self) -> None:
        """Pause a running clock; resume a paused one or end a break early."""
        for section, sec in sorted(self.room.sections.items()):
            if self.section_filter not in (None, section):
                continue
            stopped = (sec.get("clock") or {}).get("phase") in ("paused", "break")
            name = "resume" if stopped else "pause"
            await self.command(name, f"{name} clock {section}", section=section)

    async def action_adjust(self, seconds: int) -> None:
        for section in self._clock_sections():
            await self.command(
                "adjust_clock",
                f"clock {section} {seconds // 60:+d} min",
                section=section,
                seconds=seconds,
            )

    def _clock_sections(self) -> list[str]:
        """The clock keys act on the section the room is filtered to, or on every one."""
        return [self.section_filter] if self.section_filter else sorted(self.room.sections)

    async def action_start_clock(self) -> None:
        for section in self._clock_sections():
            await self.command("start_clock", f"clock of {section} started", section=section)

    def action_next_round(self) -> None:
        where = self.section_filter or "every section"
        self.push_screen(ChoiceScreen(f"Next round in {where}?", NEXT_CHOICES), self._next_round)

    async def _next_round(self, choice: str | None) -> None:
        if choice != "next":
            return
        for section in self._clock_sections():
            await self.command("next_round", f"next round in {section}", section=section)

    def action_measure(self) -> None:
        """Standings total as published (MP % or IMPs), or as points (matchpoints of the
        top, IMPs a board)."""
        self.measure = "points" if self.measure == "total" else "total"
        self.room.dirty.add("standings")
        self.action_tab("standings")

    def action_overall(self) -> None:
        """Standings per section, or every section in one ranking."""
        self.overall = not self.overall
        self.room.dirty.add("standings")
        self.action_tab("standings")

    def action_sort(self) -> None:
        """Room in table order, or the most behind first."""
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        self.room.dirty.add("room")

    def action_filter(self) -> None:
        """Room of every section, then each section in turn."""
        choices: list[str | None] = [None, *sorted(self.room.sections)]
        self.section_filter = choices[(choices.index(self.section_filter) + 1) % len(choices)]
        self.room.dirty.add("room")

    def action_break(self) -> None:
        self.push_screen(
            ChoiceScreen(f"Break for {self.section_filter or 'every section'}", BREAK_CHOICES),
            self._start_break,
        )

    async def _start_break(self, minutes: str | None) -> None:
        if minutes is None:
            return
        for section in self._clock_sections():
            await self.command(
                "start_break",
                f"{minutes}-minute break in {section}",
                section=section,
                minutes=int(minutes),
            )

    async def action_devices(self) -> None:
        self.action_tab("devices")
        await self._fetch_devices()

    async def _refresh_devices(self) -> None:
        if self.query_one(TabbedContent).active == "devices":
            await self._fetch_devices()

    async def _fetch_devices(self) -> None:
        await self.command("devices", "devices", on_reply=self._show_devices, quiet=True)

    def _show_devices(self, reply: dict[str, Any]) -> None:
        if not reply.get("ok"):
            return
        table = self.query_one("#devices-table", DataTable)
        table.clear()
        for st in reply["stations"]:
            table.add_row(
                "base station",
                st["url"],
                Text("up") if st["connected"] else Text("DOWN", style="bold red reverse"),
                "",
                "",
                f"{st['reconnects']} reconnects",
                f"{st['frames_in']}/{st['frames_out']}",
                st["retransmits"],
                st["garbage"],
                st["refused"],
            )
        for ck in reply.get("clocks", []):
            table.add_row(
                f"clock ({ck['protocol']})",
                ck["url"],
                Text("up") if ck["connected"] else Text("DOWN", style="bold red reverse"),
                "",
                "",
                f"{ck['reconnects']} reconnects",
                "",
                "",
                "",
                "",
            )
        for tm in reply["terminals"]:
            where = f"{tm['section']}{tm['table']}" if tm["table"] is not None else "-"
            heard = "" if tm["seconds_ago"] is None else f"{tm['seconds_ago']:.0f} s ago"
            table.add_row(
                tm["serial"],
                where,
                Text("on line") if tm["online"] else Text("OFF", style="bold red reverse"),
                _battery_text(tm["battery"]),
                "" if tm["signal"] is None else f"{tm['signal']}%",
                heard,
                "",
                "",
                "",
                "",
            )

    def action_traveller(self) -> None:
        self.action_tab("traveller")
        self.query_one("#board-input", Input).focus()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "board-input":
            return
        words = event.value.split()
        sections = sorted(self.room.sections)
        section = self.section_filter or (sections[0] if sections else "A")
        if len(words) == 2 and words[0].upper() in self.room.sections:
            section, words = words[0].upper(), words[1:]
        if len(words) != 1 or not words[0].isdigit():
            self.room.note(f"! traveller: give a board number, not {event.value!r}")
            return
        await self.fetch_traveller(section, int(words[0]))
        self.query_one("#traveller-table", DataTable).focus()

    async def fetch_traveller(self, section: str, board: int) -> None:
        self.traveller_of = (section, board)
        await self.command(
            "traveller",
            f"traveller {section} board {board}",
            on_reply=self._show_traveller,
            section=section,
            board=board,
        )

    def _show_traveller(self, reply: dict[str, Any]) -> None:
        if not reply.get("ok"):
            return  # the refusal is in the log
        self.traveller = reply["results"]
        flagged = {
            (f["table"], f["round"])
            for f in self.room.suspicious.get((reply["section"], reply["board"]), [])
        }
        table = self.query_one("#traveller-table", DataTable)
        table.clear()
        for i, r in enumerate(self.traveller):
            played: str | Text = r["adjusted"] or f"{r['contract'] or ''}"
            if (r["table"], r["round"]) in flagged:  # a suspicious score: check it
                played = Text(f"{played} ?", style="bold yellow")
            table.add_row(
                r["table"],
                r["round"],
                r["ns"],
                r["ew"],
                played,
                r["declarer"] or "",
                "" if r["tricks"] is None else r["tricks"],
                "" if r["score_ns"] is None else r["score_ns"],
                _two_places(r["ns_score"]),
                _two_places(r["ew_score"]),
                r["entered_by"],
                key=f"result:{i}",
            )

    def _change_result(self, i: int) -> None:
        r = self.traveller[i]
        assert self.traveller_of is not None
        section, board = self.traveller_of
        where = {"section": section, "table": r["table"], "round": r["round"], "board": board}
        label = f"{section}{r['table']} board {board}"

        async def chosen(choice: str | None) -> None:
            if choice == "erase":
                await self.command("erase_result", f"erase {label}", **where)
            elif choice == "correct":
                self.push_screen(
                    AskScreen(
                        f"Correct {label}: contract, declarer, result", "4S N =   3NTx S -2   PASS"
                    ),
                    corrected,
                )
            elif choice is not None:
                await self.command(
                    "enter_result",
                    f"{label} adjusted {choice}",
                    ns_pair=r["ns"],
                    ew_pair=r["ew"],
                    adjusted=choice,
                    **where,
                )

        async def corrected(text: str | None) -> None:
            if text is None:
                return
            parts = text.split()
            contract, declarer, result = [*parts, "", "", ""][:3]
            await self.command(
                "enter_result",
                f"{label} corrected to {text}",
                ns_pair=r["ns"],
                ew_pair=r["ew"],
                contract=contract,
                declarer=declarer,
                result=result,
                **where,
            )

        self.push_screen(ChoiceScreen(f"Result at {label}", RESULT_CHOICES), chosen)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        key = event.row_key.value or ""
        what, _, ident = key.partition(":")
        if what == "result":
            self._change_result(int(ident))
            return
        if event.data_table.id == "room-table":
            section, _, table = key.partition(":")
            self.push_screen(
                ChoiceScreen(f"Table {section}{table}", TABLE_CHOICES),
                lambda choice: self._table_action(section, int(table), choice),
            )
            return
        if event.data_table.id == "slow-table" and what == "late":
            section, _, table = ident.partition(":")
            self.push_screen(
                ChoiceScreen(f"Table {section}{table}", TABLE_CHOICES),
                lambda choice: self._table_action(section, int(table), choice),
            )
            return
        if what == "flag":
            section, board, table, rnd = ident.split(":")
            reason = next(
                (
                    f["reason"]
                    for f in self.room.suspicious.get((section, int(board)), [])
                    if (f["table"], f["round"]) == (int(table), int(rnd))
                ),
                "",
            )
            self.push_screen(
                ChoiceScreen(
                    f"Suspicious score at {section}{table} board {board}: {reason}", FLAG_CHOICES
                ),
                lambda choice: self._decide_flag(section, int(board), int(table), int(rnd), choice),
            )
        elif what == "withheld":
            self.push_screen(
                ChoiceScreen(f"Standings of section {ident}", RELEASE_CHOICES),
                lambda choice: self._release(ident, choice),
            )
        elif what == "held":
            self.push_screen(
                ChoiceScreen(f"Held result {ident}", HELD_CHOICES),
                lambda choice: self._decide_held(int(ident), choice),
            )
        elif what == "penalty":
            self.push_screen(
                ChoiceScreen(f"Slow-play penalty {ident}", PENALTY_CHOICES),
                lambda choice: self._decide_penalty(int(ident), choice),
            )
        elif what == "call":
            self.push_screen(
                ChoiceScreen(f"TD call {ident}", CALL_CHOICES),
                lambda choice: self._move_call(int(ident), choice),
            )

    async def _table_action(self, section: str, table: int, choice: str | None) -> None:
        if choice == "takeover":
            await self.command(
                "allow_takeover",
                f"takeover allowed at {section}{table}",
                section=section,
                table=table,
            )
        elif choice == "traveller":
            self.action_tab("traveller")
            row = next(
                (
                    t
                    for t in self.room.sections.get(section, {}).get("tables", [])
                    if t["table"] == table
                ),
                None,
            )
            if row and row["boards"]:
                await self.fetch_traveller(section, row["boards"][0])

    async def _decide_flag(
        self, section: str, board: int, table: int, rnd: int, choice: str | None
    ) -> None:
        if choice == "valid":
            await self.command(
                "contract_valid",
                f"{section}{table} board {board}: contract is valid",
                section=section,
                board=board,
                table=table,
                round=rnd,
            )
        elif choice == "traveller":
            self.action_tab("traveller")
            await self.fetch_traveller(section, board)

    async def _release(self, section: str, choice: str | None) -> None:
        if choice == "release":
            await self.command(
                "release_standings", f"standings of {section} released", section=section
            )

    async def _decide_held(self, result: int, choice: str | None) -> None:
        if choice == "accept":
            await self.command("accept_held", f"accept held result {result}", result=result)
        elif choice == "reject":
            await self.command("reject_held", f"reject held result {result}", result=result)
        elif choice == "rekey":

            async def board(text: str | None) -> None:
                if text is None:
                    return
                if not text.isdigit():
                    self.room.note(f"! held result {result}: {text!r} is not a board number")
                    return
                await self.command(
                    "accept_held",
                    f"accept held result {result} as board {text}",
                    result=result,
                    rekey={"board": int(text)},
                )

            self.push_screen(
                AskScreen(f"Held result {result}: the board actually played", "board number"), board
            )

    async def _decide_penalty(self, penalty: int, choice: str | None) -> None:
        if choice == "waive":
            await self.command("waive_penalty", f"waive penalty {penalty}", penalty=penalty)
        elif choice is not None:
            await self.command(
                "confirm_penalty", f"penalty {penalty}: {choice} pay", penalty=penalty, payer=choice
            )

    async def _move_call(self, call: int, choice: str | None) -> None:
        if choice is not None:
            await self.command(
                "td_call", f"TD call {call} {choice.replace('_', ' ')}", call=call, status=choice
            )

    def _draw_room(self) -> None:
        """Change only the cells that changed; rebuild when the tables themselves change
        (a new round's seating), so a 200-table room costs little per result."""
        table = self.query_one("#room-table", DataTable)
        rows = room_rows(self.room, self.sort, self.section_filter)
        if list(rows) != list(self._room_shown):
            table.clear()
            for key, row in rows.items():
                table.add_row(*row, key=key)
        else:
            for key, row in rows.items():
                old = self._room_shown[key]
                for col, (was, now) in enumerate(zip(old, row, strict=True)):
                    if was != now:
                        table.update_cell_at(Coordinate(table.get_row_index(key), col), now)
        self._room_shown = rows

    def redraw(self) -> None:
        """Coalesced refresh: only the parts marked dirty since the last redraw."""
        dirty, self.room.dirty = self.room.dirty, set()
        if "clock" in dirty or "room" in dirty:
            parts = [
                f"{name}: round {sec.get('round')}/{sec.get('rounds')} "
                f"{clock_text(sec.get('clock'))}"
                for name, sec in sorted(self.room.sections.items())
            ]
            self.query_one("#clock", Static).update(f"{self.room.event}   " + "   ".join(parts))
        if "room" in dirty:
            self._draw_room()
        if "standings" in dirty:
            self.query_one("#standings-note", Static).update(standings_note(self.room))
            table = self.query_one("#standings-table", DataTable)
            table.clear()
            for rank, name, r in overall_rows(self.room) if self.overall else []:
                table.add_row(
                    name,
                    rank,
                    r["pair"],
                    r.get("direction") or "",
                    standing_text(r, self.measure),
                    r.get("boards", ""),
                    "",
                )
            for name, sec in [] if self.overall else sorted(self.room.sections.items()):
                rows = sorted(
                    sec.get("standings", []),
                    key=lambda r: (r.get("direction") or "", place(r["rank"])),
                )
                moved = sec.get("moved", {})
                for r in rows:
                    table.add_row(
                        name,
                        r["rank"],
                        r["pair"],
                        r.get("direction") or "",
                        standing_text(r, self.measure),
                        r.get("boards", ""),
                        moved_text(moved.get((r["pair"], r.get("direction")))),
                    )
        if "calls" in dirty:
            table = self.query_one("#calls-table", DataTable)
            table.clear()
            for c in self.room.td_calls:
                table.add_row(
                    "TD call",
                    c.get("id"),
                    f"{c.get('section') or ''}{c.get('table')}",
                    c.get("status"),
                    c.get("note") or "",
                    key=f"call:{c.get('id')}",
                )
            for h in self.room.held:
                table.add_row(
                    "held",
                    h.get("id"),
                    f"{h.get('section') or ''}{h.get('table')}",
                    f"board {h.get('board')}",
                    h.get("text") or "",
                    key=f"held:{h.get('id')}",
                )
            for (section, board), flags in sorted(self.room.suspicious.items()):
                for f in flags:
                    table.add_row(
                        Text("suspicious", style="bold yellow"),
                        f"bd {board}",
                        f"{section}{f['table']}",
                        f"round {f['round']}",
                        f["reason"],
                        key=f"flag:{section}:{board}:{f['table']}:{f['round']}",
                    )
            for section, rnd in sorted(self.room.withheld.items()):
                table.add_row(
                    Text("standings", style="bold"),
                    section,
                    "",
                    f"round {rnd} withheld",
                    "waiting for the held results and suspicious scores above; "
                    "Enter releases them now",
                    key=f"withheld:{section}",
                )
        if "slow" in dirty:
            table = self.query_one("#slow-table", DataTable)
            table.clear()
            for key, row in slow_rows(self.room).items():
                table.add_row(*row, key=key)
        if "log" in dirty:
            log = self.query_one("#log-view", Log)
            log.clear()
            log.write_lines(self.room.log[-200:])


SORTS = ("table", "behind")


def standing_text(row: dict[str, Any], measure: str = "total") -> str:
    """A standings total: MP % or IMPs (signed) as published; as points, the matchpoints
    scored of the tops available (``123/208``) or IMPs a board."""
    imps = "top" in row and row["top"] is None
    if measure == "points":
        if row.get("top"):
            return f"{row['points']:g}/{row['top']}"
        if imps and row.get("boards"):
            return f"{row['total'] / row['boards']:+.2f}/bd"
    return f"{row['total']:+.2f}" if imps else f"{row['total']:.2f}"


def slow_rows(room: RoomState) -> dict[str, tuple[Any, ...]]:
    """The Slow tab: penalties waiting for the TD, then every table behind schedule, most
    behind first, then penalties already decided."""
    rows: dict[str, tuple[Any, ...]] = {}
    pens = sorted(room.penalties, key=lambda p: p.get("status") != "proposed")
    for p in (p for p in pens if p.get("status") == "proposed"):
        rows[f"penalty:{p['id']}"] = (
            Text("penalty", style="bold yellow"),
            p.get("section") or "",
            p.get("table") or "",
            p.get("round") or "",
            "",
            p["status"],
            p.get("reason", ""),
        )
    late = [
        (name, sec, t)
        for name, sec in sorted(room.sections.items())
        for t in sec.get("tables", [])
        if (t.get("minutes_behind") or 0) > 0
    ]
    late.sort(key=lambda x: -x[2]["minutes_behind"])
    for name, sec, t in late:
        behind = t["minutes_behind"]
        rows[f"late:{name}:{t['table']}"] = (
            "late",
            name,
            t["table"],
            sec.get("round"),
            Text(f"{behind:+.1f}", style="bold red" if behind >= 5 else "yellow"),
            "" if t.get("online") else Text("OFF", style="bold red reverse"),
            f"{t['done']}/{len(t['boards'])} boards, NS {t['ns']} EW {t['ew']}",
        )
    for p in (p for p in pens if p.get("status") != "proposed"):
        rows[f"penalty:{p['id']}"] = (
            "penalty",
            p.get("section") or "",
            p.get("table") or "",
            p.get("round") or "",
            "",
            p.get("status"),
            p.get("reason", ""),
        )
    return rows


def _battery_text(percent: int | None) -> Text:
    if percent is None:
        return Text("")
    return Text(f"{percent}%", style="bold red" if percent < 20 else "")


def overall_rows(room: RoomState) -> list[tuple[str, str, dict[str, Any]]]:
    """Every section's entrants in one ranking by their total (percentages are comparable
    across sections of one event); level totals share the place ("3=")."""
    rows = [
        (name, r) for name, sec in sorted(room.sections.items()) for r in sec.get("standings", [])
    ]
    rows.sort(key=lambda x: -x[1]["total"])
    out = []
    for name, r in rows:
        first = 1 + sum(1 for _, o in rows if o["total"] > r["total"])
        level = sum(1 for _, o in rows if o["total"] == r["total"]) > 1
        out.append((f"{first}{'=' if level else ''}", name, r))
    return out


def _two_places(x: float | None) -> str:
    return "" if x is None else f"{x:.2f}"


def room_rows(
    room: RoomState, sort: str = "table", section: str | None = None
) -> dict[str, tuple[Any, ...]]:
    """The Room tab's rows by key (section:table), as the table shows them: in table order
    or most behind first, one section or all, coloured by what needs the TD."""
    calls = {
        (c.get("section"), c.get("table"))
        for c in room.td_calls
        if c.get("status") in ("launched", "in_progress")
    }
    tables = [
        (name, sec, t)
        for name, sec in sorted(room.sections.items())
        if section in (None, name)
        for t in sec.get("tables", [])
    ]
    if sort == "behind":
        tables.sort(key=lambda x: -(x[2].get("minutes_behind") or 0))
    rows = {}
    for name, sec, t in tables:
        behind = t.get("minutes_behind") or 0
        late = (
            Text(f"{behind:+.1f}", style="bold red" if behind >= 5 else "yellow")
            if behind > 0
            else Text(f"{behind:+.1f}" if behind else "", style="green")
        )
        unverified = t.get("unverified") or 0
        rows[f"{name}:{t['table']}"] = (
            name,
            t["table"],
            sec.get("round"),
            t["ns"],
            t["ew"],
            f"{t['done']}/{len(t['boards'])}",
            late,
            Text(str(unverified), style="cyan") if unverified else Text(""),
            Text("yes") if t.get("online") else Text("OFF", style="bold red reverse"),
            Text("CALL", style="bold magenta reverse") if (name, t["table"]) in calls else Text(""),
            _battery_text(t.get("battery")),
        )
    return rows


def websocket_source(url: str, pin: str | None) -> tuple[Source, Send]:
    """Feed and commands over the hub API; reconnects and resumes from the last event."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import WebSocketException

    state: dict[str, Any] = {"ws": None, "token": None, "seq": None, "n": 0}

    async def source() -> AsyncIterator[dict[str, Any]]:
        while True:
            try:
                async with connect(url) as ws:
                    state["ws"] = ws
                    await ws.send(
                        json.dumps({"type": "hello", "version": 1, "resume_from": state["seq"]})
                    )
                    if pin:
                        await ws.send(
                            json.dumps(
                                {"type": "login", "pin": pin, "name": "console", "id": "login"}
                            )
                        )
                    async for raw in ws:
                        msg = json.loads(raw)
                        if msg.get("type") == "session":
                            state["token"] = msg["token"]
                        if "seq" in msg:
                            state["seq"] = msg["seq"]
                        yield msg
            except (OSError, WebSocketException) as e:
                if state["ws"] is not None:
                    yield {"type": "link", "up": False, "error": str(e) or type(e).__name__}
                state["ws"] = state["token"] = None
                await asyncio.sleep(1.0)

    async def send(command: dict[str, Any]) -> None:
        ws = state["ws"]
        if ws is None or state["token"] is None:
            raise ConnectionError("not connected to the hub (or the PIN was refused)")
        state["n"] += 1
        try:
            await ws.send(
                json.dumps(
                    {"type": "command", "id": f"c{state['n']}", "token": state["token"], **command}
                )
            )
        except WebSocketException as e:  # the link dropped under us: the TD is told
            raise ConnectionError(f"lost the hub ({e})") from None

    return source, send
