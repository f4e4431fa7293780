"""Law 12C1(c) weighted scores in the pure scoring engine (issue [EVENING], the director's
desk; TD trial F4: "no weighted score"). Every expected value is worked by hand in the
test's docstring; the IMP scale is the WBF table (Law 78B)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.butler import ButlerRules, DropRule, score_butler
from scoring.cross_imps import score_cross_imps
from scoring.errors import ScoringInputError
from scoring.matchpoints import MatchpointRules, score_matchpoints
from scoring.traveller import Artificial, Token, Traveller, TravellerLine


def board_1(weighted: str) -> Traveller:
    """Board 1 (nobody vulnerable): T1 4S N = (+420), T2 4S N +1 (+450), T3 4S N -1 (-50),
    T4 the director's weighted score."""
    return Traveller.of(
        1,
        [
            TravellerLine(1, 11, 420),
            TravellerLine(2, 12, 450),
            TravellerLine(3, 13, -50),
            TravellerLine(4, 14, None, Artificial.parse(weighted)),
        ],
    )


def test_weighted_text_parses_and_prints_back() -> None:
    art = Artificial.parse("1/2 4S N =; 1/2 4s n -1")
    assert art.weighted
    assert [p.weight for p in art.parts] == [Fraction(1, 2), Fraction(1, 2)]
    assert str(art) == "1/2 4S N =; 1/2 4S N -1"
    assert str(Artificial.parse("30% 3NT S +1; 0.7 PASS")) == "3/10 3NT S +1; 7/10 PASS"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("1/2 4S N =; 1/3 4S N -1", "sum to 1"),
        ("1 4S N =", "2 to 6"),
        ("1/2 4S N =; 1/2 8S N -1", "contract"),
        ("1/2 4S N =; 1/2 4S N", "WEIGHT CONTRACT DECLARER RESULT"),
        ("1/2 4S N =; 1/2 4S Q -1", "declarer"),
        ("0 4S N =; 1 4S N -1", "above 0"),
    ],
)
def test_a_bad_weighted_score_is_refused_with_its_reason(text: str, says: str) -> None:
    with pytest.raises(ScoringInputError) as e:
        Artificial.parse(text)
    assert says in e.value.message


@pytest.mark.parametrize(
    ("text", "ns", "ew"),
    [
        ("A+/A-", Token.AVE_PLUS, Token.AVE_MINUS),
        ("A/A", Token.AVE, Token.AVE),
        ("A+/A+", Token.AVE_PLUS, Token.AVE_PLUS),
        ("A-/A-", Token.AVE_MINUS, Token.AVE_MINUS),
        ("A-/A+", Token.AVE_MINUS, Token.AVE_PLUS),
        ("60/40", Fraction(60), Fraction(40)),
        ("40/60", Fraction(40), Fraction(60)),
        ("50/50", Fraction(50), Fraction(50)),
    ],
)
def test_every_artificial_score_of_the_desk_parses(text: str, ns: object, ew: object) -> None:
    """Law 12C2: the full set a TD assigns (issue [EVENING]: A+/A-, A/A, A+/A+, A-/A-, 60/40)."""
    art = Artificial.parse(text)
    assert (art.ns, art.ew, art.weighted) == (ns, ew, False)


def test_matchpoints_weight_each_part_against_the_field() -> None:
    """EBU White Book 12C1(c), top 6 (four results):
    T4 as +420: NS MPs T1 3 (beats -50, ties +420), T2 6, T3 0, T4 3.
    T4 as  -50: T1 4, T2 6, T3 1, T4 1.
    Weighted ½/½: T1 3½, T2 6, T3 ½, T4 2 (sum 12 = 4 × 6 / 2)."""
    scored = score_matchpoints(board_1("1/2 4S N =; 1/2 4S N -1"))
    lines = scored.scored_lines()
    assert [sl.ns_mp for sl in lines] == [Fraction(7, 2), 6, Fraction(1, 2), 2]
    assert [sl.ew_mp for sl in lines] == [Fraction(5, 2), 0, Fraction(11, 2), 4]
    assert lines[3].ns_score == Fraction(100, 3)  # 2 of 6


