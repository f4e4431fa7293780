"""The ``bridgehub event`` commands' store: opened with one clear line for what is wrong,
and on disk, a SQLite file a failed ``create`` made is removed again (TD trial F11: no empty
database left behind to confuse the next try)."""

from __future__ import annotations

import contextlib
from pathlib import Path

import click
from sqlalchemy.engine import make_url

from hub.store.engine import DriverMissing, sqlite_url
from hub.store.schema_version import SchemaMismatch
from hub.store.store import Store


def new_sqlite_file(url: str) -> Path | None:
    """The SQLite file ``url`` names when it does not exist yet (the command will create
    it); None for PostgreSQL, in-memory stores, URI file names and files already there."""
    try:
        parsed = make_url(url)
    except Exception:  # the store's own open says what is wrong with the URL
        return None
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return None
    if database.startswith("file:") or parsed.query.get("uri"):
        return None
    path = Path(database)
    return None if path.exists() else path


def remove_sqlite_file(path: Path | None) -> None:
    """Remove a store file this command created, with SQLite's journal files beside it."""
    if path is None:
        return
    for extra in ("", "-journal", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            path.with_name(path.name + extra).unlink()


def open_store(url: str | None, fallback: Path | None = None, *, migrate: bool = False) -> Store:
    """The store at ``url``; ``migrate`` only for the commands that may upgrade it."""
    if url is None:
        if fallback is None:
            raise click.UsageError("give --db URL")
        url = sqlite_url(fallback)
    try:
        return Store.open(url, migrate=migrate)
    except (SchemaMismatch, DriverMissing) as e:
        raise click.ClickException(str(e)) from None
    except Exception as e:  # a bad URL or an unreachable server: one clear line
        raise click.ClickException(f"cannot open the store {url}: {e}") from None
