"""The terminals follow the director's pair commands (issue 13 "Late pairs …": "all from
the console, audited, the terminals following"), over a real pty with simulated terminals:
the 3-table Mitchell of tests/late_pair_event.py, where NS 1 sits out in round 2 (T1 1-0).
A late pair for round 2 is EW 3 (the hub's 6): table 1's terminal is sent round 2 again
with EW 3 opposite NS 1 (the room's numbers on the wire); a substitute's name goes to the
table the pair plays at now (NS 2 at table 2: seats N 0 and S 2)."""

from __future__ import annotations

import asyncio

from hub_stub import wait_until
from late_pair_event import five_pairs

from drivers.protocol.messages import Assignment
from drivers.protocol.to_terminal import PlayerName
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal


def test_a_late_pair_and_a_substitute_reach_the_tables(tmp_path):
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

        def assigned(t: int, rnd: int) -> list[tuple[int, int]]:
            return [
                (m.ns_pair, m.ew_pair)
                for m in terms[t].log.received
                if isinstance(m, Assignment) and m.round == rnd
            ]

        try:
            await wait_until(lambda: all(assigned(t, 1) for t in terms), 20, "round 1 seated")
            await hub.commands.dispatch("next_round", {"section": "A"}, "TD")
            await wait_until(lambda: assigned(1, 2) == [(1, 0)], 20, "table 1 sits out")
            players = [{"name": "Kim Lund"}, {"name": "Lo Mark"}]
            await hub.commands.dispatch(
                "add_pair", {"section": "A", "from_round": 2, "players": players}, "TD"
            )
            await wait_until(lambda: (1, 3) in assigned(1, 2), 20, "table 1 told EW 3 comes")
            await wait_until(
                lambda: any(
                    isinstance(m, PlayerName) and m.name == "Kim Lund"
                    for m in terms[1].log.received
                ),
                20,
                "the late pair's names at table 1",
            )
            await hub.commands.dispatch(
                "substitute", {"section": "A", "pair": 2, "seat": 2, "name": "Sub Stitute"}, "TD"
            )

            def shown(t: int) -> dict[int, str]:
                return {m.seat: m.name for m in terms[t].log.received if isinstance(m, PlayerName)}

            await wait_until(lambda: shown(2).get(2) == "Sub Stitute", 20, "the substitute")
            assert shown(2)[0] == "Cleo Dahl"
            snapshot = await hub.snapshot()
            tables = {t["table"]: (t["ns"], t["ew"]) for t in snapshot["sections"]["A"]["tables"]}
            assert tables[1] == (1, 6)
        finally:
            await station.stop()
            await hub.stop()
            line.close()
            store.close()

    asyncio.run(scenario())
