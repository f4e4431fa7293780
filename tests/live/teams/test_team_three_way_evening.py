"""Issue 16 [TEAMS]: "3-way matches when the number of teams is odd", end to end. A Swiss
of 9 teams over 4 rounds, one round delayed, with ``odd = "three_way"`` on 9 tables
(terminals on real ptys), the director publishing every draw through the API as a console
does.

The three-way over two rounds at normal length (movements.md 5.5, ASE Scorer): in round N
A v B at table a (set X), B v C at b (Y), C v A at c (Z); in round N+1 A v C at a (Z),
B v A at b (X), C v B at c (Y). So each team has its NS pair at one table and its EW pair at
another in every round, no team sits out, and no team plays a second three-way while
others have had none (movements.md 5.5: "the scorer may allow a team only one three-way").

Checked apart from the hub's scoring: each three-way match's IMPs are worked here from the
stored results of its two rooms with the WBF IMP scale written out below, and every match
(regular or three-way) splits 20 VP between its teams (WBF 20-point scale).
"""

from __future__ import annotations

import asyncio
from fractions import Fraction

from club_evening import PIN, Director
from endplay.types import Contract, Denom, Penalty, Player, Vul
from hub_stub import wait_until
from team_events import drawn_event

from hub.live.service.hub_service import HubService
from hub.store.store import Store
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

TEAMS, ROUNDS = 9, 4
EVENT = drawn_event("swiss", TEAMS, ROUNDS, 'odd = "three_way"', "delayed = true")
# WBF IMP scale: the lower bound of each IMP step, 20 ... 4000 points
IMP_STEPS = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300,
             1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000)  # fmt: skip


def endplay_ns_score(contract: str, declarer: str, tricks: int, board: int) -> int:
    """The NS score of a played contract, worked by endplay (not the hub's scoring)."""
    if contract.upper() in ("PASS", "P", "AP"):
        return 0
    doubled = len(contract) - len(contract.rstrip("Xx"))
    level, denom = int(contract[0]), contract[1:].rstrip("Xx")
    played = Contract(
        level=level,
        denom=Denom.find(denom),
        declarer=Player.find(declarer),
        penalty=(Penalty.passed, Penalty.doubled, Penalty.redoubled)[doubled],
        result=tricks - 6 - level,
    )
    score = played.score(Vul.from_board(board))
    return score if declarer in "NS" else -score


def wbf_imps(diff: int) -> int:
    return (1 if diff > 0 else -1) * sum(abs(diff) >= step for step in IMP_STEPS)


async def proposed(td: Director, rnd: int) -> dict:
    """The director's ``draw_show`` once round ``rnd``'s draw is proposed (round 1's is
    proposed as the hub starts, before the director is in): a bounded wait."""
    for _ in range(600):
        shown = await td.command("draw_show", section="A")
        if shown.get("ok") and shown.get("round") == rnd:
            return shown
        await asyncio.sleep(0.2)
    raise AssertionError(f"round {rnd}'s draw was not proposed in 120 s: {shown}")


