"""Pair and team standings: exact totals, shared places, and the seeds' tie-breaks."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.board_score import ScoreKind
from scoring.butler import ButlerRules, DropRule, score_butler
from scoring.cross_imps import score_cross_imps
from scoring.matchpoints import MatchpointRules, score_matchpoints
from scoring.standings import Tally, standings, standings_by_direction, tally_boards
from scoring.team_match import TeamBoard, score_match
from scoring.team_standings import PlayedMatch, team_standings
from scoring.tie_break import place_entrants
from scoring.traveller import Traveller, TravellerLine
from scoring.vp_scale import WBFContinuousScale, parse_vp_table


def barometer(boards: dict[int, list[tuple[int, int, int]]]) -> list[Traveller]:
    return [
        Traveller.of(b, [TravellerLine(ns, ew, s) for ns, ew, s in rows])
        for b, rows in sorted(boards.items())
    ]


def test_mp_totals_are_sum_of_matchpoints_over_sum_of_tops():
    """Decisions D6: total = Σ MP ÷ Σ tops × 100, not the mean of board percentages."""
    t1 = Traveller.of(
        1, [TravellerLine(1, 2, 420), TravellerLine(3, 4, 450), TravellerLine(5, 6, 400)]
    )
    t2 = Traveller.of(2, [TravellerLine(1, 2, 100), TravellerLine(3, 4, 50)])
    rules = MatchpointRules(expected=3)
    tally = tally_boards(
        [score_matchpoints(t, rules) for t in (t1, t2)], ScoreKind.MATCHPOINTS, winners=1
    )
    totals = {p.pair.number: p for p in tally.totals()}
    # board 2 Neuberg n=2, N=3: 100 → (2+1)·3/2 − 1 = 3.5, 50 → (0+1)·3/2 − 1 = 0.5
    assert totals[1].points == 2 + Fraction(7, 2) and totals[1].top == 8
    assert totals[1].total == Fraction(1100, 16)
    assert totals[5].boards == 1 and totals[5].total == 0


def test_seed002_exact_ties_share_a_place_and_near_ties_do_not():
    """Seed 002: equal scores share places; as many decimals as needed separate others."""
    t = Traveller.of(
        1, [TravellerLine(1, 2, 420), TravellerLine(3, 4, 420), TravellerLine(5, 6, 450)]
    )
    tally = tally_boards([score_matchpoints(t)], ScoreKind.MATCHPOINTS, winners=2)
    ns = standings_by_direction(tally)["NS"]
    assert [(s.pair.number, s.rank) for s in ns] == [(5, "1"), (1, "2="), (3, "2=")]
    ew = standings_by_direction(tally)["EW"]
    assert [(s.pair.number, s.rank) for s in ew] == [(2, "1="), (4, "1="), (6, "3")]
    placed = place_entrants(
        ["a", "b", "c"], {"a": Fraction(1, 3), "b": Fraction(33333, 100000), "c": Fraction(1, 3)}
    )
    assert [(p.key, p.rank) for p in placed] == [("a", "1="), ("c", "1="), ("b", "3")]


def test_seed000_pairs_more_boards_with_positive_imps():
    """Seed 000 §6-4: level pairs are ordered by boards with positive IMPs, then a draw.

    Butler, datum the plain mean to 10. Board 1: 150/100/200 → datum 150; board 2:
    100/150/100 → 120; board 3: 300/150/100 → 180. Pair 1 (NS): 0, −1, +3 = 2 with one
    positive board; pair 2 (EW): 0, +1, +1 = 2 with two."""
    seating = {
        1: [(1, 2), (3, 4), (5, 6)],
        2: [(1, 4), (3, 6), (5, 2)],
        3: [(1, 6), (3, 2), (5, 4)],
    }
    scores = {1: [150, 100, 200], 2: [100, 150, 100], 3: [300, 150, 100]}
    rules = ButlerRules(drop=DropRule())
    tally = _tally(ScoreKind.IMPS, lambda t: score_butler(t, rules), seating, scores)
    totals = {p.pair.number: p.total for p in tally.totals()}
    assert totals[1] == totals[2] == 2
    plain = {s.pair.number: s.rank for s in standings(tally)}
    assert plain[1] == plain[2] == "2="
    ranked = {
        s.pair.number: s.placed for s in standings(tally, ["boards_with_positive_imps", "lot"])
    }
    assert (ranked[2].place, ranked[1].place) == (2, 3)
    assert ranked[1].decided_by == "boards_with_positive_imps"


def _tally(kind, scorer, seating, scores):
    tally = Tally(kind, winners=1)
    for board, tables in seating.items():
        lines = [
            TravellerLine(ns, ew, sc) for (ns, ew), sc in zip(tables, scores[board], strict=True)
        ]
        tally.set_board(scorer(Traveller.of(board, lines)))
    return tally


def test_seed004_boards_won_between_the_tied_pairs_comes_first():
    """Seed 004: tied pairs are first separated by the boards won between them.

    Cross-IMPs, two tables a board. Pair 1 gains 2, 2 and loses 4 IMPs; pair 2 the
    opposite: both total 0. Pair 1 beats pair 2 on boards 1 and 2, pair 2 wins board 3."""
    seating = {1: [(1, 3), (2, 4)], 2: [(1, 4), (2, 3)], 3: [(1, 3), (2, 4)]}
    scores = {1: [50, 0], 2: [50, 0], 3: [0, 130]}
    tally = _tally(ScoreKind.IMPS, score_cross_imps, seating, scores)
    totals = {p.pair.number: p.total for p in tally.totals()}
    assert totals == {1: 0, 2: 0, 3: 4, 4: -4}
    ranked = [
        (s.pair.number, s.rank, s.placed.decided_by)
        for s in standings(tally, ["boards_won_between", "h2h_score", "lot"])
    ]
    assert ranked == [
        (3, "1", None),
        (1, "2", "boards_won_between"),
        (2, "3", "boards_won_between"),
        (4, "4", None),
    ]


def test_seed004_then_the_head_to_head_meeting():
    """Seed 004: still level on boards won, the pairs' own meeting decides.

    Pair 1: 100 %, 25 %, 50 %, 50 %; pair 2: 50 %, 75 %, 50 %, 50 % (both 56.25 %). Board 1
    goes to pair 1, board 2 to pair 2: one board each. They met on board 2, where pair 2
    (EW, 75 %) beat pair 1 (NS, 25 %)."""
    seating = {
        1: [(1, 3), (2, 4), (5, 6)],
        2: [(1, 2), (3, 5), (4, 6)],
        3: [(1, 4), (2, 5), (3, 6)],
        4: [(1, 5), (2, 3), (4, 6)],
    }
    scores = {1: [400, 200, 100], 2: [100, 100, 200], 3: [200, 200, 200], 4: [300, 300, 300]}
    tally = _tally(ScoreKind.MATCHPOINTS, score_matchpoints, seating, scores)
    totals = {p.pair.number: p.total for p in tally.totals()}
    assert totals[1] == totals[2] == Fraction(225, 4)
    ranked = {
        s.pair.number: s for s in standings(tally, ["boards_won_between", "h2h_score", "lot"])
    }
    assert ranked[2].placed.place < ranked[1].placed.place
    assert ranked[2].placed.decided_by == "h2h_score"


def test_lot_without_a_seed_leaves_the_tie_for_the_td():
    placed = place_entrants(["x", "y"], {"x": 1, "y": 1}, ["lot"])
    assert all(p.shared and p.needs_lot for p in placed)
    drawn = place_entrants(["x", "y"], {"x": 1, "y": 1}, ["lot"], lot_seed=7)
    assert {p.rank for p in drawn} == {"1", "2"} and all(p.decided_by == "lot" for p in drawn)
    with pytest.raises(ValueError, match="unknown tie-break"):
        place_entrants(["x"], {"x": 1}, ["coin"])


def test_replacing_a_board_updates_totals_exactly():
    """A corrected result replaces the board's contribution; nothing is counted twice."""
    tally = Tally(ScoreKind.MATCHPOINTS, winners=1)
    t = Traveller.of(1, [TravellerLine(1, 2, 420), TravellerLine(3, 4, 450)])
    tally.set_board(score_matchpoints(t))
    fixed = Traveller.of(1, [TravellerLine(1, 2, 480), TravellerLine(3, 4, 450)])
    tally.set_board(score_matchpoints(fixed))
    totals = {p.pair.number: p.total for p in tally.totals()}
    assert totals == {1: 100, 2: 0, 3: 0, 4: 100}
    tally.remove_board(1)
    assert tally.totals() == []


