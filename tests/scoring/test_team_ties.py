"""Team tie-breaks as the seeds write them: the WBF procedures of seed 001 (XII A, B, C) for
two, three and four-plus teams with their restarts for a smaller tied group, seed 000's two
Swiss chains (6-1: during the event, after round 10), seed 004's order and seed 002's Swiss
points. Every case is built by hand from the seed's text; the docstrings work the numbers.

The VPs and IMPs of a match are given, not computed: only their relations matter here (the
illustrative VPs are 10-10 for a drawn match, 12-8 or so for a win). To make teams level on
VP and IMP quotient while their meetings differ, each tied team gets one more match against
a team of its own outside the tie (``pad``), with the numbers the docstring works out.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.team_tie_criteria import TeamMatch, from_played
from scoring.team_ties import (
    GRONA_HISSEN,
    RULES,
    UBF_DM_LAG,
    WBF,
    YEH_SWISS,
    YEH_SWISS_FINAL,
    Tie,
    TieBreakRule,
    place_teams,
    rule_from_names,
)


def m(
    home: str,
    away: str,
    hvp: float,
    avp: float,
    himps: int | None = None,
    aimps: int | None = None,
    hpts: int | None = None,
    apts: int | None = None,
    hboards: int | None = None,
    aboards: int | None = None,
) -> TeamMatch:
    """One match: VPs, IMPs, total points and boards won, home first."""
    return TeamMatch(
        1,
        home,
        away,
        Fraction(hvp),
        Fraction(avp),
        None if himps is None else Fraction(himps),
        None if aimps is None else Fraction(aimps),
        hpts,
        apts,
        hboards,
        aboards,
    )


def pad(
    team: str, vp: float, won: int, lost: int, pw: int | None = None, pl: int | None = None
) -> TeamMatch:
    """A match of ``team`` against its own outside team (``X-team``, 0 VP)."""
    return m(team, f"X-{team}", vp, 0, won, lost, pw, pl)


def order(places, teams: str) -> list[tuple[str, str, str | None]]:
    """(team, rank, decided_by or the open tie) for the teams named in ``teams``."""
    return [
        (p.team, p.rank, p.tie.unresolved if p.tie else p.decided_by)
        for p in places
        if p.team in teams.split()
    ]


# --- seed 001 XII A: two teams -------------------------------------------------------


def test_wbf_two_teams_imp_quotient():
    """A.1: A and B on 20 VP, not met. A's IMPs 30 won / 20 lost = 3/2, B's 30/30 = 1:
    A first on the IMP quotient."""
    places = place_teams([pad("A", 20, 30, 20), pad("B", 20, 30, 30)], WBF)
    assert order(places, "A B") == [("A", "1", "imp_quotient"), ("B", "2", "imp_quotient")]


def test_wbf_two_teams_head_to_head_imps():
    """A.2: A beat B 25-20 IMPs (11-9 VP). Pads: A 9 VP, 25/30; B 11 VP, 30/25. Totals:
    A 20 VP, 50/50 = 1; B 20 VP, 50/50 = 1. Level on the quotient; A earned more IMPs in
    their match."""
    places = place_teams(
        [m("A", "B", 11, 9, 25, 20), pad("A", 9, 25, 30), pad("B", 11, 30, 25)], WBF
    )
    assert order(places, "A B") == [("A", "1", "h2h_imps"), ("B", "2", "h2h_imps")]


def test_wbf_two_teams_head_to_head_total_points():
    """A.3: A-B 20-20 IMPs (10-10) but 1200-1100 in total points. Pads 10 VP, 30/30 each:
    both 20 VP, 50/50; the match's IMPs are level, A earned more total points in it."""
    matches = [m("A", "B", 10, 10, 20, 20, 1200, 1100), pad("A", 10, 30, 30), pad("B", 10, 30, 30)]
    assert order(place_teams(matches, WBF), "A B") == [
        ("A", "1", "h2h_total_points"),
        ("B", "2", "h2h_total_points"),
    ]


