"""IMP pairs: cross-IMPs and Butler, against a real KOPS event and worked examples."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle import by_board, oracle_rows, traveller_csv

from hub.event.traveller_file import parse_travellers
from scoring.board import Side
from scoring.butler import ButlerRules, DatumRounding, DropRule, board_datums, score_butler
from scoring.cross_imps import CrossImpDivisor, CrossImpRules, score_cross_imps
from scoring.errors import ScoringInputError
from scoring.imp_awards import ImpAwards
from scoring.numbers import display
from scoring.traveller import Artificial, Traveller, TravellerLine


def board_of(scores, artificial=()):
    lines = [TravellerLine(i + 1, 100 + i, s) for i, s in enumerate(scores)]
    lines += [
        TravellerLine(50 + k, 150 + k, None, Artificial.parse(a)) for k, a in enumerate(artificial)
    ]
    return Traveller.of(1, lines)


def ns(score, n):
    return [score.score(i, Side.NS) for i in range(n)]


def test_kops_cross_imps_with_the_17_cap_every_value():
    """KOPS SM0807 (Chorzów 2013-08-07): Σ IMPs capped at ±17 ÷ (n − 1); a TD average
    scores 0. Every value to 1 dp."""
    rows = oracle_rows("kops_sm0807_ximp_travellers.csv")
    travellers = parse_travellers(traveller_csv(rows, adjusted="A/A"), winners=1)
    rules = CrossImpRules(cap=17)
    checked = 0
    for t, (_, expected) in zip(travellers, sorted(by_board(rows).items()), strict=True):
        s = score_cross_imps(t, rules)
        for i, r in enumerate(expected):
            if not r.played:
                assert s.score(i, Side.NS) == 0 == s.score(i, Side.EW)
                continue
            assert display(s.score(i, Side.NS), 1) == r.ns_value, r
            assert display(s.score(i, Side.EW), 1) == r.ew_value, r
            checked += 1
    assert checked == 14 * 4


def test_the_cap_limits_each_comparison_not_the_sum():
    """'Cavendish uśredniony': a difference of 1500+ counts as 17 in each comparison."""
    t = board_of([1660, -100, -100, -100])  # 1760 apart: 18 IMPs uncapped
    assert ns(score_cross_imps(t), 4)[0] == 18
    assert ns(score_cross_imps(t, CrossImpRules(cap=17)), 4)[0] == 17
    assert ns(score_cross_imps(t, CrossImpRules(cap=17)), 4)[1] == Fraction(-17, 3)


def test_ebu_forum_cross_imps():
    """EBU forum: −110, +50, +170, +120 → −5.667, −0.333, +4.000, +2.000."""
    s = score_cross_imps(board_of([-110, 50, 170, 120]))
    assert ns(s, 4) == [Fraction(-17, 3), Fraction(-1, 3), 4, 2]


def test_bridge_scorer_cross_imps():
    """bridge-tips / bridge-scorer: 620, 170, 140, 140, −100 → 10.50, −0.25, −1.25, −1.25,
    −7.75."""
    s = score_cross_imps(board_of([620, 170, 140, 140, -100]))
    assert ns(s, 5) == [
        Fraction(21, 2),
        Fraction(-1, 4),
        Fraction(-5, 4),
        Fraction(-5, 4),
        Fraction(-31, 4),
    ]


def test_total_imps_and_artificial_scores():
    """ACBLscore Total IMPs: the raw sum; Ave+ = +3 × (n − 1)."""
    s = score_cross_imps(
        board_of([620, 170, 140, 140, -100], artificial=["A+/A-"]),
        CrossImpRules(divisor=CrossImpDivisor.TOTAL),
    )
    assert ns(s, 5) == [42, -1, -5, -5, -31]
    assert (s.score(5, Side.NS), s.score(5, Side.EW)) == (12, -12)
    avg = score_cross_imps(board_of([620, 170], artificial=["60/40", "A/A-"]))
    assert (avg.score(2, Side.NS), avg.score(2, Side.EW)) == (3, -3)
    assert (avg.score(3, Side.NS), avg.score(3, Side.EW)) == (0, -3)
    bwx = ImpAwards(per_10_percent=Fraction(2))  # BridgeWx: 2 IMPs per 10 % from 50 %
    assert bwx.imps(Fraction(70)) == 4


@given(
    st.lists(st.integers(-300, 300).map(lambda x: x * 10), min_size=1, max_size=40),
    st.sampled_from([None, 17]),
)
def test_cross_imps_on_a_board_sum_to_zero(scores, cap):
    s = score_cross_imps(board_of(scores), CrossImpRules(cap=cap))
    assert sum(ns(s, len(scores))) == 0
    for i in range(len(scores)):
        assert s.score(i, Side.NS) == -s.score(i, Side.EW)


def test_butler_woburn_sands():
    """Woburn Sands / bridge-scorer: 650, 170, 1440 by W, −100, 170, 200 by E (EW scores):
    drop one at each end, datum −300; NS IMPs −8, +4, −15, +9, +4, +3."""
    t = board_of([-650, -170, -1440, 100, -170, -200])
    rules = ButlerRules(drop=DropRule(count=1))
    assert board_datums(t, rules) == [-300]
    assert ns(score_butler(t, rules), 6) == [-8, 4, -15, 9, 4, 3]


def test_butler_ilovebridge_drops_best_and_worst():
    """ilovebridge.nl: drop +450 and −800, 302.5 → datum 300 (nearest 10)."""
    t = board_of([450, 400, 420, 170, 220, -800])  # kept: 400 420 170 220 → 302.5
    assert board_datums(t, ButlerRules(drop=DropRule(count=1))) == [300]


@pytest.mark.parametrize(
    ("scores", "rounding", "datum"),
    [
        # ACBLscore: x5 rounds to even, 425 → 420, 435 → 440.
        ([420, 430], DatumRounding.EVEN, 420),
        ([430, 440], DatumRounding.EVEN, 440),
        ([420, 430], DatumRounding.NEAREST, 430),
        ([-420, -430], DatumRounding.NEAREST, -430),
    ],
)
def test_butler_datum_rounding(scores, rounding, datum):
    assert board_datums(board_of(scores), ButlerRules(drop=DropRule(), rounding=rounding)) == [
        datum
    ]


def test_butler_drop_rules():
    assert DropRule.parse("10%").at_each_end(6) == 1  # rounded up
    assert DropRule.parse("10%").at_each_end(11) == 2
    assert DropRule.parse("2").at_each_end(3) == 1  # always keeps one score
    with pytest.raises(ScoringInputError, match="N%"):
        DropRule.parse("ten")
    with pytest.raises(ScoringInputError, match="less than 50%"):
        DropRule.parse("50%")


def test_butler_artificial_scores():
    s = score_butler(board_of([420, 450], artificial=["A+/A-"]))
    assert (s.score(2, Side.NS), s.score(2, Side.EW)) == (3, -3)
