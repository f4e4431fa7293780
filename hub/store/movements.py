"""Sections' movements in the store: read (cached per section), and changed from a round on
while the event runs (a late pair, a new movement, a team round drawn), audited in the same
transaction; the layout kept as JSON beside the rows."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, replace
from fractions import Fraction
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from hub.event.movement.check import check_movement
from hub.event.movement.model import (
    KnockoutPlan,
    Layout,
    Movement,
    MovementError,
    MovementKind,
    MovementRow,
    ThreeWay,
)
from hub.store import schema as t
from hub.store.part import StorePart
from hub.store.values import StoreError


def layout_to_json(layout: Layout) -> dict[str, Any]:
    data = asdict(layout)
    data["kind"] = layout.kind.value
    if layout.knockout is not None:  # exact IMPs as text (decisions D4)
        data["knockout"]["carried"] = [[k, t, str(v)] for k, t, v in layout.knockout.carried]
        data["knockout"]["minutes"] = [[r, str(m)] for r, m in layout.knockout.minutes]
    return data


def _knockout(data: dict[str, Any] | None) -> KnockoutPlan | None:
    if data is None:
        return None
    return KnockoutPlan(
        event_rounds=tuple(data["event_rounds"]),
        matches=tuple((int(k), int(i), str(m)) for k, i, m in data["matches"]),
        three_ways=tuple((int(k), int(i), str(m)) for k, i, m in data.get("three_ways", ())),
        carried=tuple((int(k), int(t), Fraction(v)) for k, t, v in data["carried"]),
        to_come=bool(data["to_come"]),
        entries=tuple(int(t) for t in data.get("entries", ())),
        lot_seed=int(data.get("lot_seed", 0)),
        bracket=str(data.get("bracket", "")),
        minutes=tuple((int(r), Fraction(m)) for r, m in data.get("minutes", ())),
    )


def layout_from_json(data: dict[str, Any]) -> Layout:
    def tuples(v: Any) -> tuple:
        return tuple(tuple(x) for x in v)

    return Layout(
        kind=MovementKind(data["kind"]),
        winners=data["winners"],
        copies=data["copies"],
        shares=tuples(data["shares"]),
        relays=tuples(data["relays"]),
        matches=tuples(data["matches"]),
        arrow_switch=tuples(data["arrow_switch"]),
        description=data["description"],
        segments=data.get("segments", 1),
        draw=data.get("draw", ""),
        drawn=data.get("drawn", 0),
        withdrawn=tuples(data.get("withdrawn", ())),
        three_ways=tuple(
            ThreeWay(w["round"], tuple(w["teams"]), tuple(w["tables"]))  # type: ignore[arg-type]
            for w in data.get("three_ways", ())
        ),
        knockout=_knockout(data.get("knockout")),
    )


def movement_records(event_id: int, rows: Iterable[MovementRow]) -> list[t.MovementRowRecord]:
    """The store's rows of a movement's rows."""
    return [
        t.MovementRowRecord(
            event_id=event_id,
            section=r.section,
            table_no=r.table,
            round=r.round,
            ns_pair=r.ns_pair,
            ew_pair=r.ew_pair,
            boards=";".join(map(str, r.boards)),
        )
        for r in rows
    ]


class MovementStore(StorePart):
    """The sections' movements, a part of ``Store`` (worker threads only, like the rest): a
    movement read once is served from the cache until it changes."""

    _movements: dict[tuple[int, str], Movement]

    def movement(self, event_id: int, section: str) -> Movement:
        cached = self._movements.get((event_id, section))
        if cached is not None:
            return cached
        with Session(self.engine) as db:
            sec = db.scalar(
                select(t.SectionRow).where(
                    t.SectionRow.event_id == event_id, t.SectionRow.letter == section
                )
            )
            if sec is None:
                raise StoreError(f"event {event_id} has no section {section}")
            m = t.MovementRowRecord
            rows = db.execute(
                select(m.section, m.table_no, m.round, m.ns_pair, m.ew_pair, m.boards).where(
                    m.event_id == event_id, m.section == section
                )
            )
            out = tuple(
                MovementRow(sec_, table, rnd, ns, ew, tuple(int(b) for b in boards.split(";") if b))
                for sec_, table, rnd, ns, ew, boards in rows
            )
            movement = Movement(out, layout_from_json(sec.layout)).sorted()
        self._movements[(event_id, section)] = movement
        return movement

    def replace_movement_from_round(
        self,
        event_id: int,
        section: str,
        first_round: int,
        movement: Movement,
        actor: str = "TD",
        action: str = "movement_changed",
        detail: dict[str, Any] | None = None,
    ) -> Movement:
        """A mid-session change: rounds before ``first_round`` stay as played; results are
        never touched. Audited as ``action`` (a published draw, D19: ``draw_published``
        with the draw in ``detail``) in the same transaction."""
        current = self.movement(event_id, section)
        moved = tuple(replace(r, section=section) for r in movement.rows)
        changed = current.from_round(first_round, replace(movement, rows=moved))
        report = check_movement(changed)
        if not report.ok:
            raise MovementError(
                report.errors[0].message, report.errors[0].row, report.errors[0].rule
            )
        with Session(self.engine) as db, db.begin():
            for rec in db.scalars(
                select(t.MovementRowRecord).where(
                    t.MovementRowRecord.event_id == event_id,
                    t.MovementRowRecord.section == section,
                    t.MovementRowRecord.round >= first_round,
                )
            ):
                db.delete(rec)
            db.flush()
            db.add_all(
                movement_records(event_id, (r for r in changed.rows if r.round >= first_round))
            )
            sec = db.scalar(
                select(t.SectionRow).where(
                    t.SectionRow.event_id == event_id, t.SectionRow.letter == section
                )
            )
            assert sec is not None
            sec.layout = layout_to_json(changed.layout)
            db.add(
                t.AuditEntry(
                    event_id=event_id,
                    at=self.clock(),
                    actor=actor,
                    action=action,
                    detail={"section": section, "from_round": first_round, **(detail or {})},
                )
            )
        self._movements[(event_id, section)] = changed
        return changed
