"""Schema revisions (decisions D17): only `bridgehub run` and `bridgehub event create/import`
upgrade a store; every read-only command opens it as found and refuses a schema that is not
exactly this bridgehub's, changing nothing."""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from click.testing import CliRunner
from conftest import PG_URL
from external_tools import PG_SERVER, need
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from hub.cli.main import cli
from hub.store.engine import alembic_config
from hub.store.store import Store

ROOT = Path(__file__).parents[2]
EVENT = ROOT / "examples" / "club_howell.toml"
OLDER = "0002"  # hub/store/migrations/versions/0002_hand_records.py


def head() -> str:
    """The newest revision, as Alembic itself reads hub/store/migrations."""
    found = ScriptDirectory(str(ROOT / "hub" / "store" / "migrations")).get_current_head()
    assert found is not None
    return found


def run(*args: object):
    return CliRunner().invoke(cli, [str(a) for a in args])


def revision(url: str) -> str | None:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    finally:
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database(request, tmp_path):
    """A new database of its own: a SQLite file, or a PostgreSQL database dropped afterwards."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'old.db'}"
        return
    need(PG_SERVER)
    name = f"bridgehub_schema_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def older_store(empty_database) -> str:
    """A store left at revision 0002 (before penalty payers), as an older bridgehub wrote it."""
    command.upgrade(alembic_config(empty_database), OLDER)
    assert revision(empty_database) == OLDER
    return empty_database


@pytest.fixture
def current_store(tmp_path) -> str:
    """A store at the newest revision with the example event in it (event 1)."""
    url = f"sqlite:///{tmp_path / 'current.db'}"
    r = run("event", "create", EVENT, "--db", url)
    assert r.exit_code == 0, r.output
    return url


def test_standings_refuse_an_older_store_and_leave_its_revision(older_store):
    r = run("event", "standings", "--db", older_store, "--event", "1")
    assert r.exit_code == 1
    assert f"schema revision {OLDER}, older than this bridgehub's {head()}" in r.output
    assert "bridgehub run" in r.output and "bridgehub event import" in r.output
    assert revision(older_store) == OLDER


def test_export_refuses_an_older_store_and_leaves_its_revision(older_store, tmp_path):
    r = run("event", "export", "--db", older_store, "--event", "1", "--json", tmp_path / "b.json")
    assert r.exit_code == 1 and f"schema revision {OLDER}" in r.output
    assert revision(older_store) == OLDER
    assert not (tmp_path / "b.json").exists()


def test_a_reader_opening_an_older_store_changes_nothing(older_store):
    """Store.open(migrate=False) is what every reader uses."""
    with pytest.raises(Exception, match=f"revision {OLDER}"):
        Store.open(older_store, migrate=False)
    assert revision(older_store) == OLDER


def test_a_newer_revision_is_refused_by_readers_and_writers(current_store):
    """A store stamped by a later bridgehub: nobody here reads or upgrades it."""
    engine = create_engine(current_store)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0099_future'"))
    engine.dispose()
    for args in (
        ("event", "standings", "--db", current_store, "--event", "1"),
        ("event", "create", EVENT, "--db", current_store),
    ):
        r = run(*args)
        assert r.exit_code == 1, r.output
        assert "written by a newer bridgehub (schema revision 0099_future" in r.output
    assert revision(current_store) == "0099_future"


def test_a_database_without_a_bridgehub_schema_is_named(tmp_path):
    path = tmp_path / "other.db"
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE invoices (id INTEGER PRIMARY KEY)"))
    engine.dispose()
    r = run("event", "standings", "--db", f"sqlite:///{path}", "--event", "1")
    assert r.exit_code == 1 and "holds no bridgehub store" in r.output


def test_an_empty_database_is_named_and_left_empty(tmp_path):
    path = tmp_path / "empty.db"
    path.touch()
    r = run("event", "standings", "--db", f"sqlite:///{path}", "--event", "1")
    assert r.exit_code == 1 and "is empty: no bridgehub store" in r.output
    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as conn:
        tables = conn.execute(text("SELECT name FROM sqlite_master")).all()
    engine.dispose()
    assert tables == []


def test_a_missing_sqlite_file_is_not_created_by_a_reader(tmp_path):
    path = tmp_path / "typo.db"
    r = run("event", "standings", "--db", f"sqlite:///{path}", "--event", "1")
    assert r.exit_code == 1 and "the file does not exist" in r.output
    assert not path.exists()


def test_create_upgrades_an_older_store(older_store):
    r = run("event", "create", EVENT, "--db", older_store)
    assert r.exit_code == 0, r.output
    assert revision(older_store) == head()


def test_import_upgrades_an_older_store(older_store, current_store, tmp_path):
    backup = tmp_path / "backup.json"
    r = run("event", "export", "--db", current_store, "--event", "1", "--json", backup)
    assert r.exit_code == 0, r.output
    r = run("event", "import", "--db", older_store, "--json", backup)
    assert r.exit_code == 0 and "restored as event 1" in r.output, r.output
    assert revision(older_store) == head()
    r = run("event", "standings", "--db", older_store, "--event", "1")
    assert r.exit_code == 0 and "Section A" in r.output, r.output


def test_run_upgrades_an_older_store(older_store):
    """`bridgehub run` opens (and upgrades) the store before it reads its other options, so a
    malformed --api stops it right after the upgrade, without starting any driver."""
    r = run(
        "run", "--event", EVENT, "--db", older_store, "--station", "socket://127.0.0.1:9",
        "--api", "no-port",
    )  # fmt: skip
    assert r.exit_code == 2 and "HOST:PORT" in r.output, r.output
    assert revision(older_store) == head()


def test_run_refuses_a_newer_store_with_a_plain_error(current_store):
    """`bridgehub run` never downgrades a store a later bridgehub wrote: the TD gets the
    reason as a plain error (exit 1), not an internal error, and the store is left as found."""
    engine = create_engine(current_store)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0099_future'"))
    engine.dispose()
    r = run("run", "--event", EVENT, "--db", current_store, "--station", "socket://127.0.0.1:9")
    assert r.exit_code == 1, r.output
    assert isinstance(r.exception, SystemExit), r.exception  # click's error, not a crash
    assert "Error: the store" in r.output
    assert "written by a newer bridgehub (schema revision 0099_future" in r.output
    assert revision(current_store) == "0099_future"


def test_run_without_the_postgresql_driver_names_the_extra():
    """A PostgreSQL URL whose driver is not installed (psycopg made unimportable in a fresh
    interpreter) stops `bridgehub run` with the extra to install, through the real entry point:
    exit 1, never "internal error" (exit 70)."""
    program = (
        "import sys\n"
        "sys.modules['psycopg'] = None\n"
        "sys.modules['psycopg2'] = None\n"
        "from hub.cli.main import main\n"
        "sys.argv = ['bridgehub', *sys.argv[1:]]\n"
        "main()\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", program, "run", "--event", str(EVENT),
         "--db", "postgresql+psycopg://hub@127.0.0.1:9/event", "--station", "socket://127.0.0.1:9"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert r.returncode == 1, r.stderr
    assert "install bridgehub[postgres]" in r.stderr, r.stderr
    assert "internal error" not in r.stderr, r.stderr
