"""One hub per event (issue [TRUST]): the lock a running hub holds on its store for its
whole life, so a second ``bridgehub run`` on the same store refuses to start instead of
fighting the first for the room.

SQLite: an OS lock (``flock``) on a file beside the database, ``<db>.hub-lock``; the
system releases it when the process ends, ``kill -9`` included. PostgreSQL: a session
advisory lock on the event, held by one connection kept open for the hub's life; the
server releases it when that connection ends. Used from the command line, before and after
the hub's loop runs.

``starting`` is held while a run finds (or, in an empty store, creates) its event and takes
these locks, so two runs started together cannot both create the event: the second waits,
then finds the first's event and is refused its lock like any second hub.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from sqlalchemy import Connection, Engine, text
from sqlalchemy.engine import make_url

from drivers.lock_file import FileLocked, try_lock, unlock

# pg_try_advisory_lock(int, int): the first key names bridgehub's hub locks ("BH"), the
# second the event; the results' per-key locks use the one-argument form, another key space
LOCK_CLASS = 0x4248
STARTING = 0  # the second key of the lock ``starting`` holds (no event has id 0)
START_WAIT_S = 30.0  # a run waits this long for another that is starting


class HubLocked(RuntimeError):
    """Another hub already runs this event (or this SQLite store)."""


def _lock_file(engine: Engine) -> Path | None:
    """The lock file of a SQLite store (None: in memory, or not SQLite)."""
    url = make_url(engine.url)
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return Path(url.database).resolve().with_name(Path(url.database).name + ".hub-lock")


class HubLock:
    """Held by one hub for its life; ``release`` (or the process's end) lets the next start.
    Taken and released on the command line's main thread, outside the hub's loop."""

    def __init__(self, file: IO[str] | None, conn: Connection | None, event_id: int) -> None:
        self._file = file
        self._conn = conn
        self.event_id = event_id

    @classmethod
    def acquire(cls, engine: Engine, event_id: int) -> HubLock:
        """Take the lock or raise ``HubLocked`` with a message for the TD."""
        if engine.dialect.name == "postgresql":
            return cls._acquire_postgresql(engine, event_id)
        path = _lock_file(engine)
        if path is None:
            return cls(None, None, event_id)
        try:
            f = try_lock(path, str(os.getpid()))
        except FileLocked as e:
            who = f" (process {e.holder})" if e.holder else ""
            raise HubLocked(
                f"another hub is already running on this store{who}: {path.with_suffix('')}; "
                "stop it first (there is one hub per event)"
            ) from None
        return cls(f, None, event_id)

    @classmethod
    def _acquire_postgresql(cls, engine: Engine, event_id: int) -> HubLock:
        conn = engine.connect()
        try:
            got = conn.execute(
                text("SELECT pg_try_advisory_lock(:c, :e)"), {"c": LOCK_CLASS, "e": event_id}
            ).scalar()
            conn.commit()
        except BaseException:
            conn.close()
            raise
        if not got:
            conn.close()
            raise HubLocked(
                f"another hub is already running event {event_id} of this store: stop it "
                "first (there is one hub per event)"
            )
        return cls(None, conn, event_id)

    def release(self) -> None:
        """Give the lock up (idempotent)."""
        file, self._file = self._file, None
        unlock(file)  # closing the descriptor releases the flock
        conn, self._conn = self._conn, None
        if conn is not None:  # the server ends the session, and with it the lock
            with contextlib.suppress(Exception):
                conn.invalidate()
            conn.close()


def _wait(seconds: float) -> None:
    """A pause while another run holds ``starting`` (its own name, for tests to watch)."""
    time.sleep(seconds)


@contextlib.contextmanager
def starting(engine: Engine, wait_s: float = START_WAIT_S) -> Iterator[None]:
    """Held while a run chooses its event and takes its hub lock (a few store reads, at
    most one event created): SQLite, ``flock`` on ``<db>.start-lock``; PostgreSQL, the
    advisory lock (``LOCK_CLASS``, ``STARTING``) on a connection of its own. Waits for
    another run holding it, at most ``wait_s``, then raises ``HubLocked``."""
    if engine.dialect.name == "postgresql":
        conn = engine.connect()
        try:
            query, key = (
                text("SELECT pg_try_advisory_lock(:c, :e)"),
                {"c": LOCK_CLASS, "e": STARTING},
            )
            _take(lambda: bool(conn.execute(query, key).scalar()), wait_s)
            yield
        finally:
            with contextlib.suppress(Exception):
                conn.invalidate()  # the server ends the session, and with it the lock
            conn.close()
        return
    path = _lock_file(engine)
    if path is None:
        yield
        return
    import fcntl

    with path.with_suffix(".start-lock").open("a", encoding="utf-8") as f:

        def take() -> bool:
            try:
                fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False
            return True

        _take(take, wait_s)
        yield  # closing the file releases the flock


def _take(attempt: Callable[[], bool], wait_s: float) -> None:
    end = time.monotonic() + wait_s
    while not attempt():
        if time.monotonic() > end:
            raise HubLocked(
                f"another bridgehub run has been starting on this store for {wait_s:.0f} s; "
                "try again, or stop it first (there is one hub per event)"
            )
        _wait(0.05)
