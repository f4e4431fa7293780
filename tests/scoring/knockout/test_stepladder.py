"""A JFR-style stepladder play-off of 16 teams (``templates.stepladder``, the kind of a
Polish III liga play-off): ranks 9-16 start, 5-8 join in round 2, 1-4 in round 3; a
losers' ladder plays out 9-16 one place at a time."""

from __future__ import annotations

from scoring.knockout.bracket import Slot
from scoring.knockout.bracket_check import check_bracket
from scoring.knockout.routing import Entry, Outcome, follow
from scoring.knockout.templates import stepladder

ENTRIES = [Entry(f"T{n}", n) for n in range(1, 17)]


def test_stepladder_passes_the_checker_and_top_seeds_join_late() -> None:
    """R1: 9-16, 10-15, 11-14, 12-13; R2: 5, 6, 7, 8 v the winners of 12-13, 11-14,
    10-15, 9-16; R3: 1, 2, 3, 4 v the winners of R2-4, R2-3, R2-2, R2-1 (expected 1 v 8 …
    4 v 5); SF 1's side v 4's, 2's v 3's."""
    bracket = stepladder()
    assert check_bracket(bracket) == []
    assert [tuple(s.rank for s in m.slots) for m in bracket.round_matches("R1")] == [
        (9, 16), (10, 15), (11, 14), (12, 13),
    ]  # fmt: skip
    assert bracket.match("R2-1").slots == (Slot.by_rank(5), Slot.winner("R1-4"))
    assert bracket.match("R3-1").slots == (Slot.by_rank(1), Slot.winner("R2-4"))
    assert bracket.match("SF-1").slots == (Slot.winner("R3-1"), Slot.winner("R3-4"))
    assert bracket.match("F").segments == 3 and bracket.match("3rd").segments == 2


# Upsets: 16 beats 9 (R1), 11 beats 6 (R2), 7 beats 2 (R3), 4 beats 1 (SF); in the
# ladder 9 beats 12, 15 beats 14 and 9 (P13), 12 beats 14 (P15), 13 beats 16, 6 beats 10
# and 13 (P9), 10 beats 16 (P11).
RESULTS = {
    "R1-1": ("T16", "T9"), "R1-2": ("T10", "T15"), "R1-3": ("T11", "T14"),
    "R1-4": ("T13", "T12"),
    "R2-1": ("T5", "T13"), "R2-2": ("T11", "T6"), "R2-3": ("T7", "T10"), "R2-4": ("T8", "T16"),
    "P13-1": ("T9", "T12"), "P13-2": ("T15", "T14"),
    "R3-1": ("T1", "T8"), "R3-2": ("T7", "T2"), "R3-3": ("T3", "T11"), "R3-4": ("T4", "T5"),
    "P13": ("T15", "T9"), "P15": ("T12", "T14"),
    "P9-1": ("T13", "T16"), "P9-2": ("T6", "T10"),
    "SF-1": ("T4", "T1"), "SF-2": ("T3", "T7"),
    "P9": ("T6", "T13"), "P11": ("T10", "T16"),
    "F": ("T4", "T3"), "3rd": ("T1", "T7"),
}  # fmt: skip


def test_stepladder_losers_ladder_pairs_the_losers_of_each_round() -> None:
    """R1's losers T9, T15, T14, T12 meet in round 2: P13-1 = loser R1-4 (T12) v loser
    R1-1 (T9), P13-2 = T14 v T15. R2's losers T13, T6, T10, T16 in round 3: P9-1 = loser
    R2-4 (T16) v loser R2-1 (T13), P9-2 = loser R2-3 (T10) v loser R2-2 (T6)."""
    r1 = {m: Outcome(o) for m, o in RESULTS.items() if m.startswith("R1")}
    state = follow(stepladder(), ENTRIES, r1)
    assert state.teams("P13-1") == ("T12", "T9") and state.teams("P13-2") == ("T14", "T15")
    assert state.teams("R2-4") == ("T8", "T16")
    first_two = [m for m in RESULTS if m[:2] in ("R1", "R2") or m.startswith("P13-")]
    state = follow(stepladder(), ENTRIES, {m: Outcome(RESULTS[m]) for m in first_two})
    assert state.teams("P9-1") == ("T16", "T13") and state.teams("P9-2") == ("T10", "T6")
    assert state.teams("R3-2") == ("T2", "T7")


def test_stepladder_final_table_worked_by_hand() -> None:
    """From RESULTS:
    R3: 1 beats 8, 7 beats 2, 3 beats 11, 4 beats 5 → the losers T8, T2, T11, T5 share 5-8
    (listed by rank: T2, T5, T8, T11). SF 4 v 1 → T4, 7 v 3 → T3; F T4 beats T3: 1 T4, 2
    T3; 3rd T1 beats T7: 3 T1, 4 T7. Ladder for R2's losers: P9-1 T13 beats T16, P9-2 T6
    beats T10; P9 T6 beats T13: 9 T6, 10 T13; P11 T10 beats T16: 11 T10, 12 T16. Ladder
    for R1's losers: P13-1 T9 beats T12, P13-2 T15 beats T14; P13 T15 beats T9: 13 T15,
    14 T9; P15 T12 beats T14: 15 T12, 16 T14."""
    state = follow(stepladder(), ENTRIES, {m: Outcome(o) for m, o in RESULTS.items()})
    assert state.finished
    rows = [(r.team, r.first, r.last) for r in state.places()]
    assert rows == [
        ("T4", 1, 1), ("T3", 2, 2), ("T1", 3, 3), ("T7", 4, 4),
        ("T2", 5, 8), ("T5", 5, 8), ("T8", 5, 8), ("T11", 5, 8),
        ("T6", 9, 9), ("T13", 10, 10), ("T10", 11, 11), ("T16", 12, 12),
        ("T15", 13, 13), ("T9", 14, 14), ("T12", 15, 15), ("T14", 16, 16),
    ]  # fmt: skip
