"""Counted offences of seeds 000, 001, 002 and 004 (issue 29, [RULINGS]): the penalty for
the N-th offence of one contestant, from the scales in examples/penalty_scales.toml."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import ScoringInputError
from scoring.offences import (
    OffenceScale,
    OffenceStep,
    Then,
    is_counted,
    offence_scale_from_data,
    proposed_penalty,
)
from scoring.penalties import PenaltyUnit

SCALES = tomllib.loads(
    (Path(__file__).parents[2] / "examples" / "penalty_scales.toml").read_text("utf-8")
)
VP, IMP, TOP = PenaltyUnit.VP, PenaltyUnit.IMP, PenaltyUnit.PERCENT_OF_TOP
WARN, FORFEIT, TD = PenaltyUnit.WARNING, PenaltyUnit.FORFEIT, PenaltyUnit.TD_DECIDES


def proposed(name: str, count: int) -> tuple[Fraction, PenaltyUnit]:
    p = offence_scale_from_data(SCALES[name], name).penalty(count)
    return p.amount, p.unit


@pytest.mark.parametrize(
    ("count", "expected"),
    [(1, (3, VP)), (2, (10, VP)), (3, (20, VP)), (4, (0, TD))],
)
def test_seed000_mobile_phone_swiss(count, expected):
    """Seed 000 §9 "Answering the phone": 1st offense 3 VPs, 2nd 10 VPs, 3rd 20 VPs (Swiss);
    a 4th is not in the seed, so the CTD decides."""
    assert proposed("seed000_mobile_phone_swiss", count) == expected


@pytest.mark.parametrize(
    ("count", "expected"),
    [(1, (15, IMP)), (2, (30, IMP)), (3, (0, FORFEIT)), (4, (0, TD))],
)
def test_seed000_mobile_phone_knockout_third_offence_forfeits(count, expected):
    """Seed 000 §9: 15 IMPs, 30 IMPs, then "Forfeiture of the match (Knock out)"."""
    assert proposed("seed000_mobile_phone_ko", count) == expected


def test_seed000_smoking_two_vp_each_offence():
    """Seed 000 §9 Smoking: "Each offense ... 2 VPs for the team": the 1st and the 5th alike."""
    assert proposed("seed000_smoking", 1) == (2, VP)
    assert proposed("seed000_smoking", 5) == (2, VP)


@pytest.mark.parametrize(
    ("count", "vp"),
    [(1, Fraction(1, 2)), (2, Fraction(1)), (3, Fraction(3, 2)), (6, Fraction(3))],
)
def test_seed001_late_lineup_rises_by_half_a_vp(count, vp):
    """Seed 001 II.6: "starting from a 0.5 VP penalty for the first lack and increasing each
    time by 0.5 VP (1, 1.5 and so on)": the 6th lack is 0.5 + 5 × 0.5 = 3 VP."""
    assert proposed("seed001_late_lineup", count) == (vp, VP)


@given(st.integers(min_value=1, max_value=500))
def test_seed001_nth_lack_is_half_n_vp(n):
    """Seed 001 II.6 as a property: the N-th lack costs N × 0.5 VP, exactly."""
    assert proposed("seed001_late_lineup", n) == (Fraction(n, 2), VP)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # "50 % av toppen på en bricka för varje tillfälle" (pairs)
        ("seed002_mobile_phone_pairs", (50, TOP)),
        # "2 VP avdrag i Gröna Hissen, 6 IMP avdrag i KO-matcher, för varje tillfälle"
        ("seed002_mobile_phone_qualifying", (2, VP)),
        ("seed002_mobile_phone_ko", (6, IMP)),
        # Rökning: "för varje sådant tillfälle 2 VP avdrag (kvalet) eller 6 IMP (KO-matcher)"
        ("seed002_smoking_qualifying", (2, VP)),
        ("seed002_smoking_ko", (6, IMP)),
        # Otillåten reserv (seed 004): "5 VP per match"
        ("seed004_unauthorised_reserve", (5, VP)),
    ],
)
def test_seed002_and_004_each_time_the_same(name, expected):
    """Seeds 002 and 004 give the same penalty on every occasion: the 1st, 2nd and 7th."""
    assert [proposed(name, n) for n in (1, 2, 7)] == [expected] * 3


