"""Issue [TEAMS], decisions D19 with ``odd = "three_way"``: an odd field of a Swiss plays a
three-way match (movements.md 5.5, ASE Scorer's two-round three-way) instead of a bye, in
the running hub: proposed, shown, published into the movement, the next round drawn
around it, the last round given a bye. Worked by hand below (WBF 20-point scale, 2 boards
a match; board 1 none vulnerable: 3NT= +400, 3NT-1 −50; board 2 NS vulnerable: +600,
−100).

Round 1 (first_rounds 1-2, 3-4, 5-6; a Swiss seats the higher number at home, seed 000 §8:
2 v 1, 4 v 3, 6 v 5; team 7 has the bye, fixed 12 VP):
- 2 v 1: board 1 +400 / −50 (450: 10 IMPs), board 2 +600 / −100 (700: 12): 22 IMPs to 2.
- 4 v 3: board 1 +400 / +400 (0), board 2 +600 / −100 (12): 12 IMPs to 4.
- 6 v 5: board 1 +400 / −50 (10), board 2 +600 / +600 (0): 10 IMPs to 6.
VPs (X = 15·√2 ≈ 21.2 IMPs for a blitz): 22 IMPs 20-0, 12 IMPs ≈ 17.3-2.7, 10 IMPs
≈ 16.5-3.5, all above the bye's 12, so the standing drawn from is 2, 4, 6, 7, 5, 3, 1.

Round 2: the bye would fall to 1 (the lowest without a bye); top-down without repeats the
rest play 2-4, 6-7, 5-3 (home: 4 v 2, 7 v 6, 5 v 3). The lowest match, 5 v 3, has had no
bye: three-way A, B, C = 5, 3, 1 at the last three tables 5, 6, 7 (the odd field's extra
table); 4 v 2 at tables 1/2, 7 v 6 at 3/4. Its six table-rounds: round 2, 5 v 3 at 5,
3 v 1 at 6, 1 v 5 at 7; round 3, 5 v 1 at 5, 3 v 5 at 6, 1 v 3 at 7.

Rounds 2 and 3 are 3NT= everywhere: every match 0 IMPs, 10-10.

Round 3: 5, 3, 1 are seated; 2, 4, 6, 7 are drawn (standing 2, 4, 6, 7): 2 has met 4,
so 2 v 6 and 4 v 7 (home 6 v 2, 7 v 4) at tables 1/2 and 3/4; no bye.

Round 4, the last: no three-way. 7 had the bye and 5, 3, 1 the three-way, so the bye goes
to the lowest of 2, 4, 6 (standing 2, 4, 6, 7, 5, 3, 1): 6. Of 2, 4, 7, 5, 3, 1 with no
repeat (3 has met 4, 5, 1; 1 has met 2, 3, 5), top-down: 2 v 7 would leave 3 only
repeats, so 2 v 5; then 4 v 1 (4 v 7 would leave 3 v 1); 7 v 3. Home: 5 v 2, 4 v 1, 7 v 3.
"""

from __future__ import annotations

import asyncio
import dataclasses
from fractions import Fraction

import pytest
from hub_stub import wait_until
from team_events import drawn_event

from hub.console.draw_keys import draw_text
from hub.event.event_file import EventFileError, parse_event
from hub.event.movement.build import build_movement
from hub.event.movement.model import ThreeWay
from hub.live.service.hub_service import HubService
from hub.store.store import ResultEntry, Store

EVENT = drawn_event(
    "swiss",
    7,
    4,
    "first_rounds = [[[1, 2], [3, 4], [5, 6]]]",
    'odd = "three_way"',
    rules='[rules.teams.bye]\nrule = "fixed"\nvp = "12"',
)
# (table, board, NS team, EW team, declarer's tricks in 3NT by N)
ROUND_1 = [
    (1, 1, 2, 1, 9), (1, 2, 2, 1, 9), (2, 1, 1, 2, 8), (2, 2, 1, 2, 8),
    (3, 1, 4, 3, 9), (3, 2, 4, 3, 9), (4, 1, 3, 4, 9), (4, 2, 3, 4, 8),
    (5, 1, 6, 5, 9), (5, 2, 6, 5, 9), (6, 1, 5, 6, 8), (6, 2, 5, 6, 9),
]  # fmt: skip


def teams(shown: dict) -> list[tuple[int, int]]:
    return [(m["home"]["team"], m["away"]["team"]) for m in shown["matches"]]


