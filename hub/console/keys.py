"""The console's keys: the key map, its help page, and what the clock keys send to the hub
(pause or resume, a minute more or less, start, a break, the next round), for the section
the room is filtered to or for every section."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from hub.console.choice import ChoiceScreen
from hub.console.commands import Console

KEYS: list[BindingType] = [
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

NEXT_CHOICES = [("next", "end this round now and start the next")]
BREAK_CHOICES = [(str(m), f"{m} minutes") for m in (5, 10, 15, 20)]


class ClockKeys:
    """What the clock keys send to the hub. Lives on the Textual app's event loop (called
    from the app's key actions and pop-up answers)."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def sections(self) -> list[str]:
        """The clock keys act on the section the room is filtered to, or on every one."""
        section = self.console.section_filter
        return [section] if section else sorted(self.console.room.sections)

    async def pause(self) -> None:
        """Pause a running clock; resume a paused one or end a break early."""
        for section, sec in sorted(self.console.room.sections.items()):
            if self.console.section_filter not in (None, section):
                continue
            stopped = (sec.get("clock") or {}).get("phase") in ("paused", "break")
            name = "resume" if stopped else "pause"
            await self.console.command(name, f"{name} clock {section}", section=section)

    async def adjust(self, seconds: int) -> None:
        """Add (or take off) time on the clock."""
        for section in self.sections():
            await self.console.command(
                "adjust_clock",
                f"clock {section} {seconds // 60:+d} min",
                section=section,
                seconds=seconds,
            )

    async def start(self) -> None:
        """Start the round's clock now: the room is seated."""
        for section in self.sections():
            await self.console.command(
                "start_clock", f"clock of {section} started", section=section
            )

    def next_round(self) -> None:
        """End the round now and start the next, once the TD confirms."""
        where = self.console.section_filter or "every section"
        self.console.ask(ChoiceScreen(f"Next round in {where}?", NEXT_CHOICES), self._next_round)

    async def _next_round(self, choice: str | None) -> None:
        if choice != "next":
            return
        for section in self.sections():
            await self.console.command("next_round", f"next round in {section}", section=section)

    def take_break(self) -> None:
        """A break of the length the TD picks."""
        self.console.ask(
            ChoiceScreen(
                f"Break for {self.console.section_filter or 'every section'}", BREAK_CHOICES
            ),
            self._start_break,
        )

    async def _start_break(self, minutes: str | None) -> None:
        if minutes is None:
            return
        for section in self.sections():
            await self.console.command(
                "start_break",
                f"{minutes}-minute break in {section}",
                section=section,
                minutes=int(minutes),
            )
