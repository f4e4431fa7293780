"""The terminal gateway: the seats (which terminal sits at which table, whether it is on
line, its battery) and every message from the hub to the tables, whatever kind of terminal
it is (decisions D18: it speaks only to terminal ports).

``TerminalGateway`` belongs to the hub's asyncio loop.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hub.live.port.terminal_port import (
    ClockView,
    HandView,
    NextSeatingView,
    PlayerNameView,
    RankingView,
    Request,
    SessionView,
    TableAssignment,
    TerminalPort,
    TerminalRef,
    Verdict,
)
from hub.live.views.base import TravellerView


@dataclass
class Seat:
    """A terminal the hub has heard from: where it is reached and which table it holds.
    ``serial`` is the one its accepted log-on declared (decisions D20: nothing else
    changes it); ``declared`` what it said in HELLO, shown until then."""

    ref: TerminalRef
    serial: str
    section: str | None = None
    table: int | None = None
    online: bool = True
    battery: int | None = None  # percent, from the terminal's status
    signal: int | None = None
    last_seen: float | None = None  # hub clock
    progress_at: float | None = None  # its last request other than a battery report
    declared: str | None = None  # the serial of its HELLO (not trusted)
    assignment_lost: bool = False  # sent again at the terminal's next contact
    taken_from: tuple[str, int] | None = None  # the table another terminal took over

    @property
    def address(self) -> int:
        return self.ref.address


class TerminalGateway:
    """The seats and every message to the tables, through the terminal ports; on the hub's
    asyncio loop."""

    def __init__(self, ports: list[TerminalPort]) -> None:
        self.ports = {p.name: p for p in ports}
        self.seats: dict[TerminalRef, Seat] = {}

    # -- seats -----------------------------------------------------------------------------
    def seat(self, ref: TerminalRef, serial: str | None = None) -> Seat:
        """The seat of a terminal, made on first contact."""
        seat = self.seats.get(ref)
        if seat is None:
            name = serial or f"addr-{ref.port}-{ref.address}"
            seat = self.seats[ref] = Seat(ref, name)
        return seat

    def seat_at(self, seat: Seat, section: str, table: int) -> list[Seat]:
        """``seat`` logged on at the table; another terminal seated there leaves it (a
        takeover): those that left."""
        left = [other for other in self.at_table(section, table) if other is not seat]
        for other in left:
            other.section, other.table = None, None
        seat.section, seat.table, seat.online = section, table, True
        return left

    def port_down(self, port: str) -> list[tuple[str, int]]:
        """A port went away: its seated terminals are off line; the tables affected."""
        gone = []
        for seat in self.seats.values():
            if seat.ref.port == port and seat.table is not None and seat.online:
                seat.online = False
                assert seat.section is not None
                gone.append((seat.section, seat.table))
        return gone

    def at_table(self, section: str, table: int) -> list[Seat]:
        return [s for s in self.seats.values() if s.section == section and s.table == table]

    def in_section(self, section: str | None = None) -> Iterator[Seat]:
        """Seated terminals (of one section, or all)."""
        for s in self.seats.values():
            if s.table is not None and section in (None, s.section):
                yield s

    def online(self, section: str, table: int) -> bool:
        """A terminal is logged on at the table and its port is up."""
        return any(s.online for s in self.at_table(section, table))

    def battery(self, section: str, table: int) -> int | None:
        levels = [s.battery for s in self.at_table(section, table) if s.battery is not None]
        return min(levels) if levels else None

    # -- sending -----------------------------------------------------------------------------
    def _port(self, seat: Seat) -> TerminalPort:
        return self.ports[seat.ref.port]

    def answer(self, request: Request, verdict: Verdict) -> None:
        self.ports[request.ref.port].answer(request, verdict)

    def assign(self, seat: Seat, assignment: TableAssignment) -> None:
        self._port(seat).assign(seat.address, assignment)

    def clock(self, seat: Seat, view: ClockView) -> None:
        self._port(seat).clock(seat.address, view)

    def clock_to_section(self, view: ClockView) -> None:
        for seat in self.in_section(view.section):
            self.clock(seat, view)

    def show_result(self, section: str, table: int, view: TravellerView) -> None:
        for seat in self.at_table(section, table):
            self._port(seat).show_result(seat.address, view)

    def show_hand(self, section: str, table: int, view: HandView) -> None:
        for seat in self.at_table(section, table):
            self._port(seat).show_hand(seat.address, view)

    def message_table(self, section: str, table: int, text: str, beep: bool = True) -> None:
        for seat in self.at_table(section, table):
            self._port(seat).message(seat.address, text, beep)

    def message_seat(self, seat: Seat, text: str, beep: bool = True) -> None:
        """A message to one terminal, seated or not."""
        self._port(seat).message(seat.address, text, beep)

    def broadcast(self, text: str, section: str | None = None, beep: bool = True) -> int:
        """A director's message to every seated terminal (of a section); how many."""
        count = 0
        for seat in self.in_section(section):
            self._port(seat).message(seat.address, text, beep)
            count += 1
        return count

    def rankings(self, section: str, pages: list[RankingView]) -> None:
        for seat in self.in_section(section):
            for page in pages:
                self._port(seat).ranking(seat.address, page)

    def player_name(self, seat: Seat, view: PlayerNameView) -> None:
        self._port(seat).player_name(seat.address, view)

    def next_seating(self, section: str, table: int, views: list[NextSeatingView]) -> None:
        for seat in self.at_table(section, table):
            for view in views:
                self._port(seat).next_seating(seat.address, view)

    def session(self, seat: Seat, view: SessionView) -> None:
        self._port(seat).session(seat.address, view)

    # -- the devices read ------------------------------------------------------------------
    def devices(self, now: float) -> dict[str, Any]:
        """Every port (base station) with its own counters, and every terminal: where it
        is, its battery and signal, when the hub last heard from it."""
        stations = [p.status() for p in self.ports.values()]
        names = list(self.ports)
        terminals = [
            {
                "station": names.index(s.ref.port),
                "address": s.address,
                "serial": s.serial if s.table is not None else s.declared or s.serial,
                "section": s.section,
                "table": s.table,
                "online": s.online,
                "battery": s.battery,
                "signal": s.signal,
                "seconds_ago": None if s.last_seen is None else round(now - s.last_seen, 1),
            }
            for s in sorted(self.seats.values(), key=lambda s: (names.index(s.ref.port), s.address))
            if s.address
        ]
        return {"stations": stations, "terminals": terminals}