def test_a_swiss_of_7_teams_plays_a_three_way_instead_of_a_bye(tmp_path):
    """The module docstring's worked event: round 2's draw proposes the three-way 5, 3, 1;
    publishing it seats its six table-rounds over rounds 2 and 3; round 3's draw leaves
    5, 3 and 1 out; round 4, the last, has a bye again (to a team that had no turn)."""
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(EVENT)
    store.record(
        eid,
        [
            ResultEntry("A", t, 1, b, ns, ew, contract="3NT", declarer="N", tricks=k)
            for t, b, ns, ew, k in ROUND_1
        ],
    )

    async def scenario():
        hub = HubService(store, eid, [])
        await hub.start()
        shown = {}
        standings = {}
        try:
            for rnd in (2, 3, 4):
                await wait_until(lambda: "A" in hub.draws.proposals, 30, f"round {rnd}'s draw")
                standings[rnd - 1] = {
                    r["team"]: Fraction(r["total"]) for r in hub.standings_rows("A")
                }
                shown[rnd] = await hub.commands.dispatch("draw_show", {"section": "A"}, "TD")
                await hub.commands.dispatch("draw_publish", {"section": "A", "round": rnd}, "TD")
                if rnd == 4:
                    break
                movement = hub.sections["A"].movement
                for row in movement.round_rows(rnd, "A"):
                    for board in row.boards if row.ns_pair else ():
                        played = {"section": "A", "table": row.table, "round": rnd}
                        played |= {"board": board, "contract": "3NT", "declarer": "N"}
                        await hub.commands.dispatch("enter_result", played | {"result": "="}, "TD")
            feed = [e for e in hub.feed.since(0) or [] if e["event"].startswith("draw_")]
            return shown, standings, feed
        finally:
            await hub.stop()

    shown, standings, feed = asyncio.run(scenario())
    movement = store.movement(eid, "A")
    audit = store.audit_log(eid, "draw_published")
    store.close()

    # round 2: the three-way instead of 1's bye, the regular matches at the free tables
    assert teams(shown[2]) == [(4, 2), (7, 6)]
    assert [m["tables"] for m in shown[2]["matches"]] == [[1, 2], [3, 4]]
    assert shown[2]["byes"] == [] and shown[2]["repeats"] == 0
    way = shown[2]["three_way"]
    assert [t["team"] for t in way["teams"]] == [5, 3, 1]
    assert way["tables"] == [5, 6, 7] and way["rounds"] == [2, 3]
    assert shown[2]["three_way_continued"] is None
    assert "three-way: 5, 3, 1 at tables 5/6/7, rounds 2-3" in draw_text(shown[2])
    # published: the six table-rounds seated
    assert movement.layout.three_ways == (ThreeWay(2, (5, 3, 1), (5, 6, 7)),)
    seats = {(r.table, r.round): (r.ns_pair, r.ew_pair) for r in movement.rows if r.table >= 5}
    assert [seats[(t, 2)] for t in (5, 6, 7)] == [(5, 3), (3, 1), (1, 5)]
    assert [seats[(t, 3)] for t in (5, 6, 7)] == [(5, 1), (3, 5), (1, 3)]
    # round 3: 5, 3 and 1 left out of the draw; no bye
    assert teams(shown[3]) == [(6, 2), (7, 4)]
    assert [m["tables"] for m in shown[3]["matches"]] == [[1, 2], [3, 4]]
    assert shown[3]["byes"] == [] and shown[3]["three_way"] is None
    assert [t["team"] for t in shown[3]["three_way_continued"]["teams"]] == [5, 3, 1]
    # round 4, the last: a bye to 6, who had no turn
    assert teams(shown[4]) == [(5, 2), (4, 1), (7, 3)]
    assert [b["team"] for b in shown[4]["byes"]] == [6] and shown[4]["three_way"] is None
    assert shown[4]["repeats"] == 0
    # standings (as the screens show them): round 1 as worked (team 7 with its bye's 12
    # VP, though no team list names it: a drawn event's teams are 1-7); after round 2 the
    # three-way is half played and counts nothing yet; after round 3 it is two 10-10
    # matches, as the regular rounds are
    after_1, after_2, after_3 = standings[1], standings[2], standings[3]
    assert after_1[2] == 20 and after_1[1] == 0
    assert sorted(after_1, key=after_1.__getitem__, reverse=True) == [2, 4, 6, 7, 5, 3, 1]
    assert after_2[7] == 12 + 10 and after_3[7] == 12 + 20
    assert all(after_2[t] == after_1[t] for t in (5, 3, 1))
    assert all(after_2[t] - after_1[t] == 10 for t in (2, 4, 6))
    assert all(after_3[t] - after_1[t] == 20 for t in (1, 2, 3, 4, 5, 6))
    # the audit trail holds each published draw, the three-way with it
    assert [a["detail"]["draw"]["round"] for a in audit] == [2, 3, 4]
    assert audit[0]["detail"]["draw"]["three_way"] == way
    # and the feed told the clients of it, proposed and published
    told = [(e["event"], e["round"], e["three_way"]) for e in feed if e["round"] == 2]
    assert told == [("draw_proposed", 2, way), ("draw_published", 2, way)]