def test_wbf_two_teams_total_point_quotient_when_they_never_met():
    """A.4: A and B did not meet, so A.2-A.3 cannot apply. A: 20 VP, 40/40 IMPs, 2000/1500
    points = 4/3; B: 20 VP, 40/40, 1800/1800 = 1. A first on the total-point quotient."""
    matches = [pad("A", 20, 40, 40, 2000, 1500), pad("B", 20, 40, 40, 1800, 1800)]
    assert order(place_teams(matches, WBF), "A B") == [
        ("A", "1", "total_point_quotient"),
        ("B", "2", "total_point_quotient"),
    ]


def test_wbf_two_teams_left_to_sudden_death():
    """A.5: everything level (10-10, 20-20 IMPs, 1000-1000 points; identical pads): "One
    board ('sudden death') matches will determine the winner" - no place is invented."""
    matches = [
        m("A", "B", 10, 10, 20, 20, 1000, 1000),
        pad("A", 10, 30, 30, 1500, 1500),
        pad("B", 10, 30, 30, 1500, 1500),
    ]
    places = place_teams(matches, WBF)
    assert order(places, "A B") == [("A", "1=", "sudden death"), ("B", "1=", "sudden death")]
    assert {p.tie for p in places if p.team in "AB"} == {Tie("sudden death")}


# --- seed 001 XII B: three teams -----------------------------------------------------


def test_wbf_three_teams_quotient_then_section_a_for_the_remaining_two():
    """B.1: A, B, C on 20 VP. A 30/20 = 3/2; B and C 45/45 = 1 ("If one tie still remains it
    shall be broken in accordance with the previous section"). B-C 25-20 (11-9); pads
    B 9 VP 20/25, C 11 VP 25/20 (totals 45/45 each). Section A: B earned more IMPs."""
    matches = [
        pad("A", 20, 30, 20),
        m("B", "C", 11, 9, 25, 20),
        pad("B", 9, 20, 25),
        pad("C", 11, 25, 20),
    ]
    assert order(place_teams(matches, WBF), "A B C") == [
        ("A", "1", "imp_quotient"),
        ("B", "2", "h2h_imps"),
        ("C", "3", "h2h_imps"),
    ]


def test_wbf_three_teams_one_beat_both_then_section_a():
    """B.2: A beat B and C (12-8, 25-15 IMPs each); B-C drawn 10-10, 20-20 IMPs but B 1000,
    C 900 total points. Meetings: A 24 VP 50/30; B 18 VP 35/45; C 18 VP 35/45. Pads to 40 VP
    and 80/80: A 16 VP 30/50, B 22 VP 45/35, C 22 VP 45/35. A wins the tie; B and C go to
    section A: quotient level, IMPs level, B earned more total points."""
    matches = [
        m("A", "B", 12, 8, 25, 15, 900, 600),
        m("A", "C", 12, 8, 25, 15, 900, 600),
        m("B", "C", 10, 10, 20, 20, 1000, 900),
        pad("A", 16, 30, 50),
        pad("B", 22, 45, 35),
        pad("C", 22, 45, 35),
    ]
    assert order(place_teams(matches, WBF), "A B C") == [
        ("A", "1", "h2h_vp_beat_all"),
        ("B", "2", "h2h_total_points"),
        ("C", "3", "h2h_total_points"),
    ]


def test_wbf_three_teams_one_beat_one_and_tied_the_other():
    """B.3: A beat B (12-8, 25-15) and tied C (10-10, 20-20); B beat C (12-8, 25-15). No team
    beat both (B.2); A alone won one and tied one. Meetings: A 22 VP 45/35, B 20 VP 40/40,
    C 18 VP 35/45; pads to 40 VP, 80/80: A 18 35/45, B 20 40/40, C 22 45/35. A first; B and C
    by section A: B earned more IMPs in their match."""
    matches = [
        m("A", "B", 12, 8, 25, 15),
        m("A", "C", 10, 10, 20, 20),
        m("B", "C", 12, 8, 25, 15),
        pad("A", 18, 35, 45),
        pad("B", 20, 40, 40),
        pad("C", 22, 45, 35),
    ]
    assert order(place_teams(matches, WBF), "A B C") == [
        ("A", "1", "h2h_vp_beat_all_but_one_tie"),
        ("B", "2", "h2h_imps"),
        ("C", "3", "h2h_imps"),
    ]


