"""Engines and migrations: SQLite with WAL and synchronous FULL (a commit survives power
loss), PostgreSQL through the same code (its driver is the ``postgres`` extra)."""

from __future__ import annotations

import time
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError

MIGRATIONS = Path(__file__).parent / "migrations"


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
    try:
        return create_engine(url, pool_pre_ping=True)
    except ModuleNotFoundError as e:
        if parsed.get_backend_name() != "postgresql":
            raise
        raise DriverMissing(
            f"PostgreSQL stores need the {e.name or 'psycopg'} driver, which is not installed: "
            "install bridgehub[postgres] (pip install 'bridgehub[postgres]')"
        ) from None


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def migrate(engine: Engine, attempts: int = 5) -> None:
    """Bring the database to the newest schema (Alembic ``upgrade head``).

    Two processes opening a new store at once (a hub and a screen) race to create it; the
    loser sees "already exists", and simply tries again against the finished schema."""
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
