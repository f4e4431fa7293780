"""Issue 12 [FAULTS]: the emulated USB base station with the hub in ANOTHER process, as the
campaign runs it. umockdev (>= 0.16) serves the device's ioctls to a child process through
a Unix socket in the testbed: the child only needs ``usb_line.hub_environment()`` (the
preload library and the testbed directory); the process that creates the line needs no
``umockdev-wrapper``. The kernel here has no USB at all, so umockdev is the documented
exception to "real parts" (as tests/drivers/test_usb.py). Marked ``usb``; they need only
``usb_line.available()``, not ``umockdev-wrapper``: run without it (the main test command)
they prove the campaign's own setting, a simulator process that is not preloaded; run under
it (``bash dev.sh test``'s USB pass) they show the preload does no harm."""

from __future__ import annotations

import asyncio
import os
import select
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from club_evening import PIN, exe, until
from event_text import one_section_event
from external_tools import UMOCKDEV, needs

from campaign.pg_cluster import free_port
from simulator import usb_line
from simulator.bots import PlayerBot
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

pytestmark = [
    pytest.mark.usb,
    needs(UMOCKDEV),
]

VID, PID = 0x1209, 0x0001  # pid.codes test ids, as tests/drivers/test_usb.py
ROOT = Path(__file__).parents[2]

CHILD = textwrap.dedent(
    """
    import asyncio, sys
    from drivers.transport import open_transport

    async def main(url):
        line = await open_transport(url)
        await line.write(b"ping\\x00")
        got = b""
        while not got.endswith(b"\\x00"):
            got += await asyncio.wait_for(line.read(), 10)
        print(got.decode(), flush=True)
        await line.close()

    asyncio.run(main(sys.argv[1]))
    """
)


def read_until(fd: int, end: bytes, timeout: float) -> bytes:
    """Bytes from the line's master end up to ``end``; a bounded wait."""
    got = b""
    deadline = time.monotonic() + timeout
    while not got.endswith(end):
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"timed out after {timeout} s; got {got!r}")
        if select.select([fd], [], [], left)[0]:
            got += os.read(fd, 4096)
    return got


def test_a_child_process_opens_the_usb_line_through_the_driver():
    """The hub's USB transport (drivers.usb) in a child process finds
    ``usb:VID:PID:SERIAL`` and exchanges bytes both ways with this process's line."""
    line = usb_line.UsbLine(VID, PID, "BHUL0001")
    try:
        assert line.url == "usb:1209:0001:BHUL0001" and line.plugged
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, line.url],
            cwd=ROOT,
            env={**os.environ, **usb_line.hub_environment()},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert line.master is not None
        try:
            assert read_until(line.master, b"\x00", 20) == b"ping\x00"
            os.write(line.master, b"pong\x00")
            out, err = child.communicate(timeout=20)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait(10)
        assert child.returncode == 0, err
        assert out.strip() == "pong\x00"
    finally:
        line.close()
    assert not line.plugged and line.master is None


HOLD = textwrap.dedent(
    """
    import asyncio, sys
    from drivers.transport import open_transport

    async def main(url):
        line = await open_transport(url)  # its read is under way: an IN transfer waits
        print("open", flush=True)
        await asyncio.sleep(600)

    asyncio.run(main(sys.argv[1]))
    """
)


