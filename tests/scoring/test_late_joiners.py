"""Late joiners in the seeds' Swiss and Monrad events: the VPs they start with, the places
they take and whom they meet first. Every expected value is worked from the seed's words.

- Seed 000, Swiss plate: "assigned a VP score equal to that of the 4th position score at the
  end of the round 3" (round 6 joiners: round 5); "These 4 teams will match up against each
  other in round 4, by means of a random draw".
- Seed 001, Swiss for the 3rd place: "number of VP equal to the average of 3rd and 4th team
  after a previous round" (after the semi-finals "of 2nd and 3rd team"); places 3rd-10th,
  9, 7, 5, 3 and 5, 3 "according to the rank in Qualification Swiss – highest ranking team
  the lowest place"; after the round of 16 "highest placed will play with the lowest placed".
- Seed 002: Chairman's Cup teams starting in round 3, "Carry over exakt 30 VP"; SM Lag
  Veteran teams starting in round 6, "Carry over exakt 16 VP/rond, d v s 80 VP"; late only
  "vid tre eller färre" players free.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from scoring.errors import ScoringInputError
from scoring.late_joiners import (
    SEED000_PLATE,
    SEED001_AFTER_QUARTER_FINALS,
    SEED001_AFTER_ROUND_OF_16,
    SEED001_AFTER_SEMI_FINALS,
    SEED001_PLACES_AFTER_QUARTER_FINALS,
    SEED001_PLACES_AFTER_ROUND_OF_16,
    SEED001_PLACES_AFTER_SEMI_FINALS,
    SEED002_CHAIRMANS_CUP,
    SEED002_VETERAN,
    AverageOfPositions,
    joiner_vp,
    may_start_late,
    pair_by_lot,
    pair_highest_with_lowest,
    place_joiners,
)

# the plate after round 3, in no particular order: by VP 45.5, 40.2, 38, 36.71, 36.71, 30 …
PLATE_AFTER_3 = [F("30"), F("36.71"), F("45.5"), F("38"), F("36.71"), F("40.2"), F("12.04")]


def test_seed000_joiners_get_the_vp_of_the_4th_position():
    """Seed 000, round 4: sorted, the 4th VP is 36.71 (shared by two teams: the position's
    score does not depend on how they are separated)."""
    assert joiner_vp(SEED000_PLATE, PLATE_AFTER_3) == F("36.71")


def test_seed000_round_6_joiners_use_the_standing_after_round_5():
    """Round 6 joiners: the 4th score after round 5, here 52.3 of 70, 61.12, 55, 52.3, 50."""
    after_5 = [F(50), F("52.3"), F(70), F("61.12"), F(55)]
    assert joiner_vp(SEED000_PLATE, after_5) == F("52.3")


def test_seed000_joiners_meet_each_other_by_lot():
    """The four joiners are paired among themselves by a lot drawn from a recorded seed:
    each exactly once, the same pairs for the same seed whatever order they are handed in."""
    joiners = ["K1", "K2", "K3", "K4"]
    pairs = pair_by_lot(joiners, lot_seed=2013)
    assert sorted(t for p in pairs for t in p) == joiners
    assert len(pairs) == 2
    assert pair_by_lot(reversed(joiners), lot_seed=2013) == pairs
    seen = {frozenset(map(frozenset, pair_by_lot(joiners, s))) for s in range(50)}
    assert len(seen) == 3  # the three ways to split four teams into two matches all occur


# the 3rd-place Swiss after a round: S1 50, S2 48, S3 45.5, S4 41.27, S5 40, S6 33 …
THIRD_PLACE = [F(50), F(48), F("45.5"), F("41.27"), F(40), F(33), F(30), F(28)]
STANDING = ["S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8"]


def test_seed001_after_round_of_16_average_of_3rd_and_4th():
    """(45.5 + 41.27) / 2 = 86.77 / 2 = 43.385, exactly."""
    assert joiner_vp(SEED001_AFTER_ROUND_OF_16, THIRD_PLACE) == F("43.385")


def test_seed001_after_round_of_16_places_3_to_10_and_pairing():
    """Eight losers, J1 best in the Qualification Swiss: highest ranking, lowest place, so
    J1 10th … J8 3rd; S3 onwards move down behind them. First matches: highest placed
    against lowest placed, J1-J8, J2-J7, J3-J6, J4-J5 (the 3rd against the 10th …)."""
    joiners = [f"J{i}" for i in range(1, 9)]
    assert SEED001_PLACES_AFTER_ROUND_OF_16 == (10, 9, 8, 7, 6, 5, 4, 3)
    placed = place_joiners(STANDING, joiners, SEED001_PLACES_AFTER_ROUND_OF_16)
    assert placed[:12] == ["S1", "S2", "J8", "J7", "J6", "J5", "J4", "J3", "J2", "J1", "S3", "S4"]
    assert pair_highest_with_lowest(joiners) == [
        ("J1", "J8"),
        ("J2", "J7"),
        ("J3", "J6"),
        ("J4", "J5"),
    ]


def test_seed001_after_quarter_finals_places_9_7_5_3():
    """Four losers at "the 9,7,5,3 places" by qualification rank (Q1 9th … Q4 3rd), with
    43.385 VP (3rd and 4th as above); the teams playing fill the other places in order."""
    assert joiner_vp(SEED001_AFTER_QUARTER_FINALS, THIRD_PLACE) == F("43.385")
    placed = place_joiners(STANDING, ["Q1", "Q2", "Q3", "Q4"], SEED001_PLACES_AFTER_QUARTER_FINALS)
    assert placed[:10] == ["S1", "S2", "Q4", "S3", "Q3", "S4", "Q2", "S5", "Q1", "S6"]


def test_seed001_after_semi_finals_average_of_2nd_and_3rd_at_places_5_and_3():
    """(48 + 45.5) / 2 = 46.75; the higher-ranked loser 5th, the other 3rd."""
    assert joiner_vp(SEED001_AFTER_SEMI_FINALS, THIRD_PLACE) == F("46.75")
    placed = place_joiners(STANDING, ["P1", "P2"], SEED001_PLACES_AFTER_SEMI_FINALS)
    assert placed[:6] == ["S1", "S2", "P2", "S3", "P1", "S4"]


def test_seed001_average_stays_exact():
    """3rd 41.27 and 4th 41.26: 41.265, not a float's 41.26499…"""
    assert joiner_vp(AverageOfPositions((3, 4)), [F(50), F(45), F("41.27"), F("41.26")]) == F(
        "41.265"
    )


