"""Issue 16 [TEAMS], "3-way matches when the number of teams is odd": a three-way scored
live and in the batch rebuild, on the Matches tab, at the tables and in the PBN export.

The three-way over two rounds at normal length (ASE Scorer; ../shared/docs/movements.md
5.5): teams A, B, C at tables a, b, c; round N: A v B at a (set X), B v C at b (Y), C v A
at c (Z); round N+1: A v C at a (Z), B v A at b (X), C v B at c (Y). Here a 9-team Swiss of
4 rounds x 2 boards, round 1 drawn 9 v 1, 8 v 2, 7 v 3 (tables 1-6) and the three-way of
teams 4, 5, 6 at tables 7, 8, 9 (``with_round``): X = boards 9-10, Y = 11-12, Z = 13-14
(its own sets, after the last round's 7-8: the field's sets are played by all at once). Its
matches, keyed after the 4 pairs of tables (Matches-tab numbers 5, 6, 7) and counted in
event round 2:

    M5  4 v 5  boards 9-10   4 NS at (table 7, round 1), 4 EW at (8, 2)
    M6  5 v 6  boards 11-12  5 NS at (8, 1),             5 EW at (9, 2)
    M7  6 v 4  boards 13-14  6 NS at (9, 1),             6 EW at (7, 2)

Scores entered (NS score of each room; the home team's net on a board is its NS room's
score less its EW room's NS score), IMPs on the WBF scale (20-40 1, ..., 130-160 4,
220-260 6, 430-490 10, 600-740 12):

    M5 b9: (7,1) +620, (8,2) +170: home +450 -> 4 gains 10
    M5 b10: (7,1) -100, (8,2) +140: home -240 -> 5 gains 6        4 v 5: 10-6 over 2 boards
    M6 b11: (8,1) +420, (9,2) +420: 0
    M6 b12: (8,1) -50,  (9,2) +200: home -250 -> 6 gains 6       5 v 6: 0-6 over 2 boards
    M7 b13: (9,1) +600, (7,2) -100: home +700 -> 6 gains 12
    M7 b14: (9,1) +140 only (the second room has not played it)   6 v 4: 12-0 over 1 board

VPs on the event's scale, the WBF continuous 20-point scale ``wbf_continuous_20`` (WBF
2013): winner = 10 + 10·(1 − R^(m/B))/(1 − R), R = τ³ = ((√5 − 1)/2)³ ≈ 0.236068, blitz
B = 15·√boards, rounded to 0.01 (the loser has 20 less). Worked apart from our code:
  2 boards, B = 21.2132: m = 4: R^(0.188562) = e^(−0.272214) = 0.761689,
    10 + 10·0.238311/0.763932 = 13.1195 -> 13.12 / 6.88;
  m = 6: R^(0.282843) = e^(−0.408322) = 0.664788 -> 10 + 4.38800 = 14.388 -> 14.39 / 5.61;
  1 board, B = 15, m = 12: R^(0.8) = e^(−1.154908) = 0.315071 -> 10 + 8.96584 -> 18.97 / 1.03.
Totals: team 4 13.12 + 1.03 = 14.15; team 5 6.88 + 5.61 = 12.49; team 6 14.39 + 18.97 =
33.36.
"""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace
from typing import Any, cast

from team_events import drawn_event

from hub.event.event_file import parse_event
from hub.event.movement.check import check_movement
from hub.event.movement.drawn import drawn_teams, with_round
from hub.event.movement.model import Movement, MovementRow
from hub.export.board_lines import board_lines
from hub.export.pbn import _team_points
from hub.live.port.port_views import MatchScoreView
from hub.live.teams.team_matches import other_room, round_matches, table_match
from hub.live.teams.team_tables import TeamTables
from hub.live.views import LiveViews, TeamsLive
from hub.standings.rebuild import teams_view
from hub.standings.rows import boards_played, teams_rows
from hub.store.store import LiveLine

