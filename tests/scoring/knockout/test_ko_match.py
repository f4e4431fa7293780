"""A knockout match (issue [KNOCKOUT]): IMPs over its segments plus the carry-over, and the
seeds' tie rules. IMPs by the WBF table (Law 78B): a difference of 0-10 is 0 IMP, 20-40 → 1,
50-80 → 2, 90-120 → 3, 130-160 → 4, 170-210 → 5, 220-260 → 6, 270-310 → 7, 320-360 → 8,
370-420 → 9, 430-490 → 10. The home team sits NS in the open room, so its net on a board is
open NS − closed NS."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import ScoringInputError
from scoring.knockout.ko_match import (
    Decider,
    KoBoard,
    Next,
    SegmentError,
    Side,
    TieRule,
    decide,
    fixed_carry_over,
    higher_placed_carry_over,
    share_carry_over,
)
from scoring.lot import draw_lots

SEED_000_KO = (TieRule.TOTAL_POINTS, TieRule.BOARDS_WON, TieRule.LOT)
SEED_000_FINAL = (TieRule.TOTAL_POINTS, TieRule.BOARDS_WON, TieRule.SUDDEN_DEATH)


def flat(segment: int, first: int, count: int) -> list[KoBoard]:
    """``count`` boards with the same score in both rooms (0 IMP, no board won)."""
    return [KoBoard(segment, b, 420, 420) for b in range(first, first + count)]


def seed_003_level_32() -> list[KoBoard]:
    """Seed 003 §12.1: 32 boards in two sets of 16. Board 1: 620 v 170, net +450 → 10 IMP
    to home; board 17: −100 v 330, net −430 → 10 IMP to away; every other board flat.
    10-10: level."""
    return [KoBoard(1, 1, 620, 170), *flat(1, 2, 15), KoBoard(2, 17, -100, 330), *flat(2, 18, 15)]


def test_seed_003_level_after_32_boards_plays_an_extra_set():
    """Seed 003 §12.5: level after the prescribed boards → an extra set of 4 boards."""
    out = decide(
        seed_003_level_32(), regular_segments=2, tie=(TieRule.EXTRA_SET,), boards_per_segment=16
    )
    assert (out.home, out.away) == (10, 10)
    assert (out.winner, out.decided_by, out.next, out.under_way) == (
        None, None, Next.EXTRA_SET, False,
    )  # fmt: skip
    assert [(s.segment, s.home_imps, s.away_imps) for s in out.segments] == [
        (1, 10, 0),
        (2, 0, 10),
    ]


def test_seed_003_extra_set_still_level_plays_another_then_imps_decide():
    """Seed 003 §12.5 "repeated until a team wins". Extra set 1 (segment 3): board 33
    50 v 0, +50 → 2 IMP home; board 34 0 v 50, −50 → 2 IMP away; two flat: 12-12, level →
    another set. Extra set 2 (segment 4): board 37 140 v 110, +30 → 1 IMP home: 13-12, home
    wins on the extra set."""
    set_1 = [KoBoard(3, 33, 50, 0), KoBoard(3, 34, 0, 50), *flat(3, 35, 2)]
    boards = seed_003_level_32() + set_1
    out = decide(boards, regular_segments=2, tie=(TieRule.EXTRA_SET,), boards_per_segment=16)
    assert (out.home, out.away, out.winner, out.next) == (12, 12, None, Next.EXTRA_SET)
    set_2 = [KoBoard(4, 37, 140, 110), *flat(4, 38, 3)]
    out = decide(
        boards + set_2, regular_segments=2, tie=(TieRule.EXTRA_SET,), boards_per_segment=16
    )
    assert (out.home, out.away) == (13, 12)
    assert (out.winner, out.decided_by, out.next) == (Side.HOME, Decider.EXTRA_SET, None)


def test_seed_003_extra_set_under_way():
    """Three of the extra set's 4 boards in: nothing decided, nothing to start: under way."""
    boards = [*seed_003_level_32(), KoBoard(3, 33, 50, 0), *flat(3, 34, 2)]
    out = decide(boards, regular_segments=2, tie=(TieRule.EXTRA_SET,), boards_per_segment=16)
    assert (out.winner, out.next, out.under_way) == (None, None, True)
    assert (out.home, out.away) == (12, 10)


