"""Issue 16 [TEAMS], decisions D19: team events drawn while they run, in the running hub.
Simulated terminals in both rooms of every match (real ptys, the wire); each draw made from
the live VP standings, published at once or by the director through the hub's commands,
appended to the movement without touching earlier rounds, audited with its lot seed."""

from __future__ import annotations

import asyncio
from fractions import Fraction

import pytest
from hub_stub import wait_until
from team_events import drawn_event, stored_round_1

from drivers.protocol.messages import Assignment, NextSeating, Settings
from hub.api.server import CommandError
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal


class Room:
    """A store, the hub and one simulated base station with a terminal at every table."""

    def __init__(self, tmp_path, event: str, tables: int) -> None:
        self.store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        self.eid = self.store.create_event(event)
        self.line = PtyLine(tmp_path / "base-1")
        self.station = VirtualBaseStation(self.line)
        for t in range(1, tables + 1):
            bot = PlayerBot(seed=t)
            self.station.add_terminal(VirtualTerminal(t, f"BM-{t}", "A", t, bot, speed=50_000))
        self.hub = HubService(self.store, self.eid, [str(self.line.path)])

    async def stop(self) -> None:
        await self.station.stop()
        await self.hub.stop()

    def close(self) -> None:
        self.store.close()
        self.line.close()

    def rounds(self) -> list[list[tuple[int, int]]]:
        """Each drawn round's matches as (NS team at the open table, its EW team)."""
        m = self.store.movement(self.eid, "A")
        return [
            [(r.ns_pair, r.ew_pair) for r in m.round_rows(n, "A") if r.table % 2 and r.ns_pair]
            for n in range(1, m.layout.drawn + 1)
        ]


def repeats(rounds: list[list[tuple[int, int]]]) -> list[int]:
    """How many matches of each round repeat an earlier meeting."""
    met: set[frozenset[int]] = set()
    out = []
    for matches in rounds:
        out.append(sum(frozenset(m) in met for m in matches))
        met |= {frozenset(m) for m in matches}
    return out


def test_a_monrad_of_9_teams_published_at_once_gives_each_bye_to_a_new_team(tmp_path):
    """Seed 002's Gröna Hissen with an odd number of teams: every round is drawn from the
    standings after the round before and published at once; the bye goes to a team
    without one; a bye scores the event's fixed VP. Every match's VPs sum to 20 on the
    WBF 20-point scale, so 5 rounds of 4 matches and 5 byes of 12 VP make 460 VP in all."""
    event = drawn_event(
        "monrad",
        9,
        5,
        'publish = "at_once"',
        rules='[rules.teams.bye]\nrule = "fixed"\nvp = "12"',
    )
    room = Room(tmp_path, event, 8)

    async def scenario():
        await room.hub.start()
        room.station.start()
        try:
            await wait_until(room.hub.session_done.is_set, 120, "5 drawn rounds to be played")
            return room.hub.standings_rows("A")
        finally:
            await room.stop()

    rows = asyncio.run(scenario())
    drawn = room.rounds()
    audit = room.store.audit_log(room.eid, "draw_published")
    room.close()
    assert len(drawn) == 5 and all(len(r) == 4 for r in drawn)
    for matches in drawn:
        teams = [t for m in matches for t in m]
        assert len(set(teams)) == 8  # nobody twice in a round
    byes = [d["detail"]["draw"]["byes"][0]["team"] for d in audit]
    assert len(set(byes)) == 5  # a bye to a team that has not had one
    assert [{t for m in r for t in m} | {b} for r, b in zip(drawn, byes, strict=True)] == [
        set(range(1, 10))
    ] * 5
    assert [d["detail"]["draw"]["repeats"] for d in audit] == repeats(drawn)
    assert all(d["detail"]["draw"]["lot_seed"] == 7 for d in audit)
    assert sum(Fraction(r["total"]) for r in rows) == 460