def test_odd_three_way_gives_the_field_its_extra_table_and_needs_a_draw():
    """``odd = "three_way"``: 7 teams have 3 pairs of tables and the three-way's seventh
    table (bye: 6 tables); a movement that is not drawn is refused, naming the key path."""
    for odd, tables in (("three_way", 7), ("bye", 6)):
        event = parse_event(drawn_event("swiss", 7, 4, f'odd = "{odd}"'))
        section = event.sessions[0].sections[0]
        movement = build_movement(section.movement, "A")
        assert {r.table for r in movement.rows} == set(range(1, tables + 1))
    undrawn = drawn_event("swiss", 7, 4, 'odd = "three_way"').replace('draw = "swiss"\n', "")
    with pytest.raises(EventFileError) as e:
        parse_event(undrawn)
    assert any(path.startswith("sessions[0].sections[0].movement") for path, _ in e.value.problems)
    assert "odd are for a drawn event: add draw" in str(e.value)


@pytest.mark.parametrize("delayed", [False, True])
def test_three_teams_a_three_way_whose_second_round_leaves_nothing_to_draw(delayed):
    """Three teams, ``odd = "three_way"``, 3 rounds. Round 1: a Swiss of 3 draws one match
    (by lot: nobody has a score) and a bye; the bye team joins that match: a three-way of
    all three. Round 2 is its second round: every team is seated, so the draw is empty
    and publishing it only marks the round drawn (the room does not wait for ever). Round
    3, the last, has no round after it: a match and a bye. One round delayed, round 3 is
    drawn while round 2 is at the tables, and is still round 3 (the round the three-way
    alone plays adds nothing to the history the method counts rounds from)."""
    from hub.event.movement.drawn import with_round
    from hub.live.teams.draw_proposal import draw_spec, propose
    from hub.live.views import TeamsLive

    lines = ['odd = "three_way"'] + (["delayed = true"] if delayed else [])
    event = parse_event(drawn_event("swiss", 3, 3, *lines))
    movement = build_movement(event.sessions[0].sections[0].movement, "A")
    spec = draw_spec(event, "A")
    assert spec is not None and spec.three_way
    live = TeamsLive(event, "A", movement, {})

    def drawn(rnd: int) -> tuple:
        over = (lambda r: r < rnd - 1) if delayed else (lambda r: True)
        draw = propose(spec, movement, "A", live, over, lot_seed=7)
        assert draw.round == rnd
        return (len(draw.matches), draw.byes, draw.three_way)

    matches, byes, way = drawn(1)
    assert (matches, byes, sorted(way)) == (0, (), ["1", "2", "3"])
    a, b, c = (int(t) for t in way)
    movement = with_round(movement, "A", 1, [], teams=3, three_way=(a, b, c))
    live.follow(movement)
    assert drawn(2) == (0, (), ())
    movement = with_round(movement, "A", 2, [], teams=3)
    live.follow(movement)
    assert movement.layout.drawn == 2
    assert [(r.ns_pair, r.ew_pair) for r in movement.round_rows(2, "A")] == [
        (a, c),
        (b, a),
        (c, b),
    ]
    matches, byes, way = drawn(3)
    assert (matches, len(byes), way) == (1, 1, ())