EVENT = parse_event(drawn_event("swiss", 9, 4, rules='vp_scale = "wbf_continuous_20"'))
# (table, round, board, NS score), as the module docstring enters them
PLAYED = [
    (7, 1, 9, 620),
    (8, 2, 9, 170),
    (7, 1, 10, -100),
    (8, 2, 10, 140),
    (8, 1, 11, 420),
    (9, 2, 11, 420),
    (8, 1, 12, -50),
    (9, 2, 12, 200),
    (9, 1, 13, 600),
    (7, 2, 13, -100),
    (9, 1, 14, 140),
]
F = Fraction


def movement() -> Movement:
    m = drawn_teams(9, 4, 2, "swiss", three_ways=True)
    return with_round(m, "A", 1, [(9, 1), (8, 2), (7, 3)], teams=9, three_way=(4, 5, 6))


def lines(m: Movement, played: list[tuple[int, int, int, int]] = PLAYED) -> list[LiveLine]:
    out = []
    for table, rnd, board, score in played:
        row = m.row("A", table, rnd)
        assert row is not None and board in row.boards
        out.append(
            LiveLine("A", table, rnd, board, row.ns_pair, row.ew_pair, *[None] * 3, score, None)
        )
    return out


def live_of(m: Movement) -> TeamsLive:
    live = TeamsLive(EVENT, "A", m, {4: "Fours", 5: "Fives", 6: "Sixes"})
    for line in lines(m):
        live.put(line)
    return live


def test_the_three_way_movement_passes_the_checks_and_a_wrong_seat_is_named():
    """Its rooms are a round apart, not open/closed pairs of a round: no team-match or
    one-place error; a row that seats the three-way's teams otherwise is a hard error."""
    m = movement()
    assert check_movement(m).ok, check_movement(m).errors
    assert check_movement(with_round(m, "A", 2, [(1, 2), (3, 7), (8, 9)], teams=9)).ok
    swapped = tuple(
        MovementRow("A", 8, 2, 4, 5, r.boards) if (r.table, r.round) == (8, 2) else r
        for r in m.rows
    )
    errors = check_movement(Movement(swapped, m.layout)).errors
    named = [e.message for e in errors if e.rule == "three-way"]
    assert len(named) == 1 and "seats team 5 NS and team 4 EW here" in named[0], errors
    assert "seated-once" in {e.rule for e in errors}  # team 4 NS at tables 7 and 8


def test_match_results_and_standings_vps_live_and_batch_agree():
    """The worked IMPs and VPs of the module docstring, live and in ``teams_view``."""
    m = movement()
    live = live_of(m)
    got = {(p.home, p.away): p.result for p in live.matches()}
    assert set(got) == {(4, 5), (5, 6), (6, 4)}
    expect = {
        (4, 5): (10, 6, F("13.12"), F("6.88"), 2),
        (5, 6): (0, 6, F("5.61"), F("14.39"), 2),
        (6, 4): (12, 0, F("18.97"), F("1.03"), 1),
    }
    for teams, (hi, ai, hv, av, n) in expect.items():
        r = got[teams]
        assert (r.home_imps, r.away_imps, r.home_vp, r.away_vp, r.boards_scored) == (
            hi,
            ai,
            hv,
            av,
            n,
        )
    totals = {r["team"]: F(r["total"]) for r in live.rows()}
    assert (totals[4], totals[5], totals[6]) == (F("14.15"), F("12.49"), F("33.36"))
    view = teams_view(EVENT, "A", m, lines(m))
    assert sorted((p.home, p.away, p.result) for p in view.matches) == sorted(
        (p.home, p.away, p.result) for p in live.matches()
    )
    assert live.rows() == teams_rows(view.team_standings, boards_played(view.matches), live.names)


def test_a_three_way_tables_match_is_seen_from_its_ns_team():
    """``match(table, round)``: M7 (6 v 4) from table 7 in round 2, where 4 sits NS."""
    live = live_of(movement())
    at_c = live.match(9, 1)
    at_a = live.match(7, 2)
    assert at_c is not None and at_a is not None
    assert (at_c.home, at_c.away, at_c.result.home_imps) == (6, 4, 12)
    assert (at_a.home, at_a.away, at_a.result.home_imps, at_a.result.away_vp) == (
        4,
        6,
        0,
        F("18.97"),
    )


