"""`bridgehub run` at the start and at the end of the evening (issue 13): it prints that round 1
waits for the director and, with `--clock-speed`, that the round clock runs faster (a
rehearsal, never a real session); a station it cannot open is a WARNING in its output
(TD trial F10); at the session's end it writes the final outputs (`hub.report.final`) in
a worker thread beside the SQLite file and prints where they are; a failure there is a
director's alert, never a crash."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType, SimpleNamespace

import click
import pytest
from event_text import one_section_event

from hub.api.feed import Feed
from hub.cli.run_final import final_outputs, results_folder
from hub.live.oversight.alerts import Alerts
from hub.store.store import Store

EVENT = one_section_event("Outputs", 'kind = "howell", tables = 3, boards_per_round = 2')


def test_the_results_folder_is_beside_the_database(tmp_path):
    """`<db file stem>-results/` next to the SQLite file; a server database has no file:
    beside the event file."""
    event = tmp_path / "club" / "tuesday.toml"
    db = tmp_path / "data" / "tuesday.db"
    assert results_folder(f"sqlite:///{db}", event) == tmp_path / "data" / "tuesday-results"
    assert results_folder("postgresql+psycopg://u@h/x", event) == event.with_name("tuesday-results")


def test_the_rehearsal_clock_runs_faster_from_its_start():
    """×10 from the start: 3 s of wall time later the hub's clock is 30 s on (the time base
    of a store that has none yet, hub/live/rounds/clock_time_base.py)."""
    from hub.live.rounds.clock_time_base import resumed_base

    base = resumed_base([], 1000.0, 10)
    assert base.at(1003.0) == 1030.0
    assert resumed_base([], 1000.0, 1).is_wall_clock


class Hub(SimpleNamespace):
    """What ``final_outputs`` uses of the hub: its end-of-session event and its alerts."""


def ended_hub() -> tuple[Hub, Feed]:
    feed = Feed()
    hub = Hub(session_done=asyncio.Event(), alerts=Alerts(feed))
    hub.session_done.set()
    return hub, feed


def test_the_final_outputs_are_written_and_where_is_printed(tmp_path, capsys):
    """The real writer (H5's ``write_final_outputs``) on a stored event: the files exist
    in the folder, the output says "final results written to <folder>", and the director
    gets the same in an alert."""
    store = Store.open(f"sqlite:///{tmp_path / 'club.db'}")
    eid = store.create_event(EVENT)
    folder = tmp_path / "club-results"

    async def scenario() -> list[str]:
        hub, feed = ended_hub()
        await final_outputs(hub, store, eid, folder)  # type: ignore[arg-type]
        return [e["text"] for e in feed.since(0) if e["event"] == "alert"]

    try:
        alerts = asyncio.run(scenario())
    finally:
        store.close()
    out = capsys.readouterr().out
    assert f"final results written to {folder}: standings.txt" in out
    assert (folder / "standings.txt").exists() and (folder / "report.html").exists()
    assert alerts and alerts[0].startswith(f"final results written to {folder} (")


def test_a_failing_writer_is_an_alert_not_a_crash(tmp_path, capsys, monkeypatch):
    """A disk full, a bug in the report: said in the hub's output and to the director."""
    broken = ModuleType("hub.report.final")

    def write_final_outputs(store: object, event_id: int, folder: Path) -> list[Path]:
        raise OSError(28, "No space left on device")

    broken.write_final_outputs = write_final_outputs  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "hub.report.final", broken)

    async def scenario() -> list[str]:
        hub, feed = ended_hub()
        await final_outputs(hub, object(), 1, tmp_path / "out")  # type: ignore[arg-type]
        return [e["text"] for e in feed.since(0) if e["event"] == "alert"]

    alerts = asyncio.run(scenario())
    err = capsys.readouterr().err
    want = f"the final results could not be written to {tmp_path / 'out'}: OSError:"
    assert want in err and alerts and alerts[0].startswith(want)
    assert "No space left on device" in alerts[0]


@pytest.mark.slow
def test_run_prints_the_waiting_round_the_rehearsal_clock_and_a_missing_station(tmp_path):
    """The real `bridgehub run` in a process of its own: its output says round 1 waits
    for the director, that the clock runs 10 times faster, and (once) that the station
    cannot be opened, in plain words. Stopped with SIGTERM as a TD's Ctrl-C would."""
    event = tmp_path / "club.toml"
    event.write_text(EVENT, "utf-8")
    missing = tmp_path / "ttyUSB0"
    env = {
        **os.environ,
        "BRIDGEHUB_TD_PIN": "x7-rehearse",
        "BRIDGEHUB_LOCK_DIR": str(tmp_path),
    }
    cmd = [sys.executable, "-m", "hub.cli", "run", "--event", str(event)]
    cmd += ["--station", str(missing), "--api", "127.0.0.1:0", "--clock-speed", "10"]
    out_path, err_path = tmp_path / "out.txt", tmp_path / "err.txt"
    with out_path.open("wb") as out, err_path.open("wb") as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env, cwd=tmp_path)
        try:
            words = f"cannot open {missing}: no such device — is the base station plugged in?"
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                if words in err_path.read_text("utf-8") and "waits" in out_path.read_text():
                    break
                if proc.poll() is not None:
                    break
                time.sleep(0.2)
            time.sleep(0.5)  # retries meanwhile: still one warning
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
    stdout, stderr = out_path.read_text("utf-8"), err_path.read_text("utf-8")
    assert "REHEARSAL: the round clock runs 10 times faster" in stdout, (stdout, stderr)
    assert "round 1 waits for the director" in stdout
    assert stderr.count(words) == 1, stderr


def test_click_reads_the_new_options():
    """`--clock-speed` and `--results-dir` are on `bridgehub run`."""
    from hub.cli.run import run

    names = {p.name for p in run.params if isinstance(p, click.Option)}
    assert {"clock_speed", "results_dir"} <= names
