"""The base-station adapter of the terminal port (decisions D18): wire messages from a
``BaseStationDriver`` become the port's domain requests, and the hub's answers and views
become wire messages. Wire codes (``NakCode``, ``Outcome``, the 255 sentinels) are mapped here
and nowhere else in the hub.

Runs on the hub's asyncio loop; ``pump`` is a task the hub supervises.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from drivers.base_station import BaseStationDriver, LineDown, LineUp
from drivers.clock.show import Phase
from drivers.protocol import messages as wire
from drivers.protocol.layout import misdirected
from drivers.protocol.link import GaveUp, Nacked, Received, Refused
from hub.event.pair_labels import Numbering, PairLabels, room
from hub.live.port import terminal_port as port
from hub.live.port.base_station_views import (
    hand_record,
    match_score,
    result_view,
    undelivered,
    wire_name,
)
from hub.live.views.base import TravellerView

log = logging.getLogger(__name__)
Job = Callable[[], Awaitable[None]]
SEATS = "NESW"
ANSWERS = {
    port.Outcome.OK: wire.Outcome.OK,
    port.Outcome.ACCEPTED: wire.Outcome.ACCEPTED,
    port.Outcome.HELD: wire.Outcome.HELD,
    port.Outcome.DUPLICATE: wire.Outcome.DUPLICATE,
}
REFUSALS = {
    port.Reason.NOT_LOGGED_ON: wire.NakCode.NOT_LOGGED_ON,
    port.Reason.TABLE_HELD: wire.NakCode.TABLE_HELD,
    port.Reason.INVALID_RESULT: wire.NakCode.INVALID_RESULT,
    port.Reason.NOT_IN_MOVEMENT: wire.NakCode.NOT_IN_MOVEMENT,
    port.Reason.NOT_ALLOWED: wire.NakCode.NOT_ALLOWED,
    port.Reason.NOT_REGISTERED: wire.NakCode.NOT_ALLOWED,
    port.Reason.DIRECTOR_PIN: wire.NakCode.NOT_ALLOWED,
    port.Reason.BUSY: wire.NakCode.BUSY,
}
LEFT = {0: "out of range", 1: "powered off", 2: "replaced"}  # TERMINAL_LEFT reasons


def seat_letter(code: int) -> str | None:
    return SEATS[code] if code < 4 else None


def request(name: str, rx: Received, numbering: Numbering | None = None) -> port.Request:
    """The domain request a received wire message stands for, in the terminal's session
    (its epoch: a table is bound to it, decisions D20); a result's pair numbers (the
    room's: EW 3) as the hub numbers them."""
    req = dataclasses.replace(_request(name, rx), session=rx.epoch)
    labels = (numbering or {}).get(getattr(req, "section", ""))
    if isinstance(req, port.ResultSubmission) and labels is not None and labels.mitchell:
        req = dataclasses.replace(
            req,
            ns_pair=labels.at_seat(req.table, req.round, True, req.ns_pair),
            ew_pair=labels.at_seat(req.table, req.round, False, req.ew_pair),
        )
    return req


def _request(name: str, rx: Received) -> port.Request:
    ref, m = port.TerminalRef(name, rx.terminal), rx.message
    if isinstance(m, wire.TerminalJoined):  # the station's own message (address 0)
        return port.Joined(port.TerminalRef(name, m.address), rx, m.serial, station=False)
    if isinstance(m, wire.TerminalLeft):  # the station's own message too
        why = LEFT.get(m.reason, f"reason {m.reason}")
        return port.Left(port.TerminalRef(name, m.address), rx, why)
    if isinstance(m, wire.Hello):
        return port.Joined(ref, rx, m.serial, station=rx.terminal == 0)
    if isinstance(m, wire.Logon):
        return port.LogonRequest(ref, rx, m.serial, m.section, m.table, m.td_pin)
    if isinstance(m, wire.Result):
        # §4 "Results without play": the contract alone says what happened; "" = not
        # played, "PASS" = passed out (declarer and tricks 255, ignored); else tricks 0-13
        contract = m.contract.strip()
        no_trick_count = not contract or contract.upper() == "PASS"
        return port.ResultSubmission(
            ref,
            rx,
            m.section,
            m.table,
            m.round,
            m.board,
            m.ns_pair,
            m.ew_pair,
            contract,
            seat_letter(m.declarer),
            m.lead.strip(),
            None if no_trick_count and m.tricks == wire.NO_TRICKS else m.tricks,
            m.revision,
            no_play=not contract,
        )
    if isinstance(m, wire.Verify):
        return port.VerifyNotice(ref, rx, m.section, m.table, m.round, m.board, bool(m.agreed))
    if isinstance(m, wire.Erase):
        return port.EraseRequest(ref, rx, m.section, m.table, m.round, m.board, m.revision)
    if isinstance(m, wire.TDCall):
        return port.DirectorCall(ref, rx, m.section, m.table, m.round, m.text)
    if isinstance(m, wire.RoundStarted):
        return port.PlayStarted(ref, rx, m.section, m.table, m.round)
    if isinstance(m, wire.BoardStarted):
        return port.PlayStarted(ref, rx, m.section, m.table, m.round, m.board)
    if isinstance(m, wire.PlayerNumber):
        return port.PlayerKeyed(ref, rx, m.section, m.table, m.round, m.seat, m.number)
    if isinstance(m, wire.Status):
        return port.DeviceStatus(ref, rx, m.battery_percent, m.signal_percent)
    return port.Other(ref, rx)


