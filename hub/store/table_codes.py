"""Table codes for browser terminals (issue 15, docs/web-terminal.md "Table codes"): each table
of an event has an 8-character code, printed on its table card as part of its join link. The
first device that logs on with it uses it up; the director can re-issue it (a lost phone).

Codes are kept in the store (table ``table_codes``), made when first needed and the same
after a restart, so printed cards stay good. The table's row is unique: two hubs (or a hub
and ``bridgehub movement cards``) making codes at once insert "if absent" and read back what
the store holds, so a table never gets two codes.

Like ``Store``: worker threads and the command line, never the hub's loop; each call opens and
closes its own transaction.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Insert, and_, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from hub.store import schema as t
from hub.store.store import Store, StoreError

ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, no 1/I: read out and typed safely
LENGTH = 8
ATTEMPTS = 5  # inserts lost to another process's at once (only without ON CONFLICT)
Row = t.TableCodeRecord


@dataclass(frozen=True)
class TableCode:
    """A table's code as the store holds it: ``generation`` counts from 1 and goes up with
    each re-issue; ``used_by`` is the serial of the device that used it up, None while it is
    unused (a new code, or one just re-issued)."""

    section: str
    table: int
    code: str
    generation: int
    used_by: str | None


class CodeUsed(StoreError):
    """The table's code was used up by another device (the log-on is refused: the director
    re-issues the code, or a takeover with the director's PIN)."""

    def __init__(self, held: TableCode) -> None:
        super().__init__(
            f"the code of table {held.section}{held.table} was used by another device: "
            "ask the director"
        )
        self.held = held


def new_code() -> str:
    """A random code: 8 characters of ``ALPHABET`` (40 bits), from the secrets module."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def _value(row: Row) -> TableCode:
    return TableCode(row.section, row.table_no, row.code, row.generation, row.used_by)


def _where(event_id: int, section: str, table: int) -> ColumnElement[bool]:
    return and_(Row.event_id == event_id, Row.section == section, Row.table_no == table)


def table_codes(store: Store, event_id: int) -> dict[tuple[str, int], TableCode]:
    """Every code the event has, by (section, table)."""
    with Session(store.engine) as db:
        rows = db.scalars(select(Row).where(Row.event_id == event_id).order_by(Row.id))
        return {(r.section, r.table_no): _value(r) for r in rows}


def _insert_if_absent(store: Store) -> Insert:
    """An INSERT that leaves a table already holding a code alone (the unique table row),
    in the store's own SQL (SQLite and PostgreSQL both say ``ON CONFLICT DO NOTHING``)."""
    keys = ["event_id", "section", "table_no"]
    if store.engine.dialect.name == "postgresql":
        return postgresql.insert(Row).on_conflict_do_nothing(index_elements=keys)
    if store.engine.dialect.name == "sqlite":
        return sqlite.insert(Row).on_conflict_do_nothing(index_elements=keys)
    return insert(Row)  # another database: a race shows as IntegrityError, read back below


def ensure_codes(
    store: Store, event_id: int, tables: list[tuple[str, int]]
) -> dict[tuple[str, int], TableCode]:
    """Make a code for each of ``tables`` (section, table) that has none yet, and return
    every code of the event. A code another process made meanwhile is kept, not replaced:
    the insert skips a table that has one, and what is returned is read back from the
    store."""
    _check_tables(tables)
    wanted = set(tables)
    for _ in range(ATTEMPTS):
        held = table_codes(store, event_id)
        missing = sorted(wanted - set(held))
        if not missing:
            return held
        rows = [
            {"event_id": event_id, "section": s, "table_no": n, "code": new_code(), "generation": 1}
            for s, n in missing
        ]
        try:
            with store.engine.begin() as db:  # the insert first: SQLite takes its write lock
                db.execute(_insert_if_absent(store), rows)
        except IntegrityError:  # no such event, or (without ON CONFLICT) a race lost: again
            continue
    held = table_codes(store, event_id)
    if wanted <= set(held):
        return held
    raise StoreError(
        f"cannot make the table codes of event {event_id}: is the event in this store?"
    )


def _check_tables(tables: Iterable[tuple[str, int]]) -> None:
    for section, table in tables:
        if not (isinstance(section, str) and 1 <= len(section) <= 3):
            raise StoreError(f"no such section {section!r}: a section is 1 to 3 characters")
        if not (isinstance(table, int) and table >= 1):
            raise StoreError(f"no such table {table!r} in section {section}: tables count from 1")


def _row(db: Session, event_id: int, section: str, table: int) -> TableCode:
    query = select(Row).where(_where(event_id, section, table))
    row = db.scalar(query.execution_options(populate_existing=True))  # as just updated
    if row is None:
        raise StoreError(f"table {section}{table} has no code in event {event_id}")
    return _value(row)


def use_code(
    store: Store,
    event_id: int,
    section: str,
    table: int,
    serial: str,
    generation: int | None = None,
) -> TableCode:
    """The device ``serial`` used the table's code: recorded with the time, once. The same
    device using it again (a reload, a restarted hub) changes nothing. If another device
    used it first (two phones with one card, racing), or the code is no longer of
    ``generation`` (the director re-issued it meanwhile), ``CodeUsed`` says so and nothing
    changes; a table without a code is a ``StoreError``. Checking the code the device sent
    is the caller's: this records who used the code that is current."""
    where = [_where(event_id, section, table), Row.used_by.is_(None)]
    if generation is not None:
        where.append(Row.generation == generation)
    with Session(store.engine) as db, db.begin():  # the update first: one device takes it
        db.execute(update(Row).where(*where).values(used_by=serial, used_at=store.clock()))
        now = _row(db, event_id, section, table)
    if now.used_by != serial:
        raise CodeUsed(now)
    return now


def reissue_code(store: Store, event_id: int, section: str, table: int) -> TableCode:
    """The director's re-issue (a lost or dead phone): a new code, different from the last,
    with the device that used the old one forgotten and the generation one more. A table
    that had no code yet gets one first (so its first re-issue is generation 2)."""
    ensure_codes(store, event_id, [(section, table)])
    with Session(store.engine) as db, db.begin():
        for _ in range(ATTEMPTS):  # a new code equal to the old one (1 in 2**40): again
            code = new_code()
            db.execute(
                update(Row)
                .where(_where(event_id, section, table), Row.code != code)
                .values(code=code, generation=Row.generation + 1, used_by=None, used_at=None)
            )
            now = _row(db, event_id, section, table)
            if now.code == code:
                break
        return now
