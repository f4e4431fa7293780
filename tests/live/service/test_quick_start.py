"""`bridgehub run` loads only what it runs (issue 12 [FAULTS]: restart to the first ACK in
under 2 s with 100,000 results stored): its subcommand alone, not the console, demo, report
or plugins; Alembic only when the store needs an upgrade, its head read from the migration
scripts' text. What these shortcuts replace must still agree with the real thing: Alembic's
own head and revision, and ``bridgehub --help`` listing every command."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from alembic import command
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from click.testing import CliRunner
from conftest import PG_URL
from event_text import one_section_event
from external_tools import PG_SERVER, need
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from hub.cli import subcommands
from hub.cli.main import cli
from hub.store.engine import MIGRATIONS, alembic_config, make_engine
from hub.store.schema_version import _revision_ids, _revisions, schema_state

ROOT = Path(__file__).parents[3]
EVENT = ROOT / "examples" / "club_howell.toml"


def fresh_python(body: str) -> dict:
    """Runs ``body`` in a new interpreter in the repository root; it prints one JSON value."""
    r = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(body)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_the_quick_head_is_alembics_head():
    """Issue 12 (restart): the head read from the scripts' text is the one Alembic reads, and
    so is every known revision; a new migration that broke the quick reading fails here."""
    script = ScriptDirectory(str(MIGRATIONS))
    head, known = _revisions()
    assert head == script.get_current_head()
    assert set(known) == {r.revision for r in script.walk_revisions()}


def test_the_quick_reading_follows_merges_and_plain_assignments(tmp_path):
    """A merge revision revises two (a tuple); a script may assign without annotations."""
    merge = tmp_path / "0009_merge.py"
    merge.write_text('revision = "0009"\ndown_revision = ("0007", "0008")\n', "utf-8")
    assert _revision_ids(merge) == ("0009", ("0007", "0008"))
    first = tmp_path / "0001_first.py"
    first.write_text('"""x"""\nrevision: str = "0001"\ndown_revision = None\n', "utf-8")
    assert _revision_ids(first) == ("0001", ())


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """A new, empty database: a SQLite file, or a PostgreSQL database dropped afterwards."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.db'}"
        return
    need(PG_SERVER)
    name = f"bridgehub_quick_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def alembics_revision(url: str) -> str | None:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return ",".join(MigrationContext.configure(conn).get_current_heads()) or None
    finally:
        engine.dispose()


def test_the_quick_revision_is_alembics_revision(database):
    """Issue 12 (restart): the stored revision read without Alembic is the one Alembic
    reads: none in an empty database, an older one, the head."""
    engine = make_engine(database)
    try:
        assert schema_state(engine).revision is None and alembics_revision(database) is None
        assert not schema_state(engine).has_tables
        for target in ("0002", "head"):
            command.upgrade(alembic_config(database), target)
            assert schema_state(engine).revision == alembics_revision(database)
        assert schema_state(engine).revision == _revisions()[0]
    finally:
        engine.dispose()


def test_a_current_store_opens_for_run_without_alembic_an_older_one_is_upgraded(database):
    """Issue 12 (restart): opening a store already at the head, as `bridgehub run` does
    (migrate=True), never imports Alembic; an older store is still upgraded to the head."""
    command.upgrade(alembic_config(database), "0002")
    opened = f"""
        import json, sys
        from hub.store.store import Store
        Store.open({database!r}, migrate=True).close()
        print(json.dumps("alembic" in sys.modules))
        """
    assert fresh_python(opened) is True  # 0002: upgraded
    assert alembics_revision(database) == _revisions()[0]
    assert fresh_python(opened) is False  # at the head: left as it is
    assert alembics_revision(database) == _revisions()[0]