def _match(home, away, open_ns, closed_ns):
    boards = [
        TeamBoard(i + 1, o, c) for i, (o, c) in enumerate(zip(open_ns, closed_ns, strict=True))
    ]
    return PlayedMatch(home, away, score_match(boards, scale=WBFContinuousScale()))


# Illustrative, not official: wide bands so that different margins give equal VPs.
WIDE = parse_vp_table(
    "boards,imps_from,imps_to,winner,loser\n*,0,2,10,10\n*,3,9,12,8\n*,10,,15,5\n", "illustrative"
)


def _wide(home, away, *nets):
    boards = [TeamBoard(i + 1, n, 0) for i, n in enumerate(nets)]
    return PlayedMatch(home, away, score_match(boards, scale=WIDE))


def test_seed004_team_tie_breaks_vp_then_imp_quotient():
    """Seed 004: VP first, then the IMP quotient (IMPs won ÷ lost over all matches).

    A beats C by 9 IMPs (420 net), B beats D by 3 (100 net): both 12-8. Every other match
    is level: A–D 2/−2 IMPs, B–C 4/−4, A–B and C–D 0. A and B have 32 VP; A won 11 and lost
    2 IMPs (5.5), B won 7 and lost 4 (1.75). C and D have 28 VP; D 2÷5 beats C 4÷13."""
    matches = [
        _wide("A", "C", 420, 0),
        _wide("B", "D", 100, 0),
        _wide("A", "D", 50, -50),
        _wide("B", "C", 130, -130),
        _wide("A", "B", 0, 0),
        _wide("C", "D", 0, 0),
    ]
    ranked = team_standings(
        matches, ["imp_quotient", "h2h_imps", "h2h_boards_won", "h2h_total_points", "lot"]
    )
    got = [(s.record.team, s.record.vp, s.rank, s.placed.decided_by) for s in ranked]
    assert got == [
        ("A", 32, "1", "imp_quotient"),
        ("B", 32, "2", "imp_quotient"),
        ("D", 28, "3", "imp_quotient"),
        ("C", 28, "4", "imp_quotient"),
    ]
    rec = {s.record.team: s.record for s in ranked}
    assert rec["A"].imp_quotient == Fraction(11, 2) and rec["C"].imp_quotient == Fraction(4, 13)


