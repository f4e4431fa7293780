"""A three-way match instead of a bye (movements.md 5.5, ASE Scorer's two-round three-way;
``scoring.draw.three_way``): the bye team joins the lowest-ranked match whose teams have had
no bye nor three-way and have not met it; a team gets one three-way per event where it
can. Expectations worked by hand in each test's docstring."""

from __future__ import annotations

from fractions import Fraction

from scoring.draw.byes import split_bye
from scoring.draw.model import Draw, MatchPlayed, Pairing, had_bye
from scoring.draw.three_way import three_way_draw


def _way(rnd: int, a: str, b: str, c: str) -> list[MatchPlayed]:
    return [
        MatchPlayed(rnd, a, b, three_way=True),
        MatchPlayed(rnd, b, c, three_way=True),
        MatchPlayed(rnd, c, a, three_way=True),
    ]


def test_five_teams_round_one_bye_team_joins_the_lowest_match() -> None:
    """Round 1 of 5 teams: 1 v 2 (table 1), 3 v 4 (table 2), bye 5. Nobody has had a turn,
    so the lowest match (table 2) takes in the bye team: three-way (A, B, C) = (3, 4, 5);
    1 v 2 stays match 1; no repeats, no bye."""
    draw = Draw(1, (Pairing(1, "1", "2"), Pairing(2, "3", "4")), ("5",), 0, 7)
    out = three_way_draw(draw, [])
    assert out.three_way == ("3", "4", "5")
    assert out.matches == (Pairing(1, "1", "2"),)
    assert out.byes == ()
    assert out.repeats == 0
    assert (out.round, out.lot_seed) == (1, 7)


def test_teams_that_had_a_three_way_are_passed_over() -> None:
    """Seven teams; round 1 had the three-way 5, 6, 7 and 1 v 2, 3 v 4. Round 3's draw:
    1 v 3 (t1), 5 v 2 (t2), 6 v 7 (t3), bye 4. Table 3 (6, 7) and table 2 (5) have had a
    three-way, so table 1 plays it: (1, 3, 4). Left: 5 v 2 as match 1, 6 v 7 as match 2.
    Repeats: 6-7 met (round 1's three-way), 3-4 met (round 1): 2; 5-2, 1-3, 4-1 new."""
    earlier = [*_way(1, "5", "6", "7"), MatchPlayed(1, "1", "2"), MatchPlayed(1, "3", "4")]
    draw = Draw(
        3, (Pairing(1, "1", "3"), Pairing(2, "5", "2"), Pairing(3, "6", "7")), ("4",), 1, None
    )
    out = three_way_draw(draw, earlier)
    assert out.three_way == ("1", "3", "4")
    assert out.matches == (Pairing(1, "5", "2"), Pairing(2, "6", "7"))
    assert out.byes == ()
    assert out.repeats == 2


def test_every_match_has_had_a_turn_the_one_with_fewest_plays_it() -> None:
    """Five teams; round 1 had the three-way 1, 2, 3 and 4 v 5. Round 3: 1 v 4 (t1),
    2 v 3 (t2), bye 5. Both matches hold a team that had a three-way: t2 two of them, t1
    one (team 1), so t1 plays it and only team 1 plays a second: (1, 4, 5); 2 v 3 is match
    1. Repeats: 2-3 and 4-5 met; 1-4 and 5-1 new: 2."""
    earlier = [*_way(1, "1", "2", "3"), MatchPlayed(1, "4", "5")]
    draw = Draw(3, (Pairing(1, "1", "4"), Pairing(2, "2", "3")), ("5",), 1, None)
    out = three_way_draw(draw, earlier)
    assert out.three_way == ("1", "4", "5")
    assert out.matches == (Pairing(1, "2", "3"),)
    assert out.repeats == 2


def test_the_three_way_avoids_a_repeat_with_the_bye_team() -> None:
    """Seven teams; round 1: 1 v 2, 3 v 4, 5 v 6, bye 7. Round 2's draw: 1 v 3 (t1),
    7 v 4 (t2), 2 v 5 (t3), bye 6. Team 7 had the bye, so t2 is passed over; t3 would put
    6 with 5 again (met in round 1), t1 meets nobody twice: (1, 3, 6). Left: 7 v 4 and
    2 v 5 as matches 1 and 2; no repeats."""
    earlier = [MatchPlayed(1, "1", "2"), MatchPlayed(1, "3", "4"), MatchPlayed(1, "5", "6")]
    earlier.append(MatchPlayed(1, "7", None))
    draw = Draw(
        2, (Pairing(1, "1", "3"), Pairing(2, "7", "4"), Pairing(3, "2", "5")), ("6",), 0, None
    )
    out = three_way_draw(draw, earlier)
    assert out.three_way == ("1", "3", "6")
    assert out.matches == (Pairing(1, "7", "4"), Pairing(2, "2", "5"))
    assert out.repeats == 0


def test_a_draw_with_no_bye_is_unchanged() -> None:
    """Four teams (or an odd field whose three-way of the round before seats three): no
    bye, nothing to turn into a three-way."""
    draw = Draw(2, (Pairing(1, "1", "2"), Pairing(2, "3", "4")), (), 0, None)
    assert three_way_draw(draw, []) is draw
    lone = Draw(2, (), ("1",), 0, None)  # a bye and no match to join: unchanged too
    assert three_way_draw(lone, []) is lone


def test_a_three_way_counts_as_a_teams_turn_for_the_bye() -> None:
    """had_bye: the bye team of round 1 (3) and the three teams of round 2's three-way
    (1, 2, 4) have had their turn; 5 has not. Standing 5, 4, 3, 2, 1 (best first): the
    lowest-ranked team without a turn is 5, so 5 gets the next bye (movements.md 5.5:
    one three-way per team where it can be)."""
    earlier = [MatchPlayed(1, "3", None, Fraction(12)), *_way(2, "1", "2", "4")]
    assert had_bye(earlier) == {"1", "2", "3", "4"}
    byes, playing = split_bye(["5", "4", "3", "2", "1"], earlier)
    assert byes == ("5",)
    assert playing == ["4", "3", "2", "1"]
