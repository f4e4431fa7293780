"""Log-ons: a terminal claims a table (decisions D20). Intake decides who may hold it (the
serial and the link that logged on, the event's registered terminals); a LOGON carrying the
director's PIN takes over a held table, with wrong PINs limited (``takeover_pin``) and
audited. The seat's serial becomes the claim's only once the log-on is accepted; then the
table gets its assignment.

``TableLogons`` belongs to the hub's asyncio loop.
"""

from __future__ import annotations

import logging

from hub.api.feed import Feed
from hub.live.oversight.audit_trail import AuditTrail
from hub.live.port import terminal_port as tp
from hub.live.port.gateway import Seat, TerminalGateway
from hub.live.results.intake import Intake
from hub.live.rounds.room_view import terminal_kind
from hub.live.rounds.section_rounds import Rounds
from hub.live.tables.device_register import DeviceRegister
from hub.live.tables.takeover_pin import PinVerdict, TakeoverPins

log = logging.getLogger(__name__)


def taken_over(section: str, table: int) -> str:
    """What a terminal that lost its table to a takeover is told (docs/protocol.md §4.5)."""
    return f"table {section}{table} was taken over by another terminal: ask the director"


class TableLogons:
    """Terminals claiming tables; on the hub's asyncio loop."""

    def __init__(
        self,
        gateway: TerminalGateway,
        intake: Intake,
        rounds: Rounds,
        feed: Feed,
        audit: AuditTrail,
        devices: DeviceRegister,
        pins: TakeoverPins,
    ) -> None:
        self.gateway = gateway
        self.intake = intake
        self.rounds = rounds
        self.feed = feed
        self.audit = audit
        self.devices = devices
        self.pins = pins

    async def logon(self, seat: Seat, ev: tp.LogonRequest) -> None:
        """A terminal claims a table (with the director's PIN: a takeover, rate-limited);
        answered, and on acceptance seated and given its assignment."""
        pin_ok = False
        if ev.director_pin:
            refusal = self._pin_refusal(seat, ev)
            if refusal is not None:
                self.gateway.answer(ev, refusal)
                return
            pin_ok = True
        verdict = self.intake.logon(ev.serial, ev.section, ev.table, pin_ok, ev.link)
        self.gateway.answer(ev, verdict)
        if verdict.outcome is tp.Outcome.REFUSED:
            self._refused(seat, ev, verdict)
            return
        if pin_ok:
            where = {"section": ev.section, "table": ev.table, "address": ev.ref.address}
            self.audit.record(ev.serial, "takeover_by_pin", where | {"port": ev.ref.port})
        seat.serial, seat.assignment_lost, seat.taken_from = ev.serial, False, None
        self.devices.seen("terminal", ev.serial)
        for other in self.gateway.seat_at(seat, ev.section, ev.table):
            other.taken_from = (ev.section, ev.table)  # its next request is told so too
            self.gateway.message_seat(other, taken_over(ev.section, ev.table))
        kind = terminal_kind(self.gateway, ev.section, ev.table)  # a browser or hardware
        self.feed.publish(
            "table_online", section=ev.section, table=ev.table, online=True, terminal=kind
        )
        self.rounds.assign(seat)

    def _refused(self, seat: Seat, ev: tp.LogonRequest, verdict: tp.Verdict) -> None:
        """A refused log-on, audited per link and minute (decisions D20): the minute's
        first in full, the rest counted, so a stranger repeating LOGONs (with any serial)
        cannot force a write per message. Counted under the seat's name, which only an
        accepted log-on sets, never under the serial the LOGON declares."""
        reason = verdict.reason.name if verdict.reason else "REFUSED"
        if not self.audit.tally(seat.serial, "logon_refused", reason):
            return
        log.info("%s refused at %s%d: %s", ev.serial, ev.section, ev.table, verdict.text)
        detail = {
            "code": reason,
            "reason": verdict.text,
            "port": ev.ref.port,
            "address": ev.ref.address,
            "session": ev.session,
        }
        self.audit.record(ev.serial, "refused", detail)

    def _pin_refusal(self, seat: Seat, ev: tp.LogonRequest) -> tp.Verdict | None:
        """The director's PIN checked (None: right). A wrong one is audited; attempts while
        locked (or with takeover by PIN off) are counted per link and minute, not written
        each (under the seat's name: a serial made up for each LOGON must not open a row
        each)."""
        check = self.pins.check(ev.serial, ev.ref, ev.director_pin)
        if check.ok:
            return None
        if check.verdict is PinVerdict.WRONG:
            detail = {
                "section": ev.section,
                "table": ev.table,
                "port": ev.ref.port,
                "address": ev.ref.address,
                "failures": check.failures,
                "wait_s": round(check.wait_s),
            }
            self.audit.record(ev.serial, "takeover_pin_refused", detail)
            log.warning("%s: wrong director's PIN (%s)", ev.serial, detail)
            if check.lockout and self.audit.alert is not None:  # the console is told
                self.audit.alert(check.lockout_text(ev.serial, f"{ev.section}{ev.table}"))
        else:
            self.audit.tally(seat.serial, "takeover_pin_refused", check.verdict.name)
        return tp.Verdict.refused(tp.Reason.DIRECTOR_PIN, check.text())
