"""The hub's team standings (``scoring.team_standings``) place teams with the one engine of
``scoring.team_ties`` and the event file's rule (issue 16): the seeds' differences from the
older chain hold there too. Margins are on an illustrative wide VP scale (not official) so
that different IMP margins give equal VPs; every expected place is worked by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest
from pydantic import ValidationError

from hub.event.event_rules import Rules
from scoring.team_match import TeamBoard, score_match
from scoring.team_standings import PlayedMatch, team_standings
from scoring.vp_scale import parse_vp_table

WIDE = parse_vp_table(
    "boards,imps_from,imps_to,winner,loser\n*,0,2,10,10\n*,3,9,12,8\n*,10,,15,5\n", "illustrative"
)


def _wide(home: str, away: str, *nets: int) -> PlayedMatch:
    """A match whose boards gave the home team ``nets`` points (open NS, closed 0)."""
    boards = [TeamBoard(i + 1, n, 0) for i, n in enumerate(nets)]
    return PlayedMatch(home, away, score_match(boards, scale=WIDE))


def _places(ranked) -> list[tuple[str, str, str | None]]:
    return [
        (s.record.team, s.rank, s.placed.tie.unresolved if s.placed.tie else s.placed.decided_by)
        for s in ranked
    ]


def test_seed000_head_to_head_only_when_every_two_tied_teams_met():
    """Seed 000 6-1 (b): IMPs "in the match between the tying teams (should it have
    occurred)". A beat B by 2 IMPs (50 points), C and D drew: all four 10-10 on VP. A
    head-to-head criterion cannot order four teams of whom only two pairs met; the IMP
    quotient then does: A 2÷0 (infinite), C and D 0÷0 (1), B 0÷2."""
    matches = [_wide("A", "B", 50), _wide("C", "D", 0)]
    assert _places(team_standings(matches, ["h2h_imps"])) == [
        ("A", "1=", "shared"),
        ("B", "1=", "shared"),
        ("C", "1=", "shared"),
        ("D", "1=", "shared"),
    ]
    assert _places(team_standings(matches, ["h2h_imps", "imp_quotient"])) == [
        ("A", "1", "imp_quotient"),
        ("C", "2=", "shared"),
        ("D", "2=", "shared"),
        ("B", "4", "imp_quotient"),
    ]


def test_seed002_swiss_points_count_each_opponent_met_once():
    """Seed 002, "Särskiljning Gröna Hissen": SP is "summan VP för samtliga de lag man
    mött", the VPs of every team met.

    A and B drew twice (20 VP each); C drew with D and with E (20 VP); D carries 15 VP from
    an adjustment (25 VP), E has 10. Swiss points: A 20 (B), B 20 (A), C 25 + 10 = 35, so C
    is second; A and B stay level (IMP quotient 1 each: every match drawn 0-0). Counting B
    twice for A would have given A 40 and put A above C."""
    matches = [_wide("A", "B", 0), _wide("A", "B", 0), _wide("C", "D", 0), _wide("C", "E", 0)]
    ranked = team_standings(matches, ["grona_hissen"], vp_adjustments={"D": Fraction(15)})
    assert [(s.record.team, s.record.vp) for s in ranked] == [
        ("D", 25),
        ("C", 20),
        ("A", 20),
        ("B", 20),
        ("E", 10),
    ]
    assert _places(ranked) == [
        ("D", "1", None),
        ("C", "2", "swiss_points"),
        ("A", "3=", "shared"),
        ("B", "3=", "shared"),
        ("E", "5", None),
    ]


def test_event_file_names_the_wbf_rule_and_the_standings_follow_it():
    """Seed 001 XII A (two teams): IMP quotient, then net IMPs in their match.

    A beat B by 2 IMPs, C beat A by 2, B beat D by 2: every match 10-10. A and B (20 VP)
    both won 2 and lost 2 IMPs (quotient 1), so their own match decides: A first. C (2÷0)
    is above D (0÷2) on the quotient."""
    rules = Rules.model_validate({"scoring": "teams", "tie_breaks": "wbf"})
    assert rules.tie_breaks == ["wbf"]
    matches = [_wide("A", "B", 50), _wide("C", "A", 50), _wide("B", "D", 50)]
    assert _places(team_standings(matches, rules.tie_breaks)) == [
        ("A", "1", "h2h_imps"),
        ("B", "2", "h2h_imps"),
        ("C", "3", "imp_quotient"),
        ("D", "4", "imp_quotient"),
    ]


@pytest.mark.parametrize(
    ("tie_breaks", "message"),
    [
        (["coin"], "item 0, 'coin', is not a tie-break for teams scoring; use one rule alone (wbf"),
        (["wbf", "lot"], "'wbf' is a whole rule: give it alone"),
        (["lot", "imp_quotient"], "'lot' must end its chain"),
    ],
)
def test_event_file_refuses_a_team_chain_it_cannot_follow(tie_breaks, message):
    """Decisions D2: a wrong event file is refused with the key and the choices."""
    with pytest.raises(ValidationError) as e:
        Rules.model_validate({"scoring": "teams", "tie_breaks": tie_breaks})
    assert "tie_breaks" in str(e.value) and message in str(e.value)
    assert "h2h_vp_unbeaten" in str(e.value) and "sudden_death" in str(e.value)


def test_old_chain_names_still_mean_the_same_criteria():
    """The event files written before issue 16 keep working: every old name is a criterion
    (or ``lot``)."""
    old = ["imp_quotient", "total_point_quotient", "h2h_vp", "h2h_imps", "h2h_boards_won"]
    old += ["h2h_total_points", "swiss_points", "lot"]
    assert Rules.model_validate({"scoring": "teams", "tie_breaks": old}).tie_breaks == old
