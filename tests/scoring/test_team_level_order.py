"""[MENDS] #25: teams still level after every criterion of the event's rule share their
place and are listed by number, 2 before 10, as a TD reads a start list; not by the number
as text ("10" before "2"). A team known by a letter comes after every number."""

from __future__ import annotations

from scoring.team_match import TeamBoard, score_match
from scoring.team_standings import PlayedMatch, team_order, team_standings
from scoring.vp_scale import WBFContinuousScale


def level(home: object, away: object) -> PlayedMatch:
    """A match where both rooms made 3NT=: 0 IMPs, 10-10 on the WBF scale."""
    board = TeamBoard(1, 400, 400)
    return PlayedMatch(home, away, score_match([board], scale=WBFContinuousScale()))


def test_teams_level_on_everything_are_listed_2_before_10():
    ranked = team_standings([level(10, 2), level(11, 1), level(20, 3)])
    assert [s.record.team for s in ranked] == [1, 2, 3, 10, 11, 20]
    assert {s.rank for s in ranked} == {"1="}  # level on VP and nothing else: one place


def test_numbers_as_text_and_letters_keep_the_same_order():
    """A team file's numbers read as text sort as numbers; named teams after them."""
    assert sorted(["10", "B", "2", "A", "1"], key=team_order) == ["1", "2", "10", "A", "B"]
