"""The final table of a knockout (``scoring.knockout.places``): place ranges written for
the full bracket are renumbered by the teams actually there, in order; teams sharing a
range are listed by their rank before the knockout (JFR's final table)."""

from __future__ import annotations

from scoring.knockout.bracket import Bracket, Match, Slot
from scoring.knockout.places import PlaceRow, final_table
from scoring.knockout.routing import Entry, Outcome, follow


def test_seed003_21_teams_in_a_bracket_of_32_the_r32_losers_share_17_21():
    """Seed 003 §11.4: 21 teams in a bracket of 32 leave 11 byes, so 5 of the 16 first
    round matches are played and 5 teams lose there: "17-32" becomes 17-21, after 1-4,
    5-8 (4 QF losers) and 9-16 (8 R16 losers): 4 + 4 + 8 + 5 = 21."""
    placed: list[tuple[str, str | None]] = [("1", "A"), ("2", "B"), ("3", "C"), ("4", "D")]
    placed += [("5-8", f"Q{n}") for n in range(1, 5)]
    placed += [("9-16", f"S{n}") for n in range(1, 9)]
    placed += [("17-32", f"R{n}") for n in range(1, 6)]
    ranks = {team: n for n, (_, team) in enumerate(placed, start=1) if team}
    rows = final_table(placed, ranks)
    assert [(r.team, str(r)) for r in rows[-6:]] == [
        ("S8", "9-16"), ("R1", "17-21"), ("R2", "17-21"), ("R3", "17-21"), ("R4", "17-21"),
        ("R5", "17-21"),
    ]  # fmt: skip
    assert rows[0] == PlaceRow("A", 1, 1) and str(rows[0]) == "1"


def test_a_range_shared_is_listed_by_rank_before_the_knockout_and_waits_for_its_teams():
    """The final, the match for third place not played (places 1-4 unknown, still four
    teams); the QF losers ranked 7, 3, 4 and one not yet known: the range stays 5-8 (4
    teams go there), T3 T4 T7 listed by rank, the unknown one not listed."""
    placed: list[tuple[str, str | None]] = [(str(n), None) for n in range(1, 5)]
    placed += [("5-8", "T7"), ("5-8", "T3"), ("5-8", None), ("5-8", "T4")]
    rows = final_table(placed, {"T3": 3, "T4": 4, "T7": 7})
    assert rows == (PlaceRow("T3", 5, 8), PlaceRow("T4", 5, 8), PlaceRow("T7", 5, 8))


def test_six_entries_in_a_bracket_of_8_the_qf_losers_share_5_6():
    """QF 1 v 8 and 2 v 7 are byes (no ranks 7, 8); 4 v 5 and 3 v 6 are played: their
    losers T5 and T6 (4 and 3 win) are the only teams of "5-8": they share 5-6."""
    qf = [(1, 8), (4, 5), (2, 7), (3, 6)]
    matches = [
        Match(f"QF-{k}", "QF", (Slot.by_rank(a), Slot.by_rank(b)), places=("", "5-8"))
        for k, (a, b) in enumerate(qf, start=1)
    ]
    matches += [
        Match("SF-1", "SF", (Slot.winner("QF-1"), Slot.winner("QF-2")), places=("", "3-4")),
        Match("SF-2", "SF", (Slot.winner("QF-3"), Slot.winner("QF-4")), places=("", "3-4")),
        Match("F", "F", (Slot.winner("SF-1"), Slot.winner("SF-2")), places=("1", "2")),
    ]
    bracket = Bracket("eight", 8, ("QF", "SF", "F"), tuple(matches))
    entries = [Entry(f"T{n}", n) for n in range(1, 7)]
    results = {"QF-2": Outcome(("T4", "T5")), "QF-4": Outcome(("T3", "T6"))}
    rows = follow(bracket, entries, results).places()
    assert [(r.team, str(r)) for r in rows] == [("T5", "5-6"), ("T6", "5-6")]
