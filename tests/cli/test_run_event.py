"""`bridgehub run --event FILE` runs the event that file is, never silently the newest one
stored (issue [TRUST]; the TD trial's F11: a backup imported into the live store, or `event
create` run twice, switched the evening to another event without a word)."""

from __future__ import annotations

import os
import selectors
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from event_text import one_section_event

from hub.cli.main import cli

FIRST = one_section_event("Tuesday Pairs", 'kind = "howell", tables = 3, boards_per_round = 2')
SECOND = one_section_event("Thursday Pairs", 'kind = "howell", tables = 3, boards_per_round = 2')


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], env={"BRIDGEHUB_TD_PIN": "x7-run-pin"})


@pytest.fixture
def two_events(tmp_path, monkeypatch):
    """One store holding two events, created in order from two files."""
    monkeypatch.setenv("BRIDGEHUB_LOCK_DIR", str(tmp_path))
    db = f"sqlite:///{tmp_path / 'club.db'}"
    files = []
    for name, text in (("tuesday", FIRST), ("thursday", SECOND)):
        path = tmp_path / f"{name}.toml"
        path.write_text(text, "utf-8")
        r = run("event", "create", path, "--db", db)
        assert r.exit_code == 0, r.output
        files.append(path)
    return db, files


def _first_line(args: list[str], env: dict, timeout: float = 60) -> str:
    exe = shutil.which("bridgehub") or str(Path(sys.executable).parent / "bridgehub")
    hub = subprocess.Popen(
        [exe, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        assert hub.stdout is not None
        sel = selectors.DefaultSelector()
        sel.register(hub.stdout, selectors.EVENT_READ)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if sel.select(timeout=0.2):
                line = hub.stdout.readline()
                if line.startswith("hub running") or not line:
                    return line
        raise AssertionError(f"no start line in {timeout} s")
    finally:
        hub.send_signal(signal.SIGTERM)
        _, err = hub.communicate(timeout=30)
        assert "Traceback" not in err, err


def test_run_runs_the_event_its_file_names_not_the_last_stored(two_events, tmp_path):
    """The reproduction: two events stored, `run --event tuesday.toml` runs event 1 (before
    the fix it ran event 2, the last one stored)."""
    db, (tuesday, _) = two_events
    env = {**os.environ, "BRIDGEHUB_LOCK_DIR": str(tmp_path), "BRIDGEHUB_TD_PIN": "x7-run-pin"}
    line = _first_line(
        ["run", "--event", str(tuesday), "--db", db, "--station", str(tmp_path / "no-line"),
         "--api", "127.0.0.1:0"],
        env,
    )  # fmt: skip
    assert line.startswith("hub running: event 1,"), line


def test_a_file_stored_twice_is_refused_with_the_choices(two_events, tmp_path):
    """A store that holds the same file twice (made before ``event create`` refused to
    store it again, [MENDS]) is refused by ``run`` with the events to choose from."""
    from hub.store.store import Store

    db, (tuesday, _) = two_events
    store = Store.open(db)
    try:
        store.create_event(tuesday.read_text("utf-8"))  # the slip: stored again, as event 3
    finally:
        store.close()
    r = run("run", "--event", tuesday, "--db", db, "--station", tmp_path / "no-line")
    assert r.exit_code == 1, r.output
    assert "is stored more than once here" in r.output
    assert "event 1 'Tuesday Pairs', event 3 'Tuesday Pairs'" in r.output
    assert "--event-id N" in r.output


def test_a_file_changed_after_create_is_refused_not_stored_as_a_new_event(two_events, tmp_path):
    db, (tuesday, _) = two_events
    tuesday.write_text(FIRST.replace("Tuesday Pairs", "Tuesday Pairs (late sub)"), "utf-8")
    r = run("run", "--event", tuesday, "--db", db, "--station", tmp_path / "no-line")
    assert r.exit_code == 1, r.output
    assert "is not the event stored here" in r.output
    assert "was it changed after the event was created?" in r.output
    r = run("run", "--event", tuesday, "--db", db, "--event-id", 9, "--station", tmp_path / "x")
    assert r.exit_code == 1 and "no event 9 in this store" in r.output, r.output


def test_comments_and_layout_do_not_make_another_event(two_events, tmp_path):
    """The file is the same event when only its comments or spacing changed."""
    db, (tuesday, _) = two_events
    env = {**os.environ, "BRIDGEHUB_LOCK_DIR": str(tmp_path), "BRIDGEHUB_TD_PIN": "x7-run-pin"}
    tuesday.write_text("# the club's Tuesday\n\n" + FIRST.replace(" = ", "  =  "), "utf-8")
    line = _first_line(
        ["run", "--event", str(tuesday), "--db", db, "--station", str(tmp_path / "no-line"),
         "--api", "127.0.0.1:0"],
        env,
    )  # fmt: skip
    assert line.startswith("hub running: event 1,"), line
