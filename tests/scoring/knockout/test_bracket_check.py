"""The bracket checker (issue [KNOCKOUT]): it refuses a bracket in which a team can be in
two places at once, a slot nothing fills, or place ranges that do not add up, naming the
match. Each test breaks one thing of a small bracket that works: four teams, semi-finals
1 v 4 and 2 v 3, a final and a match for third place (seed 003 §13.2: the semi-final
losers play for third and fourth place)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from scoring.errors import ScoringInputError
from scoring.knockout.bracket import (
    Bracket,
    CarryKind,
    CarryOver,
    ChoiceGroup,
    ChoiceOrder,
    Match,
    Slot,
)
from scoring.knockout.bracket_check import BracketProblem, check_bracket, checked


def four(*, sf1: Match | None = None, final: Match | None = None, **changes) -> Bracket:
    """SF-1 rank 1 v rank 4, SF-2 rank 2 v rank 3; F the winners (places 1, 2); 3rd the
    losers (places 3, 4)."""
    matches = (
        sf1 or Match("SF-1", "SF", (Slot.by_rank(1), Slot.by_rank(4))),
        Match("SF-2", "SF", (Slot.by_rank(2), Slot.by_rank(3))),
        final or Match("F", "F", (Slot.winner("SF-1"), Slot.winner("SF-2")), places=("1", "2")),
        Match("3rd", "F", (Slot.loser("SF-1"), Slot.loser("SF-2")), places=("3", "4")),
    )
    return dataclasses.replace(Bracket("four", 4, ("SF", "F"), matches), **changes)


def messages(bracket: Bracket) -> list[tuple[str, str]]:
    return [(p.match, p.message) for p in check_bracket(bracket)]


def test_the_four_team_bracket_with_a_third_place_match_works():
    """Seed 003 §13.2: the final for places 1-2, the semi-final losers for 3-4."""
    four_teams = four()
    assert check_bracket(four_teams) == []
    assert checked(four_teams) is four_teams


def test_a_slot_naming_no_match_is_refused_naming_the_match():
    final = Match("F", "F", (Slot.winner("SF-1"), Slot.winner("SF-9")), places=("1", "2"))
    found = messages(four(final=final))
    assert ("F", "winner of SF-9 names no match of the bracket") in found


def test_third_place_of_a_two_team_match_is_refused():
    """A two-team match has a winner and a loser, no third."""
    final = Match("F", "F", (Slot.winner("SF-1"), Slot.placed("SF-2", 3)), places=("1", "2"))
    found = messages(four(final=final))
    assert ("F", "place 3 of SF-2: SF-2 has 2 teams") in found


def test_the_same_winner_in_two_slots_is_a_team_in_two_places_at_once():
    """The winner of SF-1 in both slots of the final; SF-2's winner then goes nowhere."""
    final = Match("F", "F", (Slot.winner("SF-1"), Slot.winner("SF-1")), places=("1", "2"))
    found = messages(four(final=final))
    assert ("SF-1", "winner of SF-1 would be in two places at once: F slot 1, F slot 2") in found
    assert ("SF-2", "winner of SF-2 goes nowhere: name it in a later slot or give it a place") in (
        found
    )


def test_a_loser_in_a_slot_and_in_a_place_range_is_in_two_places_at_once():
    sf1 = Match("SF-1", "SF", (Slot.by_rank(1), Slot.by_rank(4)), places=("", "3-4"))
    found = messages(four(sf1=sf1))
    assert ("SF-1", "loser of SF-1 would be in two places at once: places (3-4), 3rd slot 1") in (
        found
    )


def test_a_rank_used_twice_or_beyond_the_entries_is_refused():
    sf1 = Match("SF-1", "SF", (Slot.by_rank(2), Slot.by_rank(5)))
    found = messages(four(sf1=sf1))
    assert ("SF-1", "rank 5: ranks go from 1 to 4") in found
    assert ("SF-2", "rank 2 is already in SF-1 slot 1") in found


def test_a_match_fed_by_its_own_round_or_itself_is_refused():
    """Rounds are played in order: a slot may only name a match of an earlier round."""
    sf1 = Match("SF-1", "SF", (Slot.by_rank(1), Slot.winner("SF-2")))
    found = messages(four(sf1=sf1))
    assert ("SF-1", "winner of SF-2: a slot may only name a match of an earlier round") in found
    final = Match("F", "F", (Slot.winner("SF-1"), Slot.winner("F")), places=("1", "2"))
    assert ("F", "winner of F: a slot may only name a match of an earlier round") in messages(
        four(final=final)
    )


