"""The base-station adapter of the terminal port (decisions D18): wire messages from a
``BaseStationDriver`` become the port's domain requests, and the hub's answers and views
become wire messages. Wire codes (``NakCode``, ``Outcome``, the 255 sentinels) are mapped here
and nowhere else in the hub.

Runs on the hub's asyncio loop; ``pump`` is a task the hub supervises.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from drivers.base_station import BaseStationDriver, LineDown, LineUp
from drivers.clock.show import Phase
from drivers.protocol import messages as wire
from drivers.protocol.link import Received, Refused
from hub.live import terminal_port as port
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
    port.Reason.BUSY: wire.NakCode.BUSY,
}


def seat_letter(code: int) -> str | None:
    return SEATS[code] if code < 4 else None


def request(name: str, rx: Received) -> port.Request:
    """The domain request a received wire message stands for."""
    ref, m = port.TerminalRef(name, rx.terminal), rx.message
    if isinstance(m, wire.Hello | wire.TerminalJoined):
        return port.Joined(ref, rx, m.serial, station=rx.terminal == 0)
    if isinstance(m, wire.Logon):
        return port.LogonRequest(ref, rx, m.serial, m.section, m.table, m.td_pin)
    if isinstance(m, wire.Result):
        no_play = m.tricks == wire.NO_PLAY
        return port.ResultSubmission(
            ref,
            rx,
            m.section,
            m.table,
            m.round,
            m.board,
            m.ns_pair,
            m.ew_pair,
            m.contract.strip(),
            seat_letter(m.declarer),
            m.lead.strip(),
            None if m.tricks == wire.NO_PLAY else m.tricks,
            m.revision,
            no_play,
        )
    if isinstance(m, wire.Verify):
        return port.VerifyNotice(ref, rx, m.section, m.table, m.round, m.board, bool(m.agreed))
    if isinstance(m, wire.TDCall):
        return port.DirectorCall(ref, rx, m.section, m.table, m.round, m.text)
    if isinstance(m, wire.RoundStarted | wire.BoardStarted):
        return port.PlayStarted(ref, rx, m.section, m.table, m.round)
    if isinstance(m, wire.PlayerNumber):
        return port.PlayerKeyed(ref, rx, m.section, m.table, m.round, m.seat, m.number)
    if isinstance(m, wire.Status):
        return port.DeviceStatus(ref, rx, m.battery_percent, m.signal_percent)
    return port.Other(ref, rx)


def result_view(view: TravellerView) -> wire.ResultView:
    entries = tuple(
        wire.TravellerEntry(
            r.ns_pair,
            r.ew_pair,
            r.contract,
            SEATS.index(r.declarer) if r.declarer else 255,
            r.tricks if r.tricks is not None else 255,
            r.score_ns,
            round(r.value * 100),
        )
        for r in view.rows[:64]
    )
    return wire.ResultView(
        view.section,
        view.board,
        view.own_score_ns,
        round(view.own_value * 100),
        1 if view.imps else 0,
        entries,
    )


class BaseStationPort:
    """A base station's terminals, reached over one line (serial, USB or TCP). Runs on the
    hub's asyncio loop."""

    def __init__(self, driver: BaseStationDriver, name: str) -> None:
        self.driver = driver
        self.name = name
        self.inbound: asyncio.Queue[port.Inbound] = asyncio.Queue()

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
            elif isinstance(ev, Received):
                self.inbound.put_nowait(request(self.name, ev))

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
        self.driver.send(
            address, wire.Assignment(a.section, a.table, a.round, a.ns_pair, a.ew_pair, a.boards)
        )

    def show_result(self, address: int, view: TravellerView) -> None:
        self.driver.send(address, result_view(view))

    def message(self, address: int, text: str, beep: bool) -> None:
        self.driver.send(address, wire.TDMessage(text[:300], int(beep)))

    def ranking(self, address: int, page: port.RankingView) -> None:
        lines = tuple(
            wire.RankLine(x.rank, x.entrant, x.total_hundredths, x.names) for x in page.lines
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

    def status(self) -> dict[str, Any]:
        d = self.driver
        return {
            "url": d.url,
            "connected": d.connected.is_set(),
            "reconnects": d.reconnects,
            **d.link.stats,
        }
