"""What the hub does with each thing a table's terminal says (through any terminal port):
log-ons, results (to the writer, answered after the commit), verifications, director calls,
the first action of a round, member numbers, battery reports.

``TableRequests`` belongs to the hub's asyncio loop; ``serve`` is a supervised task per
port. Store work runs in worker threads.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from hub.api.feed import Feed
from hub.live import round_controller as rc
from hub.live import terminal_port as tp
from hub.live.alerts import Alerts
from hub.live.audit_trail import AuditTrail
from hub.live.device_register import DeviceRegister
from hub.live.gateway import Seat, TerminalGateway
from hub.live.intake import Intake, IntakeResult
from hub.live.result_writer import ResultWriter
from hub.live.rounds import Rounds
from hub.live.scores import Scores
from hub.standings.rows import names_of
from hub.store.store import Store

log = logging.getLogger(__name__)


class TableRequests:
    """Answers what the tables' terminals say; on the hub's loop, store work in worker
    threads."""

    def __init__(
        self,
        store: Store,
        event_id: int,
        gateway: TerminalGateway,
        intake: Intake,
        rounds: Rounds,
        scores: Scores,
        feed: Feed,
        alerts: Alerts,
        audit: AuditTrail,
        clock: Callable[[], float],
        verification: bool,
    ) -> None:
        self.store = store
        self.event_id = event_id
        self.gateway = gateway
        self.intake = intake
        self.rounds = rounds
        self.scores = scores
        self.feed = feed
        self.alerts = alerts
        self.audit = audit
        self.clock = clock
        self.verification = verification
        self.devices = DeviceRegister(store, event_id)
        self.writer = ResultWriter(store, event_id, intake, self.answer, self.answered)

    async def serve(self, port: tp.TerminalPort) -> None:
        """Everything the port's terminals say, one at a time."""
        while True:
            ev = await port.inbound.get()
            try:
                await self.handle(ev)
            except Exception:  # one bad message must not stop the room
                log.exception("handling %r from %s", ev, port.name)

    async def handle(self, ev: tp.Inbound) -> None:
        if isinstance(ev, tp.PortUp):
            log.info("%s: line up", ev.port)
        elif isinstance(ev, tp.PortDown):
            log.info("%s: line down (%s)", ev.port, ev.reason)
            for section, table in self.gateway.port_down(ev.port):
                self.feed.publish("table_online", section=section, table=table, online=False)
        elif isinstance(ev, tp.Rejected):
            seat = self.gateway.seats.get(ev.ref)
            who = seat.serial if seat else f"{ev.ref.port}#{ev.ref.address}"
            log.warning("refused a frame from %s: %s", who, ev.reason)
            detail = {"code": ev.code, "reason": ev.reason, **ev.detail}
            self.audit.record(who, "frame_refused", detail)
        else:
            await self._request(ev)

    async def _request(self, ev: tp.Request) -> None:
        seat = self.gateway.seat(ev.ref, ev.serial if isinstance(ev, tp.Joined) else None)
        seat.last_seen = self.clock()
        if isinstance(ev, tp.Joined):
            self.devices.seen("base_station" if ev.station else "terminal", ev.serial)
        elif isinstance(ev, tp.LogonRequest):
            seat.serial = ev.serial
            verdict = self.intake.logon(ev.serial, ev.section, ev.table)
            self.gateway.answer(ev, verdict)
            if verdict.outcome is not tp.Outcome.REFUSED:
                self.gateway.seat_at(seat, ev.section, ev.table)
                self.feed.publish("table_online", section=ev.section, table=ev.table, online=True)
                self.rounds.assign(seat)
            return
        elif isinstance(ev, tp.ResultSubmission):
            self.writer.submit(seat.serial, ev)  # answered after its commit
            return
        elif isinstance(ev, tp.DirectorCall):
            call = await asyncio.to_thread(
                self.store.open_td_call, self.event_id, ev.section, ev.table, ev.round, ev.text
            )
            self.alerts.note(f"TD call at table {ev.section}{ev.table}")
            self.feed.publish(
                "td_call",
                call=call,
                section=ev.section,
                table=ev.table,
                round=ev.round,
                status="launched",
                text=ev.text,
            )
        elif isinstance(ev, tp.PlayStarted):
            event = rc.FirstAction(ev.table, ev.round, self.clock())
            await self.rounds.handle(ev.section, event)
        elif isinstance(ev, tp.VerifyNotice):
            await self._verify(ev)
        elif isinstance(ev, tp.PlayerKeyed):
            await self._player_number(seat, ev)
        elif isinstance(ev, tp.DeviceStatus):
            was = seat.battery
            seat.battery, seat.signal = ev.battery, ev.signal
            if seat.table is not None and (was is None or was // 10 != ev.battery // 10):
                self.feed.publish(
                    "battery", section=seat.section, table=seat.table, percent=ev.battery
                )
            self.devices.seen("terminal", seat.serial)
        self.gateway.answer(ev, tp.Verdict.ok())

    def answer(self, s: tp.ResultSubmission, out: IntakeResult) -> None:
        """The writer's commit is durable (or the result was refused): the terminal's
        answer."""
        self.gateway.answer(s, out.verdict)

    async def answered(self, s: tp.ResultSubmission, out: IntakeResult) -> None:
        """After the answer: score the result and tell the room."""
        stored = out.stored
        if out.alert:
            self.alerts.raise_(
                out.alert,
                section=s.section,
                table=s.table,
                round=s.round,
                board=s.board,
                result=stored.id if stored else None,
                held=out.outcome is tp.Outcome.HELD,
            )
        if stored is None or out.outcome is tp.Outcome.DUPLICATE:
            return
        self.feed.publish(
            "result",
            section=s.section,
            table=s.table,
            round=s.round,
            board=s.board,
            status=out.outcome.value,
            id=stored.id,
        )
        if out.outcome is tp.Outcome.ACCEPTED:
            try:  # a scoring fault must not keep the board from finishing at the table
                self.scores.accepted(stored)
            except Exception:
                log.exception("scoring result %d", stored.id)
            event = rc.ResultAccepted(s.table, s.round, s.board, self.clock())
            await self.rounds.handle(s.section, event)

    async def _verify(self, m: tp.VerifyNotice) -> None:
        """The opponents' verification (D10: a board is finished when its result is entered
        and verified). A rejection goes to the director."""
        if not m.agreed:
            text = (
                f"the opponents rejected the result of board {m.board} at table "
                f"{m.section}{m.table}"
            )
            self.alerts.raise_(text, section=m.section, table=m.table, round=m.round, board=m.board)
            return
        await self.rounds.handle(m.section, rc.Verified(m.table, m.round, m.board, self.clock()))

    async def _player_number(self, seat: Seat, m: tp.PlayerKeyed) -> None:
        """A player keyed a member number: stored for the pair at that seat, and the name,
        if the event knows it, goes back to the terminal."""
        state = self.rounds.sections.get(m.section)
        row = state.movement.row(m.section, m.table, m.round) if state else None
        if row is None or m.seat > 3:
            return
        pair = row.ns_pair if m.seat in (0, 2) else row.ew_pair
        index = 0 if m.seat in (0, 1) else 1
        contestants = await asyncio.to_thread(self.store.contestants, self.event_id, m.section)
        name = None
        for c in contestants:
            for player in c["players"]:
                if player.get("number") == m.number:
                    name = player.get("name")
        await asyncio.to_thread(
            self.store.set_player,
            self.event_id,
            m.section,
            pair,
            index,
            name=name,
            number=m.number,
            actor=seat.serial,
        )
        names = await asyncio.to_thread(self.store.contestants, self.event_id, m.section)
        self.scores.views.set_names(m.section, names_of(names))  # the standings show them
        view = tp.PlayerNameView(m.section, m.table, m.round, m.seat, m.number, name or "")
        self.gateway.player_name(seat, view)
