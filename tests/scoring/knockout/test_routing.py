"""Following results through a bracket (``scoring.knockout.routing``): the teams of each
match, the matches ready, byes, walk-overs, inherited ranking (seed 002's Bonus Cup), a
three-way (seed 000), carry-over. Brackets are built here, small, and the expected teams
and places are worked by hand in each docstring."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import ScoringInputError
from scoring.knockout.bracket import (
    Bracket,
    CarryKind,
    CarryOver,
    ChoiceGroup,
    ChoiceOrder,
    Match,
    Ranking,
    Slot,
)
from scoring.knockout.routing import Entry, Outcome, follow


def eight() -> Bracket:
    """Seed 003 §13 for 8 teams: QF 1-8, 4-5, 2-7, 3-6 (losers share 5-8), SF the
    winners of QF-1 v QF-2 and QF-3 v QF-4, the final for 1-2 and (§13.2) the semi-final
    losers for 3-4."""
    qf = [(1, 8), (4, 5), (2, 7), (3, 6)]
    matches = [
        Match(f"QF-{k}", "QF", (Slot.by_rank(a), Slot.by_rank(b)), places=("", "5-8"))
        for k, (a, b) in enumerate(qf, start=1)
    ]
    matches += [
        Match("SF-1", "SF", (Slot.winner("QF-1"), Slot.winner("QF-2"))),
        Match("SF-2", "SF", (Slot.winner("QF-3"), Slot.winner("QF-4"))),
        Match("F", "F", (Slot.winner("SF-1"), Slot.winner("SF-2")), places=("1", "2")),
        Match("3rd", "F", (Slot.loser("SF-1"), Slot.loser("SF-2")), places=("3", "4")),
    ]
    return Bracket("eight", 8, ("QF", "SF", "F"), tuple(matches))


def teams(count: int) -> list[Entry]:
    return [Entry(f"T{n}", n) for n in range(1, count + 1)]


def won(*order: str) -> Outcome:
    return Outcome(tuple(order))


def table(state) -> list[tuple[str, int, int]]:
    return [(row.team, row.first, row.last) for row in state.places()]


def test_single_elimination_of_8_with_a_match_for_third_place_seed003_13_2():
    """QF: 1, 5 (beats 4), 2, 3 win; SF: 1 beats 5, 3 beats 2; F: 1 beats 3; 3rd: 2
    beats 5. So 1 T1, 2 T3, 3 T2, 4 T5, and the QF losers T4 T6 T7 T8 share 5-8, listed
    by their rank before the knockout."""
    results = {"QF-1": won("T1", "T8"), "QF-2": won("T5", "T4"), "QF-3": won("T2", "T7"),
               "QF-4": won("T3", "T6")}  # fmt: skip
    state = follow(eight(), teams(8), {})
    assert state.ready() == ("QF-1", "QF-2", "QF-3", "QF-4")
    assert state.teams("SF-1") == (None, None)
    state = follow(eight(), teams(8), results)
    assert state.ready() == ("SF-1", "SF-2")
    assert state.teams("SF-1") == ("T1", "T5")
    results |= {"SF-1": won("T1", "T5"), "SF-2": won("T3", "T2")}
    state = follow(eight(), teams(8), results)
    assert state.ready() == ("F", "3rd")
    assert state.teams("3rd") == ("T5", "T2")
    assert not state.finished
    results |= {"F": won("T1", "T3"), "3rd": won("T2", "T5")}
    state = follow(eight(), teams(8), results)
    assert state.finished and state.ready() == ()
    assert table(state) == [
        ("T1", 1, 1), ("T3", 2, 2), ("T2", 3, 3), ("T5", 4, 4),
        ("T4", 5, 8), ("T6", 5, 8), ("T7", 5, 8), ("T8", 5, 8),
    ]  # fmt: skip


def test_byes_five_entries_in_a_bracket_of_8_ranks_1_2_3_go_through():
    """Ranks 6, 7, 8 have no entry: QF-1 (1 v 8), QF-3 (2 v 7), QF-4 (3 v 6) are byes,
    only QF-2 (4 v 5) is played; SF-2 (2 v 3) is ready at once. QF-2's loser is the only
    team of "5-8": place 5 alone (the range is renumbered by the teams there). Then 1
    beats 4, 2 beats 3, 1 beats 2, 3 beats 4: places 1-5 for T1 to T5."""
    state = follow(eight(), teams(5), {})
    assert state.ready() == ("QF-2", "SF-2")
    assert state.bye("QF-1") and not state.bye("QF-2")
    assert state.teams("QF-1") == ("T1", None)
    assert state.teams("SF-1") == ("T1", None)  # QF-2 is not played yet
    assert state.teams("SF-2") == ("T2", "T3")
    results = {"QF-2": won("T4", "T5"), "SF-1": won("T1", "T4"), "SF-2": won("T2", "T3"),
               "F": won("T1", "T2"), "3rd": won("T3", "T4")}  # fmt: skip
    state = follow(eight(), teams(5), results)
    assert state.finished
    assert table(state) == [(f"T{n}", n, n) for n in range(1, 6)]


def test_an_outcome_for_a_bye_is_refused():
    with pytest.raises(ScoringInputError, match="QF-1 is a bye"):
        follow(eight(), teams(5), {"QF-1": won("T1")})


def test_a_walk_over_the_absent_team_is_placed_as_the_loser():
    """T1 does not come to QF-1: T8 goes through, T1 shares 5-8 with the other losers."""
    results = {"QF-1": Outcome(("T8", "T1"), walk_over=True)}
    state = follow(eight(), teams(8), results)
    assert state.teams("SF-1") == ("T8", None)
    assert table(state) == [("T1", 5, 8)]


def test_an_outcome_whose_teams_are_not_the_matchs_is_refused_naming_the_match():
    with pytest.raises(ScoringInputError, match="QF-2 is played by T4, T5") as caught:
        follow(eight(), teams(8), {"QF-2": won("T4", "T6")})
    assert caught.value.field == "outcomes[QF-2]"
    with pytest.raises(ScoringInputError, match="SF-1: its teams are not known yet"):
        follow(eight(), teams(8), {"SF-1": won("T1", "T4")})


def feeding(ranking: Ranking) -> Bracket:
    """Seed 002's Chairman's Cup and Bonus Cup in miniature (8 teams for 64): CC ranks
    1-4 (CC-1 1 v 4, CC-2 2 v 3), BC ranks 5-8 (BA-1 5 v 8, BA-2 6 v 7, as BC32-A 33 v 64
    …); the CC losers drop into the B bracket with the BA winners, paired by a fold of
    their ranking, best v worst (BC32-B). CC final 1-2; B winners 3-4, losers 5-6; BA
    losers 7-8."""
    matches = (
        Match("CC-1", "CC", (Slot.by_rank(1), Slot.by_rank(4))),
        Match("CC-2", "CC", (Slot.by_rank(2), Slot.by_rank(3))),
        Match("BA-1", "CC", (Slot.by_rank(5), Slot.by_rank(8)), places=("", "7-8")),
        Match("BA-2", "CC", (Slot.by_rank(6), Slot.by_rank(7)), places=("", "7-8")),
        Match("CCF", "F", (Slot.winner("CC-1"), Slot.winner("CC-2")), places=("1", "2")),
        Match("BB-1", "F", (Slot.chosen("BB"), Slot.chosen("BB")), places=("3-4", "5-6")),
        Match("BB-2", "F", (Slot.chosen("BB"), Slot.chosen("BB")), places=("3-4", "5-6")),
    )
    pool = (Slot.loser("CC-1"), Slot.loser("CC-2"), Slot.winner("BA-1"), Slot.winner("BA-2"))
    fold = ChoiceGroup("BB", ("BB-1", "BB-2"), pool, order=ChoiceOrder.FOLD)
    return Bracket("CC and BC", 8, ("CC", "F"), matches, (fold,), ranking)


FEEDING_RESULTS = {"CC-1": won("T1", "T4"), "CC-2": won("T3", "T2"), "BA-1": won("T8", "T5"),
                   "BA-2": won("T6", "T7")}  # fmt: skip


def test_inherited_ranking_seed002_a_winner_takes_the_better_rank_for_the_next_fold():
    """Seed 002 Bonus Cup: "övertagen placering ifall man slagit ett lag med bättre
    ranking" (as 40 beating 34 ranks 34 in BC32-B). Here T8 beats T5: ranks 5; T3 beats
    T2: ranks 2. The B pool by rank: T2 (2), T4 (4), T8 (5), T6 (6); the fold: T2 v T6,
    T4 v T8. With fixed ranks T8 stays 8: T2 v T8, T4 v T6."""
    state = follow(feeding(Ranking.INHERIT), teams(8), FEEDING_RESULTS)
    assert (state.rank("T8"), state.rank("T3"), state.rank("T6")) == (5, 2, 6)
    assert state.teams("BB-1") == ("T2", "T6")
    assert state.teams("BB-2") == ("T4", "T8")
    assert state.choosing("BB") is None  # a fold: no choice is made
    fixed = follow(feeding(Ranking.FIXED), teams(8), FEEDING_RESULTS)
    assert fixed.rank("T8") == 8
    assert (fixed.teams("BB-1"), fixed.teams("BB-2")) == (("T2", "T8"), ("T4", "T6"))


def test_feeding_brackets_places_the_b_bracket_and_the_a_losers():
    """Inherited ranking as above; T2 beats T6, T8 beats T4, T1 wins the CC final. The B
    winners T2, T8 share 3-4, the B losers T4, T6 5-6, the A losers T5, T7 7-8."""
    results = FEEDING_RESULTS | {"CCF": won("T1", "T3"), "BB-1": won("T2", "T6"),
                                 "BB-2": won("T8", "T4")}  # fmt: skip
    state = follow(feeding(Ranking.INHERIT), teams(8), results)
    assert table(state) == [
        ("T1", 1, 1), ("T3", 2, 2), ("T2", 3, 4), ("T8", 3, 4),
        ("T4", 5, 6), ("T6", 5, 6), ("T5", 7, 8), ("T7", 7, 8),
    ]  # fmt: skip


def double_four() -> Bracket:
    """A double elimination of four (as seed 000's): A 1 v 2, B 3 v 4; C the losers, D
    the winners; E the loser of D v the winner of C, 0.1 IMP to the higher placed (seed
    001); D's winner first, E's 2-3, C's loser 4th."""
    return Bracket("double", 4, ("R1", "R2", "R3"), (
        Match("A", "R1", (Slot.by_rank(1), Slot.by_rank(2))),
        Match("B", "R1", (Slot.by_rank(3), Slot.by_rank(4))),
        Match("C", "R2", (Slot.loser("A"), Slot.loser("B")), places=("", "4")),
        Match("D", "R2", (Slot.winner("A"), Slot.winner("B")), places=("1", "")),
        Match("E", "R3", (Slot.loser("D"), Slot.winner("C")), places=("2", "3"),
              carry_over=CarryOver(CarryKind.HIGHER_PLACED, imps=Fraction(1, 10))),
    ), ranking=Ranking.INHERIT)  # fmt: skip


def test_equal_ranks_after_inheritance_the_better_entry_rank_is_higher_placed():
    """T2 beats T1 (T2 ranks 1), T3 beats T4; T1 beats T4 in C; T3 beats T2 in D (T3
    ranks 1). E: T2 (ranked 1, inherited) v T1 (ranked 1): equal, so the better entry
    rank, T1, is the higher placed and starts with the 0.1 IMP."""
    results = {"A": won("T2", "T1"), "B": won("T3", "T4"), "C": won("T1", "T4"),
               "D": won("T3", "T2")}  # fmt: skip
    state = follow(double_four(), teams(4), results)
    assert state.teams("E") == ("T2", "T1")
    assert (state.rank("T1"), state.rank("T2"), state.rank("T3")) == (1, 1, 1)
    assert state.carry_over("E") == (Fraction(0), Fraction(1, 10))
    assert state.carry_over("C") == (Fraction(0), Fraction(0))


def test_a_three_way_with_advance_1_seed000():
    """Seed 000's three-way: ranks 2, 3, 4 play one match, its winner meets rank 1 in the
    final. T3, T2, T4 finish in that order: T3 to the final, T2 3rd, T4 4th; T3 beats T1:
    1 T3, 2 T1."""
    bracket = Bracket("three", 4, ("TW", "F"), (
        Match("TW", "TW", (Slot.by_rank(2), Slot.by_rank(3), Slot.by_rank(4)),
              places=("", "3", "4")),
        Match("F", "F", (Slot.by_rank(1), Slot.winner("TW")), places=("1", "2"),
              carry_over=CarryOver(CarryKind.FIXED, imps=Fraction(13, 2), slot=0)),
    ))  # fmt: skip
    state = follow(bracket, teams(4), {"TW": won("T3", "T2", "T4")})
    assert state.teams("F") == ("T1", "T3")
    assert state.carry_over("F") == (Fraction(13, 2), Fraction(0))  # seed 000: 6.5 IMPs
    with pytest.raises(ScoringInputError, match="TW is played by T2, T3, T4"):
        follow(bracket, teams(4), {"TW": won("T3", "T2")})
    state = follow(bracket, teams(4), {"TW": won("T3", "T2", "T4"), "F": won("T3", "T1")})
    assert table(state) == [("T3", 1, 1), ("T1", 2, 2), ("T2", 3, 3), ("T4", 4, 4)]


def test_a_share_of_the_earlier_margin_goes_to_its_winner():
    """JFR carry-over: a quarter of the 20 IMPs T2 won A by, when T1 and T2 meet again in
    the rematch R: 5 IMPs to T2. Without the margin the carry-over is refused."""
    bracket = Bracket("rematch", 2, ("R1", "R2"), (
        Match("A", "R1", (Slot.by_rank(1), Slot.by_rank(2))),
        Match("R", "R2", (Slot.loser("A"), Slot.winner("A")), places=("1", "2"),
              carry_over=CarryOver(CarryKind.SHARE, share=Fraction(1, 4), of_match="A")),
    ))  # fmt: skip
    state = follow(bracket, teams(2), {"A": won("T2", "T1")}, margins={"A": Fraction(20)})
    assert state.carry_over("R") == (Fraction(0), Fraction(5))
    with pytest.raises(ScoringInputError, match="give it"):
        follow(bracket, teams(2), {"A": won("T2", "T1")}).carry_over("R")


def test_bad_entries_are_refused():
    with pytest.raises(ScoringInputError, match="ranks are 1-8, each once"):
        follow(eight(), [Entry("A", 1), Entry("B", 1)], {})
    with pytest.raises(ScoringInputError, match="X is not a match"):
        follow(eight(), teams(8), {"X": won("T1", "T8")})


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 8), st.randoms(use_true_random=False))
def test_any_results_place_every_entry_once_in_consecutive_places(count, rnd):
    """Whatever the number of entries (byes) and the results, when nothing is ready any
    more every entry has one place, the ranges follow each other from 1 to the number of
    entries, and each range holds as many teams as it has places."""
    results: dict[str, Outcome] = {}
    state = follow(eight(), teams(count), results)
    while state.ready():
        match = state.ready()[0]
        order = [t for t in state.teams(match) if t is not None]
        rnd.shuffle(order)
        results[match] = Outcome(tuple(order))
        state = follow(eight(), teams(count), results)
    assert state.finished
    rows = state.places()
    assert sorted(r.team for r in rows) == sorted(e.team for e in teams(count))
    expected = 1
    for first, last in sorted({(r.first, r.last) for r in rows}):
        assert first == expected
        assert sum(1 for r in rows if (r.first, r.last) == (first, last)) == last - first + 1
        expected = last + 1
    assert expected == count + 1