def test_a_hub_killed_holding_the_usb_line_leaves_nothing_in_the_next_ones_way():
    """Issue 12 "3 hub kill -9s", USB included: a hub killed while its read is waiting
    on the IN endpoint cannot discard that transfer; the emulated device forgets it with
    the dead client, so the next hub process's reads get the station's bytes (before this,
    the first reply went into the dead transfer and the next hub heard nothing)."""
    line = usb_line.UsbLine(VID, PID, "BHUL0003")
    env = {**os.environ, **usb_line.hub_environment()}
    first = subprocess.Popen(
        [sys.executable, "-c", HOLD, line.url], cwd=ROOT, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    child: subprocess.Popen[str] | None = None
    try:
        assert first.stdout is not None and first.stdout.readline().strip() == "open"
        deadline = time.monotonic() + 20
        while not line.device.waiting_in:  # a bounded wait for its read on the endpoint
            assert time.monotonic() < deadline, "the first hub's read never reached the device"
            time.sleep(0.01)
        first.kill()
        first.wait(10)
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, line.url], cwd=ROOT, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert line.master is not None
        assert read_until(line.master, b"\x00", 20) == b"ping\x00"
        os.write(line.master, b"pong\x00")
        out, err = child.communicate(timeout=20)
        assert child.returncode == 0, err
        assert out.strip() == "pong\x00"
    finally:
        for p in (first, child):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait(10)
        line.close()


@pytest.mark.slow
def test_the_hub_process_takes_results_over_usb_through_an_unplug(tmp_path):
    """Issue 12 "unplugs and replugs, USB included": ``bridgehub run --station
    usb:VID:PID:SERIAL`` in its own process acknowledges a terminal's result sent over the
    emulated USB station; the station is unplugged (the hub's driver sees the error and
    reopens with backoff) and plugged back; the hub reaches the station again and every
    result is acknowledged once. The latency is printed, never asserted."""
    event = tmp_path / "club.toml"
    event.write_text(one_section_event("Usb", 'kind = "howell", tables = 2, boards_per_round = 2'))
    log = tmp_path / "hub.log"

    def tail() -> str:
        return log.read_text("utf-8", errors="replace")[-3000:] if log.exists() else ""

    async def scenario() -> float:
        line = usb_line.UsbLine(VID, PID, "BHUL0002")
        station = VirtualBaseStation(line, serial="BS-USB1")
        terminals = [
            VirtualTerminal(t, f"BM-{t}", "A", t, PlayerBot(seed=t), speed=300.0) for t in (1, 2)
        ]
        for t in terminals:
            station.add_terminal(t)
        station.start()
        hub = subprocess.Popen(
            [exe(), "run", "--event", str(event), "--db", f"sqlite:///{tmp_path / 'club.db'}",
             "--station", line.url, "--api", f"127.0.0.1:{free_port()}"],
            stdout=subprocess.DEVNULL,
            stderr=log.open("a"),
            env={**os.environ, **usb_line.hub_environment(), "BRIDGEHUB_TD_PIN": PIN,
                 "BRIDGEHUB_LOCK_DIR": str(tmp_path)},
        )  # fmt: skip
        try:
            await until(lambda: any(t.log.accepted for t in terminals), 60, "a result's ACK", tail)
            station.unplug()
            await until(lambda: f"{line.url} down" in tail(), 20, "the hub to see the unplug", tail)
            before = sum(len(t.log.accepted) for t in terminals)
            station.replug()
            replugged = time.monotonic()
            station.hub_heard = None
            await until(lambda: station.hub_heard, 30, "the hub on the replugged line", tail)
            back_s = time.monotonic() - replugged
            await until(
                lambda: sum(len(t.log.accepted) for t in terminals) > before,
                60,
                "a result acknowledged after the replug",
                tail,
            )
            for t in terminals:
                boards = [(r.round, r.board) for r in t.log.accepted]
                assert len(boards) == len(set(boards)), (t.serial, boards)
            return back_s
        finally:
            hub.terminate()
            try:
                hub.wait(20)
            except subprocess.TimeoutExpired:
                hub.kill()
                hub.wait(10)
            await station.stop()
            line.close()

    back_s = asyncio.run(scenario())
    print(f"USB station back {back_s:.2f} s after its replug")


def test_available_says_why_not_in_words_and_the_environment_names_the_testbed():
    """``available()`` is None here; ``hub_environment`` puts umockdev's preload first."""
    assert usb_line.available() is None
    env = usb_line.hub_environment()
    assert env["LD_PRELOAD"].split(":")[0] == usb_line.PRELOAD
    assert Path(env["UMOCKDEV_DIR"]).is_dir()
