"""Import and export: BWS-shaped CSVs (Bridgemate's RoundData, ReceivedData, PlayerNumbers
tables) and a JSON backup of a whole event. ReceivedData and the scorer's traveller CSV are
in ``hub/store/received_data.py`` (names kept importable from here)."""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import StatementError
from sqlalchemy.orm import Session

from hub.event.csv_cells import SafeWriter
from hub.store import schema as t
from hub.store.received_data import (
    RECEIVED_DATA,
    ImportOutcome,
    import_received_data,
    write_received_data,
    write_travellers,
)
from hub.store.store import Store, StoreError

__all__ = [
    "PLAYER_NUMBERS",
    "RECEIVED_DATA",
    "ROUND_DATA",
    "ImportOutcome",
    "backup_json",
    "export_bws",
    "import_player_numbers",
    "import_received_data",
    "import_round_data",
    "restore_json",
    "write_travellers",
]

ROUND_DATA = (
    "Section",
    "Table",
    "Round",
    "NSPair",
    "EWPair",
    "LowBoard",
    "HighBoard",
    "CustomBoards",
)
PLAYER_NUMBERS = ("Section", "Table", "Direction", "Number", "Name")


def export_bws(store: Store, event_id: int, folder: Path) -> list[Path]:
    """Write RoundData.csv, ReceivedData.csv (the results that count: F18) and
    PlayerNumbers.csv."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    rd = folder / "RoundData.csv"
    with rd.open("w", newline="", encoding="utf-8") as f:
        w = SafeWriter(csv.writer(f))
        w.writerow(ROUND_DATA)
        for section in store.sections(event_id):
            for mr in store.movement(event_id, section).rows:
                custom = ",".join(map(str, mr.boards)) if not mr.consecutive else ""
                w.writerow(
                    [
                        mr.section,
                        mr.table,
                        mr.round,
                        mr.ns_pair,
                        mr.ew_pair,
                        mr.low_board,
                        mr.high_board,
                        custom,
                    ]
                )
    written.append(rd)
    written.append(write_received_data(store, event_id, folder / "ReceivedData.csv"))
    pn = folder / "PlayerNumbers.csv"
    with pn.open("w", newline="", encoding="utf-8") as f:
        w = SafeWriter(csv.writer(f))
        w.writerow(PLAYER_NUMBERS)
        for section in store.sections(event_id):
            movement = store.movement(event_id, section)
            first = {
                row.ns_pair: (row.table, "NS")
                for row in movement.round_rows(1, section)
                if row.ns_pair
            }
            first.update(
                {
                    row.ew_pair: (row.table, "EW")
                    for row in movement.round_rows(1, section)
                    if row.ew_pair
                }
            )
            for cont in store.contestants(event_id, section):
                if cont["kind"] != "pair" or cont["number"] not in first:
                    continue
                table, side = first[cont["number"]]
                for letter, player in zip(side, cont["players"], strict=False):
                    w.writerow(
                        [section, table, letter, player.get("number", ""), player.get("name", "")]
                    )
    written.append(pn)
    return written


_TABLES = (
    t.Event,
    t.SectionRow,
    t.MovementRowRecord,
    t.Contestant,
    t.ResultRecord,
    t.AuditEntry,
    t.Device,
    t.TDCall,
    t.ClockEvent,
    t.PenaltyRecord,
    t.BoardRecord,
    t.TableCodeRecord,  # printed table cards stay good after a restore (issue 15)
)


def _jsonable(v: Any) -> Any:
    return v.isoformat() if isinstance(v, dt.datetime) else v


def backup_json(store: Store, event_id: int) -> str:
    """The whole event, every table's rows, as one JSON document."""
    doc: dict[str, Any] = {"format": "bridgehub-backup", "version": 1, "tables": {}}
    with Session(store.engine) as db:
        for model in _TABLES:
            table = model.__table__  # type: ignore[attr-defined]
            key = table.c.id if model is t.Event else table.c.event_id
            rows = db.scalars(select(model).where(key == event_id).order_by(table.c.id))
            cols = [c.key for c in table.columns]
            doc["tables"][model.__tablename__] = [
                {c: _jsonable(getattr(r, c)) for c in cols if c not in ("id", "event_id")}
                for r in rows
            ]
    return json.dumps(doc, ensure_ascii=False, indent=1)


BACKUP_VERSION = 1


