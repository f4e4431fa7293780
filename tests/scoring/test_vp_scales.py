"""VP scales (decisions D5): WBF continuous and discrete 20-0, and TD-supplied tables."""

from __future__ import annotations

import csv
import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle import DATA

from scoring.errors import ScoringInputError
from scoring.vp_scale import (
    WBFContinuousScale,
    WBFDiscreteScale,
    match_vps,
    parse_vp_table,
    wbf_continuous_table,
    wbf_discrete_bounds,
)

CONT = WBFContinuousScale()
DISC = WBFDiscreteScale()


def _oracle():
    with open(DATA / "wbf_vp_continuous_oracle.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_wbf_continuous_reproduces_the_official_danish_table_n1_to_10():
    """The independent oracle: the Danish federation's published WBF table, N = 1…10."""
    rows = [r for r in _oracle() if r["official_dk_table"]]
    assert {int(r["boards"]) for r in rows} == set(range(1, 11))
    assert len(rows) == 350
    for r in rows:
        w, lo = CONT.lookup(int(r["boards"]), int(r["imp_margin"]))
        assert w == Fraction(r["official_dk_table"]), r
        assert lo == 20 - Fraction(r["official_dk_table"])


def test_wbf_continuous_every_entry_of_the_oracle_file():
    """Every N in the file (1…32, 36, 40, 48, 64), every margin to the blitz."""
    rows = _oracle()
    for r in rows:
        w, lo = CONT.lookup(int(r["boards"]), int(r["imp_margin"]))
        assert (w, lo) == (Fraction(r["vp_winner"]), Fraction(r["vp_loser"])), r
    boards = {int(r["boards"]) for r in rows}
    for n in boards:
        last = max(int(r["imp_margin"]) for r in rows if int(r["boards"]) == n)
        assert len(wbf_continuous_table(n)) == last + 1


@pytest.mark.parametrize(
    ("n", "margins"),
    [
        # scoring-rules.md §3.1: entries where the concavity correction applies.
        (12, [42, 44, 49]),
        (14, [8, 36, 38]),
        (16, [14, 27, 38, 46, 49, 55, 59]),
        (20, [13, 28, 31, 34, 38, 41, 51, 55, 62]),
    ],
)
def test_concavity_correction_entries_differ_from_plain_rounding(n, margins):
    rows = {int(r["imp_margin"]): r for r in _oracle() if int(r["boards"]) == n}
    for m in margins:
        assert rows[m]["vp_winner"] != rows[m]["vp_uncorrected_round2"]
        assert CONT.lookup(n, m)[0] == Fraction(rows[m]["vp_winner"])


def test_known_corrections_n8_n10():
    """N = 8 at 40 IMPs is 19.74 (EBU 8-board table), N = 10 at 27/29/31 IMPs."""
    assert CONT.lookup(8, 40)[0] == Fraction("19.74")
    assert [CONT.lookup(10, m)[0] for m in (27, 29, 31)] == [
        Fraction("17.34"),
        Fraction("17.68"),
        Fraction("18.00"),
    ]
    assert CONT.lookup(20, 1)[0] == Fraction("10.28")  # bcstar.nl, 20 boards


# scoring-rules.md §3.2 (EBU vps.js method; bcstar.nl confirms 0-1, 2-5, 6-9 at 20 boards):
# upper IMP bound of the 10, 11, …, 19 VP bands.
DISCRETE = {
    8: (0, 3, 6, 9, 12, 16, 20, 25, 30, 38),
    10: (0, 3, 6, 9, 13, 17, 22, 27, 34, 42),
    12: (1, 4, 7, 11, 15, 19, 24, 30, 37, 46),
    14: (1, 4, 8, 12, 16, 21, 26, 33, 40, 50),
    16: (1, 4, 8, 12, 17, 22, 28, 35, 43, 53),
    20: (1, 5, 9, 14, 19, 25, 31, 39, 48, 60),
    24: (1, 5, 10, 15, 21, 27, 34, 43, 53, 65),
    32: (2, 7, 12, 18, 24, 32, 40, 50, 61, 76),
}


@pytest.mark.parametrize("n", sorted(DISCRETE))
def test_wbf_discrete_bands(n):
    assert wbf_discrete_bounds(n) == DISCRETE[n]
    bounds = DISCRETE[n]
    assert DISC.lookup(n, bounds[-1] + 1) == (20, 0)
    assert DISC.lookup(n, bounds[0]) == (10, 10)
    assert DISC.lookup(n, bounds[0] + 1) == (11, 9)


@given(st.integers(1, 120))
def test_every_wbf_scale_sums_to_20_is_monotone_and_concave(n):
    cont = wbf_continuous_table(n)
    steps = [b - a for a, b in itertools.pairwise(cont)]
    assert all(s >= 0 for s in steps)
    assert all(b <= a for a, b in itertools.pairwise(steps))
    assert cont[0] == 1000 and cont[-1] == 2000
    for m in range(0, len(cont) + 5):
        w, lo = CONT.lookup(n, m)
        assert w + lo == 20
        dw, dl = DISC.lookup(n, m)
        assert dw + dl == 20
    bounds = wbf_discrete_bounds(n)
    widths = [2 * bounds[0] + 1] + [b - a for a, b in itertools.pairwise(bounds)]
    assert all(b >= a for a, b in itertools.pairwise(widths))


@given(st.integers(1, 64), st.fractions(min_value=-200, max_value=200, max_denominator=6))
def test_both_sides_vps_sum_to_20_for_any_margin(n, margin):
    a, b = match_vps(CONT, n, margin)
    assert a + b == 20
    assert (a >= b) == (margin >= 0) or a == b


def test_d5_fractional_margins_round_halves_towards_the_total_points_winner():
    # 10.5 IMPs over 8 boards: 11 IMPs (14.09) if A won on total points, else 10 (13.78).
    assert match_vps(CONT, 8, Fraction(21, 2), a_won_total_points=True)[0] == Fraction("14.09")
    assert match_vps(CONT, 8, Fraction(21, 2), a_won_total_points=False)[0] == Fraction("13.78")
    assert match_vps(CONT, 8, Fraction(-21, 2), a_won_total_points=True)[1] == Fraction("13.78")
    assert match_vps(CONT, 8, Fraction(52, 5))[0] == Fraction("13.78")  # 10.4 → 10
    mid = match_vps(CONT, 8, Fraction(21, 2), interpolate=True)[0]
    assert mid == (Fraction("13.78") + Fraction("14.09")) / 2


ILLUSTRATIVE = """# illustrative, not official
boards,imps_from,imps_to,winner,loser
1-16,0,2,15,15
1-16,3,7,16,14
1-16,8,,25,5
17-,0,5,15,15
17-,6,,25,0
"""


def test_table_scale_25_0_draw_is_15_15():
    scale = parse_vp_table(ILLUSTRATIVE, "illustrative")
    assert scale.lookup(8, 0) == (15, 15)
    assert scale.lookup(8, 5) == (16, 14)
    assert scale.lookup(8, 40) == (25, 5)
    assert scale.lookup(20, 6) == (25, 0)
    assert match_vps(scale, 8, -5) == (14, 16)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("boards,imps_from,imps_to,winner\n*,0,,10", "needs the columns"),
        ("boards,imps_from,imps_to,winner,loser\n*,1,,20,0", "contiguous from 0"),
        ("boards,imps_from,imps_to,winner,loser\n*,0,3,10,10\n*,5,,20,0", "expected a band from 4"),
        ("boards,imps_from,imps_to,winner,loser\n*,0,3,10,10", "open-ended"),
        ("boards,imps_from,imps_to,winner,loser\n*,0,3,12,8\n*,4,,11,9", "must not favour"),
        ("boards,imps_from,imps_to,winner,loser\nx,0,,10,10", "boards 'x'"),
    ],
)
def test_bad_vp_tables_say_what_is_wrong(text, message):
    with pytest.raises(ScoringInputError, match=message):
        parse_vp_table(text, "t")


def test_a_table_without_the_board_count_is_refused():
    scale = parse_vp_table("boards,imps_from,imps_to,winner,loser\n8,0,,10,10\n", "eight")
    with pytest.raises(ScoringInputError, match="no scale for a match of 9 boards"):
        scale.lookup(9, 0)
