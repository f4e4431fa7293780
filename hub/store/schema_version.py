"""The schema revision a store carries (Alembic's ``alembic_version``) against the newest one
this bridgehub knows. Read-only commands check it instead of migrating (decisions D17): only
``bridgehub run`` and ``bridgehub event create/import`` upgrade a store."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, inspect
from sqlalchemy.engine import make_url

from hub.store.engine import alembic_config

UPGRADE_HINT = (
    "upgrade it with `bridgehub run --event FILE --db {url}` "
    "or `bridgehub event import --db {url} --json BACKUP`"
)


class SchemaMismatch(Exception):
    """The store cannot be read as it is: older, newer, or no bridgehub store at all."""


@dataclass(frozen=True)
class SchemaState:
    """What a database holds: its revision (None without ``alembic_version``) and whether it
    has any tables at all."""

    revision: str | None
    has_tables: bool


@cache
def _revisions() -> tuple[str, tuple[str, ...]]:
    """The head revision of ``hub/store/migrations`` and every revision it knows."""
    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    head = script.get_current_head()
    assert head is not None, "hub/store/migrations has no revisions"
    return head, tuple(r.revision for r in script.walk_revisions())


def head_revision() -> str:
    """The schema revision this bridgehub writes."""
    return _revisions()[0]


def schema_state(engine: Engine) -> SchemaState:
    """Reads the database's revision without changing anything."""
    with engine.connect() as conn:
        heads = MigrationContext.configure(conn).get_current_heads()
        has_tables = bool(inspect(conn).get_table_names())
    return SchemaState(",".join(heads) or None, has_tables)


def _shown(engine: Engine) -> str:
    return engine.url.render_as_string(hide_password=True)


def _newer(url: str, revision: str, head: str) -> SchemaMismatch:
    return SchemaMismatch(
        f"the store {url} was written by a newer bridgehub (schema revision {revision}; "
        f"this bridgehub knows up to {head}): upgrade bridgehub to use it"
    )


def refuse_newer(engine: Engine) -> None:
    """Before an upgrade: a store written by a newer bridgehub is left alone."""
    revision = schema_state(engine).revision
    head, known = _revisions()
    if revision is not None and revision not in known:
        raise _newer(_shown(engine), revision, head)


def check_readable(engine: Engine) -> None:
    """A reader's check: the store's schema must be exactly this bridgehub's."""
    state = schema_state(engine)
    head, known = _revisions()
    url = _shown(engine)
    if state.revision == head:
        return
    if state.revision is None:
        if not state.has_tables:
            raise SchemaMismatch(
                f"the database {url} is empty: no bridgehub store has been created in it "
                f"(`bridgehub event create FILE --db {url}` creates one)"
            )
        raise SchemaMismatch(f"the database {url} holds no bridgehub store (no schema revision)")
    if state.revision not in known:
        raise _newer(url, state.revision, head)
    raise SchemaMismatch(
        f"the store {url} has schema revision {state.revision}, older than this bridgehub's "
        f"{head}; a read-only command never upgrades it: " + UPGRADE_HINT.format(url=url)
    )


def refuse_missing_file(url: str) -> None:
    """A reader given a SQLite file that does not exist says so instead of creating it."""
    parsed = make_url(url)
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return
    if database.startswith("file:") or parsed.query.get("uri"):
        return  # a SQLite URI filename: SQLite itself decides
    if not Path(database).exists():
        raise SchemaMismatch(
            f"no store at {database}: the file does not exist "
            f"(`bridgehub event create FILE --db {url}` creates one)"
        )