class BaseStationPort:
    """A base station's terminals, reached over one line (serial, USB or TCP). Runs on the
    hub's asyncio loop. Pair numbers on the wire are the room's (``set_numbering``)."""

    def __init__(self, driver: BaseStationDriver, name: str) -> None:
        self.driver = driver
        self.name = name
        self.inbound: asyncio.Queue[port.Inbound] = asyncio.Queue()
        self.numbering: dict[str, PairLabels] = {}

    def set_numbering(self, numbering: Numbering) -> None:
        """Each section's pair numbering (again after a movement change): in a Mitchell
        the terminals see NS 1-n and EW 1-n, and their results are mapped back."""
        self.numbering = dict(numbering)

    def tasks(self) -> dict[str, Job]:
        """The line and the translation of its events, for the hub to supervise."""
        return {f"{self.name} line": self.driver.run, f"{self.name} events": self.pump}

    async def stop(self) -> None:
        await self.driver.stop()

    async def pump(self) -> None:
        """Wire events from the driver, as the port's domain events."""
        while True:
            ev = await self.driver.events.get()
            if isinstance(ev, LineUp):
                self.inbound.put_nowait(port.PortUp(self.name))
            elif isinstance(ev, LineDown):
                self.inbound.put_nowait(port.PortDown(self.name, ev.reason))
            elif isinstance(ev, Refused):
                ref = port.TerminalRef(self.name, ev.terminal)
                detail = {"epoch": ev.epoch, "seq": ev.seq}
                self.inbound.put_nowait(port.Rejected(ref, ev.code.name, ev.reason, detail))
            elif isinstance(ev, Received) and (why := misdirected(ev.message, ev.terminal)):
                if ev.message.NEEDS_ACK:  # refused, and counted like the link's refusals
                    self.driver.nak(ev, wire.NakCode.NOT_ALLOWED, why)
                ref, detail = port.TerminalRef(self.name, ev.terminal), {"seq": ev.seq}
                self.inbound.put_nowait(port.Rejected(ref, "NOT_ALLOWED", why, detail))
            elif isinstance(ev, Received):
                self.inbound.put_nowait(request(self.name, ev, self.numbering))
            elif isinstance(ev, Nacked | GaveUp):
                self.inbound.put_nowait(undelivered(self.name, ev, self.numbering))

    # -- the port ---------------------------------------------------------------------------
    def answer(self, request: port.Request, verdict: port.Verdict) -> None:
        rx = request.token
        assert isinstance(rx, Received)
        if not rx.message.NEEDS_ACK:
            return
        if verdict.outcome is port.Outcome.REFUSED:
            code = REFUSALS[verdict.reason or port.Reason.NOT_ALLOWED]
            self.driver.nak(rx, code, verdict.text)
        else:
            self.driver.ack(rx, ANSWERS[verdict.outcome], verdict.text)

    def assign(self, address: int, a: port.TableAssignment) -> None:
        ns, ew = (
            room(self.numbering, a.section, a.ns_pair),
            room(self.numbering, a.section, a.ew_pair),
        )
        self.driver.send(address, wire.Assignment(a.section, a.table, a.round, ns, ew, a.boards))

    def show_result(self, address: int, view: TravellerView) -> None:
        self.driver.send(address, result_view(view, self.numbering))

    def show_hand(self, address: int, view: port.HandView) -> None:
        self.driver.send(address, hand_record(view))

    def match_score(self, address: int, view: port.MatchScoreView) -> None:
        """A team table's running match score (MATCH_SCORE, docs/protocol.md §4.6)."""
        self.driver.send(address, match_score(view, self.numbering))

    def message(self, address: int, text: str, beep: bool) -> None:
        self.driver.send(address, wire.TDMessage(text, int(beep)))  # cut by bytes in the codec

    def ranking(self, address: int, page: port.RankingView) -> None:
        n, s = self.numbering, page.section
        lines = tuple(  # names cut to fit; a Mitchell's lines say their field first
            wire.RankLine(x.rank, room(n, s, x.entrant), x.total_hundredths, wire_name(n, s, x))
            for x in page.lines
        )
        self.driver.send(
            address, wire.RankingPage(page.section, page.round, page.page, page.pages, lines)
        )

    def clock(self, address: int, c: port.ClockView) -> None:
        phase = int(Phase[c.phase.upper()])
        self.driver.send(address, wire.Clock(c.section, c.round, phase, c.seconds_left))

    def player_name(self, address: int, v: port.PlayerNameView) -> None:
        self.driver.send(
            address, wire.PlayerName(v.section, v.table, v.round, v.seat, v.number, v.name)
        )

    def next_seating(self, address: int, v: port.NextSeatingView) -> None:
        n = self.numbering
        seating = wire.NextSeating(
            v.section,
            v.round,
            room(n, v.section, v.pair),
            v.table,
            int(v.ns),
            room(n, v.section, v.opponents),
            v.boards,
        )
        self.driver.send(address, seating)

    def session(self, address: int, v: port.SessionView) -> None:
        entries: tuple[wire.Setting, ...] = (
            wire.Setting("section", v.section),
            wire.Setting("rounds", str(v.rounds)),
        )
        entries += (wire.Setting("clock", "waiting"),) if v.waiting else ()  # issue 13
        entries += (wire.Setting("final", "1"),) if v.final else ()
        self.driver.send(address, wire.Settings(entries))

    def status(self) -> dict[str, Any]:
        d = self.driver
        return {
            "url": d.url,
            "connected": d.connected.is_set(),
            "reconnects": d.reconnects,
            "problem": d.problem,  # why the line cannot be opened (F10), for the Devices tab
            **d.link.stats,
        }