def test_seed002_chairmans_cup_round_3_gets_exactly_30():
    assert SEED002_CHAIRMANS_CUP.start_round == 3
    assert joiner_vp(SEED002_CHAIRMANS_CUP) == 30


def test_seed002_veteran_round_6_gets_16_per_missed_round():
    """Five rounds missed × 16 VP = 80 VP, as the seed says ("d v s 80 VP")."""
    assert SEED002_VETERAN.start_round == 6
    assert joiner_vp(SEED002_VETERAN) == 80


@pytest.mark.parametrize(("free", "late"), [(0, True), (3, True), (4, False), (6, False)])
def test_seed002_only_teams_with_three_or_fewer_free_players_start_late(free, late):
    """ "Vid fyra eller fler måste de starta i rond 1, vid tre eller färre får de starta i
    rond 3" (the Veteran event: round 6)."""
    assert may_start_late(free) is late


def test_bad_joiner_input_is_refused():
    with pytest.raises(ScoringInputError, match="position 4"):
        joiner_vp(SEED000_PLATE, [F(1), F(2), F(3)])
    with pytest.raises(ScoringInputError, match="odd"):
        pair_highest_with_lowest(["A", "B", "C"])
    with pytest.raises(ScoringInputError, match="odd"):
        pair_by_lot(["A", "B", "C"], 1)
    with pytest.raises(ScoringInputError, match="distinct places"):
        place_joiners(["S1"], ["J1", "J2"], (2, 2))
    with pytest.raises(ScoringInputError, match="places must lie"):
        place_joiners(["S1"], ["J1"], (5,))