def test_a_danish_drawn_by_the_director_pairs_1v2_3v4_by_the_standings_shown(tmp_path):
    """Seed 001: round 1 by the teams' average masterpoints, then 1v2, 3v4 … by the
    current standing (WBF tie-breaks, as the event names them), repeats allowed. The
    director sees each draw and publishes it; while the round it is drawn from is at the
    tables the draw is refused, saying so, and the room waits for the draw."""
    listed = "\n".join(
        f'[[sessions.sections.teams]]\nnumber = {n}\nname = "T{n}"\n'
        f'players = [{{ name = "P{n}a", masterpoints = {mp} }}, '
        f'{{ name = "P{n}b", masterpoints = {mp + 10} }}]'
        for n, mp in zip(range(1, 9), (5, 80, 40, 20, 60, 10, 70, 30), strict=True)
    )  # averages 10, 85, 45, 25, 65, 15, 75, 35: by masterpoints 2, 7, 5, 3, 8, 4, 6, 1
    event = drawn_event("danish", 8, 3, rules='tie_breaks = "wbf"') + "\n" + listed
    room = Room(tmp_path, event, 8)
    hub = room.hub

    async def publish(rnd: int) -> dict:
        await wait_until(lambda: "A" in hub.draws.proposals, 60, f"round {rnd}'s draw")
        shown = await hub.commands.dispatch("draw_show", {"section": "A"}, "TD")
        assert shown["round"] == rnd
        return await hub.commands.dispatch("draw_publish", {"section": "A", "round": rnd}, "TD")

    async def scenario():
        await hub.start()
        try:
            first = await publish(1)
            with pytest.raises(CommandError, match="drawn from the standings after round 1"):
                await hub.commands.dispatch("draw_show", {"section": "A"}, "TD")
            room.station.start()
            later = []
            for rnd in (2, 3):
                await wait_until(
                    lambda r=rnd: hub.rounds.controller("A").is_complete(r - 1), 60, "a round"
                )
                order = [row["team"] for row in hub.standings_rows("A")]
                later.append((order, await publish(rnd)))
            await wait_until(hub.session_done.is_set, 60, "round 3 to be played")
            return first, later
        finally:
            await room.stop()

    first, later = asyncio.run(scenario())
    room.close()

    def teams(shown):
        return [(m["home"]["team"], m["away"]["team"]) for m in shown["matches"]]

    # the higher-ranked team at home (seed 001 is silent; seed 002's play-off rule)
    assert teams(first) == [(2, 7), (5, 3), (8, 4), (6, 1)]
    for order, shown in later:
        assert teams(shown) == [tuple(order[i : i + 2]) for i in range(0, 8, 2)]


def test_a_restarted_hub_keeps_the_published_rounds_and_offers_the_next_draw_again(tmp_path):
    """D19: a draw and its publication are in the store. A hub stopped after round 1 of a
    Danish (round 2 not drawn yet) starts again waiting at the end of round 1, tells the
    director the draw is ready, and moves on when it is published."""
    event = drawn_event("danish", 4, 3, rules='tie_breaks = "wbf"')
    room = Room(tmp_path, event, 4)

    async def first_hub():
        await room.hub.start()
        try:
            await room.hub.commands.dispatch("draw_publish", {"section": "A", "round": 1}, "TD")
            room.station.start()
            await wait_until(lambda: "A" in room.hub.draws.proposals, 60, "round 2's draw")
        finally:
            await room.stop()

    async def second_hub():
        hub = HubService(room.store, room.eid, [])
        await hub.start()
        try:
            assert hub.sections["A"].movement.layout.drawn == 1
            controller = hub.rounds.controller("A")
            assert controller.round == 1 and controller.is_complete(1)
            await wait_until(lambda: "A" in hub.draws.proposals, 10, "the draw offered again")
            snap = (await hub.snapshot())["sections"]["A"]
            assert snap["draw"] == {"method": "danish", "drawn": 1, "waiting": True}
            assert any("round 2 of section A is drawn" in a for a in hub.alerts.recent())
            shown = await hub.commands.dispatch("draw_publish", {"section": "A", "round": 2}, "TD")
            await wait_until(lambda: hub.rounds.current("A") == 2, 10, "round 2 to start")
            return shown
        finally:
            await hub.stop()

    asyncio.run(first_hub())
    shown = asyncio.run(second_hub())
    audit = room.store.audit_log(room.eid, "draw_published")
    room.close()
    assert shown["round"] == 2 and [a["detail"]["from_round"] for a in audit] == [1, 2]