def test_regular_segment_incomplete_is_under_way():
    """Seed 003: 16 boards a set; 15 of the second set in: no tie rule applies yet."""
    boards = seed_003_level_32()[:-1]
    out = decide(boards, regular_segments=2, tie=(TieRule.EXTRA_SET,), boards_per_segment=16)
    assert (out.winner, out.next, out.under_way) == (None, None, True)


def seed_000_level_imps(third: tuple[int, int]) -> list[KoBoard]:
    """Board 1: 140 v 120, +20 → 1 IMP home; board 2: 110 v 140, −30 → 1 IMP away: 1-1.
    Board 17 (second stanza) is ``third``."""
    return [KoBoard(1, 1, 140, 120), KoBoard(1, 2, 110, 140), KoBoard(2, 17, *third)]


def test_seed_000_ko_level_imps_decided_by_total_points():
    """Seed 000 §6-2 "the higher total point": third board flat. Total points: home +20,
    away +30 → away wins on total points."""
    out = decide(seed_000_level_imps((420, 420)), regular_segments=2, tie=SEED_000_KO)
    assert (out.home, out.away) == (1, 1)
    assert (out.home_points, out.away_points) == (20, 30)
    assert (out.winner, out.decided_by) == (Side.AWAY, Decider.TOTAL_POINTS)


def test_seed_000_ko_equal_total_points_decided_by_boards_won():
    """Seed 000 §6-2 "a different of 10 points is considered a winning board, even though
    no IMP are gained": board 17 430 v 420, +10 → 0 IMP but won by home. IMPs 1-1; total
    points home 20 + 10 = 30, away 30; boards won home 2 (1, 17), away 1 (2) → home."""
    out = decide(seed_000_level_imps((430, 420)), regular_segments=2, tie=SEED_000_KO)
    assert (out.home, out.away) == (1, 1)
    assert (out.home_points, out.away_points) == (30, 30)
    assert (out.home_boards_won, out.away_boards_won) == (2, 1)
    assert (out.winner, out.decided_by) == (Side.HOME, Decider.BOARDS_WON)


def test_seed_000_ko_all_level_decided_by_lot_from_the_recorded_seed():
    """Seed 000 §6-2 "Draw if the tie remains": every board flat. The lot is
    ``draw_lots`` of the two sides (by name) with the recorded seed, reproducibly, and the
    outcome records the seed."""
    boards = flat(1, 1, 16) + flat(2, 17, 16)
    winners = set()
    for seed in range(20):
        out = decide(boards, regular_segments=2, tie=SEED_000_KO, lot_seed=seed)
        again = decide(boards, regular_segments=2, tie=SEED_000_KO, lot_seed=seed)
        assert out == again
        assert out.decided_by is Decider.LOT and out.lot_seed == seed
        assert out.winner is draw_lots([Side.HOME, Side.AWAY], seed, key=lambda s: s.value)[0]
        winners.add(out.winner)
    assert winners == {Side.HOME, Side.AWAY}


def test_seed_000_final_level_goes_to_two_board_sudden_death():
    """Seed 000 §6-3: total points, boards won, then "two boards sudden death matches
    until a winner emerges". Three stanzas of 16, all flat → sudden death. Segment 4 (first
    play-off): board 1 430 v 420, +10 → 0 IMP (a board won on points, but our reading
    decides a sudden death by its IMPs alone), board 2 flat → another. Segment 5: board 1
    −50 v 0, −50 → 2 IMP to away: away wins."""
    boards = flat(1, 1, 16) + flat(2, 17, 16) + flat(3, 33, 16)
    kw = dict(regular_segments=3, tie=SEED_000_FINAL, sudden_death_boards=2)
    assert decide(boards, **kw).next is Next.SUDDEN_DEATH  # type: ignore[arg-type]
    first = [KoBoard(4, 1, 430, 420)]
    out = decide(boards + first, **kw)  # type: ignore[arg-type]
    assert (out.winner, out.next, out.under_way) == (None, None, True)
    first.append(KoBoard(4, 2, 420, 420))
    out = decide(boards + first, **kw)  # type: ignore[arg-type]
    assert (out.winner, out.next) == (None, Next.SUDDEN_DEATH)
    second = [KoBoard(5, 1, -50, 0), KoBoard(5, 2, 420, 420)]
    out = decide(boards + first + second, **kw)  # type: ignore[arg-type]
    assert (out.home, out.away) == (0, 2)
    assert (out.winner, out.decided_by) == (Side.AWAY, Decider.SUDDEN_DEATH)


