"""The event file's knockout movement (issue [KNOCKOUT]): settings the hub could not play
are refused when the event is read, naming the key, never at the first match."""

from __future__ import annotations

import pytest

from hub.event.event_file import EventFileError, parse_event

EVENT = """schema_version = 1
[event]
name = "KO"
[rules]
scoring = "teams"
[[sessions]]
name = "KO"
[[sessions.sections]]
letter = "A"
[sessions.sections.movement]
knockout = "single_elimination"
teams = 8
{extra}
"""


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ("sudden_death_boards = 3", "sudden_death_boards"),  # seed 001: 1, seed 000: 2
        ('tie = ["lot", "total_points"]', "lot always decides: it must be the last"),
        ('tie = ["total_points", "total_points"]', "named twice"),
        ('tie = ["coin"]', "'coin' is not a tie rule"),
        ('knockout = "swiss"', "a bracket file (.toml)"),
    ],
)
def test_a_knockout_the_hub_cannot_play_is_refused_naming_the_key(extra, said):
    text = EVENT.format(extra=extra)
    if extra.startswith("knockout"):
        text = text.replace('knockout = "single_elimination"\n', "")
    with pytest.raises(EventFileError) as e:
        parse_event(text)
    assert said in str(e.value)
    assert "sessions[0].sections[0].movement" in str(e.value)


def test_seed_003s_settings_are_read():
    parse_event(EVENT.format(extra='tie = ["extra_set"]\nextra_set_boards = 4'))
