"""Seed 000 (Yeh Bros Cup) §4A "Knockout Stage" and "Final and Third-Place Playoff" as a
bracket (``templates.double_elimination_16``): ranks 1-8 in the upper bracket, 9-16 in
the lower, two three-ways in Match 3 and one in Match 4, a bye to the final with a 6.5
IMP carry-over for the unbeaten team."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.errors import ScoringInputError
from scoring.knockout.bracket import CarryKind, Slot
from scoring.knockout.bracket_check import check_bracket
from scoring.knockout.routing import Entry, Outcome, follow
from scoring.knockout.templates import double_elimination_16

ENTRIES = [Entry(f"T{n}", n) for n in range(1, 17)]

# Hand-chosen results, T<n> ranked n. Match 1: 8 beats 1 (1 drops to the lower bracket).
# Match 2: 1 beats 9 in the lower bracket. Match 3: 2 beats 4 in the upper final (2 is
# unbeaten); three-ways L3-1 (8, 7, 6) won by 6, L3-2 (3, 1, 13) won by 1. Match 4 (4, 6, 1)
# won by 1, then 4, then 6. Final: 1 beats 2; play-off: 6 beats 4.
RESULTS = {
    "U1-1": ("T8", "T1"), "U1-2": ("T4", "T5"), "U1-3": ("T2", "T7"), "U1-4": ("T3", "T6"),
    "L1-1": ("T9", "T16"), "L1-2": ("T13", "T12"), "L1-3": ("T10", "T15"),
    "L1-4": ("T11", "T14"),
    "U2-1": ("T4", "T8"), "U2-2": ("T2", "T3"),
    "L2-1": ("T1", "T9"), "L2-2": ("T13", "T5"), "L2-3": ("T7", "T10"), "L2-4": ("T6", "T11"),
    "U3": ("T2", "T4"),
    "L3-1": ("T6", "T8", "T7"), "L3-2": ("T1", "T3", "T13"),
    "M4": ("T1", "T4", "T6"),
    "F": ("T1", "T2"), "3rd": ("T6", "T4"),
}  # fmt: skip


def _state(upto: set[str] | None = None):
    given = {m: Outcome(o) for m, o in RESULTS.items() if upto is None or m in upto}
    return follow(double_elimination_16(), ENTRIES, given)


def _rounds(*rounds: str) -> set[str]:
    bracket = double_elimination_16()
    return {m.name for r in rounds for m in bracket.round_matches(r)}


def test_seed000_bracket_passes_the_checker() -> None:
    assert check_bracket(double_elimination_16()) == []


def test_seed000_match1_top_8_upper_next_8_lower_by_the_standard_placing() -> None:
    """ "The top 8 seeded teams will start in the upper bracket …, the next 8 … in the lower
    bracket and be eliminated with a loss": upper 1-8, 4-5, 2-7, 3-6; lower 9-16, 12-13,
    10-15, 11-14 (the seed gives no pairing: the standard placing); the lower losers 13-16,
    the upper losers drop to the lower bracket's Match 2."""
    bracket = double_elimination_16()
    pairs = {m.name: tuple(s.rank for s in m.slots) for m in bracket.round_matches("M1")}
    assert pairs == {
        "U1-1": (1, 8), "U1-2": (4, 5), "U1-3": (2, 7), "U1-4": (3, 6),
        "L1-1": (9, 16), "L1-2": (12, 13), "L1-3": (10, 15), "L1-4": (11, 14),
    }  # fmt: skip
    assert {bracket.match(f"L1-{k}").places for k in range(1, 5)} == {("", "13-16")}
    assert bracket.match("L2-1").slots == (Slot.loser("U1-1"), Slot.winner("L1-1"))
    assert {bracket.match(f"L2-{k}").places for k in range(1, 5)} == {("", "9-12")}


def test_seed000_three_ways_have_one_winner_the_others_share_5_8() -> None:
    """ "In Match 3, the two losers from upper bracket will join the four winners from the
    lower bracket to play two 3-way matches. The two winners will advance": one winner per
    three-way (advance 1), its second and third 5-8. Match 4: the loser of the upper final
    and the two winners, for a spot in the final; its second and third play for 3rd."""
    bracket = double_elimination_16()
    for name in ("L3-1", "L3-2", "M4"):
        assert bracket.match(name).three_way and bracket.match(name).advance == 1
    assert bracket.match("L3-1").places == ("", "5-8", "5-8")
    assert bracket.match("M4").slots == (Slot.loser("U3"), Slot.winner("L3-1"), Slot.winner("L3-2"))
    assert bracket.match("3rd").slots == (Slot.placed("M4", 2), Slot.placed("M4", 3))


