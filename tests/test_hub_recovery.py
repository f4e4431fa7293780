"""kill -9 of the hub mid-session, with real processes: no result lost or doubled, the
terminals resend what was not acknowledged, and the restarted hub carries on."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from event_text import one_section_event

from hub.store.store import Store

EVENT = one_section_event("Recovery", 'kind = "howell", tables = 4, boards_per_round = 3')
TOTAL = 4 * 7 * 3  # tables × rounds × boards


def _exe() -> str:
    return shutil.which("bridgehub") or str(Path(sys.executable).parent / "bridgehub")


def _wait(predicate, timeout, what, log: Path | None = None):
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            tail = log.read_text("utf-8")[-3000:] if log and log.exists() else ""
            raise AssertionError(f"timed out after {timeout} s waiting for {what}\n{tail}")
        time.sleep(0.05)


def test_kill_9_and_restart_mid_round(tmp_path):
    event = tmp_path / "club.toml"
    event.write_text(EVENT, "utf-8")
    db = f"sqlite:///{tmp_path / 'club.db'}"
    sim = subprocess.Popen(
        [
            _exe(),
            "simulate",
            "--tables",
            "4",
            "--speed",
            "600",
            "--duration",
            "120",
            "--dir",
            str(tmp_path),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = sim.stdout.readline()
        assert line.startswith("base station"), line
        port = line.rsplit(": ", 1)[1].strip()

        def start_hub():
            return subprocess.Popen(
                [
                    _exe(),
                    "run",
                    "--event",
                    str(event),
                    "--db",
                    db,
                    "--station",
                    port,
                    "--api",
                    "127.0.0.1:0",
                    "--td-pin",
                    "1111",
                ],
                stdout=subprocess.DEVNULL,
                stderr=(tmp_path / "hub.log").open("a"),
            )

        def stored():
            if not (tmp_path / "club.db").exists():
                return []
            s = Store.open(db)
            try:
                return s.results(1) if s.event_ids() else []
            finally:
                s.close()

        hub = start_hub()
        log = tmp_path / "hub.log"
        _wait(lambda: len(stored()) >= 12, 60, "the first results before the kill", log)
        os.kill(hub.pid, signal.SIGKILL)
        hub.wait(10)
        before = len(stored())
        time.sleep(0.5)  # terminals keep entering results while the hub is down
        hub = start_hub()
        _wait(lambda: len(stored()) >= TOTAL, 90, f"all {TOTAL} results after the restart", log)
        hub.send_signal(signal.SIGTERM)
        hub.wait(20)
    finally:
        sim.terminate()
        sim.wait(20)
    results = stored()
    keys = [(r.table, r.round, r.board) for r in results]
    assert before < TOTAL
    assert len(keys) == len(set(keys)) == TOTAL  # nothing doubled, nothing lost
    assert {r.revision for r in results} == {1}


def test_bridgehub_demo_plays_a_room_to_the_end(tmp_path):
    """The README's main job: simulator and hub as processes, standings every round."""
    out = subprocess.run(
        [
            _exe(),
            "demo",
            "--tables",
            "3",
            "--speed",
            "5000",
            "--dir",
            str(tmp_path),
            "--no-console",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert "after round  5" in out.stdout and "session complete" in out.stdout