def by_choice(order: ChoiceOrder = ChoiceOrder.RANK) -> Bracket:
    """Four teams whose semi-finals are paired by choice (seed 001 SF: the best-ranked
    team chooses its opponent); with ``LISTED`` ranks 1 and 2 choose, in that order, among
    ranks 3 and 4. Final 1-2, third place 3-4."""
    ranks = [Slot.by_rank(r) for r in (1, 2, 3, 4)]
    if order is ChoiceOrder.LISTED:
        group = ChoiceGroup("SF", ("SF-1", "SF-2"), tuple(ranks[2:]), tuple(ranks[:2]))
    else:
        group = ChoiceGroup("SF", ("SF-1", "SF-2"), tuple(ranks), order=order)
    return Bracket("choice", 4, ("SF", "F"), (
        Match("SF-1", "SF", (Slot.chosen("SF"), Slot.chosen("SF"))),
        Match("SF-2", "SF", (Slot.chosen("SF"), Slot.chosen("SF"))),
        Match("F", "F", (Slot.winner("SF-1"), Slot.winner("SF-2")), places=("1", "2")),
        Match("3rd", "F", (Slot.loser("SF-1"), Slot.loser("SF-2")), places=("3", "4")),
    ), (group,))  # fmt: skip


def test_a_choice_by_rank_is_replayed_onto_the_matches_seed001():
    """Seed 001: T1 chooses first, among T2, T3, T4; it chooses T3, so T2 v T4 follows
    (the last pair is made at once). The first pair made plays SF-1, the chooser at home."""
    state = follow(by_choice(), teams(4), {})
    proc = state.choosing("SF")
    assert proc is not None and proc.next_chooser().team == "T1"
    assert [c.team for c in proc.options()] == ["T2", "T3", "T4"]
    assert state.teams("SF-1") == (None, None) and state.ready() == ()
    state = follow(by_choice(), teams(4), {}, choices={"SF": [("T1", "T3")]})
    assert state.teams("SF-1") == ("T1", "T3")
    assert state.teams("SF-2") == ("T2", "T4")
    assert state.ready() == ("SF-1", "SF-2")