def test_seed_001_final_one_board_sudden_death():
    """Seed 001 I.2 FINAL (2x14, no carry-over): "In case of tie at the end, it will be
    solved by 1-board Sudden Death". 28 flat boards → sudden death; segment 3, board 1:
    620 v 650, −30 → 1 IMP to away."""
    boards = flat(1, 1, 14) + flat(2, 15, 14)
    tie = (TieRule.SUDDEN_DEATH,)
    out = decide(boards, regular_segments=2, tie=tie)
    assert (out.winner, out.next) == (None, Next.SUDDEN_DEATH)
    out = decide([*boards, KoBoard(3, 1, 620, 650)], regular_segments=2, tie=tie)
    assert (out.home, out.away, out.winner, out.decided_by) == (
        0, 1, Side.AWAY, Decider.SUDDEN_DEATH,
    )  # fmt: skip
    two = [*boards, KoBoard(3, 1, 620, 650), KoBoard(3, 2, 420, 420)]
    with pytest.raises(SegmentError, match="1 board"):
        decide(two, regular_segments=2, tie=tie)


def test_seed_002_level_decided_by_the_higher_placed_team():
    """Seed 002 Knock Out: "Om fullbordad match slutat lika i imp … Vinnare av
    särskiljningen är det lag som var bäst placerat i Gröna Hissen"."""
    boards = [KoBoard(1, 1, 140, 120), KoBoard(1, 2, 110, 140)]  # 1-1
    out = decide(boards, regular_segments=1, tie=(TieRule.HIGHER_PLACED,), higher=Side.AWAY)
    assert (out.winner, out.decided_by) == (Side.AWAY, Decider.HIGHER_PLACED)
    with pytest.raises(ScoringInputError, match="higher-placed"):
        decide(boards, regular_segments=1, tie=(TieRule.HIGHER_PLACED,))


def test_seed_000_carry_over_of_6_5_decides_the_final():
    """Seed 000: the unbeaten team (home here) starts the final with 6.5 IMP. Board 1: 200
    v 420, −220 → 6 IMP to away. 6.5 − 6: home wins by half an IMP, no tie possible."""
    home_co, away_co = fixed_carry_over(Fraction(13, 2), Side.HOME)
    out = decide(
        [KoBoard(1, 1, 200, 420)],
        regular_segments=1,
        home_carry_over=home_co,
        away_carry_over=away_co,
        tie=SEED_000_FINAL,
    )
    assert (out.home, out.away) == (Fraction(13, 2), 6)
    assert (out.winner, out.decided_by) == (Side.HOME, Decider.IMPS)


def test_seed_001_carry_over_of_0_1_to_the_higher_placed_decides():
    """Seed 001 CARRY OVER: 0.1 IMP to the team higher placed in the Qualification Swiss
    (away, 3rd, against home 6th). The boards end 1-1: away wins 1.1 to 1."""
    home_co, away_co = higher_placed_carry_over(Fraction(1, 10), home_rank=6, away_rank=3)
    assert (home_co, away_co) == (0, Fraction(1, 10))
    boards = [KoBoard(1, 1, 140, 120), KoBoard(2, 15, 110, 140)]
    out = decide(boards, regular_segments=2, home_carry_over=home_co, away_carry_over=away_co)
    assert (out.home, out.away) == (1, Fraction(11, 10))
    assert (out.winner, out.decided_by) == (Side.AWAY, Decider.IMPS)


@pytest.mark.parametrize(
    ("margin", "percent", "share"),
    [
        (13, 25, Fraction(33, 10)),  # 3.25 → up to 3.3
        (9, 50, Fraction(9, 2)),  # 4.5 is whole tenths: stays
        (12, 25, Fraction(3)),  # 3 stays
        (-13, 25, Fraction(-33, 10)),  # to the side that led: away
        (7, Fraction(100, 3), Fraction(24, 10)),  # 7/3 = 2.333… → 2.4
    ],
)
def test_jfr_share_of_the_earlier_difference_rounded_up_to_a_tenth(margin, percent, share):
    """JFR's rule: a percentage of the earlier difference, "rounded to 0.1 up unless
    whole"."""
    assert share_carry_over(margin, percent) == share


