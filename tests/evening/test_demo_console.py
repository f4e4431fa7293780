"""Smoke test of the README's main job as a TD sees it: ``bridgehub demo`` in a real
terminal (tmux), its screen read with ``capture-pane``: the room fills in and advances."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import external_tools as tools
import pytest

TMUX = shutil.which("tmux")


def _exe() -> str:
    return shutil.which("bridgehub") or str(Path(sys.executable).parent / "bridgehub")


def _screen(session: str) -> str:
    return subprocess.run(
        ["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True, check=False
    ).stdout


@tools.needs(tools.TMUX)
@pytest.mark.slow
def test_demo_console_shows_tables_progressing(tmp_path):
    session = f"bridgehub-smoke-{tmp_path.name}"
    command = f"{_exe()} demo --tables 3 --speed 300 --no-incidents --dir {tmp_path} --console"
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "100", "-y", "30", command], check=True
    )
    seen: list[str] = []
    try:
        end = time.monotonic() + 90
        rounds: set[int] = set()
        while time.monotonic() < end:
            screen = _screen(session)
            seen.append(screen)
            rounds |= {int(r) for r in re.findall(r"round (\d+)/5", screen)}
            progress = re.search(r"\b[12]/2\b", screen)
            if progress and len(rounds) >= 2 and max(rounds) >= 2:
                break
            time.sleep(0.2)
        else:
            raise AssertionError(
                "the console never showed the room progressing; last "
                f"screen:\n{seen[-1] if seen else '(none)'}"
            )
        assert "yes" in seen[-1], "terminals shown on line"
        subprocess.run(["tmux", "send-keys", "-t", session, "q"], check=False)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True, check=False)