def test_a_round_drawn_ahead_shows_its_matches_as_it_starts(tmp_path):
    """One round delayed, round 2 is drawn from the standings after round 0, so it is
    published while round 1 is at the tables. When round 1's last result is in, round 2
    starts by itself and its matches go out at once (the ``matches`` event after
    ``round_started``): the two regular matches and the three-way's three, each room in
    its round. A client rebuilding round 2 from round 1's tables would show a match at
    tables 5/6 that never plays."""
    event = drawn_event(
        "swiss",
        7,
        4,
        "delayed = true",
        "first_rounds = [[[1, 2], [3, 4], [5, 6]]]",
        'odd = "three_way"',
    )
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(event)

    async def scenario():
        hub = HubService(store, eid, [])
        await hub.start()
        try:
            await wait_until(lambda: "A" in hub.draws.proposals, 30, "round 2's draw")
            await hub.commands.dispatch("draw_publish", {"section": "A", "round": 2}, "TD")
            assert hub.rounds.current("A") == 1
            seen = hub.feed.seq
            for t, b, _ns, _ew, k in ROUND_1:
                played = {"section": "A", "table": t, "round": 1, "board": b}
                played |= {"contract": "3NT", "declarer": "N", "result": "=" if k == 9 else "-1"}
                await hub.commands.dispatch("enter_result", played, "TD")
            await wait_until(lambda: hub.rounds.current("A") == 2, 30, "round 2 to start")
            return [e for e in hub.feed.since(seen) or [] if e["event"] == "matches"]
        finally:
            await hub.stop()

    lists = asyncio.run(scenario())
    movement = store.movement(eid, "A")
    store.close()
    (way,) = movement.layout.three_ways
    a, b, c = way.teams
    second = [e for e in lists if e["round"] == 2]
    assert second, "round 2's matches were not sent as it started"
    rows = second[-1]["matches"]
    rooms = [(m["home"], m["away"], m["open_round"], m["closed_round"]) for m in rows]
    assert rooms[-3:] == [(a, b, 2, 3), (b, c, 2, 3), (c, a, 2, 3)]
    assert len(rows) == 5 and all(m["open_round"] == m["closed_round"] == 2 for m in rows[:2])


def test_a_withdrawal_that_evens_the_field_gives_a_bye_not_another_three_way():
    """Nine teams; round 1 drew 9 v 1, 8 v 2, 7 v 5 and the three-way 4, 3, 6. Team 1
    withdraws from round 2: the field is 8, even. Round 2 seats 4, 3 and 6 (the three-way's
    second round) and draws the other five: one of them has a bye, and no new three-way
    starts beside the one still playing (else every round after would start one)."""
    from hub.event.movement.drawn import drawn_teams, with_round
    from hub.live.teams.draw_proposal import draw_spec, propose
    from hub.live.views import TeamsLive

    event = parse_event(drawn_event("swiss", 9, 6, 'odd = "three_way"'))
    movement = drawn_teams(9, 6, 2, "swiss", three_ways=True)
    movement = with_round(movement, "A", 1, [(9, 1), (8, 2), (7, 5)], teams=9, three_way=(4, 3, 6))
    movement = dataclasses.replace(
        movement, layout=dataclasses.replace(movement.layout, withdrawn=((1, 2),))
    )
    spec = draw_spec(event, "A")
    assert spec is not None
    draw = propose(spec, movement, "A", TeamsLive(event, "A", movement, {}), lambda r: True, 7)
    drawn = {t for p in draw.matches for t in (p.home, p.away)} | set(draw.byes)
    assert (draw.round, draw.three_way, len(draw.byes)) == (2, (), 1)
    assert drawn == {"2", "5", "7", "8", "9"}


def test_a_three_ways_sets_come_after_every_board_of_the_session():
    """The sections of a session share one set of deals: section B's three-way plays sets
    after section A's boards too (A: 6 rounds x 2 boards, 1-12; B: 4 rounds, 1-8), 13-18,
    so no table plays a deal another section plays in another round."""
    from hub.event.movement.drawn import drawn_teams, free_board, with_round

    a = drawn_teams(8, 6, 2, "swiss", section="A")
    b = drawn_teams(9, 4, 2, "swiss", section="B", three_ways=True)
    assert free_board([a, b]) == 13 and free_board([b]) == 9
    b = with_round(
        b, "B", 1, [(9, 1), (8, 2), (7, 5)], teams=9, three_way=(4, 3, 6), first_board=13
    )
    assert [b.row("B", t, 1).boards for t in (7, 8, 9)] == [(13, 14), (15, 16), (17, 18)]
    assert free_board([a, b]) == 19