def test_an_odd_swiss_plays_three_way_matches_instead_of_byes(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'odd.db'}")
    eid = store.create_event(EVENT)
    line = PtyLine(tmp_path / "base-1")
    station = VirtualBaseStation(line, serial="BS-1")
    for table in range(1, TEAMS + 1):  # 4 matches and a three-way's extra table
        station.add_terminal(
            VirtualTerminal(
                table, f"BM-{table:02d}", "A", table, PlayerBot(seed=table), speed=50_000
            )
        )
    hub = HubService(store, eid, [str(line.path)], api=("127.0.0.1", 0), td_pin=PIN)

    async def scenario():
        await hub.start()
        td = Director(f"ws://127.0.0.1:{hub.api.port}/v1")
        td.start()
        try:
            station.start()
            for rnd in range(1, ROUNDS + 1):
                shown = await proposed(td, rnd)
                starts, goes_on = shown["three_way"], shown["three_way_continued"]
                if rnd % 2:  # rounds 1 and 3 start one, rounds 2 and 4 play it on
                    assert starts["tables"] == [7, 8, 9] and goes_on is None, shown
                    assert starts["rounds"] == [rnd, rnd + 1] and len(shown["matches"]) == 3
                else:
                    assert starts is None and goes_on["rounds"] == [rnd - 1, rnd], shown
                    assert [m["tables"] for m in shown["matches"]] == [[1, 2], [3, 4], [5, 6]]
                published = await td.command("draw_publish", section="A", round=rnd)
                assert published["ok"], published
            await wait_until(hub.session_done.is_set, 180, f"{ROUNDS} rounds to be played")
            await wait_until(
                lambda: any(e["final"] for e in td.events("standings")), 60, "final standings"
            )
            return list(td.events("standings")), list(td.events("matches"))
        finally:
            await td.stop()
            await station.stop()
            await hub.stop()

    standings, lists = asyncio.run(scenario())
    movement = store.movement(eid, "A")
    results = store.live_results(eid, "A")
    store.close()
    line.close()

    ways = movement.layout.three_ways
    assert [w.round for w in ways] == [1, 3]  # an odd field: rounds 1-2 and 3-4
    assert not set(ways[0].teams) & set(ways[1].teams)  # nobody plays two
    assert [w.tables for w in ways] == [(7, 8, 9), (7, 8, 9)]  # the last three tables
    for n in range(1, ROUNDS + 1):  # every team plays every round: NS once, EW once
        rows = [r for r in movement.round_rows(n, "A") if r.ns_pair]
        assert sorted(r.ns_pair for r in rows) == list(range(1, TEAMS + 1)), n
        assert sorted(r.ew_pair for r in rows) == list(range(1, TEAMS + 1)), n
    assert len(results) == TEAMS * ROUNDS * 2  # 9 tables, 2 boards each, every round

    score = {
        (x.table, x.round, x.board): endplay_ns_score(x.contract, x.declarer, x.tricks, x.board)
        for x in results
    }
    for way in ways:  # the six table-rounds as movements.md 5.5 seats them
        (a, b, c), (ta, tb, tc), n = way.teams, way.tables, way.round
        seated = {(r.table, r.round): (r.ns_pair, r.ew_pair) for r in movement.rows}
        assert [seated[(ta, n)], seated[(tb, n)], seated[(tc, n)]] == [(a, b), (b, c), (c, a)]
        assert [seated[(ta, n + 1)], seated[(tb, n + 1)], seated[(tc, n + 1)]] == [
            (a, c),
            (b, a),
            (c, b),
        ]

    net = dict.fromkeys(range(1, TEAMS + 1), 0)  # each team's IMPs, worked here

    def match(home: int, away: int, ns_room: tuple[int, int], ew_room: tuple[int, int]) -> None:
        boards = movement.row("A", *ns_room).boards
        assert movement.row("A", *ew_room).boards == boards  # the other room's boards
        for x in boards:
            imps = wbf_imps(score[(*ns_room, x)] - score[(*ew_room, x)])
            net[home] += imps
            net[away] -= imps

    for way in ways:  # A v B: A's NS pair at (a, N), its EW pair at (b, N+1); and so on
        (a, b, c), (ta, tb, tc), n = way.teams, way.tables, way.round
        match(a, b, (ta, n), (tb, n + 1))
        match(b, c, (tb, n), (tc, n + 1))
        match(c, a, (tc, n), (ta, n + 1))
    for n in range(1, ROUNDS + 1):  # the regular matches: tables 1-2, 3-4, 5-6
        for t in (1, 3, 5):
            row = movement.row("A", t, n)
            match(row.ns_pair, row.ew_pair, (t, n), (t + 1, n))

    # each new round's matches go out as it starts: rounds 2 and 3 list the three-way's
    # three matches, their rooms a round apart, beside the round's own three
    for rnd, w in ((2, ways[0]), (3, ways[1])):
        listed = [e for e in lists if e["round"] == rnd]
        assert listed, f"no matches event for round {rnd}"
        rows = listed[0]["matches"]
        rooms = (w.round, w.round + 1)
        way = [
            (m["home"], m["away"]) for m in rows if (m["open_round"], m["closed_round"]) == rooms
        ]
        a, b, c = w.teams
        assert way == [(a, b), (b, c), (c, a)] and len(rows) == 6, rows

    # [MENDS] #25 (D1): the hub drew round 1 itself, and still the standings went out
    # after every round with its number, in order, "final" only after the last
    published = [e["round"] for e in standings]
    assert sorted(set(published)) == list(range(1, ROUNDS + 1)), published
    assert published == sorted(published), published
    assert all(e["final"] == (e["round"] == ROUNDS) for e in standings), published
    assert [len(e["rows"]) for e in standings] == [TEAMS] * len(standings), published
    final = next(e for e in standings if e["final"])
    assert final["round"] == ROUNDS
    # 3 regular matches a round and 3 three-way matches every two rounds: 18 matches
    assert sum(Fraction(r["total"]) for r in final["rows"]) == 20 * 18
    assert {r["team"]: Fraction(r["imps"]) for r in final["rows"]} == net