def test_a_three_way_traveller_compares_with_the_other_room_a_round_apart():
    """Board 9 at table 8 in round 2 (5 NS v 4): its other room is table 7 in round 1 (4 NS
    +620); 170 − 620 = −450: −10 IMPs to table 8's NS, +10 to table 7's; the earlier
    round's room first. Board 14 has one room played: 0 IMPs until the other plays."""
    live = live_of(movement())
    view = live.traveller(9, 8, 2)
    assert view is not None and view.imps
    assert (view.own_score_ns, view.own_value) == (170, -10)
    assert [(r.ns_pair, r.ew_pair, r.score_ns, r.value) for r in view.rows] == [
        (4, 5, 620, 10),
        (5, 4, 170, -10),
    ]
    first = live.traveller(9, 7, 1)
    assert first is not None and (first.own_score_ns, first.own_value) == (620, 10)
    lone = live.traveller(14, 9, 1)
    assert lone is not None and [(r.score_ns, r.value) for r in lone.rows] == [(140, 0)]
    assert live.traveller(14, 7, 2) is None  # the second room has not played it


def test_the_matches_tab_lists_the_three_way_in_both_its_rounds():
    """Round 1: the three pairs of tables' matches (nothing played) and M5-M7; round 2 (not
    drawn yet elsewhere): M5-M7 only, each with its two tables and rounds; board 14 of M7
    is still out."""
    m = movement()
    live = live_of(m)
    first = round_matches(live, m, "A", 1)
    assert [(x["match"], x["home"], x["away"]) for x in first] == [
        (1, 9, 1),
        (2, 8, 2),
        (3, 7, 3),
        (5, 4, 5),
        (6, 5, 6),
        (7, 6, 4),
    ]
    second = round_matches(live, m, "A", 2)
    rooms = ("match", "round", "open_table", "open_round", "closed_table", "closed_round")
    assert [tuple(x[k] for k in rooms) for x in second] == [
        (5, 2, 7, 1, 8, 2),
        (6, 2, 8, 1, 9, 2),
        (7, 2, 9, 1, 7, 2),
    ]
    m5, m6, m7 = second
    assert (m5["boards"], m5["out"], m5["scored"], m5["home_name"]) == ([9, 10], [], 2, "Fours")
    assert (m5["home_imps"], m5["away_imps"], m5["home_vp"], m5["away_vp"]) == (
        "10",
        "6",
        "328/25",
        "172/25",
    )
    assert (m6["home_vp"], m6["away_vp"]) == ("561/100", "1439/100")
    assert (m7["boards"], m7["out"], m7["scored"], m7["home_imps"]) == ([13, 14], [14], 1, "12")
    assert [x for x in first if x["match"] >= 5] == [{**x, "round": 1} for x in second]
    # either room of a three-way table gives its match; the other room a round apart
    assert table_match(live, m, "A", 8, 2) == m5 and table_match(live, m, "A", 7, 2) == m7
    assert (other_room(m, 7, 1), other_room(m, 7, 2), other_room(m, 1, 1)) == (
        (8, 2),
        (9, 1),
        (2, 1),
    )


class _Port:
    def __init__(self) -> None:
        self.scores: list[tuple[int, MatchScoreView]] = []

    def match_score(self, address: int, view: MatchScoreView) -> None:
        self.scores.append((address, view))


def test_a_three_way_table_gets_its_match_score_at_the_end_of_the_second_round():
    """Round 1: table 7 finishes set X (M5's first room): no match score and nothing to the
    other room (it plays in round 2). Round 2: table 8 finishes set X: M5 4 v 5 10-6,
    13.12-6.88 VP, to table 8 only (table 7 is at another match by then)."""
    m = movement()
    views = LiveViews(EVENT, {"A": m}, {"A": {}})
    port = _Port()
    shown: list[tuple[int, int]] = []
    gateway = SimpleNamespace(
        ports={"p": port},
        at_table=lambda s, t: [SimpleNamespace(ref=SimpleNamespace(port="p"), address=t)],
        show_result=lambda s, t, v: shown.append((t, v.board)),
    )
    current = {"A": 1}
    tables = TeamTables(EVENT, views, lambda s: m, cast(Any, gateway), lambda s: current[s])
    by_key = {(x.table, x.round, x.board): x for x in lines(m)}
    for key in ((7, 1, 9), (7, 1, 10)):
        views.sections["A"].put(by_key[key])
        tables.result("A", *key)
    assert (port.scores, shown) == ([], [])
    current["A"] = 2
    for key in ((8, 2, 9), (8, 2, 10)):
        views.sections["A"].put(by_key[key])
        tables.result("A", *key)
    assert shown == [] and [a for a, _ in port.scores] == [8]
    score = port.scores[0][1]
    assert (score.round, score.home, score.away, score.home_imps, score.away_imps) == (
        2,
        4,
        5,
        10,
        6,
    )
    assert (score.home_vp, score.away_vp, score.scored, score.out) == (F("13.12"), F("6.88"), 2, 0)


