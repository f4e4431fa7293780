"""The room's record: the audit trail, devices, TD calls, clock events and penalties."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import CursorResult, select, update
from sqlalchemy.orm import Session

from hub.store import schema as t
from hub.store.part import StorePart
from hub.store.values import StoreError, aware


class RoomStore(StorePart):
    """Part of ``Store``: what happens in the playing room besides results. The TD's
    decisions here (a TD call's progress, a penalty confirmed or waived) are audited in the
    same transaction. Like ``Store``: worker threads and the command line, never the hub's
    loop."""

    def audit(self, event_id: int, actor: str, action: str, detail: dict[str, Any]) -> None:
        with Session(self.engine) as db, db.begin():
            db.add(self._entry(event_id, actor, action, detail))

    def _entry(
        self, event_id: int, actor: str, action: str, detail: dict[str, Any]
    ) -> t.AuditEntry:
        # the column's width, and no NUL (PostgreSQL text refuses it): a terminal's odd
        # serial must not fail the write, which the audit trail would retry for ever
        actor = actor.replace("\x00", "\ufffd")[:64]
        return t.AuditEntry(
            event_id=event_id, at=self.clock(), actor=actor, action=action, detail=detail
        )

    def audit_once(
        self, event_id: int, action: str, entries: Sequence[tuple[str, dict[str, Any]]]
    ) -> list[bool]:
        """Audit entries (actor, detail) of ``action`` in one transaction, each at most once
        per ``detail["submission"]``: True for one written now, False for one the store
        holds already (a terminal's resend, decisions D21). The live hub records a table's
        NO PLAY this way before it answers the terminal (D11)."""
        a = t.AuditEntry
        with Session(self.engine) as db, db.begin():
            known = db.scalars(select(a.detail).where(a.event_id == event_id, a.action == action))
            seen = {d.get("submission") for d in known if isinstance(d, dict)}
            out = []
            for actor, detail in entries:
                new = detail["submission"] not in seen
                if new:
                    seen.add(detail["submission"])
                    db.add(self._entry(event_id, actor, action, detail))
                out.append(new)
            return out

    def audit_log(self, event_id: int, action: str | None = None) -> list[dict[str, Any]]:
        """The audit trail in order; only one kind of entry when ``action`` is given."""
        query = select(t.AuditEntry).where(t.AuditEntry.event_id == event_id)
        if action is not None:
            query = query.where(t.AuditEntry.action == action)
        with Session(self.engine) as db:
            return [
                {"at": aware(a.at), "actor": a.actor, "action": a.action, "detail": a.detail}
                for a in db.scalars(query.order_by(t.AuditEntry.id))
            ]

    def touch_device(
        self,
        event_id: int,
        kind: str,
        serial: str,
        *,
        firmware: str | None = None,
        section: str | None = None,
        table: int | None = None,
    ) -> None:
        """Register a device or note that it was seen (and where it is assigned)."""
        with Session(self.engine) as db, db.begin():
            dev = db.scalar(
                select(t.Device).where(
                    t.Device.event_id == event_id, t.Device.kind == kind, t.Device.serial == serial
                )
            )
            if dev is None:
                dev = t.Device(event_id=event_id, kind=kind, serial=serial)
                db.add(dev)
            dev.last_seen = self.clock()
            if firmware is not None:
                dev.firmware = firmware
            if section is not None:
                dev.section, dev.table_no = section, table

    def devices(self, event_id: int) -> list[dict[str, Any]]:
        with Session(self.engine) as db:
            return [
                {
                    "kind": d.kind,
                    "serial": d.serial,
                    "firmware": d.firmware,
                    "section": d.section,
                    "table": d.table_no,
                    "last_seen": aware(d.last_seen),
                }
                for d in db.scalars(
                    select(t.Device)
                    .where(t.Device.event_id == event_id)
                    .order_by(t.Device.kind, t.Device.serial)
                )
            ]

    def open_td_call(
        self,
        event_id: int,
        section: str,
        table: int,
        rnd: int | None = None,
        note: str | None = None,
    ) -> int:
        with Session(self.engine) as db, db.begin():
            call = t.TDCall(
                event_id=event_id,
                section=section,
                table_no=table,
                round=rnd,
                status="launched",
                opened_at=self.clock(),
                updated_at=self.clock(),
                note=note,
            )
            db.add(call)
            db.flush()
            return call.id

    def update_td_call(
        self,
        event_id: int,
        call_id: int,
        status: str,
        actor: str,
        note: str | None = None,
        ruling: str | None = None,
    ) -> None:
        """The call's status (and note); a ruling is kept in the audit log, the latest shown."""
        if status not in ("launched", "in_progress", "resolved", "deferred"):
            raise StoreError(
                f"TD call status {status!r} is not launched, in_progress, resolved or deferred"
            )
        with Session(self.engine) as db, db.begin():
            call = db.get(t.TDCall, call_id)
            if call is None or call.event_id != event_id:
                raise StoreError(f"no TD call {call_id} in event {event_id}")
            call.status, call.updated_at = status, self.clock()
            if note:
                call.note = note
            db.add(
                t.AuditEntry(
                    event_id=event_id,
                    at=self.clock(),
                    actor=actor,
                    action="td_call",
                    detail={"call": call_id, "status": status}
                    | ({"ruling": ruling} if ruling else {}),
                )
            )

    def td_calls(self, event_id: int) -> list[dict[str, Any]]:
        with Session(self.engine) as db:
            a = t.AuditEntry
            rulings = {
                d["call"]: d["ruling"]
                for d in db.scalars(
                    select(a.detail)
                    .where(a.event_id == event_id, a.action == "td_call")
                    .order_by(a.id)
                )
                if "ruling" in d
            }
            return [
                {
                    "id": c.id,
                    "section": c.section,
                    "table": c.table_no,
                    "round": c.round,
                    "status": c.status,
                    "note": c.note,
                    "ruling": rulings.get(c.id),
                }
                for c in db.scalars(
                    select(t.TDCall).where(t.TDCall.event_id == event_id).order_by(t.TDCall.id)
                )
            ]

    def add_clock_event(
        self,
        event_id: int,
        kind: str,
        section: str | None = None,
        rnd: int | None = None,
        detail: dict[str, Any] | None = None,
        at: dt.datetime | None = None,
    ) -> None:
        with Session(self.engine) as db, db.begin():
            db.add(
                t.ClockEvent(
                    event_id=event_id,
                    section=section,
                    at=at or self.clock(),
                    kind=kind,
                    round=rnd,
                    detail=detail or {},
                )
            )

    def clock_events(self, event_id: int) -> list[dict[str, Any]]:
        with Session(self.engine) as db:
            return [
                {
                    "at": aware(c.at),
                    "kind": c.kind,
                    "section": c.section,
                    "round": c.round,
                    "detail": c.detail,
                }
                for c in db.scalars(
                    select(t.ClockEvent)
                    .where(t.ClockEvent.event_id == event_id)
                    .order_by(t.ClockEvent.id)
                )
            ]

    def propose_penalty(
        self,
        event_id: int,
        section: str,
        contestant: int,
        amount: str,
        unit: str,
        reason: str,
        table: int | None = None,
        rnd: int | None = None,
        other: int | None = None,
    ) -> int:
        """A proposal names the table and both sides (contestant: NS, other: EW)."""
        with Session(self.engine) as db, db.begin():
            p = t.PenaltyRecord(
                event_id=event_id,
                section=section,
                table_no=table,
                round=rnd,
                contestant=contestant,
                other_contestant=other,
                amount=amount,
                unit=unit,
                status="proposed",
                reason=reason,
                proposed_at=self.clock(),
            )
            db.add(p)
            db.flush()
            return p.id

    def decide_penalty(
        self, event_id: int, penalty_id: int, confirm: bool, actor: str, payer: str | None = None
    ) -> None:
        """Confirm or waive a proposed penalty, once: one conditional update (``WHERE status
        = 'proposed'``), so of two consoles deciding at once (PostgreSQL's READ COMMITTED
        lets both read "proposed") only the first decides and the second is refused."""
        status = "confirmed" if confirm else "waived"
        with Session(self.engine) as db, db.begin():
            done = db.execute(
                update(t.PenaltyRecord)
                .where(
                    t.PenaltyRecord.id == penalty_id,
                    t.PenaltyRecord.event_id == event_id,
                    t.PenaltyRecord.status == "proposed",
                )
                .values(
                    status=status,
                    decided_at=self.clock(),
                    decided_by=actor,
                    payer=payer if confirm else None,
                )
                .execution_options(synchronize_session=False)
            )
            if cast(CursorResult[Any], done).rowcount != 1:
                p = db.get(t.PenaltyRecord, penalty_id)
                raise StoreError(_not_proposed(p, penalty_id, event_id))
            db.add(
                t.AuditEntry(
                    event_id=event_id,
                    at=self.clock(),
                    actor=actor,
                    action="penalty_" + status,
                    detail={"penalty": penalty_id, "payer": payer},
                )
            )

    def penalties(self, event_id: int) -> list[dict[str, Any]]:
        with Session(self.engine) as db:
            return [
                {
                    "id": p.id,
                    "section": p.section,
                    "table": p.table_no,
                    "round": p.round,
                    "contestant": p.contestant,
                    "contestants": (p.contestant, p.other_contestant),
                    "amount": p.amount,
                    "unit": p.unit,
                    "status": p.status,
                    "reason": p.reason,
                    "decided_by": p.decided_by,
                    "payer": p.payer,
                }
                for p in db.scalars(
                    select(t.PenaltyRecord)
                    .where(t.PenaltyRecord.event_id == event_id)
                    .order_by(t.PenaltyRecord.id)
                )
            ]


def _not_proposed(p: t.PenaltyRecord | None, penalty_id: int, event_id: int) -> str:
    """Why a penalty cannot be decided: none such here, or decided already (by whom)."""
    if p is None or p.event_id != event_id or p.status == "proposed":
        return f"penalty {penalty_id} is not a proposed penalty of event {event_id}"
    return f"penalty {penalty_id} was already {p.status} by {p.decided_by or 'the director'}"
