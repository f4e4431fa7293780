"""The store: one database holding events and their movements, contestants, append-only
results with revisions, and the room's record (audit log, devices, TD calls, clock events,
penalties), and the hub's boot counter (its link epoch).

``Store`` is composed of one part per job (``events``, ``contestants``, ``results``,
``room``, ``boots``); its value types live in ``values``. Everything is importable from here, as
before the split. A result is durable when ``record`` returns (decisions D11).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Engine, insert

from hub.event.movement.model import Movement
from hub.store.boots import BootStore
from hub.store.contestants import ContestantStore
from hub.store.engine import make_engine
from hub.store.engine import migrate as upgrade_schema
from hub.store.events import EventStore
from hub.store.movements import MovementStore, layout_from_json, layout_to_json
from hub.store.results import ResultStore
from hub.store.room import RoomStore
from hub.store.schema import AuditEntry
from hub.store.schema_version import check_readable, refuse_missing_file, refuse_newer
from hub.store.values import LiveLine, ResultEntry, StoredResult, StoreError, utc_now

__all__ = [
    "LiveLine",
    "ResultEntry",
    "Store",
    "StoreError",
    "StoredResult",
    "layout_from_json",
    "layout_to_json",
    "utc_now",
]


class Store(EventStore, MovementStore, ContestantStore, ResultStore, RoomStore, BootStore):
    """One database (one event file per SQLite file by default; many events in PostgreSQL).

    Used from the hub's worker threads and from the command line, never on the asyncio loop
    (decisions D17); each call opens and closes its own session."""

    def __init__(self, engine: Engine, clock: Callable[[], dt.datetime] = utc_now) -> None:
        self.engine = engine
        self.clock = clock
        self._movements: dict[tuple[int, str], Movement] = {}

    @classmethod
    def open(
        cls, url: str, clock: Callable[[], dt.datetime] = utc_now, *, migrate: bool = True
    ) -> Store:
        """``migrate=True`` (``bridgehub run``, ``event create/import``) upgrades the schema to
        the newest; readers pass ``migrate=False`` and get a store exactly at this bridgehub's
        schema or a ``SchemaMismatch`` saying why not, with nothing changed (decisions D17)."""
        if not migrate:
            refuse_missing_file(url)
        engine = make_engine(url)
        try:
            if migrate:
                refuse_newer(engine)
                upgrade_schema(engine)
            else:
                check_readable(engine)
        except BaseException:
            engine.dispose()
            raise
        return cls(engine, clock)

    def audit_many(self, event_id: int, entries: Sequence[tuple[str, str, dict[str, Any]]]) -> None:
        """Audit entries (actor, action, detail) in one transaction, in order: all or none
        (the live hub's audit trail writes what it has queued this way, issue 12)."""
        rows = [self._entry(event_id, *entry) for entry in entries]
        keep = ("event_id", "at", "actor", "action", "detail")
        with self.engine.begin() as db:  # one INSERT, many rows: no ORM unit of work
            db.execute(insert(AuditEntry), [{k: getattr(r, k) for k in keep} for r in rows])

    def close(self) -> None:
        self.engine.dispose()