def test_a_draw_shown_before_a_correction_is_not_published_as_it_was(tmp_path):
    """The director publishes what was reviewed: a score corrected after the draw was
    shown changes the standing it is drawn from, so the publication is refused until the
    draw is shown again. tests/cli/test_team_draw_cli.py's worked round 1 (standing 1, 3, 4, 2:
    1 v 3, 4 v 2); the director then gives team 4 a 4H making at table 3 on board 1 (+420
    to team 4 against its +90 in the other room: 11 IMPs), so the standing is 1, 4, 3, 2."""
    url, eid = stored_round_1(tmp_path)
    store = Store.open(url)

    async def scenario():
        hub = HubService(store, eid, [])
        await hub.start()
        try:
            await wait_until(lambda: "A" in hub.draws.proposals, 10, "round 2's draw")
            shown = await hub.commands.dispatch("draw_show", {"section": "A"}, "TD")
            correction = {"section": "A", "table": 3, "round": 1, "board": 1}
            correction |= {"contract": "4H", "declarer": "E", "result": "="}
            await hub.commands.dispatch("enter_result", correction, "TD")
            with pytest.raises(CommandError, match="changed since it was shown"):
                await hub.commands.dispatch("draw_publish", {"section": "A", "round": 2}, "TD")
            again = await hub.commands.dispatch("draw_show", {"section": "A"}, "TD")
            await hub.commands.dispatch("draw_publish", {"section": "A", "round": 2}, "TD")
            return shown, again
        finally:
            await hub.stop()

    shown, again = asyncio.run(scenario())
    movement = store.movement(eid, "A")
    store.close()

    def teams(s):
        return [(m["home"]["team"], m["away"]["team"]) for m in s["matches"]]

    assert teams(shown) == [(1, 3), (4, 2)]
    assert teams(again) == [(1, 4), (3, 2)]
    assert movement.row("A", 1, 2).ns_pair == 1 and movement.row("A", 1, 2).ew_pair == 4


def test_late_joiners_in_a_swiss_meet_each_other_first_with_the_vp_of_a_position(tmp_path):
    """Seed 000 (Swiss plate): teams joining late get the VP of the 4th-placed team after
    the round before and "match up against each other … by means of a random draw" in
    their first round; before it they are not drawn and have no bye."""
    event = drawn_event(
        "swiss",
        8,
        3,
        rules="[[rules.teams.late_joiners]]\nteams = [7, 8]\nfirst_round = 2\nvp_of_position = 4",
    )
    room = Room(tmp_path, event, 8)
    hub = room.hub

    async def scenario():
        await hub.start()
        room.station.start()
        after_1: list[dict] = []
        try:
            for rnd in (1, 2, 3):
                await wait_until(lambda: "A" in hub.draws.proposals, 60, f"round {rnd}'s draw")
                if rnd == 2:  # the room waits for the director: round 1's standings hold
                    after_1 = hub.standings_rows("A")
                await hub.commands.dispatch("draw_publish", {"section": "A", "round": rnd}, "TD")
            await wait_until(hub.session_done.is_set, 60, "3 rounds to be played")
            return after_1
        finally:
            await room.stop()

    rows = asyncio.run(scenario())
    drawn = room.rounds()
    audit = room.store.audit_log(room.eid, "draw_published")
    room.close()
    assert sorted(t for m in drawn[0] for t in m) == [1, 2, 3, 4, 5, 6]
    assert audit[0]["detail"]["draw"]["byes"] == []  # 7 and 8 had not started: no bye
    assert {frozenset((7, 8))} & {frozenset(m) for m in drawn[1]}  # joiners meet first
    after_1 = {r["team"]: Fraction(r["total"]) for r in rows}
    fourth = sorted((after_1[t] for t in range(1, 7)), reverse=True)[3]
    assert after_1[7] == after_1[8] == fourth  # the VP of the 4th-placed team