def test_run_loads_only_what_it_runs():
    """Issue 12 (restart): `bridgehub run` imports neither the other subcommands nor the
    plugins, nor Alembic, before its hub starts."""
    loaded = fresh_python(
        """
        import json, sys
        from hub.cli.main import cli
        assert cli.get_command(None, "run") is not None
        print(json.dumps(sorted(sys.modules)))
        """
    )
    for name in ("hub.cli.run", "hub.live.service.hub_service"):
        assert name in loaded
    for name in (
        "hub.cli.demo",
        "hub.cli.console",
        "hub.cli.event",
        "hub.cli.report",
        "simulator",
        "campaign",
        "alembic",
        "textual",
    ):
        assert name not in loaded, f"{name} is imported for `bridgehub run`"


def test_help_lists_every_command_with_its_short_help():
    """Lazy subcommands still show in `bridgehub --help` with their short help, the
    plugins' (``simulate``, ``campaign``) too, and load when looked up by name."""
    r = CliRunner().invoke(cli, ["--help"])
    assert r.exit_code == 0, r.output
    names = [*subcommands.BUILT_IN, "score", "vp", *(ep.name for ep in subcommands._plugins())]
    assert {"simulate", "campaign"} <= set(names)
    listed = r.output.split("Commands:")[1]
    for name in names:
        short = cli.get_command(None, name).get_short_help_str(limit=20)  # type: ignore[union-attr]
        assert f"  {name} " in listed and short.rstrip(".")[:10] in listed, name
    assert cli.commands["run"].name == "run"
    assert cli.get_command(None, "no-such-command") is None


def test_a_broken_plugin_is_named_and_the_rest_works(monkeypatch, capsys):
    """A plugin that cannot load is named on stderr when listed or run; every other command
    still works (the hub's command line never goes down with a plugin)."""
    broken = EntryPoint("broken", "no_such_module_for_bridgehub:cmd", subcommands.PLUGINS)
    monkeypatch.setattr(subcommands, "_plugins", lambda: [broken])
    group = subcommands.LazyGroup(name="bridgehub")
    assert "broken" in group.list_commands(None)  # type: ignore[arg-type]
    assert group.get_command(None, "broken") is None  # type: ignore[arg-type]
    assert "command 'broken' unavailable" in capsys.readouterr().err
    assert group.get_command(None, "movement") is not None  # type: ignore[arg-type]


def test_run_still_warns_of_an_edited_file_once_it_serves(tmp_path):
    """Issue 12 (restart): the file is compared with the store after the hub serves, no
    longer before; the TD still gets the warning (TD trial F11), on stderr."""
    env = {**os.environ, "BRIDGEHUB_LOCK_DIR": str(tmp_path), "BRIDGEHUB_TD_PIN": "x7-quick"}
    event = tmp_path / "tuesday.toml"
    text = one_section_event("Tuesday Pairs", 'kind = "howell", tables = 3, boards_per_round = 2')
    event.write_text(text, "utf-8")
    db = f"sqlite:///{tmp_path / 'tuesday.db'}"
    exe = shutil.which("bridgehub") or str(Path(sys.executable).parent / "bridgehub")
    subprocess.run([exe, "event", "create", str(event), "--db", db], env=env, check=True)
    event.write_text(text.replace("Tuesday Pairs", "Tuesday Pairs (sub)"), "utf-8")
    err_file = tmp_path / "hub.err"
    with err_file.open("w") as err:
        hub = subprocess.Popen(
            [exe, "run", "--event", str(event), "--event-id", "1", "--db", db,
             "--station", str(tmp_path / "no-line"), "--api", "127.0.0.1:0"],
            stdout=subprocess.DEVNULL, stderr=err, env=env,
        )  # fmt: skip
        try:
            end = time.monotonic() + 60
            while "the event file differs" not in err_file.read_text("utf-8"):
                assert hub.poll() is None, err_file.read_text("utf-8")
                assert time.monotonic() < end, f"no warning in 60 s: {err_file.read_text()}"
                time.sleep(0.05)
        finally:
            hub.send_signal(signal.SIGTERM)
            hub.wait(30)
    said = err_file.read_text("utf-8")
    assert "the event's name is 'Tuesday Pairs (sub)' in the file, 'Tuesday Pairs' in" in said
    assert "Traceback" not in said, said