def test_wbf_three_teams_one_beaten_by_both_is_third():
    """B.4: A and B both beat C (12-8, 25-15) and drew each other (10-10, 20-20; 1000-1050
    points). B.3 does not apply: A and B both won one and tied one. C, beaten by both, is
    third; A and B by section A: IMPs level, B earned more total points. Meetings: A, B 22 VP
    45/35, C 16 VP 30/50; pads to 40 VP 80/80: A, B 18 35/45, C 24 50/30."""
    matches = [
        m("A", "C", 12, 8, 25, 15),
        m("B", "C", 12, 8, 25, 15),
        m("A", "B", 10, 10, 20, 20, 1000, 1050),
        pad("A", 18, 35, 45),
        pad("B", 18, 35, 45),
        pad("C", 24, 50, 30),
    ]
    assert order(place_teams(matches, WBF), "A B C") == [
        ("B", "1", "h2h_total_points"),
        ("A", "2", "h2h_total_points"),
        ("C", "3", "h2h_vp_lost_to_all"),
    ]


def test_wbf_three_teams_cycle_net_imps_then_restart_with_section_a():
    """B.5 and the restart: A beat B 35-20 (13-7), B beat C 30-20 (12-8; but C won 1100-800
    in total points), C beat A 25-20 (11-9): a cycle, so "in all other cases". Net IMPs among
    the three: A +15-5 = +10, B -15+10 = -5, C -10+5 = -5. A first; B and C level, "broken in
    accordance with the previous section": section A from its start, so A.2 (B earned more
    IMPs against C) decides, not B.6 (where C's points would win). Meetings: A 22 VP 55/45,
    B 19 VP 50/55, C 19 VP 45/50; pads to 40 VP, 80/80: A 18 25/35, B 21 30/25, C 21 35/30."""
    matches = [
        m("A", "B", 13, 7, 35, 20, 1000, 500),
        m("B", "C", 12, 8, 30, 20, 800, 1100),
        m("C", "A", 11, 9, 25, 20, 700, 600),
        pad("A", 18, 25, 35),
        pad("B", 21, 30, 25),
        pad("C", 21, 35, 30),
    ]
    assert order(place_teams(matches, WBF), "A B C") == [
        ("A", "1", "h2h_imps"),
        ("B", "2", "h2h_imps"),
        ("C", "3", "h2h_imps"),
    ]


def test_wbf_three_teams_all_level_go_to_sudden_death():
    """B.8: three draws (10-10, 20-20, 1000-1000) and identical pads (10 VP, 30/30,
    1500/1500): no step separates them."""
    matches = [
        m("A", "B", 10, 10, 20, 20, 1000, 1000),
        m("B", "C", 10, 10, 20, 20, 1000, 1000),
        m("C", "A", 10, 10, 20, 20, 1000, 1000),
        *(pad(t, 10, 30, 30, 1500, 1500) for t in "ABC"),
    ]
    assert order(place_teams(matches, WBF), "A B C") == [(t, "1=", "sudden death") for t in "ABC"]


# --- seed 001 XII C: four teams or more ----------------------------------------------


