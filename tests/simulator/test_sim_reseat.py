"""The simulator's terminal takes a new seating for the round it is in (issue 13 "Late pairs
…, the terminals following"; review R2): before, a second ASSIGNMENT for the same round was
ignored, so a sit-out table the director filled with a late pair never played.

The 3-table Mitchell of tests/late_pair_event.py, worked by hand there: in round 2 table 1
is NS 1 v pair 0 (NS 1 sits out) and plays boards 3-4. The late pair for round 2 is EW 3
(the hub's 6), seated opposite NS 1 at table 1; the terminal must then enter boards 3 and 4
of round 2 for pairs 1 and 6 (the hub's numbers; EW 3 on the wire)."""

from __future__ import annotations

import asyncio

from hub_stub import wait_until
from late_pair_event import five_pairs

from drivers.protocol.messages import Assignment
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal


def test_a_sit_out_table_given_a_late_pair_plays_its_round(tmp_path):
    async def scenario() -> None:
        file = five_pairs(tmp_path)
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(file.read_text("utf-8"), base_dir=tmp_path)
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        terms = {
            t: VirtualTerminal(t, f"BM-{t}", "A", t, PlayerBot(seed=t), speed=50_000)
            for t in (1, 2, 3)
        }
        for term in terms.values():
            station.add_terminal(term)
        hub = HubService(store, eid, [str(line.path)], auto_advance=False, tick_s=3600)
        await hub.start()
        station.start()

        def round2_at_table1() -> list[tuple[int, int, int]]:
            return sorted(
                (r.board, r.ns_pair, r.ew_pair)
                for r in store.live_results(eid, "A")
                if (r.table, r.round) == (1, 2)
            )

        try:
            await wait_until(
                lambda: all(t.assignment is not None for t in terms.values()), 20, "seated"
            )
            await hub.commands.dispatch("next_round", {"section": "A"}, "TD")
            await wait_until(
                lambda: terms[1].assignment == Assignment("A", 1, 2, 1, 0, (3, 4)),
                20,
                "table 1 sits out round 2",
            )
            players = [{"name": "Kim Lund"}, {"name": "Lo Mark"}]
            await hub.commands.dispatch(
                "add_pair", {"section": "A", "from_round": 2, "players": players}, "TD"
            )
            await wait_until(
                lambda: round2_at_table1() == [(3, 1, 6), (4, 1, 6)],
                20,
                f"table 1 enters boards 3-4 of round 2 for NS 1 v EW 3 "
                f"(stored: {round2_at_table1()}, shown: {terms[1].log.shown[-3:]})",
            )
        finally:
            await station.stop()
            await hub.stop()
            store.close()

    asyncio.run(scenario())
