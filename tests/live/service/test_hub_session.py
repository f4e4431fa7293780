"""A whole session through the hub's service: simulated terminals over real ptys, the
base-station driver, intake, the store, and standings at the end (issue [HUB], first
part: no TD API yet)."""

from __future__ import annotations

import asyncio

import pytest
from event_text import one_section_event
from hub_stub import wait_until

from drivers.protocol.messages import RankingPage, Result, ResultView
from hub.live.service.hub_service import HubService
from hub.standings.rebuild import rebuild
from hub.store.store import Store
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

EVENT = one_section_event(
    "Twelve-table Howell", 'kind = "howell", tables = 12, boards_per_round = 1'
)


@pytest.mark.slow
def test_a_12_table_howell_from_logon_to_final_standings(tmp_path):
    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        lines = [PtyLine(tmp_path / f"base-{k}") for k in (1, 2)]
        stations = [VirtualBaseStation(line, serial=f"BS-{k}") for k, line in enumerate(lines, 1)]
        for table in range(1, 13):
            station = stations[(table - 1) // 6]
            bot = PlayerBot(
                seed=table,
                correction_rate=1.0 if table == 3 else 0.0,
                td_call_rate=1.0 if table == 4 else 0.0,
            )
            station.add_terminal(
                VirtualTerminal(table, f"BM-{table:04d}", "A", table, bot, speed=50_000)
            )
        hub = HubService(store, eid, [str(line.path) for line in lines])
        await hub.start()
        for s in stations:
            s.start()
        try:
            intruder = stations[0].terminals[1]
            await wait_until(lambda: intruder.assignment is not None, 20, "table 1's log-on")
            # a terminal keyed the wrong table: refused, with the reason shown at the table
            intruder.send(Result("A", 7, 1, 1, 1, 2, "3NT", 0, "", 9, 0, 1))
            await wait_until(hub.session_done.is_set, 120, "all 23 rounds to be played")
            await wait_until(
                lambda: all(not t.unacked for s in stations for t in s.terminals.values()),
                30,
                "the last ACKs to reach the terminals",
            )
            await wait_until(
                lambda: all(
                    sum(isinstance(m, RankingPage) for m in t.log.received) >= 23
                    for s in stations
                    for t in s.terminals.values()
                ),
                30,
                "the final ranking page to reach every terminal",
            )
        finally:
            for s in stations:
                await s.stop()
            await hub.stop()
        view = rebuild(store, eid)["A"]
        calls = store.td_calls(eid)
        revisions = {r.revision for r in store.results(eid) if r.table == 3}
        store.close()
        for line in lines:
            line.close()
        return view, stations, calls, revisions

    view, stations, calls, revisions = asyncio.run(scenario())
    assert len(calls) == 23 and all(c["table"] == 4 for c in calls)  # a TD call a board
    assert revisions == {1, 2}  # table 3 corrected every board: revision 2 is live
    refusals = stations[0].terminals[1].log.refused
    assert any("log on to table A7 first" in text for _, _, text in refusals)
    assert len(view.boards) == 23 and all(len(b.traveller) == 12 for b in view.boards)
    table = view.standings[None]
    assert len(table) == 24
    assert all(s.total.boards == 23 for s in table)
    mean = sum(s.total.total for s in table) / 24
    assert mean == 50  # matchpoints on every board sum to the top
    for station in stations:
        for t in station.terminals.values():
            assert not t.unacked and len({r.board for r in t.log.accepted}) == 23
            views = [m for m in t.log.received if isinstance(m, ResultView)]
            # its own score and the traveller after each board (and after each correction)
            assert len(views) == len(t.log.accepted) == (46 if t.table == 3 else 23)
            assert all(0 <= v.own_value <= 10_000 for v in views)
            assert all(any(e.ns_pair for e in v.lines) for v in views)
            pages = [m for m in t.log.received if isinstance(m, RankingPage)]
            assert len(pages) == 23 and len(pages[-1].lines) == 24


def test_the_round_clock_reaches_a_sign_and_the_terminals(tmp_path):
    """The hub pushes the clock once a tick: an Alpha sign shows the round and time left,
    terminals get CLOCK messages."""
    from drivers.protocol.messages import Clock
    from simulator.clocks import VirtualAlphaSign

    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT.replace("tables = 12", "tables = 3"))
        sign_line = PtyLine(tmp_path / "clock-1")
        sign = VirtualAlphaSign(sign_line)
        sign.start()
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        station.add_terminal(VirtualTerminal(1, "BM-0001", "A", 1, PlayerBot(seed=1), speed=1.0))
        hub = HubService(
            store,
            eid,
            [str(line.path)],
            clock_displays=[("alpha", str(sign_line.path))],
            tick_s=0.05,
        )
        await hub.start()
        station.start()
        term = station.terminals[1]
        try:
            await wait_until(
                lambda: sign.decoder.state.shown().startswith("Round 1 - play "),
                20,
                "the sign to show round 1",
            )
            await wait_until(
                lambda: any(isinstance(m, Clock) for m in term.log.received),
                20,
                "a CLOCK message at the terminal",
            )
        finally:
            await station.stop()
            await hub.stop()
            sign.detach()
            store.close()
        clock = next(m for m in term.log.received if isinstance(m, Clock))
        assert clock.round == 1 and 0 < clock.seconds_left <= 8 * 60
        assert sign.decoder.state.shown().endswith(("07:59", "08:00", "07:58"))

    asyncio.run(scenario())