def _backup_tables(text: str) -> dict[str, Any]:
    """The ``tables`` of a backup this hub can read; ``StoreError`` saying what is wrong
    (not JSON, not a backup, a newer version, no event) before anything is stored."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise StoreError(f"not a bridgehub backup: not JSON ({e.msg} at line {e.lineno})") from None
    if not isinstance(doc, dict) or doc.get("format") != "bridgehub-backup":
        raise StoreError('not a bridgehub backup: no "format": "bridgehub-backup"')
    version = doc.get("version")
    if version != BACKUP_VERSION:
        newer = isinstance(version, int) and version > BACKUP_VERSION
        raise StoreError(
            f"backup version {version!r}: this bridgehub reads version {BACKUP_VERSION}"
            + ("; upgrade bridgehub to restore it" if newer else "")
        )
    tables = doc.get("tables")
    if not isinstance(tables, dict) or not isinstance(tables.get("events"), list):
        raise StoreError('the backup has no "tables" with its "events" row')
    if len(tables["events"]) != 1:
        raise StoreError(f"the backup holds {len(tables['events'])} events rows, not 1")
    for name, rows in tables.items():
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise StoreError(f"the backup's table {name!r} is not a list of rows")
    return tables


def restore_json(store: Store, text: str) -> int:
    """Load a backup as a new event (new ids); returns the new event id."""
    tables = _backup_tables(text)

    def parse(model: type, row: dict[str, Any]) -> dict[str, Any]:
        out = dict(row)
        name = model.__tablename__  # type: ignore[attr-defined]
        columns = {c.key: c for c in model.__table__.columns}  # type: ignore[attr-defined]
        unknown = sorted(set(out) - set(columns) - {"id", "event_id"})
        if unknown:
            listed = ", ".join(unknown)
            raise StoreError(f"the backup's table {name} has unknown column(s) {listed}")
        out.pop("id", None)
        out.pop("event_id", None)
        for key, col in columns.items():
            if key in out and isinstance(out[key], str) and col.type.python_type is dt.datetime:
                try:
                    out[key] = dt.datetime.fromisoformat(out[key])
                except ValueError:
                    raise StoreError(
                        f"the backup's table {name}: {key} {out[key]!r} is not a date and time"
                    ) from None
        return out

    known = {m.__tablename__ for m in _TABLES}  # type: ignore[attr-defined]
    unknown = sorted(set(tables) - known)
    if unknown:
        raise StoreError(f"the backup has unknown table(s) {', '.join(unknown)}")
    try:
        with Session(store.engine) as db, db.begin():
            (event_row,) = tables["events"]
            ev = t.Event(**parse(t.Event, event_row))
            db.add(ev)
            db.flush()
            for model in _TABLES[1:]:
                for row in tables.get(model.__tablename__, []):
                    db.add(model(event_id=ev.id, **parse(model, row)))
            db.flush()
            new_id = ev.id
    except StatementError as e:  # a missing or mistyped value: nothing is stored
        raise StoreError(f"the backup's rows do not fit the store: {e.orig}") from None
    for letter in store.sections(new_id):  # the restored movements must read back
        store.movement(new_id, letter)
    return new_id


def import_round_data(store: Store, event_id: int, path: Path, actor: str = "import") -> int:
    """Replace each section's movement by a RoundData.csv (rows for every round, read as
    ``bridgehub event import --round-data`` reads them); results already stored are kept.
    Returns the rows read."""
    from hub.event.movement.model import Movement
    from hub.event.movement.round_data import RoundDataError, read_round_data

    try:
        movements = read_round_data(path)
    except RoundDataError as e:
        raise StoreError(str(e)) from None
    for section, movement in movements.items():
        current = store.movement(event_id, section)
        store.replace_movement_from_round(
            event_id, section, 1, Movement(movement.rows, current.layout), actor
        )
    return sum(len(m.rows) for m in movements.values())


def import_player_numbers(store: Store, event_id: int, path: Path, actor: str = "import") -> int:
    """Set players' member numbers and names from a PlayerNumbers.csv (each seat's pair in
    its round, as ``bridgehub event import --player-numbers`` reads them)."""
    from hub.event.player_numbers import PlayerNumbersError, read_player_numbers

    movements = {s: store.movement(event_id, s) for s in store.sections(event_id)}
    try:
        players = read_player_numbers(path, movements)
    except PlayerNumbersError as e:
        raise StoreError(str(e)) from None
    count = 0
    for section, pairs in players.items():
        for pair, seats in pairs.items():
            for index, player in enumerate(seats):
                if player is None:
                    continue
                store.set_player(
                    event_id,
                    section,
                    pair,
                    index,
                    name=player.name or None,
                    number=player.number,
                    actor=actor,
                )
                count += 1
    return count