@pytest.mark.parametrize(
    ("name", "later"),
    [("seed002_leaving_table_pairs", (10, TOP)), ("seed002_leaving_table_teams", (2, VP))],
)
def test_seed002_leaving_the_table_warning_first(name, later):
    """Seed 002 "Trivsel och disciplin": leaving the table mid-round "ger först en varning
    därefter ett avdrag motsvarande 10 % av toppen ... vid varje tillfälle i partävling, i
    lagtävling är avdraget 2 VP"."""
    assert proposed(name, 1) == (0, WARN)
    assert proposed(name, 2) == later
    assert proposed(name, 3) == later


@given(st.integers(min_value=1, max_value=50), st.integers(min_value=1, max_value=100))
def test_repeat_gives_the_last_listed_for_every_later_offence(listed, count):
    """``then = repeat``: past the list, every offence costs what the last listed one did."""
    steps = tuple(OffenceStep(k + 1, Fraction(k + 1), VP) for k in range(listed))
    p = proposed_penalty(OffenceScale("x", steps, Then.REPEAT), count)
    assert p.amount == min(count, listed)


def test_every_counted_scale_of_the_examples_reads():
    """Each seed's counted scale is told apart from the minute scales and reads cleanly."""
    counted = [k for k, v in SCALES.items() if isinstance(v, dict) and is_counted(v)]
    assert len(counted) == 12
    assert not is_counted(SCALES["seed000_late_start_swiss"])
    for name in counted:
        offence_scale_from_data(SCALES[name], name)


@pytest.mark.parametrize("count", [0, -1, True, 1.5])
def test_count_must_be_a_whole_number_from_one(count):
    with pytest.raises(ScoringInputError, match="from 1"):
        proposed_penalty(offence_scale_from_data(SCALES["seed000_smoking"]), count)


@pytest.mark.parametrize(
    ("data", "field", "says"),
    [
        ({"steps": []}, "x.steps", "non-empty"),
        ({"steps": [{"count": 2, "penalty": 1, "unit": "VP"}]}, "x.steps[0].count", "must be 1"),
        ({"steps": [{"count": 1, "penalty": 1, "unit": "pts"}]}, "x.steps[0].unit", "one of"),
        ({"steps": [{"count": 1, "unit": "VP"}]}, "x.steps[0].penalty", "required"),
        ({"steps": [{"count": 1, "penalty": 0, "unit": "VP"}]}, "x.steps[0].penalty", "more"),
        ({"steps": [{"count": 1, "penalty": 2, "unit": "warning"}]}, "x.steps[0].penalty", "no"),
        ({"steps": [{"count": 1, "penalty": 1, "unit": "VP", "x": 1}]}, "x.steps[0].x", "allowed"),
        ({"then": "again", "steps": [{"count": 1, "unit": "warning"}]}, "x.then", "repeat"),
        ({"then": "rise", "steps": [{"count": 1, "penalty": 1, "unit": "VP"}]}, "x.rise", "req"),
        (
            {"then": "rise", "rise": 1, "steps": [{"count": 1, "unit": "forfeit"}]},
            "x.then",
            "amount",
        ),
        ({"rise": 1, "steps": [{"count": 1, "penalty": 1, "unit": "VP"}]}, "x.rise", "only"),
    ],
)
def test_bad_scales_are_refused_with_what_is_allowed(data, field, says):
    with pytest.raises(ScoringInputError, match=says) as e:
        offence_scale_from_data(data, "x")
    assert e.value.field == field
