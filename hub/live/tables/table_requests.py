"""What the hub does with each thing a table's terminal says (through any terminal port):
log-ons (with the director's PIN for a takeover), results (to the writer, answered after
the commit), erasures, verifications, director calls, the first action of a round, member
numbers, battery reports; and what the terminals did not take from the hub (a lost
assignment is sent again at the terminal's next contact). Whatever names a table comes
only from the link that logged on to it (decisions D20); refused frames are audited per
terminal per minute.

``TableRequests`` belongs to the hub's asyncio loop; ``serve`` is a supervised task per
port. Store work runs in worker threads.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from hub.api.feed import Feed
from hub.live.desk.desk_lists import held_details
from hub.live.oversight.alerts import Alerts
from hub.live.oversight.audit_trail import AuditTrail
from hub.live.port import terminal_port as tp
from hub.live.port.gateway import TerminalGateway
from hub.live.results.intake import Intake, IntakeResult
from hub.live.results.result_writer import ResultWriter
from hub.live.results.scores import Scores
from hub.live.rounds import round_controller as rc
from hub.live.rounds.section_rounds import Rounds
from hub.live.tables import table_checks
from hub.live.tables.device_register import DeviceRegister
from hub.live.tables.player_numbers import PlayerNumbers
from hub.live.tables.silent_tables import assign_again
from hub.live.tables.store_faults import StoreFaults
from hub.live.tables.table_erasures import TableErasures
from hub.live.tables.table_logons import TableLogons, taken_over
from hub.live.tables.takeover_pin import TakeoverPins
from hub.live.tables.verification import Verifications
from hub.store.store import Store, StoredResult

log = logging.getLogger(__name__)
AT_TABLE = (
    tp.ResultSubmission,
    tp.VerifyNotice,
    tp.EraseRequest,
    tp.DirectorCall,
    tp.PlayStarted,
    tp.PlayerKeyed,
)  # what a terminal may say only about the table it holds over its link (D20)


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
        td_pin: str = "",
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
        faults = StoreFaults(alerts, clock)
        self.writer = ResultWriter(store, event_id, intake, self.answer, self.answered, faults)
        pins = TakeoverPins(td_pin, clock)
        self.logons = TableLogons(gateway, intake, rounds, feed, audit, self.devices, pins)
        self.erasures = TableErasures(store, event_id, intake, rounds, scores, audit)
        self.player_numbers = PlayerNumbers(store, event_id, gateway, rounds, scores.views, alerts)
        self.verifications = Verifications(rounds, alerts, clock)

    async def serve(self, port: tp.TerminalPort) -> None:
        """Everything the port's terminals say, one at a time."""
        while True:
            ev = await port.inbound.get()
            try:
                await self.handle(ev)
            except Exception:  # one bad message must not stop the room
                log.exception("handling %r from %s", ev, port.name)
                self._failed(ev)

    def _failed(self, ev: tp.Inbound) -> None:
        """A request whose handling failed (the store refused a write) is answered, not left
        to cost the terminal every retry and then the message: refused with a text the
        players can act on (NAK 20; not "busy", which a terminal resends at once, in a loop
        if the fault stays). A log-on is answered before anything can fail, a result by the
        writer."""
        if isinstance(ev, tp.Request) and not isinstance(ev, tp.LogonRequest | tp.ResultSubmission):
            text = "the hub could not take this just now: try again, or call the director"
            self.gateway.answer(ev, tp.Verdict.refused(tp.Reason.NOT_ALLOWED, text))

    async def handle(self, ev: tp.Inbound) -> None:
        if isinstance(ev, tp.PortUp):
            log.info("%s: line up", ev.port)
        elif isinstance(ev, tp.PortDown):
            log.info("%s: line down (%s)", ev.port, ev.reason)
            for section, table in self.gateway.port_down(ev.port):
                self.feed.publish("table_online", section=section, table=table, online=False)
        elif isinstance(ev, tp.Rejected):
            who = self._who(ev.ref)
            if self.audit.tally(who, "frames_refused", ev.code):  # counted by code
                log.warning("refused a frame from %s: %s (%s)", who, ev.reason, ev.detail)
        elif isinstance(ev, tp.Undelivered):
            self._undelivered(ev)
        else:
            await self._request(ev)

    def _who(self, ref: tp.TerminalRef) -> str:
        seat = self.gateway.seats.get(ref)
        return seat.serial if seat else f"addr-{ref.port}-{ref.address}"

    def _undelivered(self, ev: tp.Undelivered) -> None:
        """A message the terminal did not take: logged; a lost assignment (no answer, or a
        link fault: NAK below 16) is sent again at the terminal's next contact."""
        who = self._who(ev.ref)
        if ev.code is None:
            log.warning("%s never answered the hub's %s (%d tries)", who, ev.what, ev.tries)
        else:
            text = f"NAK {ev.code} {ev.code_name} {ev.text!r}"
            log.warning("%s refused the hub's %s: %s", who, ev.what, text)
        seat = self.gateway.seats.get(ev.ref)
        if ev.what == "assignment" and seat is not None and (ev.code is None or ev.code < 16):
            seat.assignment_lost = True

    async def _request(self, ev: tp.Request) -> None:
        seat = self.gateway.seat(ev.ref)
        seat.last_seen = self.clock()
        if not isinstance(ev, tp.DeviceStatus):  # a battery report is no progress (LIVENESS)
            seat.progress_at = seat.last_seen
        if (
            seat.table is not None
            and not seat.online
            and self.intake.holds(ev.link, seat.section or "", seat.table)
        ):  # its line came back: the table is online again once its terminal speaks
            seat.online = True
            self.feed.publish("table_online", section=seat.section, table=seat.table, online=True)
        if isinstance(ev, tp.LogonRequest):
            await self.logons.logon(seat, ev)
            return
        if seat.assignment_lost and seat.table is not None:  # its next contact: again
            assign_again(self.rounds, seat)  # (the request is still answered)
        if isinstance(ev, AT_TABLE) and not self.intake.holds(ev.link, ev.section, ev.table):
            text, who = f"log on to table {ev.section}{ev.table} first", self._who(ev.ref)
            if seat.taken_from == (ev.section, ev.table):
                text = taken_over(ev.section, ev.table)
            if self.audit.tally(who, "not_logged_on", text):  # the minute's first: in full
                log.info("%s: %s (%s)", who, text, type(ev).__name__)
                detail = {"code": "NOT_LOGGED_ON", "reason": text, "port": ev.ref.port}
                self.audit.record(who, "refused", detail | {"address": ev.ref.address})
            self.gateway.answer(ev, tp.Verdict.refused(tp.Reason.NOT_LOGGED_ON, text))
            return
        if isinstance(ev, table_checks.Checked) and (no := self._checked(ev)) is not None:
            self.gateway.answer(ev, no)  # a round, board or seat the table cannot mean
            return
        if isinstance(ev, tp.Joined):
            seat.declared = ev.serial
            self.devices.seen("base_station" if ev.station else "terminal", ev.serial)
        elif isinstance(ev, tp.Left):
            log.info("%s left its station (%s)", seat.serial, ev.why)
            if seat.table is not None and seat.online:
                seat.online = False
                self.feed.publish(
                    "table_online", section=seat.section, table=seat.table, online=False
                )
        elif isinstance(ev, tp.EraseRequest):
            erased = await self.erasures.erase(seat.serial, ev)
            if erased.outcome is tp.Outcome.OK:
                self.verifications.result_erased(ev)
            self.gateway.answer(ev, erased)
            return
        elif isinstance(ev, tp.ResultSubmission):
            self.verifications.result_submitted(ev)
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
            self.gateway.answer(ev, await self.verifications.take(ev))
            return
        elif isinstance(ev, tp.PlayerKeyed):  # its name to the store, standings and terminal
            await self.player_numbers.keyed(seat, ev)
        elif isinstance(ev, tp.DeviceStatus):
            was = seat.battery
            seat.battery, seat.signal = ev.battery, ev.signal
            if seat.table is not None and (was is None or was // 10 != ev.battery // 10):
                self.feed.publish(
                    "battery", section=seat.section, table=seat.table, percent=ev.battery
                )
            name = seat.serial if seat.table is not None else seat.declared
            if name:  # a serial it declared, never the seat's "addr-…" placeholder
                self.devices.seen("terminal", name)
        self.gateway.answer(ev, tp.Verdict.ok())

    def _checked(self, ev: table_checks.Checked) -> tp.Verdict | None:
        """``table_checks``' refusal, tallied (D20); the minute's first logged, audited."""
        state = self.rounds.sections.get(ev.section)
        movement, now = (state.movement, state.round) if state else (None, 0)
        verdict = table_checks.refusal(ev, movement, now)
        who, code = self._who(ev.ref), verdict.reason.name if verdict and verdict.reason else ""
        if verdict is not None and self.audit.tally(who, "table_message_refused", code):
            log.warning("refused %s from %s: %s", type(ev).__name__, who, verdict.text)
            self.audit.record(who, "refused", {"code": code, "reason": verdict.text})
        return verdict

    def answer(self, s: tp.ResultSubmission, out: IntakeResult) -> None:
        """The writer's commit is durable (or the result was refused): the terminal's
        answer."""
        self.verifications.result_answered(s, out.stored is not None, out.verdict)
        self.gateway.answer(s, out.verdict)

    async def _held(self, s: tp.ResultSubmission, stored: StoredResult, reason: str | None) -> None:
        """A held result: the table played the board now, whenever the TD decides (slow
        play, D10); what was sent and its conflict follow its alert on the feed as
        ``held_details`` (TD trial F7: a console open at that moment shows them)."""
        state = self.rounds.sections.get(s.section)
        if state is None:
            return
        await self.rounds.handle(s.section, rc.ResultHeld(s.table, s.round, s.board, self.clock()))
        try:
            details = await asyncio.to_thread(
                held_details, self.store, self.event_id, state.movement, stored, reason
            )
        except Exception:  # the snapshot has them too; the alert has already gone out
            log.exception("details of held result %d", stored.id)
            return
        self.feed.publish("held_details", id=stored.id, **details)

    async def answered(self, s: tp.ResultSubmission, out: IntakeResult) -> None:
        """After the answer: score the result and tell the room."""
        stored = out.stored
        if stored is not None and stored.duplicate:  # a resend: answered, nothing new
            return
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
        if out.outcome is tp.Outcome.HELD and stored is not None:
            await self._held(s, stored, out.alert)
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
