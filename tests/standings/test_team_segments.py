"""Issue 16 [TEAMS] "Segments": a match of several segments with the seating switched
between them, its IMPs carried across segments and its VPs worked out once, on the whole
match (seed 004: "24 brickor ... fördelade på två halvlekar med halvtidsbyte"; seeds 001
and 002: 2 × 14 boards and longer). The live view and the batch rebuild agree.

The VP scale in these tests is an illustrative table (not official) whose 2-board and
4-board rows differ, so scoring each half of a 2 × 2-board match on its own would show.
The worked match, Lions v Foxes, and its scores: tests/segmented_match.py.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from segmented_match import (
    PLAYED,
    halves_event,
    illustrative_scale,
    live_views,
    open_store,
    play,
    rebuilt_rows,
)

from hub.event.event_file import parse_event
from hub.event.movement.build import build_movement
from hub.event.movement.check import check_movement
from hub.event.movement.model import Layout, Movement, MovementKind, MovementRow
from hub.event.movement.teams import round_robin
from hub.standings.rebuild import rebuild, teams_view


def test_seed004_round_robin_of_8_teams_in_two_halves_of_12_boards():
    """Seed 004, DM Lag final: 8 teams, each match 24 boards in two halves. Match k is
    movement rounds 2k−1 and 2k at the same tables with new boards; in the second half the
    home team sits EW in the open room (the seating switch)."""
    m = round_robin(8, 12, segments=2)
    assert m.layout.segments == 2 and m.rounds == 14
    assert check_movement(m).ok
    for k in range(1, 8):
        first, second = m.round_rows(2 * k - 1), m.round_rows(2 * k)
        for a, b in zip(first, second, strict=True):
            assert a.table == b.table
            assert (b.ns_pair, b.ew_pair) == (a.ew_pair, a.ns_pair)  # switched
            assert set(a.boards).isdisjoint(b.boards) and len(a.boards) == len(b.boards) == 12
    teams_met = {frozenset(r.pairs()) for r in m.rows if r.ns_pair and r.ew_pair}
    assert len(teams_met) == 28  # every two of 8 teams meet (in one match)


def test_event_file_segments_reach_the_generated_movement():
    text = halves_event("wbf_continuous_20")
    section = parse_event(text).sessions[0].sections[0]
    m = build_movement(section.movement, "A")
    assert m.layout.segments == 2 and m.rounds == 6  # 3 matches × 2 segments


def test_checker_names_a_segment_that_seats_other_teams():
    """A movement file's match of two segments must keep its two teams at its tables."""
    rows = [
        MovementRow("A", 1, 1, 1, 2, (1,)),
        MovementRow("A", 2, 1, 2, 1, (1,)),
        MovementRow("A", 3, 1, 3, 4, (1,)),
        MovementRow("A", 4, 1, 4, 3, (1,)),
        MovementRow("A", 1, 2, 3, 1, (2,)),
        MovementRow("A", 2, 2, 1, 3, (2,)),
        MovementRow("A", 3, 2, 2, 4, (2,)),
        MovementRow("A", 4, 2, 4, 2, (2,)),
    ]
    layout = Layout(MovementKind.TEAMS, copies=2, matches=((1, 2), (3, 4)), segments=2)
    errors = check_movement(Movement(tuple(rows), layout)).errors
    assert [e.rule for e in errors] == ["segments", "segments"]
    assert "tables 1 and 2 play match 1 over rounds 1-2 (segments = 2)" in errors[0].message


@pytest.fixture
def scale(tmp_path):
    return illustrative_scale(tmp_path)


def test_imps_carry_across_the_segments_and_vps_come_once_on_the_whole_match(tmp_path, scale):
    """Lions won the first half 10-0 and lost the second 0-1: 10-1 over 4 boards, a margin
    of 9, worth 15-5 on the table's 4-board row. Scored half by half on the 2-board row it
    would have been 18-2 and 2-18."""
    store, eid = open_store(tmp_path, halves_event(scale))
    views = live_views(store, eid)
    play(store, eid, views, PLAYED)
    rows = {r["team"]: r for r in views.rows("A")}
    assert (rows[1]["total"], rows[1]["imps"], rows[1]["boards"]) == ("15", "9", 4)
    assert (rows[4]["total"], rows[4]["imps"], rows[4]["boards"]) == ("5", "-9", 4)
    assert views.rows("A") == rebuilt_rows(store, eid)


def test_the_running_match_after_the_first_half_and_from_the_second_halfs_seats(tmp_path, scale):
    """After the first half the match is 10-0 over 2 boards (18-2 on the 2-board row). In
    the second half the open room's NS team is Foxes: the match at table 1 in round 2 is
    seen from Foxes' side."""
    store, eid = open_store(tmp_path, halves_event(scale))
    views = live_views(store, eid)
    play(store, eid, views, PLAYED[:4])
    live = views.sections["A"]
    half = live.match(1, 1)
    assert (half.home, half.result.home_imps, half.result.away_imps) == (1, 10, 0)
    assert (half.result.home_vp, half.result.away_vp) == (18, 2)
    play(store, eid, views, PLAYED[4:])
    seen = live.match(1, 2)
    assert (seen.home, seen.away) == (4, 1)
    assert (seen.result.home_imps, seen.result.away_imps) == (1, 10)
    assert (seen.result.home_vp, seen.result.away_vp) == (5, 15)
    assert live.match(1, 1).home == 1  # the first half's seats: Lions' side


def test_one_segment_events_score_as_before(tmp_path, scale):
    """Without segments the two halves are two matches (rounds 1 and 2 meet other teams)."""
    store, eid = open_store(tmp_path, halves_event(scale, segments=1))
    m = store.movement(eid, "A")
    assert m.layout.segments == 1 and m.rounds == 3
    view = teams_view(store.event(eid), "A", m, [])
    assert view.matches == [] and view.team_standings == []


def test_vp_of_a_segmented_match_in_the_batch_view_is_exact(tmp_path, scale):
    """The rebuild's match: 4 boards scored, IMPs 10-1, VPs 15-5, boards won 1-1 (board 1
    to Lions by 470 points, board 3 to Foxes by 30)."""
    store, eid = open_store(tmp_path, halves_event(scale))
    views = live_views(store, eid)
    play(store, eid, views, PLAYED)
    (match,) = rebuild(store, eid)["A"].matches
    r = match.result
    assert (match.home, match.away, r.boards_scored) == (1, 4, 4)
    assert (r.home_imps, r.away_imps, r.home_vp, r.away_vp) == (10, 1, 15, 5)
    assert (r.home_boards_won, r.away_boards_won, r.home_points, r.away_points) == (1, 1, 470, 30)
    assert r.margin == Fraction(9)
