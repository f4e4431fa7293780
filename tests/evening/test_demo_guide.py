"""What the demo tells the TD (TD trial G13, issue [MENDS] #25): how long it runs, computed
from the movement and the speed; its guide where the TD looks (the console's log and a
notice over its first screen, not printed behind the console); `q` asks before the hub and
the room stop; the closing message says "final" only when the session is final.

How long, worked by hand: the default room is a 7-table Howell, 2 × 7 − 1 = 13 rounds of
2 boards; the simulated room moves on when its slowest table is done, and with incidents
one table plays 9.5 minutes a board (the others 7): 13 × 2 × 9.5 = 247 minutes of a real
room, at --speed 6 247 / 6 = 41.2 minutes: "about 42 minutes" (rounded up). Without the
slow table 13 × 2 × 7 / 6 = 30.3: "about 31 minutes"; at --speed 300 under a minute.
"""

from __future__ import annotations

import asyncio
import io
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from textual.widgets import RichLog

from hub.cli.console import show_guide
from hub.cli.demo_guide import (
    KEYS,
    SessionState,
    closing_text,
    demo_minutes,
    duration_text,
    session_state,
)
from hub.cli.main import cli
from hub.console.app import ConsoleApp


def test_how_long_the_demo_runs_from_its_movement_and_speed():
    assert duration_text(demo_minutes(13, 2, 6.0, True)) == "about 42 minutes"
    assert duration_text(demo_minutes(13, 2, 6.0, False)) == "about 31 minutes"
    assert duration_text(demo_minutes(13, 2, 300.0, True)) == "under a minute"
    assert duration_text(demo_minutes(29, 4, 1.0, True)) == "about 18 hours 22 minutes"


class _FakeChild:
    """The simulator and the hub as the demo starts them, doing nothing."""

    def __init__(self, args, **kw):
        self.stdout = io.StringIO("base station BS-0001 (7 terminals): /dev/null\n")

    def terminate(self):
        pass

    def wait(self, timeout=None):
        return 0


def _demo(tmp_path: Path, monkeypatch, *args: str) -> tuple[str, list[list[str]]]:
    import hub.cli.demo as demo_cli

    ran: list[list[str]] = []

    def run(command, **kw):
        ran.append(list(command))
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(demo_cli.subprocess, "Popen", _FakeChild)
    monkeypatch.setattr(demo_cli.subprocess, "run", run)
    result = CliRunner().invoke(cli, ["demo", "--dir", str(tmp_path), "--console", *args])
    assert result.exit_code == 0, result.output
    return result.output, ran


def test_the_demo_says_how_long_and_hands_the_console_its_guide(tmp_path, monkeypatch):
    """G13: the default demo says "about 42 minutes" (the docstring's sum); the console is
    started with the guide file, which holds every key of the guide."""
    output, ran = _demo(tmp_path, monkeypatch)
    assert "it runs about 42 minutes at --speed 6 (13 rounds of 2 boards" in output
    (console,) = ran
    guide = Path(console[console.index("--guide") + 1])
    assert guide.read_text("utf-8").splitlines() == list(KEYS)


def test_the_closing_message_says_final_only_for_a_final_session(tmp_path, monkeypatch):
    """G13: quit in round 3 of 13 said "final standings stored". Now "final" only when the
    hub says the session is final; with no hub answering (here) it says it may not be,
    and how to go on."""
    output, _ = _demo(tmp_path, monkeypatch)
    assert "final standings stored" not in output
    assert "so it may not be final" in output and f"--dir {tmp_path}" in output
    standings = "bridgehub event standings --db sqlite:///x.db --event 1"
    assert closing_text(SessionState(False, 2, 13), standings, "d") == (
        "the demo was ended after round 2 of 13: the session is not final. The standings "
        f"so far are in the database ({standings}); to play on, run the demo again with "
        "--dir d"
    )
    assert closing_text(SessionState(True, 13, 13), standings, "d") == (
        f"session complete: final standings stored in the database ({standings})"
    )
    assert asyncio.run(session_state("ws://127.0.0.1:9/v1", timeout=2)) is None


@pytest.mark.parametrize(("answer", "consoles"), [("y\n", 1), ("n\ny\n", 2)])
def test_leaving_the_console_asks_before_the_demo_ends(tmp_path, monkeypatch, answer, consoles):
    """G13: `q` closes the console; the demo then asks before it stops the hub and the
    room, and "n" opens the console again."""
    import hub.cli.demo as demo_cli
    import hub.cli.demo_guide as guide

    monkeypatch.setattr(guide, "interactive", lambda: True)  # a TD at a terminal
    ran: list[list[str]] = []

    def run(command, **kw):
        ran.append(list(command))
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(demo_cli.subprocess, "Popen", _FakeChild)
    monkeypatch.setattr(demo_cli.subprocess, "run", run)
    result = CliRunner().invoke(cli, ["demo", "--dir", str(tmp_path), "--console"], input=answer)
    assert result.exit_code == 0, result.output
    assert "End the demo? The hub and the simulated room stop" in result.output
    assert len(ran) == consoles


def test_the_console_shows_the_guide_in_its_log_and_over_its_first_screen():
    """The Textual pilot: the guide's lines are on the Log tab and in a notice shown over
    the Room tab when the console opens."""

    async def source():
        while True:
            await asyncio.sleep(3600)
            yield {}

    async def scenario() -> tuple[list[str], str]:
        app = ConsoleApp(source, None, refresh_s=0.05)
        show_guide(app.room, list(KEYS))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.3)
            notices = "\n".join(str(n.message) for n in app._notifications)
            await pilot.press("l")
            await pilot.pause(0.2)
            log = [s.text for s in app.query_one("#log-view", RichLog).lines]
            return log, notices

    log, notices = asyncio.run(scenario())
    shown = " ".join(" ".join(log).split())  # the log wraps its lines to the screen
    notice = " ".join(notices.split())
    for key in KEYS:
        assert f"guide: {key}" in shown, key
        assert key in notice
