"""The review's wiring fixes (issue 13, reviewer R1): what the live hub itself must do, with
no test reaching into its ports.

- Mitchell numbering (issue 13 "Mitchell numbering as TDs write it", TD trial F16): a hub
  started on a Mitchell tells its wire adapter the room's numbering, so the terminals see
  EW 1-n, never the hub's internal T+1..2T.
- A base station that cannot be opened (TD trial F10): the Devices read carries the reason
  next to the station, where the console's Devices tab shows it.
"""

from __future__ import annotations

import asyncio

from event_text import one_section_event
from hub_stub import wait_until

from drivers.protocol.messages import Assignment
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

TABLES = 5


def test_a_live_mitchell_assigns_ew_1_to_n_without_the_test_setting_numbering(tmp_path):
    """A 5-table Mitchell, round 1: table t seats NS t against EW t (EW 1 starts at table
    1; worked from the Mitchell's rule, not from our output). Inside the hub EW t is pair
    5 + t, so before the fix the terminal at table 3 was assigned "EW 8"; now it is
    assigned EW 3. HubService is given nothing but the store and the station's path."""

    async def scenario() -> dict[int, tuple[int, int]]:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(
            one_section_event(
                "R1 Mitchell", f'kind = "mitchell", tables = {TABLES}, boards_per_round = 1'
            )
        )
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        for t in range(1, TABLES + 1):
            bot = PlayerBot(seed=t)
            station.add_terminal(VirtualTerminal(t, f"BM-{t}", "A", t, bot, speed=1.0))
        hub = HubService(store, eid, [str(line.path)])
        await hub.start()
        station.start()

        def first_assignments() -> dict[int, tuple[int, int]]:
            out = {}
            for t, terminal in station.terminals.items():
                for m in terminal.log.received:
                    if isinstance(m, Assignment) and m.round == 1:
                        out[t] = (m.ns_pair, m.ew_pair)
            return out

        try:
            await wait_until(
                lambda: len(first_assignments()) == TABLES, 60, "every table's round 1"
            )
            return first_assignments()
        finally:
            await station.stop()
            await hub.stop()
            store.close()
            line.close()

    assigned = asyncio.run(scenario())
    assert assigned == {t: (t, t) for t in range(1, TABLES + 1)}


def test_the_devices_read_says_why_a_station_cannot_be_opened(tmp_path):
    """F10 on the Devices tab: `run --station /dev/ttyUSB0` with no such device; the
    station's row in the devices read carries the plain-words reason (before: only
    "connected": false, the reason was in the driver alone)."""
    missing = str(tmp_path / "ttyUSB0")
    reason = f"cannot open {missing}: no such device — is the base station plugged in?"

    async def scenario() -> dict:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(
            one_section_event("F10", 'kind = "howell", tables = 3, boards_per_round = 2')
        )
        hub = HubService(store, eid, [missing])
        await hub.start()
        try:
            await wait_until(lambda: hub.ports[0].driver.problem is not None, 10, "the reason")
            return hub.devices()
        finally:
            await hub.stop()
            store.close()

    stations = asyncio.run(scenario())["stations"]
    assert [s["problem"] for s in stations] == [reason]
    assert stations[0]["connected"] is False