def test_a_choice_out_of_turn_is_refused_naming_the_group():
    with pytest.raises(ScoringInputError, match="T1's turn") as caught:
        follow(by_choice(), teams(4), {}, choices={"SF": [("T2", "T3")]})
    assert caught.value.field == "choices[SF][0]"


def test_a_listed_choice_each_choosers_pair_plays_its_match():
    """Ranks 1, 2 choose in that order among 3, 4: T1 takes T4, T2 is left T3."""
    state = follow(by_choice(ChoiceOrder.LISTED), teams(4), {}, choices={"SF": [("T1", "T4")]})
    assert (state.teams("SF-1"), state.teams("SF-2")) == (("T1", "T4"), ("T2", "T3"))


def test_a_share_carry_over_is_rounded_up_to_a_tenth_jfr():
    """JFR: the share is rounded up to 0.1 unless whole. A quarter of the 13 IMPs T2 won
    A by: 13 × 0.25 = 3.25, rounded up to 3.3 for T2 in R (not 3.25, 13/4)."""
    bracket = Bracket("rematch", 2, ("R1", "R2"), (
        Match("A", "R1", (Slot.by_rank(1), Slot.by_rank(2))),
        Match("R", "R2", (Slot.loser("A"), Slot.winner("A")), places=("1", "2"),
              carry_over=CarryOver(CarryKind.SHARE, share=Fraction(1, 4), of_match="A")),
    ))  # fmt: skip
    state = follow(bracket, teams(2), {"A": won("T2", "T1")}, margins={"A": Fraction(13)})
    assert state.carry_over("R") == (Fraction(0), Fraction(33, 10))
