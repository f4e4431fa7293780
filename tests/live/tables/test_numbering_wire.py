"""Mitchell numbering on the wire (issue 13 "Mitchell numbering as TDs write it", TD trial
F16): the terminals of a 7-table Mitchell see NS 1-7 and EW 1-7, and what they send back
lands against the hub's own numbers (EW k is pair 7 + k inside the hub), over a real
pseudo-terminal, the simulator's terminals echoing what they are assigned."""

from __future__ import annotations

import asyncio

from hub_stub import wait_until

from drivers.protocol.messages import Assignment, NextSeating, RankingPage, ResultView
from hub.event.pair_labels import numbering
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

NAMES = {("NS", 3): ("Anna Berg", "Bo Ek"), ("EW", 3): ("Cecilia Dahl", "Dan Ek")}

EVENT = """schema_version = 1
[event]
name = "Tuesday Mitchell"
[rules]
scoring = "mp"
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = { kind = "mitchell", tables = 7, boards_per_round = 1 }
""" + "".join(
    f"""[[sessions.sections.pairs]]
number = {n}
direction = "{d}"
players = [{{ name = "{a}" }}, {{ name = "{b}" }}]
"""
    for (d, n), (a, b) in NAMES.items()
)


def test_a_7_table_mitchell_speaks_the_rooms_numbers_on_the_wire(tmp_path):
    """Round r at table t of a plain 7-table Mitchell seats NS t against EW ((t − r) mod 7)
    + 1 (EW moves up one table a round: EW 1 is at table 1 in round 1, table 2 in round 2
    ...), worked from the movement's rule, not from our output. So every assignment's EW
    number is 1-7, and the stored results carry EW 8-14 (7 + k). "EW 3" (Cecilia Dahl &
    Dan Ek) is pair 10 in the store and in the snapshot's directory."""

    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        for t in range(1, 8):
            bot = PlayerBot(seed=t)
            station.add_terminal(VirtualTerminal(t, f"BM-{t}", "A", t, bot, speed=50_000))
        hub = HubService(store, eid, [str(line.path)])
        for (
            port
        ) in hub.ports:  # the room's numbers (hub/live/service/hub_service.py may do this too)
            port.set_numbering(numbering({"A": store.movement(eid, "A")}))
        await hub.start()
        station.start()
        try:
            await wait_until(hub.session_done.is_set, 120, "all 7 rounds to be played")
            await wait_until(
                lambda: all(not t.unacked for t in station.terminals.values()),
                30,
                "the last ACKs to reach the terminals",
            )
            await wait_until(
                lambda: all(
                    any(isinstance(m, RankingPage) and m.round == 7 for m in t.log.received)
                    for t in station.terminals.values()
                ),
                30,
                "the final ranking to reach every table",
            )
            snapshot = await hub.snapshot()
        finally:
            await station.stop()
            await hub.stop()
        results = store.results(eid)
        contestants = store.contestants(eid, "A")
        store.close()
        line.close()
        return station, results, snapshot, contestants

    station, results, snapshot, contestants = asyncio.run(scenario())
    by_number = {c["number"]: c for c in contestants}
    assert by_number[10]["players"][0]["name"] == "Cecilia Dahl"  # EW 3 = internal 10
    assert by_number[3]["players"][0]["name"] == "Anna Berg"  # NS 3 = internal 3
    for t, terminal in station.terminals.items():
        assigned = {
            m.round: (m.ns_pair, m.ew_pair)
            for m in terminal.log.received
            if isinstance(m, Assignment)
        }
        assert assigned == {r: (t, (t - r) % 7 + 1) for r in range(1, 8)}, t
        for view in (m for m in terminal.log.received if isinstance(m, ResultView)):
            assert all(1 <= e.ns_pair <= 7 and 1 <= e.ew_pair <= 7 for e in view.lines)
        for seat in (m for m in terminal.log.received if isinstance(m, NextSeating)):
            assert seat.pair <= 7 and seat.opponents <= 7
        pages = [m for m in terminal.log.received if isinstance(m, RankingPage)]
        assert pages, "ranking pages reach the tables"
        lines = [x for p in pages if p.round == 7 for x in p.lines]
        assert all(1 <= x.pair <= 7 for x in lines)
        assert {x.names.split(":")[0] for x in lines} == {"NS", "EW"}
        assert any(x.pair == 3 and x.names == "EW: Cecilia Dahl & Dan Ek" for x in lines)
    live = [r for r in results if r.status == "accepted"]
    assert len(live) == 49  # 7 tables x 7 rounds x 1 board
    for r in live:
        assert (r.ns_pair, r.ew_pair) == (r.table, 7 + (r.table - r.round) % 7 + 1)
    section = snapshot["sections"]["A"]
    assert section["pairs"]["10"] == {
        "label": "EW 3",
        "direction": "EW",
        "names": "Cecilia Dahl & Dan Ek",
        "players": [{"name": "Cecilia Dahl"}, {"name": "Dan Ek"}],  # [MENDS] #25 G8
    }
    assert section["pairs"]["3"]["label"] == "NS 3"
    assert list(section["pairs"])[:7] == [str(p) for p in range(1, 8)]  # NS field first
    rows = section["standings"]
    assert [r["direction"] for r in rows] == ["NS"] * 7 + ["EW"] * 7
    assert {r["label"] for r in rows if r["direction"] == "EW"} == {f"EW {k}" for k in range(1, 8)}


def test_the_adapter_reads_a_switched_round_by_the_seats():
    """An arrow-switched 7-table Mitchell: in a switched round EW k sits NS, and is assigned
    as k in the ns field; the RESULT echoing it (and an assignment the terminal never
    took) comes back as the hub's pair 7 + k, the NS pair k it meets as k."""
    from drivers.protocol.link import GaveUp, Received
    from drivers.protocol.messages import Result
    from hub.event.movement.mitchell import mitchell
    from hub.live.port.base_station import request, undelivered

    m = mitchell(7, 1, arrow_switch=True)
    rnd, table = m.layout.arrow_switch[0]
    row = m.row("A", table, rnd)
    assert row is not None and row.ns_pair > 7 >= row.ew_pair
    rooms = numbering({"A": m})
    sent = Result(
        "A", table, rnd, row.boards[0], row.ns_pair - 7, row.ew_pair, "3NT", 0, "", 9, 0, 1
    )
    got = request("station-0", Received(1, 1, 1, sent), rooms)
    assert (got.ns_pair, got.ew_pair) == (row.ns_pair, row.ew_pair)
    lost = Assignment("A", table, rnd, row.ns_pair - 7, row.ew_pair, row.boards)
    back = undelivered("station-0", GaveUp(1, lost, 5), rooms).assignment
    assert back is not None and (back.ns_pair, back.ew_pair) == (row.ns_pair, row.ew_pair)
