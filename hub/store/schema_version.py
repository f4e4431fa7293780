"""The schema revision a store carries (Alembic's ``alembic_version``) against the newest one
this bridgehub knows. Read-only commands check it instead of migrating (decisions D17): only
``bridgehub run`` and ``bridgehub event create/import`` upgrade a store."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from sqlalchemy import Engine, inspect, text
from sqlalchemy.engine import make_url

MIGRATIONS = Path(__file__).parent / "migrations"  # Alembic's scripts

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


def _revision_ids(path: Path) -> tuple[str, tuple[str, ...]]:
    """A migration script's ``revision`` and the revisions it revises (``down_revision``),
    read from its text as Alembic reads them, without importing Alembic."""
    found: dict[str, object] = {}
    for node in ast.parse(path.read_text("utf-8"), str(path)).body:
        target: ast.expr
        if isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id in ("revision", "down_revision"):
            found[target.id] = ast.literal_eval(value)
    revision, down = found.get("revision"), found.get("down_revision")
    assert isinstance(revision, str), f"{path} names no revision"
    if down is None or isinstance(down, str):
        return revision, (down,) if down else ()
    assert isinstance(down, (list, tuple)), f"{path}: down_revision {down!r}"
    return revision, tuple(str(d) for d in down)


@cache
def _revisions() -> tuple[str, tuple[str, ...]]:
    """The head revision of ``hub/store/migrations`` and every revision it knows. Read from
    the scripts' text (``revision``/``down_revision``), not through Alembic, whose import
    alone costs a restarted hub 0.3 s (issue 12); tests check both agree."""
    scripts = sorted((MIGRATIONS / "versions").glob("*.py"))
    graph = dict(_revision_ids(p) for p in scripts if p.name != "__init__.py")
    revised = {down for downs in graph.values() for down in downs}
    heads = [r for r in graph if r not in revised]
    assert len(heads) == 1, f"hub/store/migrations has heads {heads}, not one"
    return heads[0], tuple(graph)


def head_revision() -> str:
    """The schema revision this bridgehub writes."""
    return _revisions()[0]


def schema_state(engine: Engine) -> SchemaState:
    """Reads the database's revision (Alembic's ``alembic_version`` table, as Alembic reads
    it) without changing anything."""
    with engine.connect() as conn:
        tables = inspect(conn).get_table_names()
        heads: list[str] = []
        if "alembic_version" in tables:
            heads = list(conn.execute(text("SELECT version_num FROM alembic_version")).scalars())
    return SchemaState(",".join(heads) or None, bool(tables))


def at_head(engine: Engine) -> bool:
    """Whether the store already has this bridgehub's schema: then an upgrade has nothing to
    do, and Alembic need not even be imported."""
    return schema_state(engine).revision == head_revision()


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
