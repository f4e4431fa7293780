"""Penalty scales of seeds 000, 002 and 003 as data (decisions D2, D10)."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from scoring.errors import ScoringInputError
from scoring.penalties import PenaltyUnit, scale_from_data

SCALES = tomllib.loads(
    (Path(__file__).parents[2] / "examples" / "penalty_scales.toml").read_text("utf-8")
)


def scale(name):
    return scale_from_data(SCALES[name], name)


def proposed(name, minutes, offence=1, unfinished=0):
    p = scale(name).penalty(Fraction(minutes), offence, unfinished)
    return None if p is None else (p.amount, p.unit)


VP, IMP, WARN, TD = PenaltyUnit.VP, PenaltyUnit.IMP, PenaltyUnit.WARNING, PenaltyUnit.TD_DECIDES


@pytest.mark.parametrize(
    ("minutes", "offence", "expected"),
    [
        # Seed 000 §9 Slow Play (Swiss): 0~5 first offence warning, later 0.8 VP; 5~10 1.6 VP;
        # 10~15 2.4 VP; over 15 at the CTD's discretion.
        (0, 1, None),
        (3, 1, (0, WARN)),
        (5, 1, (0, WARN)),
        (3, 2, (Fraction("0.8"), VP)),
        (Fraction("5.01"), 1, (Fraction("1.6"), VP)),
        (10, 1, (Fraction("1.6"), VP)),
        (15, 1, (Fraction("2.4"), VP)),
        (16, 1, (0, TD)),
    ],
)
def test_seed000_slow_play_swiss(minutes, offence, expected):
    assert proposed("seed000_slow_play_swiss", minutes, offence) == expected


def test_seed000_late_start_knockout_and_forfeit():
    assert proposed("seed000_late_start_ko", 4, 2) == (3, IMP)
    assert proposed("seed000_late_start_ko", 7) == (6, IMP)
    assert proposed("seed000_late_start_ko", 14) == (10, IMP)
    assert proposed("seed000_late_start_ko", 20) == (0, PenaltyUnit.FORFEIT)


@pytest.mark.parametrize(
    ("minutes", "vp"),
    [
        # Seed 002 "Långsamt spel", Kvalificeringsfasen: 0+–5 1 VP … 20+–25 3 VP.
        (1, 1),
        (5, 1),
        (6, Fraction("1.5")),
        (10, Fraction("1.5")),
        (11, 2),
        (16, Fraction("2.5")),
        (25, 3),
    ],
)
def test_seed002_slow_play_qualifying(minutes, vp):
    assert proposed("seed002_slow_play_qualifying", minutes) == (vp, VP)


def test_seed002_slow_play_ko_one_imp_per_started_minute():
    """Seed 002 KO: 0+–25 minutes, 1 IMP for every started minute; beyond, the organiser."""
    assert proposed("seed002_slow_play_ko", Fraction(1, 2)) == (1, IMP)
    assert proposed("seed002_slow_play_ko", 7) == (7, IMP)
    assert proposed("seed002_slow_play_ko", Fraction("7.2")) == (8, IMP)
    assert proposed("seed002_slow_play_ko", 26) == (0, TD)


def test_seed002_late_arrival_with_repeat_minimum():
    """Seed 002 "Sen ankomst": 0+–5 warning, 5+–10 1 VP … 20+–25 4 VP; a team warned before
    gets at least 0.5 VP (KO: 3 IMP). KO: 1 IMP plus 1 per started minute over 5."""
    assert proposed("seed002_late_arrival_qualifying", 4) == (0, WARN)
    assert proposed("seed002_late_arrival_qualifying", 4, offence=2) == (Fraction(1, 2), VP)
    assert proposed("seed002_late_arrival_qualifying", 12, offence=2) == (2, VP)
    assert proposed("seed002_late_arrival_qualifying", 21) == (4, VP)
    assert proposed("seed002_late_arrival_ko", Fraction("5.5")) == (2, IMP)
    assert proposed("seed002_late_arrival_ko", 8) == (4, IMP)
    assert proposed("seed002_late_arrival_ko", 3, offence=2) == (3, IMP)
    assert proposed("seed002_late_arrival_ko", 6, offence=2) == (3, IMP)  # 2 IMP < minimum


def test_seed003_board_removed_per_started_seven_minutes():
    """Seed 003 item 9: one board removed, 3 IMP to the other team, per started 7 minutes."""
    s = scale("seed003_late_start")
    assert proposed("seed003_late_start", 1) == (1, PenaltyUnit.BOARDS_REMOVED)
    assert proposed("seed003_late_start", 7) == (1, PenaltyUnit.BOARDS_REMOVED)
    assert proposed("seed003_late_start", Fraction("7.5")) == (2, PenaltyUnit.BOARDS_REMOVED)
    assert s.opponent_imps_per_board_removed == 3


def test_seed003_three_imps_per_board_not_played_in_time():
    assert proposed("seed003_slow_play", 12, unfinished=2) == (6, IMP)


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ({"steps": []}, "x.steps"),
        ({"steps": [{"above_minutes": 1, "unit": "VP"}]}, "x.steps[0].above_minutes"),
        (
            {
                "steps": [
                    {"above_minutes": 0, "up_to_minutes": 5, "unit": "VP"},
                    {"above_minutes": 6, "unit": "VP"},
                ]
            },
            "x.steps[1].above_minutes",
        ),
        ({"steps": [{"above_minutes": 0, "unit": "points"}]}, "x.steps[0].unit"),
        ({"steps": [{"above_minutes": 0, "unit": "VP", "penalty": "lots"}]}, "x.steps[0].penalty"),
        ({"steps": [{"above_minutes": 0, "unit": "VP", "to_minutes": 5}]}, "x.steps[0].to_minutes"),
        (
            {"steps": [{"above_minutes": 0, "up_to_minutes": 0, "unit": "VP"}]},
            "x.steps[0].up_to_minutes",
        ),
    ],
)
def test_bad_scales_name_the_key_path(data, path):
    with pytest.raises(ScoringInputError) as e:
        scale_from_data(data, "x")
    assert e.value.field == path and path in e.value.message
