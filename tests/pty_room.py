"""A room of simulated terminals on a real pty in front of the hub stub (issue 12
[FAULTS]): ``room`` builds the base station (its line faults if asked) and the hub side's
driver, ``run_room`` plays ``BOARDS`` at every table until each result is stored and
acknowledged, ``exactly_once`` checks that nothing was lost or doubled."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from hub_stub import HubStub, wait_until

from drivers.base_station import BaseStationDriver
from simulator.bots import PlayerBot
from simulator.faults import Faults
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

BOARDS = (1, 2, 3, 4, 5, 6)


def room(
    tmp_path: Path,
    faults: Faults | None = None,
    terminals: int = 10,
    speed: float = 20_000.0,
    keying_s: float = 0.0,
) -> tuple[PtyLine, VirtualBaseStation, BaseStationDriver]:
    """A base station of ``terminals`` tables (serials BM-0001…, each a seeded player bot),
    on a new pty, with ``faults`` on its line, and the hub side's driver (nothing started)."""
    line = PtyLine(tmp_path / "base-1")
    station = VirtualBaseStation(line, faults=faults)
    for t in range(1, terminals + 1):
        station.add_terminal(
            VirtualTerminal(
                t, f"BM-{t:04d}", "A", t, PlayerBot(seed=t), speed=speed, keying_s=keying_s
            )
        )
    driver = BaseStationDriver(str(line.path), backoff=(0.02, 0.2))
    return line, station, driver


async def run_room(
    line: PtyLine,
    station: VirtualBaseStation,
    driver: BaseStationDriver,
    action: Callable[[VirtualBaseStation, HubStub, BaseStationDriver], Awaitable[None]]
    | None = None,
    timeout: float = 15.0,
) -> HubStub:
    """The room played in front of a hub stub (``BOARDS`` at every table) until every result
    is stored and acknowledged, ``action`` meanwhile; everything stopped after it."""
    hub = HubStub(driver, BOARDS)
    driver.start()
    hub.start()
    station.start()
    try:
        if action is not None:
            await action(station, hub, driver)
        await wait_until(
            lambda: (
                len(hub.results) == len(station.terminals) * len(BOARDS)
                and all(not t.unacked for t in station.terminals.values())
            ),
            timeout,
            "every result stored and acknowledged",
        )
    finally:
        await station.stop()
        await hub.stop()
        await driver.stop()
        line.close()
    return hub


def exactly_once(station: VirtualBaseStation, hub: HubStub) -> None:
    """Each table's boards stored once at the hub, each acknowledged once at the table."""
    assert len(hub.results) == len(station.terminals) * len(BOARDS)
    for t in station.terminals.values():
        boards = [r.board for r in t.log.accepted]
        assert sorted(boards) == list(BOARDS), (t.serial, boards)
    for (serial, _s, table, _r, _b, rev), r in hub.results.items():
        assert serial == f"BM-{table:04d}" and r.table == table and rev == 1
