"""A member number keyed for the sit-out's empty side (issue 13 "odd numbers and sit-outs":
scoring never sees pair 0; reviewer R1). The hub stored it as a player of "pair 0",
creating a contestant 0 in the store, which the standings' names, the exports'
PlayerNumbers and the report then carried. Now nothing is stored for an empty seat and the
terminal is answered with no name."""

from __future__ import annotations

import asyncio

from hub_stub import wait_until
from late_pair_event import five_pairs

from drivers.protocol.messages import PlayerNumber
from drivers.protocol.to_terminal import PlayerName
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal


def test_a_number_keyed_for_the_empty_side_of_a_sit_out_table_stores_nothing(tmp_path):
    """late_pair_event: round 1 table 3 is NS 3 against nobody (pair 0). East (seat 1)
    keys 5001: answered with an empty name, no contestant 0. North (seat 0) keys 103, the
    event's Erik Falk (NS 3's first player): his name, as before."""

    async def scenario() -> tuple[dict[int, str], set[int]]:
        file = five_pairs(tmp_path)
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(file.read_text("utf-8"), base_dir=tmp_path)
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        term = VirtualTerminal(3, "BM-3", "A", 3, PlayerBot(seed=3), speed=50_000)
        station.add_terminal(term)
        hub = HubService(store, eid, [str(line.path)], auto_advance=False, tick_s=3600)
        await hub.start()
        station.start()
        try:
            await wait_until(lambda: term.assignment is not None, 20, "table 3's assignment")
            term.send(PlayerNumber("A", 3, 1, 1, "5001"))
            term.send(PlayerNumber("A", 3, 1, 0, "103"))

            def names() -> dict[int, str]:
                return {m.seat: m.name for m in term.log.received if isinstance(m, PlayerName)}

            await wait_until(lambda: len(names()) == 2, 20, "two PLAYER_NAME answers")
            numbers = {int(c["number"]) for c in store.contestants(eid, "A")}
            return names(), numbers
        finally:
            await station.stop()
            await hub.stop()
            line.close()
            store.close()

    names, numbers = asyncio.run(scenario())
    assert names == {1: "", 0: "Erik Falk"}
    assert 0 not in numbers
    assert numbers == {1, 2, 3, 4, 5}
