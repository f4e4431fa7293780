"""A choice group's matches (``scoring.knockout.choice_groups.pair_group``): a chooser
left with no opponent after a withdrawal (``choice.WALK_OVER``, seed 002 BC08-A: "a
chooser left without an opponent gets a walk over") faces a missing team, so its match
is a bye and it goes through. Expected seats are worked by hand in each docstring."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringInputError
from scoring.knockout.bracket import ChoiceGroup, ChoiceOrder, Slot
from scoring.knockout.choice import Contender
from scoring.knockout.choice_groups import MISSING, Seat, pair_group

RANKS = {f"T{r}": r for r in range(1, 9)}
SEATS = [Seat(True, team) for team in RANKS]


def bc08a(order: ChoiceOrder = ChoiceOrder.TOP_HALF) -> ChoiceGroup:
    """Seed 002 BC08-A: ranks 1-4 choose in rank order among 5-8, four matches."""
    pool = tuple(Slot.by_rank(r) for r in RANKS.values())
    return ChoiceGroup("BC08-A", ("M1", "M2", "M3", "M4"), pool, order=order)


def order_key(team: str) -> tuple[int, int]:
    return (RANKS[team], RANKS[team])


def contender(team: str) -> Contender:
    return Contender(team, RANKS[team])


def test_bc08a_the_chooser_left_without_an_opponent_faces_a_missing_team():
    """Seed 002 BC08-A: "Vid ett avhopp bland lagen 1-4 … flyttas laget rankat 5 upp".
    T3 withdraws: T1, T2, T4, T5 choose among T6-T8. T1 takes T8, T2 takes T6, T4 has
    only T7 left; T5 is left with no opponent. In turn order M1 T1 v T8, M2 T2 v T6,
    M3 T4 v T7, M4 T5 v a missing team (a bye: T5 goes through), not a team named ""."""
    made = [("T1", "T8"), ("T2", "T6")]
    proc, seats = pair_group(bc08a(), SEATS, made, order_key, contender, withdrawn=["T3"])
    assert proc is not None and proc.done
    assert seats == [
        Seat(True, "T1"), Seat(True, "T8"), Seat(True, "T2"), Seat(True, "T6"),
        Seat(True, "T4"), Seat(True, "T7"), Seat(True, "T5"), MISSING,
    ]  # fmt: skip


def test_without_a_withdrawal_every_chooser_has_an_opponent():
    """No withdrawal: T1-T4 choose among T5-T8; T1 T8, T2 T7, T3 T6, then T4 has only T5
    left (paired at once)."""
    made = [("T1", "T8"), ("T2", "T7"), ("T3", "T6")]
    _, seats = pair_group(bc08a(), SEATS, made, order_key, contender)
    assert [s.team for s in seats] == ["T1", "T8", "T2", "T7", "T3", "T6", "T4", "T5"]
    assert all(s.present for s in seats)


def test_a_withdrawal_outside_a_choice_by_the_better_half_or_the_group_is_refused():
    """Seed 002's withdrawal rule is BC08-A's (a choice by the better half); a team not in
    the group cannot withdraw from it."""
    with pytest.raises(ScoringInputError, match="better half") as caught:
        pair_group(bc08a(ChoiceOrder.RANK), SEATS, [], order_key, contender, withdrawn=["T3"])
    assert caught.value.field == "withdrawn"
    with pytest.raises(ScoringInputError, match="X must be among"):
        pair_group(bc08a(), SEATS, [], order_key, contender, withdrawn=["X"])


def test_an_absent_chooser_is_passed_over_and_gets_what_is_left_seed_002_17():
    """Seed 002 §17: "I det fall lag i tur att välja inte är på plats, går turen till nästa
    lag ... I det fall flera lag i tur att välja inte är på plats och heller inte infinner
    sig så länge valproceduren ännu pågår, tilldelas det bäst placerade laget det sämst
    placerade som motståndare." Ranks 1-4 choose among 5-8; 1 and 2 are not there: 3
    takes 5 and 4 takes 6; the procedure over, 1 (the best placed absent) gets 8 (the
    worst placed left) and 2 gets 7. Each keeps its table: chooser i plays match i."""
    from scoring.knockout.bracket import ChoiceGroup, ChoiceOrder, Slot
    from scoring.knockout.choice import Contender
    from scoring.knockout.choice_groups import ABSENT, Seat, pair_group

    group = ChoiceGroup(
        "CC16", ("M1", "M2", "M3", "M4"),
        pool=tuple(Slot.by_rank(r) for r in range(5, 9)),
        choosers=tuple(Slot.by_rank(r) for r in range(1, 5)),
        order=ChoiceOrder.LISTED,
    )  # fmt: skip
    seats = [Seat(True, str(r)) for r in range(1, 9)]
    made = [("1", ABSENT), ("2", ABSENT), ("3", "5"), ("4", "6")]
    proc, placed = pair_group(
        group, seats, made, lambda t: (int(t), int(t)), lambda t: Contender(t, int(t))
    )
    assert proc is not None and proc.done
    assert [s.team for s in placed] == ["1", "8", "2", "7", "3", "5", "4", "6"]