def test_share_and_ranks_refused():
    with pytest.raises(ScoringInputError, match="0 to 100"):
        share_carry_over(10, 150)
    with pytest.raises(ScoringInputError, match="ranks must differ"):
        higher_placed_carry_over(Fraction(1, 10), 4, 4)


def test_seed_003_walk_over_gives_the_match_to_the_team_that_came():
    """Seed 003 §15.2: the team whose opponent did not come is the winner; no boards."""
    out = decide([], regular_segments=2, walk_over=Side.AWAY)
    assert (out.winner, out.decided_by, out.segments) == (Side.HOME, Decider.WALK_OVER, ())


def test_extension_without_a_play_more_rule_is_refused():
    """Seed 002 has no extra boards: a third segment of a 2-segment match is refused."""
    with pytest.raises(SegmentError, match="segment 3") as e:
        decide(flat(1, 1, 2) + flat(3, 1, 1), regular_segments=2, tie=(TieRule.HIGHER_PLACED,),
               higher=Side.HOME)  # fmt: skip
    assert e.value.segment == 3


def test_segment_after_a_decided_match_is_refused():
    """Board 1 +20 → 1 IMP home decides; an extra set after it cannot have been played."""
    boards = [KoBoard(1, 1, 140, 120), *flat(2, 1, 4)]
    with pytest.raises(SegmentError, match="decided by imps"):
        decide(boards, regular_segments=1, tie=(TieRule.EXTRA_SET,))


def test_bad_input_refused_with_what_is_allowed():
    with pytest.raises(ScoringInputError, match="multiple of 10"):
        KoBoard(1, 1, 425, 420)
    with pytest.raises(ScoringInputError, match="≥ 1"):
        KoBoard(0, 1, 420, 420)
    with pytest.raises(SegmentError, match="board 1 twice"):
        decide([KoBoard(1, 1, 420, 420), KoBoard(1, 1, 430, 420)], regular_segments=1)
    for chain in ((TieRule.EXTRA_SET, TieRule.LOT), (TieRule.LOT, TieRule.SUDDEN_DEATH)):
        with pytest.raises(ScoringInputError, match="always decides: it must be the last"):
            decide([], regular_segments=1, tie=chain, lot_seed=1)
    with pytest.raises(ScoringInputError, match="recorded seed"):
        decide(flat(1, 1, 1), regular_segments=1, tie=(TieRule.LOT,))


def test_level_with_the_rule_exhausted_is_left_to_the_td():
    """Total points only, and equal: no winner, nothing to play, not under way."""
    out = decide(flat(1, 1, 2), regular_segments=1, tie=(TieRule.TOTAL_POINTS,))
    assert (out.winner, out.decided_by, out.next, out.under_way) == (None, None, None, False)


scores = st.integers(-200, 200).map(lambda k: 10 * k)
ko_boards = st.lists(st.tuples(st.integers(1, 2), scores, scores), max_size=12).map(
    lambda rows: [KoBoard(seg, n, o, c) for n, (seg, o, c) in enumerate(rows, start=1)]
)


@given(ko_boards)
def test_swapping_the_rooms_gives_the_match_to_the_other_side(boards):
    """Seating the other team NS in the open room mirrors every board, so the same rule
    (seed 000's without its lot) picks the other side, or neither."""
    mirrored = [KoBoard(b.segment, b.board, b.closed_ns, b.open_ns) for b in boards]
    tie = SEED_000_KO[:2]
    one = decide(boards, regular_segments=2, tie=tie)
    two = decide(mirrored, regular_segments=2, tie=tie)
    assert (one.home, one.away) == (two.away, two.home)
    assert two.winner == (one.winner.other if one.winner else None)
    assert one.decided_by == two.decided_by


@given(ko_boards, st.integers(0, 10**6))
def test_a_complete_match_ending_in_a_lot_always_has_a_winner(boards, seed):
    if {b.segment for b in boards} == {1, 2}:
        out = decide(boards, regular_segments=2, tie=SEED_000_KO, lot_seed=seed)
        assert out.winner is not None and out.next is None
