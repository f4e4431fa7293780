"""The WBF IMP table (Law 78B) and two-room team matches against a real event."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle import pbn_boards

from scoring.errors import ScoringInputError
from scoring.imps import imps, imps_array
from scoring.team_match import TeamBoard, carry_over_share, score_match
from scoring.vp_scale import WBFContinuousScale


def _ns(tag: str) -> int:
    side, value = tag.split()[:2]
    return int(value) if side == "NS" else -int(value)


def _matches():
    """RealBridge records grouped as match → board → {table: (NS score, NS IMPs)}."""
    out: dict[frozenset, dict[int, dict[int, tuple[int, int]]]] = defaultdict(dict)
    for b in pbn_boards():
        if not b.info.get("Score") or not b.info.get("ScoreIMP"):
            continue
        key = frozenset([b.info["HomeTeam"], b.info["VisitTeam"]])
        out[key].setdefault(b.board_num, {})[int(b.info["Table"])] = (
            _ns(b.info["Score"]),
            _ns(b.info["ScoreIMP"]),
        )
    return out


def test_law78b_every_realbridge_table_imp():
    """ScoreIMP at a table = IMP(NS here − NS at the other table of the match): 278 values."""
    checked = 0
    for boards in _matches().values():
        for tables in boards.values():
            if len(tables) != 2:
                continue
            (_t1, (s1, i1)), (_t2, (s2, i2)) = sorted(tables.items())
            assert imps(s1 - s2) == i1 and imps(s2 - s1) == i2
            checked += 2
    assert checked == 278


@pytest.mark.parametrize(
    ("diff", "expected"),
    [
        (0, 0),
        (10, 0),
        (20, 1),
        (40, 1),
        (50, 2),
        (80, 2),
        (90, 3),
        (120, 3),
        (130, 4),
        (160, 4),
        (170, 5),
        (210, 5),
        (220, 6),
        (260, 6),
        (270, 7),
        (310, 7),
        (320, 8),
        (360, 8),
        (370, 9),
        (420, 9),
        (430, 10),
        (490, 10),
        (500, 11),
        (590, 11),
        (600, 12),
        (740, 12),
        (750, 13),
        (890, 13),
        (900, 14),
        (1090, 14),
        (1100, 15),
        (1290, 15),
        (1300, 16),
        (1490, 16),
        (1500, 17),
        (1740, 17),
        (1750, 18),
        (1990, 18),
        (2000, 19),
        (2240, 19),
        (2250, 20),
        (2490, 20),
        (2500, 21),
        (2990, 21),
        (3000, 22),
        (3490, 22),
        (3500, 23),
        (3990, 23),
        (4000, 24),
        (7600, 24),
    ],
)
def test_law78b_table_edges(diff, expected):
    """Every row edge of the Law 78B table."""
    assert imps(diff) == expected and imps(-diff) == -expected
    assert imps_array(np.array([diff, -diff])).tolist() == [expected, -expected]


def test_d4_non_multiples_of_ten_round_to_nearest_ten_halves_away_from_zero():
    assert imps(14) == 0 and imps(15) == 1 and imps(Fraction(85, 1)) == 3
    assert imps(-15) == -1 and imps(Fraction(4499, 10)) == 10
    assert imps_array(np.array([15, -15, 44, 45])).tolist() == [1, -1, 1, 2]


@given(st.integers(-8000, 8000))
def test_imps_are_odd_and_monotone(d):
    assert imps(-d) == -imps(d)
    assert imps(d + 10) >= imps(d)
    assert imps_array(np.array([d]))[0] == imps(d)


def test_cap_limits_one_comparison():
    assert imps(1500, cap=17) == 17 and imps(2500, cap=17) == 17 and imps(-3000, cap=17) == -17


def test_team_matches_of_the_realbridge_event():
    """Match IMPs from two rooms equal the sum of the real event's per-table IMPs."""
    matches = 0
    for boards in _matches().values():
        complete = {b: t for b, t in boards.items() if len(t) == 2}
        open_table = min(next(iter(complete.values())))
        team_boards = []
        expected = 0
        for board, tables in sorted(complete.items()):
            (_t_open, (s_open, imp_open)), (_, (s_closed, _)) = sorted(
                tables.items(), key=lambda kv: kv[0] != open_table
            )
            team_boards.append(TeamBoard(board, s_open, s_closed))
            expected += imp_open
        result = score_match(team_boards, scale=WBFContinuousScale())
        assert result.home_imps - result.away_imps == expected
        assert result.home_vp + result.away_vp == 20
        assert result.boards_scored == len(team_boards)
        matches += 1
    assert matches == 14  # the 15th match has no scored boards in the export


def test_seed000_a_ten_point_difference_wins_a_board():
    """Seed 000 §6-2: a difference of 10 points counts as a won board though no IMP."""
    r = score_match([TeamBoard(1, 420, 420), TeamBoard(2, 430, 420), TeamBoard(3, -100, -50)])
    assert (r.home_imps, r.away_imps) == (0, 2)
    assert (r.home_boards_won, r.away_boards_won) == (1, 1)
    assert (r.home_points, r.away_points) == (10, 50)
    assert r.total_point_margin == -40


def test_carry_over_and_fouled_board_and_assigned_imps():
    """Seed 000: 6.5 IMP carry-over; seed 002: a fouled board is removed and the match is
    scored as one of fewer boards; Law 86A: +3 IMPs assigned."""
    boards = [
        TeamBoard(1, 620, 170),
        TeamBoard(2, fouled=True),
        TeamBoard(3, assigned_imps=Fraction(3)),
    ]
    r = score_match(boards, scale=WBFContinuousScale(), home_carry_over=Fraction(13, 2))
    assert r.boards_scored == 2
    assert r.home_imps == 10 + 3 and r.margin == Fraction(39, 2)
    # 19.5 IMPs over 2 boards: rounded to 20 towards the team ahead on total points; the
    # WBF 2-board scale reaches 20 VP at 22 IMPs (blitz 15·√2 = 21.2).
    assert r.home_vp + r.away_vp == 20 and r.home_vp > 19
    assert carry_over_share(12, Fraction(1, 3)) == 4


def test_a_board_needs_both_rooms_or_an_assigned_score():
    with pytest.raises(ScoringInputError, match="both rooms"):
        TeamBoard(1, 420, None)
    with pytest.raises(ScoringInputError, match="twice"):
        score_match([TeamBoard(1, 420, 420), TeamBoard(1, 0, 0)])