def test_seed000_lengths_and_tie_rules() -> None:
    """Four rounds of 32 boards (2 × 16); the final and the play-off 48 (3 × 16). Ties
    §6-2: total points, boards won, lot; §6-3 (final, play-off): then 2-board sudden death."""
    bracket = double_elimination_16()
    assert bracket.rounds == ("M1", "M2", "M3", "M4", "F")
    for m in bracket.matches:
        final = m.name in ("F", "3rd")
        assert (m.segments, m.boards_per_segment) == ((3, 16) if final else (2, 16))
        want = ("total_points", "boards_won", "sudden_death" if final else "lot")
        assert m.tie == want


def test_seed000_upper_first_round_loser_goes_on_in_the_lower_bracket() -> None:
    """After Match 1 (8 beats 1): T1 plays the lower bracket's L2-1 against the winner of
    9-16 (T9); the lower losers T12, T14, T15, T16 share 13-16; all of Match 2 is ready."""
    state = _state(_rounds("M1"))
    assert state.teams("L2-1") == ("T1", "T9")
    assert state.teams("U2-1") == ("T8", "T4")
    assert state.ready() == ("U2-1", "U2-2", "L2-1", "L2-2", "L2-3", "L2-4")
    rows = [(r.team, r.first, r.last) for r in state.places()]
    assert rows == [(t, 13, 16) for t in ("T12", "T14", "T15", "T16")]


def test_seed000_match3_three_ways_join_upper_losers_and_lower_winners() -> None:
    """After Match 2: upper losers T8 (U2-1) and T3 (U2-2); lower winners T1, T13, T7, T6.
    L3-1 = (T8, winner L2-3 T7, winner L2-4 T6), L3-2 = (T3, T1, T13); the upper final
    U3 = T4 v T2."""
    state = _state(_rounds("M1", "M2"))
    assert state.teams("L3-1") == ("T8", "T7", "T6")
    assert state.teams("L3-2") == ("T3", "T1", "T13")
    assert state.teams("U3") == ("T4", "T2")
    assert state.ready() == ("U3", "L3-1", "L3-2")


def test_seed000_unbeaten_team_has_a_bye_to_the_final_with_6_5_imps() -> None:
    """ "After Round 3 there will be one undefeated team … a bye to the Final with a 6.5 IMP
    carryover": T2 wins U3 and waits; Match 4 is T4 (U3's loser), T6 and T1 (the
    three-way winners); the final T2 v T1 with T2 starting on 6.5 IMPs."""
    state = _state(_rounds("M1", "M2", "M3"))
    assert state.teams("M4") == ("T4", "T6", "T1")
    assert state.ready() == ("M4",)
    state = _state(_rounds("M1", "M2", "M3", "M4"))
    assert state.teams("F") == ("T2", "T1")
    assert state.carry_over("F") == (Fraction(13, 2), Fraction(0))
    assert state.carry_over("3rd") == (Fraction(0), Fraction(0))
    assert state.teams("3rd") == ("T4", "T6")
    assert state.ready() == ("F", "3rd")


def test_seed000_final_table_worked_by_hand() -> None:
    """T1 lost its first match yet won the final through the lower bracket. Places: 1 T1,
    2 T2, 3 T6 (won the play-off), 4 T4; 5-8 the three-ways' second and third (T8, T7,
    T3, T13, listed by rank: T3, T7, T8, T13); 9-12 the Match 2 lower losers (T9, T5,
    T10, T11 → T5, T9, T10, T11); 13-16 the Match 1 lower losers (T12, T14, T15, T16)."""
    state = _state()
    assert state.finished
    rows = [(r.team, r.first, r.last) for r in state.places()]
    assert rows == [
        ("T1", 1, 1), ("T2", 2, 2), ("T6", 3, 3), ("T4", 4, 4),
        ("T3", 5, 8), ("T7", 5, 8), ("T8", 5, 8), ("T13", 5, 8),
        ("T5", 9, 12), ("T9", 9, 12), ("T10", 9, 12), ("T11", 9, 12),
        ("T12", 13, 16), ("T14", 13, 16), ("T15", 13, 16), ("T16", 13, 16),
    ]  # fmt: skip


def test_carry_over_is_a_parameter_zero_means_none() -> None:
    bracket = double_elimination_16(carry_over=Fraction(0))
    assert bracket.match("F").carry_over.kind is CarryKind.NONE
    bonus = double_elimination_16(carry_over=Fraction(7)).match("F").carry_over
    assert (bonus.kind, bonus.imps, bonus.slot) == (CarryKind.FIXED, Fraction(7), 0)


@pytest.mark.parametrize("bad", [Fraction(-1), 6.5])
def test_a_negative_or_inexact_carry_over_is_refused(bad: object) -> None:
    with pytest.raises(ScoringInputError) as e:
        double_elimination_16(carry_over=bad)  # type: ignore[arg-type]
    assert e.value.field == "carry_over"