def test_wbf_four_teams_one_beat_all_then_section_b_then_a():
    """C.2 and its restarts: A beat B, C, D; B beat C, D; C beat D (each 12-8, 25-15).
    Meetings: A 36 VP 75/45, B 32 65/55, C 28 55/65, D 24 45/75; pads to 50 VP, 120/120:
    A 14 45/75, B 18 55/65, C 22 65/55, D 26 75/45. A wins (C.2); B, C, D go to section B,
    where B beat both (B.2); C and D to section A, C earned more IMPs. (Without the restart
    C.3 would follow C.2, and B, C, D would stay level.)"""
    matches = [
        m("A", "B", 12, 8, 25, 15),
        m("A", "C", 12, 8, 25, 15),
        m("A", "D", 12, 8, 25, 15),
        m("B", "C", 12, 8, 25, 15),
        m("B", "D", 12, 8, 25, 15),
        m("C", "D", 12, 8, 25, 15),
        pad("A", 14, 45, 75),
        pad("B", 18, 55, 65),
        pad("C", 22, 65, 55),
        pad("D", 26, 75, 45),
    ]
    assert order(place_teams(matches, WBF), "A B C D") == [
        ("A", "1", "h2h_vp_unbeaten"),
        ("B", "2", "h2h_vp_beat_all"),
        ("C", "3", "h2h_imps"),
        ("D", "4", "h2h_imps"),
    ]


def test_wbf_four_teams_uniquely_tied_one_and_beat_the_others():
    """C.2, second clause: A tied B (10-10, 20-20) and beat C and D; C beat B and D; D beat
    B (wins 12-8, 25-15). Only A tied one and beat the rest. Then B, C, D (section B): C beat
    both; B and D (section A): D earned more IMPs. Meetings: A 34 VP 70/50, B 26 50/70,
    C 32 65/55, D 28 55/65; pads to 50 VP, 120/120: A 16 50/70, B 24 70/50, C 18 55/65,
    D 22 65/55."""
    matches = [
        m("A", "B", 10, 10, 20, 20),
        m("A", "C", 12, 8, 25, 15),
        m("A", "D", 12, 8, 25, 15),
        m("C", "B", 12, 8, 25, 15),
        m("C", "D", 12, 8, 25, 15),
        m("D", "B", 12, 8, 25, 15),
        pad("A", 16, 50, 70),
        pad("B", 24, 70, 50),
        pad("C", 18, 55, 65),
        pad("D", 22, 65, 55),
    ]
    assert order(place_teams(matches, WBF), "A B C D") == [
        ("A", "1", "h2h_vp_unbeaten"),
        ("C", "2", "h2h_vp_beat_all"),
        ("D", "3", "h2h_imps"),
        ("B", "4", "h2h_imps"),
    ]


def test_wbf_four_teams_two_that_tied_one_and_beat_the_rest_are_not_unique():
    """C.2 needs the team to be unique: A and B drew (10-10, 20-20) and each beat C and D;
    C beat D (wins 12-8, 25-15). A and B both "tied one and defeated the other tied teams", so
    C.2 declares no winner; C.3: every total-point quotient is 1 (meetings 0/0 points, pads
    1000/1000), four remain level: sudden death (C.4). Meetings: A, B 34 VP 70/50; C 28 VP
    55/65; D 24 VP 45/75. Pads to 50 VP, 120/120: A, B 16 50/70; C 22 65/55; D 26 75/45."""
    matches = [
        m("A", "B", 10, 10, 20, 20, 0, 0),
        m("A", "C", 12, 8, 25, 15, 0, 0),
        m("A", "D", 12, 8, 25, 15, 0, 0),
        m("B", "C", 12, 8, 25, 15, 0, 0),
        m("B", "D", 12, 8, 25, 15, 0, 0),
        m("C", "D", 12, 8, 25, 15, 0, 0),
        pad("A", 16, 50, 70, 1000, 1000),
        pad("B", 16, 50, 70, 1000, 1000),
        pad("C", 22, 65, 55, 1000, 1000),
        pad("D", 26, 75, 45, 1000, 1000),
    ]
    assert order(place_teams(matches, WBF), "A B C D") == [
        (t, "1=", "sudden death") for t in "ABCD"
    ]


