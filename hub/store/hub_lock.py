"""One hub per event (issue [TRUST]): the lock a running hub holds on its store for its
whole life, so a second ``bridgehub run`` on the same store refuses to start instead of
fighting the first for the room.

SQLite: an OS lock (``flock``) on a file beside the database, ``<db>.hub-lock``; the
system releases it when the process ends, ``kill -9`` included. PostgreSQL: a session
advisory lock on the event, held by one connection kept open for the hub's life; the
server releases it when that connection ends. Used from the command line, before and after
the hub's loop runs.

The server forgets a session's advisory locks when it restarts: ``check`` (run every few
seconds by the hub's lock watch, on a worker thread) finds the lock gone with its
connection, and takes it again on a new one, or learns that another hub took it meanwhile.
A lock still held by this hub's own old session (its connection failed on this side while
the server has not yet ended the session: a cut cable, not a restart) is never taken for
another hub's: that session is ended and the lock taken again at a later check.

``starting`` is held while a run finds (or, in an empty store, creates) its event and takes
these locks, so two runs started together cannot both create the event: the second waits,
then finds the first's event and is refused its lock like any second hub.
"""

from __future__ import annotations

import contextlib
import enum
import logging
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from sqlalchemy import Connection, Engine, text
from sqlalchemy.engine import make_url

from drivers.lock_file import FileLocked, try_lock, unlock

log = logging.getLogger(__name__)

# pg_try_advisory_lock(int, int): the first key names bridgehub's hub locks ("BH"), the
# second the event; the results' per-key locks use the one-argument form, another key space
LOCK_CLASS = 0x4248
STARTING = 0  # the second key of the lock ``starting`` holds (no event has id 0)
START_WAIT_S = 30.0  # a run waits this long for another that is starting
# the lock, and who took it: the server's start time and the session's process id
TAKE = text("SELECT pg_try_advisory_lock(:c, :e), pg_postmaster_start_time(), pg_backend_pid()")
HELD = text(  # this session holds the two-key advisory lock (c, e): objsubid 2 says two keys
    "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted "
    "AND pid = pg_backend_pid() AND classid = :c AND objid = :e AND objsubid = 2)"
)
HOLDER = text(  # the session holding the two-key advisory lock (c, e), and the server's start
    "SELECT pg_postmaster_start_time(), (SELECT pid FROM pg_locks WHERE locktype = 'advisory' "
    "AND granted AND classid = :c AND objid = :e AND objsubid = 2 LIMIT 1)"
)
END_SESSION = text("SELECT pg_terminate_backend(:pid)")
Session = tuple[object, int]  # (the server's start time, the session's process id)


class LockState(enum.Enum):
    """What ``HubLock.check`` found."""

    HELD = "held"  # still this hub's
    RETAKEN = "retaken"  # lost with its connection (a server restart), taken again now
    UNREACHABLE = "unreachable"  # lost, and the server does not answer yet: check again
    LINGERING = "lingering"  # lost here, still held by this hub's old session: ended now
    TAKEN = "taken"  # lost, and another hub holds it now


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

    def __init__(
        self,
        file: IO[str] | None,
        conn: Connection | None,
        event_id: int,
        engine: Engine | None = None,
    ) -> None:
        self._file = file
        self._conn = conn
        self.event_id = event_id
        self._engine = engine  # PostgreSQL: where a lost lock is taken again
        self._session: Session | None = None  # the session that took it (PostgreSQL)
        self._released = False

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
        taken = _take_on_new_connection(engine, event_id)
        if taken is None:
            raise HubLocked(
                f"another hub is already running event {event_id} of this store: stop it "
                "first (there is one hub per event)"
            )
        lock = cls(None, taken[0], event_id, engine)
        lock._session = taken[1]
        return lock

    @property
    def watched(self) -> bool:
        """Whether the lock can be lost while the hub runs (PostgreSQL's can, with its
        server; an OS file lock cannot)."""
        return self._engine is not None

    def check(self) -> LockState:
        """Is the lock still this hub's? If its connection was lost (the server restarted),
        take it again on a new one. Blocking: run on a worker thread, never on the hub's
        loop; one check at a time."""
        if self._engine is None or self._released:
            return LockState.HELD
        conn = self._conn
        if conn is not None:
            try:
                held = bool(conn.execute(HELD, {"c": LOCK_CLASS, "e": self.event_id}).scalar())
                conn.commit()
            except Exception as e:  # the connection died with the server's session
                why = (str(e).splitlines() or [type(e).__name__])[0]
                log.warning("hub lock of event %d: its connection is lost (%s)", self.event_id, why)
                held = False
            if held:
                return LockState.HELD
            self._conn = None
            _drop(conn)
        try:
            taken = _take_on_new_connection(self._engine, self.event_id)
            if taken is None and self._end_own_old_session():
                return LockState.LINGERING
        except Exception as e:  # the server does not answer yet
            log.debug("hub lock of event %d: cannot take it again yet: %s", self.event_id, e)
            return LockState.UNREACHABLE
        if taken is None:
            return LockState.TAKEN
        if self._released:  # released while this check ran: give it straight back
            _drop(taken[0])
            return LockState.HELD
        self._conn, self._session = taken
        return LockState.RETAKEN

    def _end_own_old_session(self) -> bool:
        """Whether a lock the last try found taken is not another hub's after all: held by
        the session this hub took it on (the same server run, the same process id), which
        is ended now, or free again (that session ended meanwhile). Either way a later
        check takes it. A restarted server has a new start time, so another hub's session
        is never mistaken for this hub's."""
        if self._engine is None or self._session is None:
            return False
        with self._engine.connect() as conn:
            server, holder = conn.execute(HOLDER, {"c": LOCK_CLASS, "e": self.event_id}).one()
            if holder is None:
                return True
            if (server, holder) != self._session:
                return False
            log.warning(
                "hub lock of event %d: still held by this hub's old session (process %d), "
                "which the server has not ended yet: ending it",
                self.event_id,
                holder,
            )
            conn.execute(END_SESSION, {"pid": holder})
            conn.commit()
        return True

    def release(self) -> None:
        """Give the lock up (idempotent)."""
        self._released = True
        file, self._file = self._file, None
        unlock(file)  # closing the descriptor releases the flock
        conn, self._conn = self._conn, None
        if conn is not None:  # the server ends the session, and with it the lock
            _drop(conn)


def _take_on_new_connection(engine: Engine, event_id: int) -> tuple[Connection, Session] | None:
    """A new connection holding the hub lock of ``event_id``, and its session; None when
    another session holds it. Raises what connecting raises."""
    conn = engine.connect()
    try:
        got, server, pid = conn.execute(TAKE, {"c": LOCK_CLASS, "e": event_id}).one()
        conn.commit()
    except BaseException:
        _drop(conn)
        raise
    if not got:
        conn.close()
        return None
    return conn, (server, int(pid))


def _drop(conn: Connection) -> None:
    """Close a lock's connection for good: invalidated, so the pool never hands out a
    session that still holds (or held) a lock; the server ends it, and the lock with it."""
    with contextlib.suppress(Exception):
        conn.invalidate()
    with contextlib.suppress(Exception):
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