def test_place_ranges_that_overlap_or_leave_a_gap_are_refused():
    """The final for 1-2 and the third-place match for 2-3 give place 2 twice and leave
    4; a third-place match for 2-3 as a range overlaps the final's 2; one for 4-5 leaves 3
    to no team."""
    bracket = four()
    third = dataclasses.replace(bracket.matches[3], places=("2", "3"))
    found = messages(dataclasses.replace(bracket, matches=(*bracket.matches[:3], third)))
    assert ("F", "place 2 is for 1 team, but 2 go there (from F, 3rd)") in found
    assert ("", "the places go to 3: they must cover 1-4") in found
    third = dataclasses.replace(bracket.matches[3], places=("2-3", ""))
    found = messages(dataclasses.replace(bracket, matches=(*bracket.matches[:3], third)))
    assert ("3rd", "places 2-3 overlaps the places before it") in found
    third = dataclasses.replace(bracket.matches[3], places=("4", "5"))
    found = messages(dataclasses.replace(bracket, matches=(*bracket.matches[:3], third)))
    assert ("3rd", "place 4: places 3-3 are given to no team") in found


def test_a_range_must_hold_exactly_as_many_teams_as_go_to_it():
    """The two semi-final losers sharing "3-5" (three places for two teams): "9-16" needs
    8 teams."""
    bracket = four()
    matches = (
        *bracket.matches[:2],
        dataclasses.replace(bracket.matches[2], places=("1", "2")),
    )
    sf = [dataclasses.replace(m, places=("", "3-5")) for m in matches[:2]]
    five = dataclasses.replace(bracket, entries=5, matches=(*sf, matches[2]))
    assert ("SF-1", "places 3-5 hold 3 teams, but 2 go there (from SF-1, SF-2)") in messages(five)


def test_a_three_way_advances_one_or_two_teams():
    three = Match("SF-1", "SF", (Slot.by_rank(1), Slot.by_rank(4), Slot.by_rank(5)), advance=3)
    found = messages(four(sf1=three, entries=5))
    assert ("SF-1", "advance 3: a three-way advances 1 or 2 teams") in found


def test_segments_and_boards_must_be_at_least_one():
    sf1 = Match("SF-1", "SF", (Slot.by_rank(1), Slot.by_rank(4)), segments=0, boards_per_segment=0)
    found = messages(four(sf1=sf1))
    assert ("SF-1", "segments 0: a match has at least 1 segment") in found
    assert ("SF-1", "boards per segment 0: at least 1") in found


def test_a_share_carry_over_names_an_earlier_match():
    final = Match(
        "F",
        "F",
        (Slot.winner("SF-1"), Slot.winner("SF-2")),
        places=("1", "2"),
        carry_over=CarryOver(CarryKind.SHARE, share=Fraction(1, 4), of_match="F"),
    )
    assert ("F", "carry-over of F: not an earlier round's match") in messages(four(final=final))


def choice_bracket(group: ChoiceGroup, matches: tuple[str, ...] = ("SF-1", "SF-2")) -> Bracket:
    """Four teams paired by choice in the semi-finals (seed 001: by qualification rank)."""
    sf = [Match(n, "SF", (Slot.chosen("SF"), Slot.chosen("SF"))) for n in matches]
    rest = four().matches[2:]
    return Bracket("choice", 4, ("SF", "F"), (*sf, *rest), (group,))


def test_a_choice_by_rank_of_four_teams_for_two_matches_works():
    pool = tuple(Slot.by_rank(r) for r in (1, 2, 3, 4))
    group = ChoiceGroup("SF", ("SF-1", "SF-2"), pool, order=ChoiceOrder.RANK)
    assert check_bracket(choice_bracket(group)) == []


def test_a_choice_group_whose_match_does_not_exist_or_pool_does_not_fit_is_refused():
    """Two matches by rank need a pool of 4; three teams cannot fill them."""
    pool = tuple(Slot.by_rank(r) for r in (1, 2, 3))
    group = ChoiceGroup("SF", ("SF-1", "SF-2", "SF-9"), pool, order=ChoiceOrder.RANK)
    found = messages(choice_bracket(group))
    assert ("SF", "choice group: no match SF-9 in the bracket") in found
    assert ("SF", "rank choice: 3 matches need a pool of 6 teams, not 3") in found
    assert ("", "the places go to 4: they must cover 1-4") not in found


def test_a_listed_choice_needs_as_many_choosers_as_matches():
    group = ChoiceGroup(
        "SF", ("SF-1", "SF-2"), (Slot.by_rank(3), Slot.by_rank(4)), (Slot.by_rank(1),)
    )
    found = messages(choice_bracket(group))
    assert (
        "SF",
        "listed choice: 2 matches need 2 choosers and a pool of 2 (1 choosers, pool 2)",
    ) in (found)
    assert ("SF", "rank 2 goes nowhere") not in found


def test_checked_raises_listing_every_problem():
    sf1 = Match("SF-1", "SF", (Slot.by_rank(1), Slot.by_rank(5)))
    with pytest.raises(ScoringInputError) as caught:
        checked(four(sf1=sf1))
    assert caught.value.field == "bracket"
    assert "SF-1: rank 5: ranks go from 1 to 4" in caught.value.message
    assert isinstance(check_bracket(four(sf1=sf1))[0], BracketProblem)