def test_a_team_that_withdraws_is_left_out_of_the_next_draws_and_gets_no_bye(tmp_path):
    """The worked round 1 of tests/cli/test_team_draw_cli.py (standing 1, 3, 4, 2), with a bye
    worth 10 VP. Team 2 withdraws: round 2 is drawn among 1, 3 and 4, the bye to the
    lowest-ranked (4), 1 v 3 at the top; team 2 keeps its round-1 result and gets no bye."""
    event = drawn_event(
        "monrad", 4, 3, "first_rounds = [[[1, 2], [3, 4]]]", rules='[rules.teams.bye]\nvp = "10"'
    )
    url, eid = stored_round_1(tmp_path, event)
    store = Store.open(url)

    async def scenario():
        hub = HubService(store, eid, [])
        await hub.start()
        try:
            told = await hub.commands.dispatch("withdraw_team", {"section": "A", "team": 2}, "TD")
            with pytest.raises(CommandError, match="team 2 of section A has already withdrawn"):
                await hub.commands.dispatch("withdraw_team", {"section": "A", "team": 2}, "TD")
            with pytest.raises(CommandError, match="a team that withdraws: withdraw_team"):
                await hub.commands.dispatch(
                    "withdraw_pair", {"section": "A", "pair": 3, "from_round": 2}, "TD"
                )
            shown = await hub.commands.dispatch("draw_show", {"section": "A"}, "TD")
            await hub.commands.dispatch("draw_publish", {"section": "A", "round": 2}, "TD")
            before = {r["team"]: Fraction(r["total"]) for r in hub.standings_rows("A")}
            # round 2 under way: board 3 played in both rooms of 1 v 3
            played = {"section": "A", "table": 1, "round": 2, "board": 3}
            played |= {"contract": "3NT", "declarer": "N", "result": "="}
            await hub.commands.dispatch("enter_result", played, "TD")
            await hub.commands.dispatch("enter_result", played | {"table": 2}, "TD")
            after = {r["team"]: Fraction(r["total"]) for r in hub.standings_rows("A")}
            return told, shown, before, after
        finally:
            await hub.stop()

    told, shown, before, after = asyncio.run(scenario())
    movement = store.movement(eid, "A")
    audit = store.audit_log(eid, "team_withdrawn")
    store.close()
    assert told == {"team": 2, "from_round": 2, "opponents": [], "still_drawn": []}
    assert [(m["home"]["team"], m["away"]["team"]) for m in shown["matches"]] == [(1, 3)]
    assert [b["team"] for b in shown["byes"]] == [4]
    assert movement.layout.withdrawn == ((2, 2),) and audit[0]["detail"]["team"] == 2
    assert before[1] == 20 and before[2] == 0  # round 1: 20-0
    assert after[4] - before[4] == 10  # the bye, once round 2 is under way
    assert after[2] == 0  # the withdrawn team: no bye


def test_before_round_1_is_drawn_the_tables_wait_and_the_clock_waits_for_the_director(tmp_path):
    """A Danish whose round 1 the hub draws (by masterpoints) under ``bridgehub run``'s
    rule that round 1's clock waits for the director: the terminals that log on are told
    the section waits and get no seating (never "0 v 0"); the published draw seats them,
    and the clock still waits for the director's start."""
    room = Room(tmp_path, drawn_event("danish", 4, 2), 4)
    room.hub = HubService(room.store, room.eid, [str(room.line.path)], wait_for_director=True)
    hub = room.hub

    async def scenario():
        await hub.start()
        room.station.start()
        terminals = list(room.station.terminals.values())
        try:
            await wait_until(
                lambda: all(
                    any(isinstance(m, Settings) for m in t.log.received) for t in terminals
                ),
                30,
                "every terminal's log-on answered",
            )
            seated_before = [t.assignment for t in terminals]
            with pytest.raises(CommandError, match="round 1 of section A is not drawn yet"):
                await hub.commands.dispatch("start_clock", {"section": "A"}, "TD")
            await hub.commands.dispatch("draw_publish", {"section": "A", "round": 1}, "TD")
            await wait_until(
                lambda: all(t.assignment is not None for t in terminals), 30, "the seating"
            )
            waiting = hub.sections["A"].waiting
            await hub.commands.dispatch("start_clock", {"section": "A"}, "TD")
            return seated_before, waiting, [t.log.received for t in terminals]
        finally:
            await room.stop()

    seated_before, waiting, received = asyncio.run(scenario())
    room.close()
    assert seated_before == [None] * 4
    assert waiting  # the director starts round 1's clock
    for log in received:
        seats = [m for m in log if isinstance(m, Assignment)]
        assert seats and all(m.ns_pair and m.ew_pair for m in seats)  # never 0 v 0