def test_matchpoints_weights_need_not_be_halves() -> None:
    """T4 = 1/3 of +420, 2/3 of -50: T4 gets 1/3·3 + 2/3·1 = 5/3; T1 1/3·3 + 2/3·4 = 11/3;
    T3 1/3·0 + 2/3·1 = 2/3; T2 6."""
    scored = score_matchpoints(board_1("1/3 4S N =; 2/3 4S N -1"))
    assert [sl.ns_mp for sl in scored.scored_lines()] == [
        Fraction(11, 3),
        6,
        Fraction(2, 3),
        Fraction(5, 3),
    ]


def test_neuberg_applies_to_each_part() -> None:
    """Expected 5 results (top 8), 4 on the board: Neuberg (MP+1)·5/4 − 1 is affine, so the
    weighted value is the Neuberg of the weighted MPs: T4 (2+1)·5/4 − 1 = 11/4."""
    scored = score_matchpoints(
        board_1("1/2 4S N =; 1/2 4S N -1"), MatchpointRules(expected=5)
    ).scored_lines()
    assert scored[3].ns_mp == Fraction(11, 4)
    assert scored[3].top == 8


def test_cross_imps_weight_the_imps() -> None:
    """Cross-IMPs ÷ (n−1) = 3. T4 as +420: T1 −1+10+0 = 9, T2 1+11+1 = 13, T3 −31, T4 9.
    T4 as −50: T1 −1+10+10 = 19, T2 23, T3 −10−11+0 = −21, T4 −21.
    Weighted ÷3: T1 14/3, T2 6, T3 −26/3, T4 −2 (the board sums to 0)."""
    lines = score_cross_imps(board_1("1/2 4S N =; 1/2 4S N -1")).scored_lines()
    assert [sl.ns_score for sl in lines] == [Fraction(14, 3), 6, Fraction(-26, 3), -2]
    assert [sl.ew_score for sl in lines] == [Fraction(-14, 3), -6, Fraction(26, 3), 2]


def test_butler_scores_each_part_with_its_own_datum() -> None:
    """No drop. T4 as +420: datum (420+450−50+420)/4 = 310 → T4 +110 = 3 IMPs.
    T4 as −50: datum 770/4 = 192.5 → 190 → T4 −240 = −6 IMPs. Weighted: T4 −3/2;
    T2: 450−310 = 140 → 4; 450−190 = 260 → 6 (220-260); weighted 5."""
    rules = ButlerRules(drop=DropRule(count=0))
    lines = score_butler(board_1("1/2 4S N =; 1/2 4S N -1"), rules).scored_lines()
    assert lines[3].ns_score == Fraction(-3, 2)
    assert lines[1].ns_score == 5


def test_a_board_without_weighted_lines_scores_as_before() -> None:
    """An A+/A- line stays artificial: 60 % and 40 % of the top 6 (3.6 and 2.4)."""
    t = Traveller.of(
        1,
        [
            TravellerLine(1, 11, 420),
            TravellerLine(2, 12, 450),
            TravellerLine(4, 14, None, Artificial.parse("A+/A-")),
        ],
    )
    lines = score_matchpoints(t, MatchpointRules(expected=4)).scored_lines()
    assert (lines[2].ns_mp, lines[2].ew_mp) == (Fraction(18, 5), Fraction(12, 5))


def test_the_events_averages_give_the_tokens_their_value() -> None:
    """An event whose A+ is 65 % and A- 35 % (its `averages`): A+/A+ gives both sides 65 %
    of the top, A-/A+ 35 % and 65 % (top 4 with three results expected: 2.6 and 1.4 MPs).
    At IMPs (Law 86A) A+/A+ is +3 to both sides: artificial scores need not balance."""
    rules = MatchpointRules(
        expected=3,
        averages={
            Token.AVE_PLUS: Fraction(65),
            Token.AVE: Fraction(50),
            Token.AVE_MINUS: Fraction(35),
        },
    )
    t = Traveller.of(
        1,
        [
            TravellerLine(1, 11, 420),
            TravellerLine(2, 12, None, Artificial.parse("A+/A+")),
            TravellerLine(3, 13, None, Artificial.parse("A-/A+")),
        ],
    )
    lines = score_matchpoints(t, rules).scored_lines()
    assert (lines[1].ns_mp, lines[1].ew_mp) == (Fraction(13, 5), Fraction(13, 5))
    assert (lines[2].ns_mp, lines[2].ew_mp) == (Fraction(7, 5), Fraction(13, 5))
    imps = score_cross_imps(t).scored_lines()
    assert (imps[1].ns_score, imps[1].ew_score) == (3, 3)
