"""A session's hand records replaced while the hub runs (TD trial F3): the director loads
the right PBN file when the one stored at ``event create`` was rotated or of another set.
One transaction: the old deals go, the new ones come, and the change is audited."""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import delete
from sqlalchemy.orm import Session

from hub.store import schema as t
from hub.store.store import Store


def replace_hand_records(
    store: Store,
    event_id: int,
    session: int,
    deals: Mapping[int, str],
    actor: str,
    tricks: Mapping[int, str] | None = None,
) -> None:
    """Store ``deals`` (board → PBN deal) as session ``session``'s hand records (index from
    0), with the file's double-dummy ``tricks`` where it has them, audited as
    ``hand_records_loaded`` by ``actor``. Worker threads only."""
    with Session(store.engine) as db, db.begin():
        db.execute(
            delete(t.BoardRecord).where(
                t.BoardRecord.event_id == event_id, t.BoardRecord.session == session
            )
        )
        db.add_all(
            t.BoardRecord(
                event_id=event_id,
                session=session,
                number=n,
                deal=d,
                tricks=(tricks or {}).get(n),
            )
            for n, d in sorted(deals.items())
        )
        db.add(
            t.AuditEntry(
                event_id=event_id,
                at=store.clock(),
                actor=actor[:64],
                action="hand_records_loaded",
                detail={"session": session, "boards": sorted(deals)},
            )
        )
