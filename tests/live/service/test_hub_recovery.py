"""kill -9 of the hub mid-session, with a real hub process: every result a terminal had
acknowledged is in the store at the moment of the kill (decisions D11), none is lost or
doubled, the terminals resend what was not acknowledged, and the restarted hub carries on."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from event_text import one_section_event

from hub.store.store import Store
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

EVENT = one_section_event("Recovery", 'kind = "howell", tables = 4, boards_per_round = 3')
TOTAL = 4 * 7 * 3  # tables × rounds × boards


def _exe() -> str:
    return shutil.which("bridgehub") or str(Path(sys.executable).parent / "bridgehub")


@pytest.mark.slow
def test_kill_9_keeps_every_acknowledged_result_and_the_hub_carries_on(tmp_path):
    """D11: what a terminal was told is stored is in the store. The room is simulated in
    this process, so at the moment of the kill the test reads what every terminal had
    acknowledged; the killed hub's store must hold each of those results, before any
    restart. The restarted hub then takes every result once (the terminals resend what was
    not acknowledged), none lost or doubled."""
    event = tmp_path / "club.toml"
    event.write_text(EVENT, "utf-8")
    db = f"sqlite:///{tmp_path / 'club.db'}"
    log = tmp_path / "hub.log"

    def start_hub(station: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [
                _exe(),
                "run",
                "--event",
                str(event),
                "--db",
                db,
                "--station",
                station,
                "--api",
                "127.0.0.1:0",
                "--td-pin",
                "test-pin-1111",
            ],
            stdout=subprocess.DEVNULL,
            stderr=log.open("a"),
        )

    def stored() -> list:
        if not (tmp_path / "club.db").exists():
            return []
        s = Store.open(db)
        try:
            return s.results(1) if s.event_ids() else []
        finally:
            s.close()

    async def wait_stored(count: int, timeout: float, what: str, room: object) -> None:
        end = time.monotonic() + timeout
        while len(await asyncio.to_thread(stored)) < count:
            if time.monotonic() > end:
                tail = log.read_text("utf-8")[-3000:] if log.exists() else ""
                raise AssertionError(
                    f"timed out after {timeout} s waiting for {what}\n{room}\n{tail}"
                )
            await asyncio.sleep(0.05)

    async def scenario() -> list:
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        terminals = [
            VirtualTerminal(t, f"BM-{t}", "A", t, PlayerBot(seed=t), speed=600)
            for t in (1, 2, 3, 4)
        ]
        for terminal in terminals:
            station.add_terminal(terminal)
        station.start()
        hub = start_hub(str(line.path))
        try:
            await wait_stored(12, 60, "the first results before the kill", station.link.stats)
            os.kill(hub.pid, signal.SIGKILL)  # no await between the kill and the reading
            acked = {
                (r.table, r.round, r.board, r.contract, r.tricks)
                for terminal in terminals
                for r in terminal.log.accepted + terminal.log.held
            }
            await asyncio.to_thread(hub.wait, 10)
            after_kill = await asyncio.to_thread(stored)
            held = {(r.table, r.round, r.board, r.contract, r.tricks) for r in after_kill}
            assert acked, "no terminal had an answer before the kill"
            assert acked <= held, f"acknowledged but not stored: {sorted(acked - held)}"
            await asyncio.sleep(0.5)  # terminals keep entering results while the hub is down
            hub = start_hub(str(line.path))
            await wait_stored(
                TOTAL, 90, f"all {TOTAL} results after the restart", station.link.stats
            )
            hub.send_signal(signal.SIGTERM)
            await asyncio.to_thread(hub.wait, 20)
        finally:
            if hub.poll() is None:
                hub.kill()
            await station.stop()
            line.close()
        return after_kill

    after_kill = asyncio.run(scenario())
    results = stored()
    keys = [(r.table, r.round, r.board) for r in results]
    assert len(after_kill) < TOTAL
    assert len(keys) == len(set(keys)) == TOTAL  # nothing doubled, nothing lost
    assert {r.revision for r in results} == {1}


@pytest.mark.slow
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
