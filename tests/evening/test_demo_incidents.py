"""The demo shows the director's work (issue [EVENING] "`bash dev.sh demo` shows the TD's
work"; TD trial F19): the simulated room makes a TD call, a held result (a board number
keyed wrong), a suspicious score (a declarer keyed on the wrong side) and a slow table, and
the demo says which console key settles each. Without the console the demo's own director
settles them over the API, so the session still ends. Seed 1 of the 3-table room is known
to produce each kind (the bots' luck is seeded, not timed)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from hub.cli.demo import KEYS, event_text
from hub.cli.main import cli


def _exe() -> str:
    return shutil.which("bridgehub") or str(Path(sys.executable).parent / "bridgehub")


@pytest.mark.slow
def test_the_demo_shows_each_incident_and_the_key_that_settles_it(tmp_path):
    out = subprocess.run(
        [
            *(_exe(), "demo", "--tables", "3", "--speed", "1000", "--seed", "1"),
            *("--dir", str(tmp_path), "--no-console"),
        ],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "the director starts round 1's clock (console: g)" in text
    assert "held result: press c, then Enter on it" in text
    assert "suspicious score: press c, then Enter on it" in text
    assert "TD call from table" in text and "press c, then Enter on it" in text
    assert "slow play" in text and "press w" in text
    assert "after round  5 (30 results)" in text and "session complete" in text
    # issue 15 [ENTRY]: "a room can mix both in tests and in the demo": table 3 on a phone
    assert "table 3 on simulated phones at http://127.0.0.1:" in text
    assert "/t/A3?c=" in (tmp_path / "table-links.txt").read_text("utf-8")
    assert f"final results written to {tmp_path / 'demo-results'}" in text
    assert "internal error" not in out.stderr and "refused the director" not in text
    # the same folder again: the session is over there, said at once (it used to wait)
    again = subprocess.run(
        [
            *(_exe(), "demo", "--tables", "3", "--speed", "1000", "--seed", "1"),
            *("--dir", str(tmp_path), "--no-console"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert again.returncode == 0, again.stderr
    assert "this folder's session is over already: give the demo a new --dir" in again.stdout


def test_the_demo_is_watchable_by_default():
    """F19: by default a 7.5-minute board takes 75 s (speed 6), a 2-board round about
    3 minutes, not the whole evening in 3 minutes; the pairs have names."""
    speed = next(p for p in cli.commands["demo"].params if p.name == "speed")
    assert speed.default == 6.0
    assert 'players = [{ name = "Anna Berg" }, { name = "Bo Ek" }]' in event_text(3, 2)
    assert any("press g" in k for k in KEYS)


def test_the_demo_with_a_console_prints_the_keys_first(tmp_path, monkeypatch):
    """With the console the TD settles the incidents: the demo prints which key does what
    before the console starts, and after it where the standings are; no hub answers here,
    so not called final (TD trial G13, tests/evening/test_demo_guide.py)."""
    import hub.cli.demo as demo_cli

    class FakeChild:
        def __init__(self, args, **kw):
            import io

            self.stdout = io.StringIO("base station BS-0001 (3 terminals): /dev/null\n")

        def terminate(self):
            pass

        def wait(self, timeout=None):
            return 0

    monkeypatch.setattr(demo_cli.subprocess, "Popen", FakeChild)
    monkeypatch.setattr(
        demo_cli.subprocess, "run", lambda args, **kw: subprocess.CompletedProcess(args, 0)
    )
    result = CliRunner().invoke(cli, ["demo", "--dir", str(tmp_path), "--console"])
    assert result.exit_code == 0, result.output
    for key in KEYS:
        assert key in result.output
    assert "so it may not be final: the standings so far are in the database" in result.output
    assert f"the report and exports: {tmp_path / 'demo-results'}" in result.output