def test_wbf_five_teams_a_winner_then_four_left_go_to_points_quotient():
    """C.2 then C.3, not C.2 again: "If there are more than three teams that remain tied,
    then: 3." A beat B, C, D, E; among those four B drew C and beat D and E (B alone is
    unbeaten there, but C.2 is not applied again); D beat C, C beat E, E beat D. Wins 12-8,
    25-15; the draw 10-10, 20-20. Meetings: A 48 VP 100/60; B 42 85/75; C 38 75/85; D, E 36
    70/90. Pads to 60 VP, 150/150: A 12 50/90, B 18 65/75, C 22 75/65, D, E 24 80/60. Total
    points 0/0 in the meetings and 1000/1000 in the pads: every quotient 1, so sudden death
    for the four."""
    won = [("A", "B"), ("A", "C"), ("A", "D"), ("A", "E"), ("B", "D"), ("B", "E")]
    won += [("D", "C"), ("C", "E"), ("E", "D")]
    matches = [m(winner, loser, 12, 8, 25, 15, 0, 0) for winner, loser in won]
    matches += [
        m("B", "C", 10, 10, 20, 20, 0, 0),
        pad("A", 12, 50, 90, 1000, 1000),
        pad("B", 18, 65, 75, 1000, 1000),
        pad("C", 22, 75, 65, 1000, 1000),
        pad("D", 24, 80, 60, 1000, 1000),
        pad("E", 24, 80, 60, 1000, 1000),
    ]
    assert order(place_teams(matches, WBF), "A B C D E") == [
        ("A", "1", "h2h_vp_unbeaten"),
        *((t, "2=", "sudden death") for t in "BCDE"),
    ]


def test_wbf_five_teams_points_quotient_leaves_four_for_sudden_death():
    """C.3 then C.4: five teams on 20 VP, none met, IMPs 40/40 each. Total points: A
    2000/1000 = 2, the others 1500/1500 = 1. A first; "more than three teams remain tied
    after the application of total points quotient": sudden death for 2nd to 5th."""
    matches = [pad("A", 20, 40, 40, 2000, 1000)]
    matches += [pad(t, 20, 40, 40, 1500, 1500) for t in "BCDE"]
    assert order(place_teams(matches, WBF), "A B C D E") == [
        ("A", "1", "total_point_quotient"),
        *((t, "2=", "sudden death") for t in "BCDE"),
    ]


def test_wbf_points_quotient_leaves_three_who_restart_with_section_b():
    """C.3 leaving three, who start section B from its top. A met none of the others, so
    C.2 cannot apply; B, C, D met each other: B beat C and D, C beat D (12-8, 25-15, 900-600
    points each). Meetings: B 24 VP 50/30 IMPs 1800/1200 points; C 20 VP 40/40 1500/1500;
    D 16 VP 30/50 1200/1800. Pads to 40 VP, 80/80 IMPs, 3000/3000 points: B 16 VP 30/50
    1200/1800; C 20 40/40 1500/1500; D 24 50/30 1800/1200; A's only match 40 VP, 80/80,
    4000/2000. C.3: A's quotient 2 beats 1; B, C, D: section B, where B beat both (B.2);
    C and D: section A, C earned more IMPs."""
    matches = [
        m("B", "C", 12, 8, 25, 15, 900, 600),
        m("B", "D", 12, 8, 25, 15, 900, 600),
        m("C", "D", 12, 8, 25, 15, 900, 600),
        pad("A", 40, 80, 80, 4000, 2000),
        pad("B", 16, 30, 50, 1200, 1800),
        pad("C", 20, 40, 40, 1500, 1500),
        pad("D", 24, 50, 30, 1800, 1200),
    ]
    assert order(place_teams(matches, WBF), "A B C D") == [
        ("A", "1", "total_point_quotient"),
        ("B", "2", "h2h_vp_beat_all"),
        ("C", "3", "h2h_imps"),
        ("D", "4", "h2h_imps"),
    ]


# --- seed 000 6-1: the Swiss during the event and after round 10 ---------------------

