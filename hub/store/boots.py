"""The hub's boot counter: each start of the hub takes the next epoch for its lines
(docs/protocol.md §3), kept in the store so that it grows across restarts whatever the
clock does."""

from __future__ import annotations

from sqlalchemy import BigInteger, DateTime, case, func, insert, literal, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from hub.store import schema as t
from hub.store.part import StorePart
from hub.store.values import StoreError

EPOCH_MAX = 0xFFFFFFFF  # an epoch is a u32 on the wire
FLOOR_MAX = EPOCH_MAX - 0x10000  # a clock far in the future still leaves boots to count
ATTEMPTS = 5


class BootStore(StorePart):
    """Part of ``Store``: the hub's starts. Like ``Store``: worker threads and the command
    line, never the hub's loop."""

    def next_boot(self) -> int:
        """The epoch of this start, recorded in one transaction: one more than the last
        start's, and at least the clock's seconds since 1970 (so a new database still
        starts above the wall-clock epochs of older hubs, and two databases rarely share
        one). A restart in the same second or after the clock stepped back still gets a
        higher epoch. Two hubs starting at once get different ones (the epoch is unique:
        the later one counts again)."""
        floor = max(1, min(int(self.clock().timestamp()), FLOOR_MAX))
        attempt = 0
        while True:
            try:
                return self._record_boot(floor)
            except IntegrityError:  # another hub took this epoch at the same moment
                attempt += 1
                if attempt == ATTEMPTS:
                    raise

    def _record_boot(self, floor: int) -> int:
        """One statement reads the last epoch and inserts the next, so SQLite takes its
        write lock before reading; PostgreSQL locks the table for the transaction."""
        after_last = func.coalesce(func.max(t.HubBoot.epoch), 0) + 1
        epoch = case((after_last > floor, after_last), else_=literal(floor, BigInteger()))
        started = literal(self.clock(), DateTime(timezone=True))
        statement = (
            insert(t.HubBoot)
            .from_select(["epoch", "started_at"], select(epoch, started))
            .returning(t.HubBoot.epoch)
        )
        with Session(self.engine) as db, db.begin():
            if self.engine.dialect.name == "postgresql":  # starts queue up, one at a time
                db.execute(text("LOCK TABLE hub_boots IN EXCLUSIVE MODE"))
            got = int(db.execute(statement).scalar_one())
            if got > EPOCH_MAX:
                raise StoreError(
                    f"the hub's boot counter has reached its end (epoch {EPOCH_MAX}): the "
                    "clock was once set far in the future; run the event from a new store"
                )
        return got

    def boots(self) -> list[int]:
        """Every epoch the hub started with on this database, oldest first."""
        with Session(self.engine) as db:
            return list(db.scalars(select(t.HubBoot.epoch).order_by(t.HubBoot.id)))