def test_the_pbn_export_scores_a_three_way_line_against_its_other_room():
    """PBN ScoreTable IMP_NS/IMP_EW: table 8 round 2 board 9 (170 against 620 at table 7
    in round 1) is −10/10; board 14 at table 9, its other room unplayed, is ``-``."""
    m = movement()
    played = lines(m)
    view = teams_view(EVENT, "A", m, played)
    points = _team_points(view, board_lines(cast(Any, played), "pbn"))
    by_key = {(x.table, x.round, x.board): x for x in played}

    def cells(key: tuple[int, int, int], score_ns: int) -> list[str]:
        return points(cast(Any, by_key[key]), cast(Any, SimpleNamespace(score_ns=score_ns)))

    assert cells((8, 2, 9), 170) == ["-10", "10"]
    assert cells((7, 1, 9), 620) == ["10", "-10"]
    assert cells((9, 1, 14), 140) == ["-", "-"]


def test_an_imp_penalty_falls_in_the_match_played_at_its_table():
    """In a three-way a team plays two matches a round (NS in one, EW in the other): a
    3-IMP penalty on the EW side at table 7 in round 1 (4 NS v 5 EW) is team 5's in M5
    (4 v 5), not in M6 (5 v 6, where 5 sits NS); one at table 8 in round 2 (5 NS v 4 EW)
    is team 4's in M5 too, not in M7 (6 v 4, where 4 sits NS in round 2)."""

    def penalised(table: int, rnd: int, ns: int, ew: int) -> dict[tuple[int, int], tuple]:
        live = live_of(movement())
        penalty = {"unit": "IMP", "round": rnd, "table": table, "payer": "EW"}
        assert live.apply_penalty({**penalty, "amount": "3", "contestants": (ns, ew)})
        return {
            (p.home, p.away): (p.result.home_penalty, p.result.away_penalty) for p in live.matches()
        }

    assert penalised(7, 1, 4, 5) == {(4, 5): (0, 3), (5, 6): (0, 0), (6, 4): (0, 0)}
    assert penalised(8, 2, 5, 4) == {(4, 5): (3, 0), (5, 6): (0, 0), (6, 4): (0, 0)}


def test_fixed_imp_carry_over_goes_to_the_teams_match_of_its_round():
    """``fixed_imps`` of team 4: in round 1 its match is M5 (4 v 5, where 4 sits NS in
    round 1), in round 2 M7 (6 v 4, where 4 sits NS at table 7): 2 IMPs of round 1 land in
    M5 only, once; 2 of round 2 in M7 only."""

    def carried(rnd: int) -> dict[tuple[int, int], tuple]:
        co = f"[[rules.teams.carry_over.fixed_imps]]\nteam = 4\nimps = 2\nround = {rnd}\n"
        rules = f'vp_scale = "wbf_continuous_20"\n{co}'
        event = parse_event(drawn_event("swiss", 9, 4, rules=rules))
        m = movement()
        live = TeamsLive(event, "A", m, {})
        for line in lines(m):
            live.put(line)
        return {
            (p.home, p.away): (p.result.home_carry_over, p.result.away_carry_over)
            for p in live.matches()
        }

    assert carried(1) == {(4, 5): (2, 0), (5, 6): (0, 0), (6, 4): (0, 0)}
    assert carried(2) == {(4, 5): (0, 0), (5, 6): (0, 0), (6, 4): (0, 2)}