# A beat B 30-20 IMPs (12-8), 900-700 points. Pads: A 8 VP, 20/30 IMPs, 1000/1500 points;
# B 12 VP, 30/20, 1600/1000. Totals: A 20 VP, 50/50 IMPs = 1, 1900/2200 = 19/22 points;
# B 20 VP, 50/50 = 1, 2300/1900 = 23/19.
YEH = [
    m("A", "B", 12, 8, 30, 20, 900, 700),
    pad("A", 8, 20, 30, 1000, 1500),
    pad("B", 12, 30, 20, 1600, 1000),
]


def test_seed000_during_the_event_quotients_only():
    """6-1, during the event: IMP quotient (level at 1), then the total-point quotient:
    B's 23/19 beats A's 19/22 - the match between them does not count."""
    assert order(place_teams(YEH, YEH_SWISS), "A B") == [
        ("B", "1", "total_point_quotient"),
        ("A", "2", "total_point_quotient"),
    ]


def test_seed000_after_round_10_the_match_between_them_comes_first():
    """6-1 after round 10: (a) IMP quotient level; (b) IMPs obtained in their match: A 30,
    B 20 - A first, although B has the better total-point quotient (d)."""
    assert order(place_teams(YEH, YEH_SWISS_FINAL), "A B") == [
        ("A", "1", "h2h_imps_won"),
        ("B", "2", "h2h_imps_won"),
    ]


def test_seed000_during_the_event_ends_in_a_draw_by_lot():
    """6-1: "If the tie remains, the winner will be determined by a draw": without a recorded
    seed the tie stays open as a lot to draw; with one, each team gets its own place."""
    level = [pad("A", 20, 40, 40, 1500, 1500), pad("B", 20, 40, 40, 1500, 1500)]
    assert order(place_teams(level, YEH_SWISS), "A B") == [("A", "1=", "lot"), ("B", "1=", "lot")]
    drawn = order(place_teams(level, YEH_SWISS, lot_seed=7), "A B")
    assert sorted(r for _, r, _ in drawn) == ["1", "2"]
    assert {d for _, _, d in drawn} == {"lot"}
    assert drawn == order(place_teams(level, YEH_SWISS, lot_seed=7), "A B")


def test_seed000_after_round_10_ends_in_a_play_off():
    """6-1 (e): "Successive one board play off until a winner is determined"."""
    matches = [
        m("A", "B", 10, 10, 20, 20, 1000, 1000),
        pad("A", 10, 30, 30, 1500, 1500),
        pad("B", 10, 30, 30, 1500, 1500),
    ]
    assert order(place_teams(matches, YEH_SWISS_FINAL), "A B") == [
        ("A", "1=", "play-off"),
        ("B", "1=", "play-off"),
    ]


# --- seed 004: DM Lag ----------------------------------------------------------------


def test_seed004_boards_won_before_total_points():
    """Seed 004: VP, IMP quotient, IMPs won between them, boards won between them, total
    points won between them, lot. A-B 20-20 IMPs (10-10); A won 5 boards, B 3; B won more
    total points (1100 to 900). Pads 10 VP 30/30 each: level on VP and quotient; boards won
    decide before points: A first."""
    matches = [
        m("A", "B", 10, 10, 20, 20, 900, 1100, 5, 3),
        pad("A", 10, 30, 30),
        pad("B", 10, 30, 30),
    ]
    assert order(place_teams(matches, UBF_DM_LAG), "A B") == [
        ("A", "1", "h2h_boards_won"),
        ("B", "2", "h2h_boards_won"),
    ]


def test_seed004_ends_in_a_lot():
    """Seed 004's last step is "lottning": open until the TD draws it from a recorded seed."""
    matches = [
        m("A", "B", 10, 10, 20, 20, 1000, 1000, 4, 4),
        pad("A", 10, 30, 30),
        pad("B", 10, 30, 30),
    ]
    assert order(place_teams(matches, UBF_DM_LAG), "A B") == [
        ("A", "1=", "lot"),
        ("B", "1=", "lot"),
    ]


# --- seed 002: Gröna Hissen ----------------------------------------------------------