def test_head_to_head_among_the_tied_teams_only():
    """Seed 001/004 h2h criteria count only the matches between the teams still level."""
    matches = [
        _wide("A", "B", 50, 0),  # A +2 IMPs against B: 10-10 on the wide scale
        _wide("A", "C", 0, 0),
        _wide("B", "C", 0, 0),
    ]
    ranked = team_standings(matches, ["h2h_imps", "lot"])
    got = [(s.record.team, s.rank, s.placed.decided_by) for s in ranked]
    # all on 20 VP; among the three: A +2, C 0, B −2
    assert got == [("A", "1", "h2h_imps"), ("C", "2", "h2h_imps"), ("B", "3", "h2h_imps")]


def test_seed002_swiss_points_are_the_vps_of_every_opponent_met():
    """Seed 002 Gröna Hissen: level teams are ordered by Swiss points (Σ opponents' VPs)."""
    matches = [
        _match("A", "B", [0], [0]),
        _match("C", "D", [0], [0]),
        _match("A", "C", [0], [0]),
        _match("B", "D", [620], [-100]),
    ]
    ranked = team_standings(matches, ["swiss_points"], vp_adjustments={"D": Fraction(-10)})
    rec = {s.record.team: s.record for s in ranked}
    assert rec["A"].vp == rec["C"].vp == 20
    sp = {t: sum(rec[o].vp for o in rec[t].opponents) for t in rec}
    assert sp["A"] != sp["C"]
    order = [s.record.team for s in ranked]
    assert (
        order.index("A") < order.index("C")
        if sp["A"] > sp["C"]
        else order.index("C") < order.index("A")
    )
