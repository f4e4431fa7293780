"""Seed 000's three-way knockout matches (§ Knockout Stage, Match 3 and 4): "In all 3-way
matches, the team winning both their matches will be declared winner. Otherwise, total VPs
will decide the winner." Each pairing is an ordinary IMP match converted to VPs on the
event's scale; the VPs below are as a scale gave them (any 20-0 scale: the winner of a
match has more than 10)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import ScoringInputError
from scoring.knockout.ko_match import KoBoard, PairResult, pair_result, three_way_order
from scoring.lot import draw_lots
from scoring.vp_scale import builtin_scale


def test_a_team_winning_both_matches_wins_though_another_has_more_vps():
    """A beats B 31-30 (10.3-9.7 VP) and C 21-20 (10.3-9.7); B beats C 60-0 (20-0).
    Total VPs: A 20.6, B 29.7, C 9.7. A won both: A first; then B, C by total VPs."""
    results = [
        PairResult("A", "B", F(31), F(30), F("10.3"), F("9.7")),
        PairResult("C", "A", F(20), F(21), F("9.7"), F("10.3")),
        PairResult("B", "C", F(60), F(0), F(20), F(0)),
    ]
    assert three_way_order(["A", "B", "C"], results) == ("A", "B", "C")


def test_no_team_winning_both_total_vps_decide():
    """A beats B (14-6 VP), B beats C (12-8), C beats A (11-9): nobody won both. Total VPs:
    A 14 + 9 = 23, B 6 + 12 = 18, C 8 + 11 = 19 → A, C, B."""
    results = [
        PairResult("A", "B", F(25), F(5), F(14), F(6)),
        PairResult("B", "C", F(15), F(5), F(12), F(8)),
        PairResult("C", "A", F(10), F(5), F(11), F(9)),
    ]
    assert three_way_order(["A", "B", "C"], results) == ("A", "C", "B")


def test_a_carry_over_win_counts_and_a_drawn_match_is_not_won():
    """A v B 10-10 at the table with 0.1 carry-over to A: A wins that match 10.1-10
    (VPs 10-10 at a whole-IMP scale). A beats C 20-0 (16-4); B v C 5-5 (10-10): B did not
    win it. A won both → A; B 20 VP, C 14 → B, C."""
    results = [
        PairResult("A", "B", F("10.1"), F(10), F(10), F(10)),
        PairResult("A", "C", F(20), F(0), F(16), F(4)),
        PairResult("B", "C", F(5), F(5), F(10), F(10)),
    ]
    assert three_way_order(["C", "B", "A"], results) == ("A", "B", "C")


def test_equal_vps_then_imp_difference_then_lot_ours():
    """Ours (the seed is silent): A beats B by 30 IMP, B beats C by 20, C beats A by 20,
    each 15-5 VP on a banded scale: all 20 VP. IMP difference: A +30 − 20 = +10, B −30 + 20
    = −10, C +20 − 20 = 0 → A, C, B."""
    results = [
        PairResult("A", "B", F(30), F(0), F(15), F(5)),
        PairResult("B", "C", F(20), F(0), F(15), F(5)),
        PairResult("C", "A", F(20), F(0), F(15), F(5)),
    ]
    assert three_way_order(["A", "B", "C"], results) == ("A", "C", "B")


def test_all_level_a_lot_from_the_recorded_seed():
    """Each wins one match by 20 IMP at 15-5 VP: all 20 VP, IMP difference 0 → the lot
    ``draw_lots`` with the recorded seed; without a seed it is refused."""
    results = [
        PairResult("A", "B", F(20), F(0), F(15), F(5)),
        PairResult("B", "C", F(20), F(0), F(15), F(5)),
        PairResult("C", "A", F(20), F(0), F(15), F(5)),
    ]
    for seed in (1, 2, 3):
        assert three_way_order("ABC", results, lot_seed=seed) == draw_lots("ABC", seed)
    with pytest.raises(ScoringInputError, match="lot"):
        three_way_order("ABC", results)


def test_pair_result_scores_a_pairing_to_vps():
    """16 boards; three boards of 2000 v −2000 (net +4000 → 24 IMP each) give A 72 IMP,
    beyond the WBF blitz 15·√16 = 60: 20-0 VP. Carry-over 6.5 to B: 72 − 6.5 still 20-0."""
    boards = [KoBoard(1, b, 2000, -2000) for b in (1, 2, 3)]
    boards += [KoBoard(1, b, 420, 420) for b in range(4, 17)]
    r = pair_result("A", "B", boards, builtin_scale("wbf_continuous_20"), away_carry_over=F(13, 2))
    assert r == PairResult("A", "B", F(72), F(13, 2), F(20), F(0))


def test_a_three_way_needs_each_pairing_once():
    results = [
        PairResult("A", "B", F(1), F(0), F(10), F(10)),
        PairResult("A", "B", F(1), F(0), F(10), F(10)),
        PairResult("B", "C", F(1), F(0), F(10), F(10)),
    ]
    with pytest.raises(ScoringInputError, match="each pairing"):
        three_way_order("ABC", results)
    with pytest.raises(ScoringInputError, match="three different"):
        three_way_order("AAB", results)


margins = st.integers(-20, 20)


@given(margins, margins, margins, st.integers(0, 1000))
def test_every_team_is_placed_once_and_a_double_winner_first(ab, bc, ca, seed):
    """VPs from a simple linear scale (10 ± margin/2, capped at 0-20)."""

    def result(home: str, away: str, m: int) -> PairResult:
        vp = min(max(F(10) + F(m, 2), F(0)), F(20))
        return PairResult(home, away, F(max(m, 0)), F(max(-m, 0)), vp, 20 - vp)

    results = [result("A", "B", ab), result("B", "C", bc), result("C", "A", ca)]
    order = three_way_order("ABC", results, lot_seed=seed)
    assert sorted(order) == ["A", "B", "C"]
    wins = {"A": (ab > 0) + (ca < 0), "B": (ab < 0) + (bc > 0), "C": (bc < 0) + (ca > 0)}
    double = [t for t, w in wins.items() if w == 2]
    if double:
        assert order[0] == double[0]
