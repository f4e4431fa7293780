"""Engines and migrations: SQLite with WAL and synchronous FULL (a commit survives power
loss), PostgreSQL through the same code (its driver is the ``postgres`` extra)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError

from hub.store.schema_version import MIGRATIONS, at_head

if TYPE_CHECKING:
    from alembic.config import Config

# libpq settings for a PostgreSQL store, unless its URL gives its own: a server that does
# not answer (a lost machine, a cut cable) fails a connect in 10 s, and a connection whose
# server vanished without a word is found dead within about 20 s (TCP keepalives while it
# is idle; ``tcp_user_timeout`` while a query or commit waits for the server to take its
# bytes), so a worker thread never hangs on it for the system's defaults of 15 minutes to
# two hours, nor does the hub's stop, which waits for its worker threads. A server that
# restarts refuses or closes connections at once; ``pool_pre_ping`` then discards the
# stale ones (the first failed ping invalidates every older pooled connection), and a
# transaction that fails with the server's restart is answered "busy, resend" and comes
# back with the terminal's resend.
PG_CONNECT_ARGS = {
    "connect_timeout": 10,
    "keepalives": 1,
    "keepalives_idle": 10,
    "keepalives_interval": 3,
    "keepalives_count": 3,
    "tcp_user_timeout": 20_000,  # milliseconds
}
LIBPQ_DRIVERS = ("psycopg", "psycopg2")  # drivers that take libpq's settings as arguments


class DriverMissing(RuntimeError):
    """The store URL names a database whose Python driver is not installed."""


def _sqlite_pragmas(dbapi_connection, _record) -> None:  # noqa: ANN001
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


def sqlite_url(path: str | Path) -> str:
    return f"sqlite:///{Path(path).resolve()}"


def make_engine(url: str) -> Engine:
    """An engine for a store URL (``sqlite:///event.db`` or ``postgresql+psycopg://…``)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    connect_args: dict[str, object] = {}
    if parsed.get_backend_name() == "postgresql" and parsed.get_driver_name() in LIBPQ_DRIVERS:
        connect_args = {k: v for k, v in PG_CONNECT_ARGS.items() if k not in parsed.query}
    try:
        return create_engine(url, pool_pre_ping=True, connect_args=connect_args)
    except ModuleNotFoundError as e:
        if parsed.get_backend_name() != "postgresql":
            raise
        raise DriverMissing(
            f"PostgreSQL stores need the {e.name or 'psycopg'} driver, which is not installed: "
            "install bridgehub[postgres] (pip install 'bridgehub[postgres]')"
        ) from None


def alembic_config(url: str) -> Config:
    """Alembic's settings for the store at ``url`` (Alembic is imported only here and in
    ``migrate``: a hub restarting on a current store never loads it, issue 12)."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def migrate(engine: Engine, attempts: int = 5) -> None:
    """Bring the database to the newest schema (Alembic ``upgrade head``).

    Two processes opening a new store at once (a hub and a screen) race to create it; the
    loser sees "already exists", and simply tries again against the finished schema. A
    store already at the newest revision is left as it is without starting Alembic."""
    if at_head(engine):
        return
    from alembic import command

    cfg = alembic_config(engine.url.render_as_string(hide_password=False))
    for attempt in range(attempts):
        try:
            with engine.begin() as conn:
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
            return
        except (OperationalError, ProgrammingError, IntegrityError) as e:
            if attempt == attempts - 1 or "exist" not in str(e).lower():
                raise
            time.sleep(0.1 * (attempt + 1))
