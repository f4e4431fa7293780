"""The seeds' brackets as data (``scoring.knockout.templates``): seed 003's single
elimination with a match for third place, and what every template shares (the checker
accepts it; whatever the results, every team ends with exactly one place)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub.event.bracket_file import read_bracket
from scoring.errors import ScoringInputError
from scoring.knockout.bracket import Bracket, Slot
from scoring.knockout.bracket_check import check_bracket
from scoring.knockout.routing import Entry, Outcome, follow
from scoring.knockout.templates import double_elimination_16, single_elimination, stepladder

TEMPLATES: dict[str, Callable[[], Bracket]] = {
    "seed003 32": lambda: single_elimination(32),
    "seed003 16": lambda: single_elimination(16),
    "seed003 8": lambda: single_elimination(8),
    "8 without 3rd": lambda: single_elimination(8, third_place=False),
    "seed000": double_elimination_16,
    "stepladder": stepladder,
}


def _entries(count: int) -> list[Entry]:
    return [Entry(f"T{n}", n) for n in range(1, count + 1)]


def _outcomes(results: dict[str, tuple[str, ...]]) -> dict[str, Outcome]:
    return {match: Outcome(order) for match, order in results.items()}


def _table(bracket: Bracket, count: int, results: dict[str, tuple[str, ...]]) -> list[tuple]:
    state = follow(bracket, _entries(count), _outcomes(results))
    return [(row.team, row.first, row.last) for row in state.places()]


@pytest.mark.parametrize("template", TEMPLATES.values(), ids=TEMPLATES.keys())
def test_every_template_passes_the_bracket_checker(template: Callable[[], Bracket]) -> None:
    assert check_bracket(template()) == []


def test_seed003_32_first_round_is_the_standard_placing_lower_number_at_home() -> None:
    """Seed 003 §11, §12.2: the standard placing of 32, worked by doubling (each x of the
    bracket of 16 followed by 33 − x): 1-32, 16-17, 8-25, 9-24, 4-29, 13-20, 5-28, 12-21,
    2-31, 15-18, 7-26, 10-23, 3-30, 14-19, 6-27, 11-22; the lower number listed first."""
    bracket = single_elimination(32)
    first = bracket.round_matches("R32")
    pairs = [(m.slots[0].rank, m.slots[1].rank) for m in first]
    assert pairs == [
        (1, 32), (16, 17), (8, 25), (9, 24), (4, 29), (13, 20), (5, 28), (12, 21),
        (2, 31), (15, 18), (7, 26), (10, 23), (3, 30), (14, 19), (6, 27), (11, 22),
    ]  # fmt: skip
    assert [m.name for m in first][:3] == ["R32-1", "R32-2", "R32-3"]
    assert bracket.rounds == ("R32", "R16", "QF", "SF", "F")
    assert bracket.match("R16-1").slots == (Slot.winner("R32-1"), Slot.winner("R32-2"))


def test_seed003_final_48_boards_the_others_32_losers_share_the_places_below() -> None:
    """Seed 003 §1.3 and §12.1: the final 48 boards, every other match (the third place
    too) 32, in sets of 16. §13.2: the semi-final losers play for 3rd and 4th. The losers
    of a round share the places under the teams left: R32 17-32, R16 9-16, QF 5-8."""
    bracket = single_elimination(32)
    boards = {m.name: m.segments * m.boards_per_segment for m in bracket.matches}
    assert boards["F"] == 48 and boards["3rd"] == 32 and boards["R32-7"] == 32
    assert bracket.match("3rd").slots == (Slot.loser("SF-1"), Slot.loser("SF-2"))
    assert bracket.match("3rd").places == ("3", "4")
    assert bracket.match("F").places == ("1", "2")
    assert bracket.match("SF-2").places == ("", "")
    losers = {m.round: m.places[1] for m in bracket.matches if m.round in ("R32", "R16", "QF")}
    assert losers == {"R32": "17-32", "R16": "9-16", "QF": "5-8"}
    assert {m.tie for m in bracket.matches} == {("extra_set",)}  # §12.5: sets of 4 boards


def test_without_a_third_place_the_semi_final_losers_share_3_4() -> None:
    bracket = single_elimination(8, third_place=False, names=("Q", "S", "Final"))
    assert bracket.rounds == ("Q", "S", "Final")
    assert [m.name for m in bracket.matches] == ["Q-1", "Q-2", "Q-3", "Q-4", "S-1", "S-2", "Final"]
    assert bracket.match("S-1").places == ("", "3-4")


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"size": 12}, "size"),
        ({"size": 2}, "size"),
        ({"size": 8, "segments": 0}, "segments"),
        ({"size": 8, "tie": ("coin",)}, "tie"),
        ({"size": 8, "tie": ()}, "tie"),
        ({"size": 8, "names": ("QF", "SF")}, "names"),
        ({"size": 8, "names": ("A", "A", "F")}, "names"),
        ({"size": 8, "names": ("A", "3rd", "F")}, "names"),
    ],
)
def test_a_bracket_that_cannot_be_made_is_refused(kwargs: dict, field: str) -> None:
    with pytest.raises(ScoringInputError) as e:
        single_elimination(**kwargs)
    assert e.value.field == field


# 21 teams in seed 003's bracket of 32, T<n> numbered n. Upsets: 17 beats 16 (R32), 9 beats
# 8 (R16), 5 beats 4 and 6 beats 3 (QF), 6 beats 2 (SF), 6 beats 1 (F), 2 beats 5 (3rd).
SEED003_21: dict[str, tuple[str, ...]] = {
    "R32-2": ("T17", "T16"), "R32-6": ("T13", "T20"), "R32-8": ("T12", "T21"),
    "R32-10": ("T15", "T18"), "R32-14": ("T14", "T19"),
    "R16-1": ("T1", "T17"), "R16-2": ("T9", "T8"), "R16-3": ("T4", "T13"),
    "R16-4": ("T5", "T12"), "R16-5": ("T2", "T15"), "R16-6": ("T7", "T10"),
    "R16-7": ("T3", "T14"), "R16-8": ("T6", "T11"),
    "QF-1": ("T1", "T9"), "QF-2": ("T5", "T4"), "QF-3": ("T2", "T7"), "QF-4": ("T6", "T3"),
    "SF-1": ("T1", "T5"), "SF-2": ("T6", "T2"),
    "F": ("T6", "T1"), "3rd": ("T2", "T5"),
}  # fmt: skip


def test_seed003_21_teams_numbers_1_to_11_have_byes_5_first_round_matches() -> None:
    """Seed 003 §11.4: with 21 teams the numbers 22-32 are missing, so 1-11 (their
    opponents: 32 … 22) go straight to the second round; the first round plays 16-17
    (R32-2), 13-20 (R32-6), 12-21 (R32-8), 15-18 (R32-10), 14-19 (R32-14). Three second
    round matches join two bye teams and can start at once: 8-9 (R16-2), 7-10 (R16-6),
    6-11 (R16-8)."""
    state = follow(single_elimination(32), _entries(21), {})
    first = [m.name for m in single_elimination(32).round_matches("R32")]
    assert [m for m in first if state.bye(m)] == [
        "R32-1", "R32-3", "R32-4", "R32-5", "R32-7", "R32-9",
        "R32-11", "R32-12", "R32-13", "R32-15", "R32-16",
    ]  # fmt: skip
    assert state.ready() == (
        "R32-2", "R32-6", "R32-8", "R32-10", "R32-14", "R16-2", "R16-6", "R16-8",
    )  # fmt: skip
    assert state.teams("R32-8") == ("T12", "T21")
    assert state.teams("R16-6") == ("T7", "T10")
    assert state.teams("R16-1") == ("T1", None)
    assert state.places() == ()


def test_seed003_21_teams_second_round_takes_the_bye_teams() -> None:
    """After the 5 first-round matches (17 beats 16) the second round is 1-17, 8-9, 4-13,
    5-12, 2-15, 7-10, 3-14, 6-11, all ready; the 5 first-round losers already share 17-21
    (the 17-32 of the full bracket compressed to the 5 teams there)."""
    first = {k: v for k, v in SEED003_21.items() if k.startswith("R32")}
    state = follow(single_elimination(32), _entries(21), _outcomes(first))
    assert state.teams("R16-1") == ("T1", "T17")
    assert state.teams("R16-2") == ("T8", "T9")
    assert state.ready() == tuple(f"R16-{k}" for k in range(1, 9))
    rows = [(r.team, r.first, r.last) for r in state.places()]
    assert rows == [(t, 17, 21) for t in ("T16", "T18", "T19", "T20", "T21")]


def test_seed003_21_teams_final_table() -> None:
    """Worked by hand from SEED003_21: QF 1-9, 5 beats 4, 2-7, 6 beats 3; SF 1-5, 6-2;
    F 6 beats 1; 3rd 2 beats 5. Places 1 T6, 2 T1, 3 T2, 4 T5; QF losers 5-8 (T3, T4,
    T7, T9 by rank); R16 losers 9-16 (T17, T8, T13, T12, T15, T10, T14, T11, listed by
    rank); R32 losers 17-21 (T16, T18, T19, T20, T21), 17-32 compressed to the 5 there."""
    state = follow(single_elimination(32), _entries(21), _outcomes(SEED003_21))
    assert state.finished
    rows = [(r.team, r.first, r.last) for r in state.places()]
    assert rows[:4] == [("T6", 1, 1), ("T1", 2, 2), ("T2", 3, 3), ("T5", 4, 4)]
    assert rows[4:8] == [(t, 5, 8) for t in ("T3", "T4", "T7", "T9")]
    assert rows[8:16] == [
        (t, 9, 16) for t in ("T8", "T10", "T11", "T12", "T13", "T14", "T15", "T17")
    ]
    assert rows[16:] == [(t, 17, 21) for t in ("T16", "T18", "T19", "T20", "T21")]


def _play_out(bracket: Bracket, count: int, order: Callable[[Sequence[str]], tuple]) -> list:
    results: dict[str, Outcome] = {}
    entries = _entries(count)
    state = follow(bracket, entries, results)
    while state.ready():
        for match in state.ready():
            teams = [t for t in state.teams(match) if t is not None]
            results[match] = Outcome(tuple(order(teams)))
        state = follow(bracket, entries, results)
    assert state.finished
    return [(r.team, r.first, r.last) for r in state.places()]


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(sorted(TEMPLATES)), data=st.data())
def test_whatever_the_results_every_team_gets_one_place_and_the_places_add_up(
    name: str, data: st.DataObject
) -> None:
    """Any results: every team is placed once; a range "a-b" is shared by exactly b−a+1
    teams; the places run 1 … entries without a gap."""
    bracket = TEMPLATES[name]()

    def order(teams: Sequence[str]) -> tuple:
        return tuple(data.draw(st.permutations(list(teams))))

    rows = _play_out(bracket, bracket.entries, order)
    assert sorted(team for team, _, _ in rows) == sorted(
        f"T{n}" for n in range(1, 1 + bracket.entries)
    )
    ranges = sorted({(first, last) for _, first, last in rows})
    for first, last in ranges:
        assert sum((f, la) == (first, last) for _, f, la in rows) == last - first + 1
    assert ranges[0][0] == 1 and ranges[-1][1] == bracket.entries
    assert all(a[1] + 1 == b[0] for a, b in pairwise(ranges))


@settings(max_examples=25, deadline=None)
@given(count=st.integers(min_value=17, max_value=32), data=st.data())
def test_seed003_any_field_of_17_to_32_teams_places_every_team_once(
    count: int, data: st.DataObject
) -> None:
    """Seed 003 §9.2 and §11.4: 17-32 teams use the bracket of 32, the missing numbers
    being the highest; every team that came gets one place, within 1 … count."""

    def order(teams: Sequence[str]) -> tuple:
        return tuple(data.draw(st.permutations(list(teams))))

    rows = _play_out(single_elimination(32), count, order)
    assert len(rows) == count and len({t for t, _, _ in rows}) == count
    assert max(last for _, _, last in rows) == count


EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "brackets"


@pytest.mark.parametrize(
    ("file", "template"),
    [
        (
            "seed003_single_elimination_32.toml",
            lambda: single_elimination(32, name="Bridge Open K.O. 1999, 32 teams"),
        ),
        (
            "seed000_double_elimination_16.toml",
            lambda: double_elimination_16(name="2013 Yeh Bros Cup, Open Teams knockout, 16 teams"),
        ),
        ("stepladder_16.toml", lambda: stepladder(name="Stepladder play-off, 16 teams")),
    ],
)
def test_example_bracket_files_read_back_as_the_templates(
    file: str, template: Callable[[], Bracket]
) -> None:
    """examples/brackets/ holds the templates as bracket files (docs/brackets.md), each
    with a comment header naming its seed and section: reading one gives the template."""
    path = EXAMPLES / file
    assert path.read_text(encoding="utf-8").startswith("# ")
    assert read_bracket(path) == template()
