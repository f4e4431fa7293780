"""The event file (decisions D2): TOML, schema_version 1, errors that name the key path."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from hub.event.event_file import EventFileError, parse_event
from scoring.cross_imps import CrossImpRules
from scoring.matchpoints import AdjustedMethod, MatchpointRules
from scoring.penalties import PenaltyUnit

EXAMPLE = (Path(__file__).parents[1] / "examples" / "club_howell.toml").read_text("utf-8")


def problems(text):
    with pytest.raises(EventFileError) as e:
        parse_event(text)
    return e.value.problems


def test_the_example_event_reads_into_rules_the_scoring_engine_uses():
    event = parse_event(EXAMPLE)
    rules = event.pairs_rules()
    assert isinstance(rules, MatchpointRules) and rules.method is AdjustedMethod.NEUBERG
    scale = event.penalty_scale("slow_play")
    assert scale.penalty(6).amount == Fraction(3, 2) and scale.penalty(6).unit is PenaltyUnit.VP
    assert event.rules.display.hide_rankings_last_rounds == 2
    assert event.sessions[0].sections[0].movement.kind == "howell"


@pytest.mark.parametrize(
    ("change", "path", "reason"),
    [
        (
            ("up_to_minutes = 10", "to_minutes = 10"),
            "rules.slow_play.steps[1].to_minutes",
            "unknown key",
        ),
        (
            ("above_minutes = 5,", "above_minutes = 6,"),
            "rules.slow_play.steps[1].above_minutes",
            "bands must follow on without gaps; expected 5",
        ),
        (('scoring = "mp"', 'scoring = "chess"'), "rules.scoring", "Input should be"),
        (
            ("tie_breaks = []", 'tie_breaks = ["coin"]'),
            "rules.tie_breaks",
            "'coin', is not a tie-break for mp scoring",
        ),
        (('letter = "A"', 'letter = "a"'), "sessions[0].sections[0].letter", "should match"),
        (
            ("tables = 5, boards_per_round = 3", "tables = 5"),
            "sessions[0].sections[0].movement.boards_per_round",
            "required",
        ),
        (
            ("schema_version = 1", "schema_version = 2"),
            "schema_version",
            "reads schema_version 1, not 2",
        ),
        (
            ('name = "Anna Berg"', 'nam = "Anna Berg"'),
            "sessions[0].sections[0].pairs[0].players[0].nam",
            "unknown key",
        ),
        (
            ("number = 2\n", "number = 1\n"),
            "sessions[0].sections[0].pairs",
            "pair 1 is listed twice",
        ),
    ],
)
def test_errors_name_the_key_path_and_the_reason(change, path, reason):
    found = problems(EXAMPLE.replace(*change))
    assert any(p == path and reason in r for p, r in found), found


def test_not_toml_at_all():
    assert problems("schema_version = = 1")[0][0] == "(file)"


def test_cross_imp_event_with_a_cap():
    text = EXAMPLE.replace('scoring = "mp"', 'scoring = "ximp"').replace(
        "tie_breaks = []", "tie_breaks = []\n\n[rules.cross_imps]\ncap = 17"
    )
    rules = parse_event(text).pairs_rules()
    assert isinstance(rules, CrossImpRules) and rules.cap == 17


def test_error_text_lists_every_problem_with_the_source():
    with pytest.raises(EventFileError) as e:
        parse_event(
            EXAMPLE.replace('scoring = "mp"', 'scoring = "mp"\nfoo = 1').replace(
                'letter = "A"', 'letter = "a"'
            ),
            "club.toml",
        )
    text = str(e.value)
    assert "club.toml: rules.foo: unknown key" in text
    assert "club.toml: sessions[0].sections[0].letter" in text
