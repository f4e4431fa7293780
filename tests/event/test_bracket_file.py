"""The bracket file (docs/brackets.md, ``hub.event.bracket_file``): TOML read into a
``Bracket``, every problem reported as ``FILE:LINE: key path: reason``, the checker's
refusals on the line of the match's ``name``, and ``bracket_to_toml`` writing what reads
back into an equal bracket."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hub.event.bracket_file import BracketFileError, bracket_to_toml, parse_bracket, parse_slot
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

FOUR = """\
schema_version = 1
name = "Four teams, a match for third place (seed 003 §13.2)"
entries = 4
rounds = ["SF", "F"]

[defaults]
segments = 2
boards_per_segment = 16
tie = ["extra_set"]

[[match]]
name = "SF-1"
round = "SF"
teams = ["rank 1", "rank 4"]

[[match]]
name = "SF-2"
round = "SF"
teams = ["rank 2", "rank 3"]

[[match]]
name = "F"
round = "F"
teams = ["winner SF-1", "winner SF-2"]
segments = 3
places = ["1", "2"]

[[match]]
name = "3rd"
round = "F"
teams = ["loser SF-1", "loser SF-2"]
places = ["3", "4"]
"""


def problems(text: str) -> str:
    with pytest.raises(BracketFileError) as caught:
        parse_bracket(text, "b.toml")
    return str(caught.value)


def test_the_four_team_file_reads_into_its_bracket():
    """Defaults apply to every match unless it says otherwise (the final: 3 segments)."""
    bracket = parse_bracket(FOUR)
    assert bracket.entries == 4 and bracket.rounds == ("SF", "F")
    assert bracket.match("SF-1") == Match(
        "SF-1", "SF", (Slot.by_rank(1), Slot.by_rank(4)), 2, 16, tie=("extra_set",)
    )
    assert bracket.match("F").segments == 3
    assert bracket.match("3rd").slots == (Slot.loser("SF-1"), Slot.loser("SF-2"))
    assert bracket.ranking is Ranking.FIXED


def test_the_slot_grammar():
    assert parse_slot("rank 12") == Slot.by_rank(12)
    assert parse_slot("team Bridge Club Praha") == Slot.named("Bridge Club Praha")
    assert parse_slot("winner R16-1") == Slot.winner("R16-1")
    assert parse_slot("loser U7") == Slot.loser("U7")
    assert parse_slot("place 3 of T1") == Slot.placed("T1", 3)
    assert parse_slot("choice QF") == Slot.chosen("QF")


def every_kind() -> Bracket:
    """A bracket using every key: inherited ranking, a listed choice, a three-way with
    advance 2, and each carry-over (seed 000 6.5 to a slot, seed 001 0.1 to the higher
    placed, JFR a share of an earlier margin)."""
    return Bracket(
        "every kind",
        7,
        ("R1", "R2", "R3"),
        (
            Match("A", "R1", (Slot.by_rank(1), Slot.by_rank(6)), 4, 12, tie=("lot",)),
            Match("B", "R1", (Slot.chosen("C"), Slot.chosen("C")), places=("6", "7")),
            Match("T", "R1", (Slot.named("Ace"), Slot.by_rank(4), Slot.by_rank(5)), advance=2,
                  places=("", "", "5")),
            Match("X", "R2", (Slot.winner("A"), Slot.loser("A")),
                  carry_over=CarryOver(CarryKind.SHARE, share=Fraction(1, 3), of_match="A"),
                  places=("", "4")),
            Match("Y", "R2", (Slot.winner("T"), Slot.placed("T", 2)),
                  carry_over=CarryOver(CarryKind.HIGHER_PLACED, imps=Fraction(1, 10)),
                  places=("", "3")),
            Match("F", "R3", (Slot.winner("X"), Slot.winner("Y")), places=("1", "2"),
                  carry_over=CarryOver(CarryKind.FIXED, imps=Fraction(13, 2), slot=1)),
        ),
        (ChoiceGroup("C", ("B",), (Slot.by_rank(3),), (Slot.by_rank(2),), ChoiceOrder.LISTED,
                     ("same_country",)),),
        Ranking.INHERIT,
    )  # fmt: skip


def test_bracket_to_toml_reads_back_into_an_equal_bracket():
    bracket = every_kind()
    text = bracket_to_toml(bracket)
    assert parse_bracket(text) == bracket
    assert 'carry_over = { imps = 6.5, to = "winner Y" }' in text
    assert 'carry_over = { share = "1/3", of = "A" }' in text
    assert 'ranking = "inherit"' in text


def test_the_share_may_be_written_as_a_percentage():
    text = bracket_to_toml(every_kind()).replace('share = "1/3"', 'share = "25%"')
    assert parse_bracket(text).match("X").carry_over.share == Fraction(1, 4)


def test_a_toml_syntax_error_names_its_line():
    assert problems(FOUR.replace("entries = 4", "entries = = 4")).startswith("b.toml:3: not valid")


def test_an_unknown_key_is_named_on_its_line_with_the_nearest_key():
    text = FOUR.replace("segments = 3", "segmetns = 3")
    assert "b.toml:25: match[2].segmetns: unknown key; did you mean segments?" in problems(text)


def test_a_bad_slot_names_its_key_path_and_what_is_allowed():
    text = FOUR.replace('"rank 4"]', '"rank four"]')
    assert (
        problems(text)
        == "b.toml:14: match[0].teams[1]: 'rank four': rank needs a whole number (rank 1)"
    )
    text = FOUR.replace('"rank 4"]', '"best of SF"]')
    assert "b.toml:14: match[0].teams[1]: 'best of SF' is not a slot: give \"rank N\"" in problems(
        text
    )


def test_a_missing_key_is_required():
    """SF-2 without its round: said on its ``[[match]]`` line (16)."""
    text = FOUR.replace(
        'round = "SF"\nteams = ["rank 2", "rank 3"]', 'teams = ["rank 2", "rank 3"]'
    )
    assert "b.toml:16: match[1].round: required" in problems(text)


def test_the_checkers_refusal_is_on_the_line_of_the_matchs_name():
    """The third-place match given places 3 and 5: place 4 goes to no team, 5 is beyond
    the four entries (line 29 is the ``name = "3rd"`` line)."""
    text = FOUR.replace('places = ["3", "4"]', 'places = ["3", "5"]')
    report = problems(text)
    assert "b.toml:29: match 3rd: place 5: places 4-4 are given to no team" in report
    assert "b.toml: bracket: the places go to 5: they must cover 1-4" in report


def test_a_tie_rule_must_be_one_the_match_scorer_knows():
    text = FOUR.replace('tie = ["extra_set"]', 'tie = ["coin"]')
    assert "b.toml:9: defaults.tie: tie rule 'coin': the rules are extra_set" in problems(text)
