"""End to end over real pseudo-terminals: a simulated base station with 20 terminals and
the hub's base-station driver exchange results and ACKs, through unplug and replug, line
noise and a terminal reboot."""

from __future__ import annotations

import asyncio

import pytest
from hub_stub import HubStub, wait_until

from drivers.base_station import BaseStationDriver, LineDown
from simulator.bots import PlayerBot
from simulator.faults import Faults
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

TERMINALS = 20
BOARDS = (1, 2, 3)


def room(tmp_path, faults=None, speed=20_000.0):
    line = PtyLine(tmp_path / "base-1")
    station = VirtualBaseStation(line, faults=faults)
    for t in range(1, TERMINALS + 1):
        station.add_terminal(
            VirtualTerminal(t, f"BM-{t:04d}", "A", t, PlayerBot(seed=t), speed=speed)
        )
    driver = BaseStationDriver(str(line.path), backoff=(0.02, 0.2))
    return line, station, driver


def all_done(station, hub):
    return len(hub.results) == TERMINALS * len(BOARDS) and all(
        not t.unacked for t in station.terminals.values()
    )


async def run_room(tmp_path, faults=None, action=None):
    line, station, driver = room(tmp_path, faults)
    hub = HubStub(driver, BOARDS)
    driver.start()
    hub.start()
    station.start()
    try:
        if action is not None:
            await action(station, hub, driver)
        await wait_until(lambda: all_done(station, hub), 30, "every result stored and ACKed")
    finally:
        await station.stop()
        await hub.stop()
        await driver.stop()
        line.close()
    return station, hub, driver


def check_exactly_once(station, hub):
    """Every table's boards stored once, with what the table entered."""
    assert len(hub.results) == TERMINALS * len(BOARDS)
    for t in station.terminals.values():
        entered = {r.board for r in t.log.accepted}
        assert entered == set(BOARDS), (t.serial, entered)
    for (serial, _section, table, _rnd, _board, rev), r in hub.results.items():
        assert serial == f"BM-{table:04d}" and r.table == table and rev == 1


def test_twenty_terminals_exchange_results_and_acks(tmp_path):
    station, hub, driver = asyncio.run(run_room(tmp_path))
    check_exactly_once(station, hub)
    assert hub.duplicates == 0 and driver.link.stats["garbage"] == 0


def test_unplug_and_replug_loses_nothing_and_doubles_nothing(tmp_path):
    async def yank(station, hub, driver):
        await wait_until(lambda: len(hub.results) >= 10, 20, "the first results")
        station.unplug()
        await wait_until(
            lambda: any(isinstance(e, LineDown) for e in hub.line_events),
            10,
            "the driver to notice the unplug",
        )
        await asyncio.sleep(0.2)
        station.replug()

    station, hub, driver = asyncio.run(run_room(tmp_path, action=yank))
    check_exactly_once(station, hub)
    assert driver.reconnects >= 1


def test_line_noise_is_survived(tmp_path):
    """Flipped bits, dropped bytes and duplicated chunks on the station's output."""
    faults = Faults(bit_flip=0.0005, drop_byte=0.0005, duplicate=0.05, seed=7)
    station, hub, driver = asyncio.run(run_room(tmp_path, faults=faults))
    check_exactly_once(station, hub)
    assert sum(faults.counts.values()) > 0
    assert driver.link.stats["garbage"] > 0 or faults.counts["duplicate"] > 0


def test_a_terminal_reboot_resends_what_was_not_acknowledged(tmp_path):
    epochs = []

    async def reboot(station, hub, driver):
        t = station.terminals[5]
        await wait_until(lambda: t.assignment is not None, 20, "terminal 5's assignment")
        epochs.append(t.epoch)
        t.boot()  # power cycle: a new epoch; unacknowledged results go again

    station, hub, _driver = asyncio.run(run_room(tmp_path, action=reboot))
    check_exactly_once(station, hub)
    assert station.terminals[5].epoch == epochs[0] % 0xFFFFFFFF + 1


@pytest.mark.parametrize("code", ["wrong", "gone"])
def test_the_driver_keeps_trying_a_line_that_is_not_there(tmp_path, code):
    async def scenario():
        path = tmp_path / "nothing" if code == "gone" else tmp_path / "not-a-tty"
        if code == "wrong":
            path.write_text("x")
        driver = BaseStationDriver(str(path), backoff=(0.01, 0.05))
        driver.start()
        await asyncio.sleep(0.2)
        assert not driver.connected.is_set()
        await driver.stop()

    asyncio.run(scenario())


def test_a_station_served_over_tcp(tmp_path):
    """socket://host:port works like a serial line (decisions D8)."""
    from simulator.line import SocketLine

    async def scenario():
        line = SocketLine("127.0.0.1", 0)
        station = VirtualBaseStation(line)
        for t in (1, 2):
            station.add_terminal(
                VirtualTerminal(t, f"BM-{t:04d}", "A", t, PlayerBot(seed=t), speed=20_000)
            )
        station.start()
        driver = BaseStationDriver(line.url, backoff=(0.02, 0.2))
        hub = HubStub(driver, BOARDS)
        driver.start()
        hub.start()
        await wait_until(lambda: len(hub.results) == 2 * len(BOARDS), 20, "6 results over TCP")
        await station.stop()
        await hub.stop()
        await driver.stop()
        line.close()

    asyncio.run(scenario())


def test_bridgehub_simulate_prints_the_line_to_open(tmp_path):
    """The simulator process prints each station's pty; the hub's driver opens it."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    exe = shutil.which("bridgehub") or str(Path(sys.executable).parent / "bridgehub")

    async def scenario():
        proc = await asyncio.create_subprocess_exec(
            exe,
            "simulate",
            "--tables",
            "3",
            "--speed",
            "20000",
            "--duration",
            "20",
            "--dir",
            str(tmp_path),
            stdout=subprocess.PIPE,
        )
        first = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode()
        assert first.startswith("base station BS-0001 (3 terminals): ")
        path = first.rsplit(": ", 1)[1].strip()
        driver = BaseStationDriver(path, backoff=(0.02, 0.2))
        hub = HubStub(driver, BOARDS)
        driver.start()
        hub.start()
        try:
            await wait_until(
                lambda: len(hub.results) == 3 * len(BOARDS),
                30,
                "9 results from the simulator process",
            )
        finally:
            proc.terminate()
            await asyncio.wait_for(proc.wait(), 30)
            await hub.stop()
            await driver.stop()

    asyncio.run(scenario())


def test_a_silent_line_is_reported_down_and_reopened(tmp_path):
    """A station that stops talking (no heartbeat) is taken as gone: LineDown, reconnect."""

    async def scenario():
        line = PtyLine(tmp_path / "mute")  # nothing ever answers on this pty
        driver = BaseStationDriver(str(line.path), backoff=(0.01, 0.05), silence_s=0.2)
        driver.start()
        ev = None
        for _ in range(3):
            ev = await asyncio.wait_for(driver.events.get(), 10)
            if isinstance(ev, LineDown):
                break
        assert isinstance(ev, LineDown) and "nothing heard for 0.2 s" in ev.reason
        await driver.stop()
        line.close()

    asyncio.run(scenario())