def test_a_lot_the_hub_drew_is_drawn_the_same_after_a_restart(tmp_path):
    """D19, every lot from a recorded seed: a Monrad's round 1 is drawn by lot; with no
    ``lot_seed`` in the event the hub draws a seed and records it at once, so the draw the
    director saw before a restart is the one offered after it."""
    event = drawn_event("monrad", 6, 2).replace("lot_seed = 7\n", "")
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(event)

    async def shown_by_a_hub():
        hub = HubService(store, eid, [])
        await hub.start()
        try:
            await wait_until(lambda: "A" in hub.draws.proposals, 10, "round 1's draw")
            return await hub.commands.dispatch("draw_show", {"section": "A"}, "TD")
        finally:
            await hub.stop()

    first = asyncio.run(shown_by_a_hub())
    second = asyncio.run(shown_by_a_hub())
    seeds = store.audit_log(eid, "draw_lot_seed")
    store.close()
    assert first == second
    assert [s["detail"]["lot_seed"] for s in seeds] == [first["lot_seed"]]


def test_a_room_that_waited_for_a_slow_draw_is_told_where_to_go_then(tmp_path):
    """docs/protocol.md §4 NEXT_SEATING: a table that finished its round is told where its
    pairs go next. When the director publishes round 2 only after round 1 is over, every
    table gets round 2's seating, then its assignment; none is left without it. A draw
    is never worked out before the live scores are built."""
    room = Room(tmp_path, drawn_event("danish", 4, 2, rules='tie_breaks = "wbf"'), 4)
    hub = room.hub

    async def scenario():
        await hub.start()
        hub.draws._ready.clear()  # as during a restart's load (nothing offered yet)
        hub.draws.proposals.clear()
        await hub.draws.round_complete("A", 0)
        offered_while_loading = dict(hub.draws.proposals)
        hub.draws._ready.set()
        await hub.draws.round_complete("A", 0)
        await hub.commands.dispatch("draw_publish", {"section": "A", "round": 1}, "TD")
        room.station.start()
        try:
            await wait_until(lambda: "A" in hub.draws.proposals, 60, "round 2's draw")
            terminals = list(room.station.terminals.values())
            told_before = [
                [m for m in t.log.received if isinstance(m, NextSeating)] for t in terminals
            ]
            await hub.commands.dispatch("draw_publish", {"section": "A", "round": 2}, "TD")
            await wait_until(hub.session_done.is_set, 60, "round 2 to be played")
            return offered_while_loading, told_before, [t.log.received for t in terminals]
        finally:
            await room.stop()

    offered_while_loading, told_before, logs = asyncio.run(scenario())
    room.close()
    assert offered_while_loading == {}
    assert told_before == [[]] * 4  # round 2 had no seats: nothing to tell yet
    for log in logs:
        kinds = [type(m).__name__ for m in log if isinstance(m, NextSeating | Assignment)]
        seated = [m for m in log if isinstance(m, NextSeating) and m.round == 2]
        assert seated and all(m.table for m in seated)  # a real table, not "sit out"
        assert kinds.index("NextSeating") < max(
            i for i, k in enumerate(kinds) if k == "Assignment"
        )  # told where to go before round 2's assignment
