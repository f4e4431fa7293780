"""Who sits second in each segment of a knockout match (seed 003 §12.6, seed 001 II.4,
seed 000 §8, seed 002 §18), the line-up order it implies, and seed 003's rule that
consecutive segments never repeat the same pairs' meeting. Worked by hand."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import ScoringInputError
from scoring.knockout.seating import (
    LineupTurn,
    SeatingRule,
    Side,
    alternate_home_first,
    captains_draw,
    draw_for_choice,
    higher_placed,
    lineup_order,
    paired_choice,
    repeated_meetings,
    sits_second,
)

H, A = Side.HOME, Side.AWAY


def test_seed_003_home_sits_second_in_segment_1_then_visitors_in_turn():
    """§12.6 "střídavě domácí a hosté, v první sestavě domácí": a 32-board match (two
    sets of 16): home, away; the 48-board final: home, away, home."""
    assert alternate_home_first(2) == (H, A)
    assert alternate_home_first(3) == (H, A, H)


@given(st.integers(min_value=1, max_value=30))
def test_seed_003_the_sides_alternate_through_the_extra_sets(segments):
    """§12.5 adds 4-board sets on a tie; they are further segments: home sits second in
    every odd segment, and no team sits second twice running."""
    second = alternate_home_first(segments)
    assert all(side is (H if s % 2 else A) for s, side in enumerate(second, start=1))
    assert all(a is not b for a, b in itertools.pairwise(second))


def test_seed_001_the_higher_placed_sits_second_in_segment_2():
    """II.4 "sits as second in second segment": two segments, higher placed home: away
    (the lower placed) in 1, home in 2; the higher placed away: the other way round."""
    assert higher_placed(2, H) == (A, H)
    assert higher_placed(2, A) == (H, A)


def test_seed_001_in_the_final_the_higher_placed_sits_second_first_and_last():
    """II.4 "In final first and last segment": three segments: higher, lower, higher;
    four: higher, lower, lower, higher."""
    assert higher_placed(3, H, final=True) == (H, A, H)
    assert higher_placed(4, A, final=True) == (A, H, H, A)


def test_seed_001_needs_a_second_segment():
    with pytest.raises(ScoringInputError, match="2 or more"):
        higher_placed(1, H)


def test_seed_000_captains_draw_then_the_choice_alternates():
    """§8 "The winner of the draw may choose to sit first in any of the three stanzas,
    then the choice alternates": home wins the draw and sits first in stanza 2 (so away
    sits second there); away then chooses to sit first in 3 (home second); stanza 1 is
    left for home to sit first (away second)."""
    assert captains_draw(3, H, [2, 3]) == (A, A, H)
    assert captains_draw(3, H, [2, 3, 1]) == (A, A, H)


def test_seed_000_captains_choices_must_be_segments_not_taken():
    with pytest.raises(ScoringInputError, match="already taken"):
        captains_draw(3, H, [2, 2])
    with pytest.raises(ScoringInputError, match="1 to 3 allowed"):
        captains_draw(3, A, [4, 1])
    with pytest.raises(ScoringInputError, match="2 or 3"):
        captains_draw(3, A, [1])


def test_seed_000_the_captains_draw_is_a_lot_from_its_seed():
    """The same seed, the same winner; over 40 seeds both sides win some."""
    assert draw_for_choice(99) is draw_for_choice(99)
    assert {draw_for_choice(seed) for seed in range(40)} == {H, A}


def test_seed_002_paired_choice_example_of_lag_a_and_lag_b():
    """§18, the example: A (ranked higher, home) chooses segment 3, B gets 4, the other of
    the pair 3+4; B chooses 1, A gets the last one, 2 (the seed's "segment 1" is a slip:
    1 is B's)."""
    assert paired_choice(3, 1) == (A, H, H, A)


def test_seed_002_away_chooses_from_the_other_pair():
    """Home chose 1, so away has 2 already: away's own choice is 3 or 4."""
    assert paired_choice(1, 4) == (H, A, H, A)
    with pytest.raises(ScoringInputError, match="already taken"):
        paired_choice(1, 2)


def test_sits_second_by_the_events_rule():
    """The one entry point gives each rule's answer (the cases worked above)."""
    assert sits_second(SeatingRule.ALTERNATE_HOME_FIRST, 3) == (H, A, H)
    assert sits_second(SeatingRule.HIGHER_PLACED, 2, higher=A) == (H, A)
    assert sits_second(SeatingRule.HIGHER_PLACED, 3, final=True) == (H, A, H)
    rule = SeatingRule.CAPTAINS_DRAW
    assert sits_second(rule, 3, lot_winner=H, choices=[2, 3]) == (A, A, H)
    assert sits_second(SeatingRule.PAIRED_CHOICE, 4, choices=[3, 1]) == (A, H, H, A)
    with pytest.raises(ScoringInputError, match="winner"):
        sits_second(SeatingRule.CAPTAINS_DRAW, 3, choices=[1, 2])
    with pytest.raises(ScoringInputError, match="4 segments"):
        sits_second(SeatingRule.PAIRED_CHOICE, 2, choices=[1, 2])


def test_lineup_order_the_team_sitting_first_hands_in_first():
    """Seed 003's final, home T1 v visitors T2: T1 sits second in 1 and 3, so T2 hands in
    its line-up first in 1 and 3, T1 first in 2."""
    turns = lineup_order(alternate_home_first(3), "T1", "T2")
    assert turns == (
        LineupTurn(1, "T2", "T1"),
        LineupTurn(2, "T1", "T2"),
        LineupTurn(3, "T2", "T1"),
    )
    assert str(turns[0]) == "segment 1: T2 first, then T1"


def lineup(t1: tuple[str, str], t2: tuple[str, str]) -> dict[str, tuple[str, str]]:
    """T1's and T2's pairs (open room, closed room)."""
    return {"T1": t1, "T2": t2}


def test_seed_003_consecutive_segments_never_repeat_a_meeting():
    """§12.6 "aby v po sobě jdoucích sestavách proti sobě nehrály stejné dvojice":
    segment 1: a-x (open), b-y (closed); 2: b-x, a-y: new meetings; 3: a-y again (now in
    the open room) and b-x: both as in 2, so segment 3 repeats; 4: a-x, b-y, new after 3
    (that 1 had them does not matter: only consecutive segments count)."""
    lineups = [
        lineup(("a", "b"), ("x", "y")),
        lineup(("b", "a"), ("x", "y")),
        lineup(("a", "b"), ("y", "x")),
        lineup(("a", "b"), ("x", "y")),
    ]
    assert repeated_meetings(lineups) == (3,)


def test_seed_003_one_pair_meeting_again_is_a_repeat():
    """Segment 1: a-x, b-y; 2: a-x (the same rooms), c-y (T1's third pair): a-x repeats."""
    lineups = [lineup(("a", "b"), ("x", "y")), lineup(("a", "c"), ("x", "y"))]
    assert repeated_meetings(lineups) == (2,)


def test_pairs_of_different_teams_with_the_same_name_are_not_confused():
    """T1's pair "1" meets T2's pair "1" in segment 1, T2's "2" in segment 2: no repeat."""
    lineups = [lineup(("1", "2"), ("1", "2")), lineup(("1", "2"), ("2", "1"))]
    assert repeated_meetings(lineups) == ()


def test_a_lineup_must_name_the_two_teams_and_two_pairs():
    with pytest.raises(ScoringInputError, match="two teams"):
        repeated_meetings([lineup(("a", "b"), ("x", "y")), {"T1": ("a", "b"), "T3": ("x", "y")}])
    with pytest.raises(ScoringInputError, match="two different pairs"):
        repeated_meetings([lineup(("a", "a"), ("x", "y"))])