def test_seed002_swiss_points_then_imp_quotient():
    """Seed 002: teams level on VP are ordered by Swiss points, the sum of the VPs of the
    teams met. A beat C 15-5, B beat D 15-5, then C beat D 15-5 (IMPs 10/5 each win). A and
    B have 15 VP, behind C's 20; A met C (20 VP), B met D (10 VP): A second, B third."""
    matches = [
        m("A", "C", 15, 5, 10, 5),
        m("B", "D", 15, 5, 10, 5),
        m("C", "D", 15, 5, 10, 5),
    ]
    assert order(place_teams(matches, GRONA_HISSEN), "A B") == [
        ("A", "2", "swiss_points"),
        ("B", "3", "swiss_points"),
    ]


def test_seed002_chain_ends_shared():
    """Seed 002 names no step after the IMP quotient: level teams share the place."""
    matches = [m("A", "C", 15, 5, 10, 5), m("B", "C", 15, 5, 10, 5)]
    assert order(place_teams(matches, GRONA_HISSEN), "A B") == [
        ("A", "1=", "shared"),
        ("B", "1=", "shared"),
    ]


# --- the rules as data ---------------------------------------------------------------


def test_missing_data_leaves_the_tie_open():
    """Without IMPs the IMP quotient cannot be worked out: the tie is open, not guessed."""
    matches = [m("A", "C", 15, 5), m("B", "D", 15, 5)]
    assert order(place_teams(matches, WBF), "A B") == [
        ("A", "1=", "missing IMPs"),
        ("B", "1=", "missing IMPs"),
    ]


def test_named_rules_and_chains():
    assert set(RULES) == {"wbf", "yeh_swiss", "yeh_swiss_final", "ubf_dm_lag", "grona_hissen"}
    assert rule_from_names(["wbf"]) is WBF
    chain = rule_from_names(["imp_quotient", "lot"])
    assert chain.chain_for(5) == (2, ("imp_quotient", "lot"))
    with pytest.raises(ValueError, match="unknown tie-break"):
        rule_from_names(["imp_quota"])
    with pytest.raises(ValueError, match="whole rule"):
        rule_from_names(["wbf", "lot"])
    with pytest.raises(ValueError, match="must end"):
        TieBreakRule("x", "test", ((2, ("lot", "imp_quotient")),))


def test_wbf_size_classes():
    assert WBF.chain_for(2)[0] == 2
    assert WBF.chain_for(3)[0] == 3
    assert WBF.chain_for(4)[0] == WBF.chain_for(9)[0] == 4


def test_vp_adjustments_and_byes_count_for_vp_only():
    """A bye's VP and a fixed adjustment (a late joiner's VP, a penalty) count in VP; a bye
    is no match for the quotients."""
    bye = TeamMatch(1, "A", None, Fraction(12))
    places = place_teams(
        [bye, m("B", "C", 10, 10, 20, 20)], WBF, teams=["A", "B", "C", "D"],
        vp_adjustments={"D": Fraction(-1, 2)},
    )  # fmt: skip
    assert [(p.team, p.vp, p.rank) for p in places] == [
        ("A", 12, "1"),
        ("B", 10, "2="),
        ("C", 10, "2="),
        ("D", Fraction(-1, 2), "4"),
    ]


def test_from_played_carries_the_match_result():
    """The existing ``PlayedMatch`` (scoring.team_standings) feeds the same rules."""
    from scoring.team_match import TeamBoard, score_match
    from scoring.team_standings import PlayedMatch

    r = score_match([TeamBoard(1, 420, -50), TeamBoard(2, 100, 100)], home_carry_over=1)
    tm = from_played(PlayedMatch("H", "A", r), 3)
    # board 1: +470 → 10 IMPs to home; carry-over 1; board 2 level
    assert (tm.round, tm.home_imps, tm.away_imps, tm.home_points, tm.home_boards_won) == (
        3,
        11,
        0,
        470,
        1,
    )
