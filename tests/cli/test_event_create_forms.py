"""`bridgehub event create` as a TD uses it (TD trial G15, issue [MENDS] #25): a file the
store already holds is named, not stored a second time (before: a silent `event 2`, then
`run` refused to choose); `scoring = "MP"` is taken in any case; a session's date is read
in the common forms or refused with the form expected (before: "input is too short")."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from click.testing import CliRunner

from hub.cli.main import cli
from hub.event.event_file import EventFileError, parse_event
from hub.store.store import Store

EVENT = """schema_version = 1
[event]
name = "Tuesday Pairs"
[rules]
scoring = "{scoring}"
[[sessions]]
name = "Evening"
{date}
[[sessions.sections]]
letter = "A"
movement = {{ kind = "mitchell", pairs = 13, rounds = 7, boards_per_round = 3 }}
"""


def _event(scoring: str = "mp", date: str = "") -> str:
    return EVENT.format(scoring=scoring, date=date)


def test_creating_a_stored_file_again_names_the_event_and_stores_nothing(tmp_path: Path):
    """G15: the second create says the file is event 1 and how to run it; the store keeps
    one event. A comment added to the file is still the same event."""
    file = tmp_path / "tuesday.toml"
    file.write_text(_event(), "utf-8")
    db = f"sqlite:///{tmp_path / 'tuesday.db'}"
    first = CliRunner().invoke(cli, ["event", "create", str(file), "--db", db])
    assert first.exit_code == 0, first.output
    assert first.output.startswith("event 1: Tuesday Pairs")
    file.write_text("# the club's Tuesday\n" + _event(), "utf-8")
    again = CliRunner().invoke(cli, ["event", "create", str(file), "--db", db])
    assert again.exit_code == 0, again.output
    assert f"{file} is already stored in" in again.output
    assert "as event 1: Tuesday Pairs; nothing was stored again" in again.output
    assert f"bridgehub run --event {file}" in again.output
    store = Store.open(db)
    try:
        assert store.event_ids() == [1]
    finally:
        store.close()


def test_an_edited_file_is_a_new_event(tmp_path: Path):
    """Only the same event is refused: another name is stored as event 2."""
    file = tmp_path / "tuesday.toml"
    db = f"sqlite:///{tmp_path / 'tuesday.db'}"
    file.write_text(_event(), "utf-8")
    assert CliRunner().invoke(cli, ["event", "create", str(file), "--db", db]).exit_code == 0
    file.write_text(_event().replace("Tuesday Pairs", "Thursday Pairs"), "utf-8")
    out = CliRunner().invoke(cli, ["event", "create", str(file), "--db", db])
    assert out.exit_code == 0, out.output
    assert out.output.startswith("event 2: Thursday Pairs")


@pytest.mark.parametrize("written", ["MP", "Mp", " mp "])
def test_the_scoring_method_is_taken_in_any_case(written: str):
    assert parse_event(_event(scoring=written)).rules.scoring.value == "mp"


@pytest.mark.parametrize(
    ("written", "day"),
    [
        ("date = 2026-12-01", dt.date(2026, 12, 1)),  # TOML's own date
        ('date = "2026-12-01"', dt.date(2026, 12, 1)),
        ('date = "1.12.2026"', dt.date(2026, 12, 1)),  # Czech, Polish, German
        ('date = "1. 12. 2026"', dt.date(2026, 12, 1)),
        ('date = "13/12/2026"', dt.date(2026, 12, 13)),  # only day-first fits
        ('date = "12/13/2026"', dt.date(2026, 12, 13)),  # only month-first fits
        ('date = "5/5/2026"', dt.date(2026, 5, 5)),  # the same either way
    ],
)
def test_a_sessions_date_in_the_common_forms_is_read(written: str, day: dt.date):
    assert parse_event(_event(date=written)).sessions[0].date == day


@pytest.mark.parametrize(
    ("written", "reason"),
    [
        (
            '"1/12/2026"',
            "'1/12/2026' could be 1 December or 12 January 2026; write it as "
            "year-month-day, e.g. 2026-12-01",
        ),
        (
            '"31/02/2026"',
            "'31/02/2026' is not a date (day is out of range for month); write it as "
            "year-month-day, e.g. 2026-12-01",
        ),
        (
            '"next Tuesday"',
            "'next Tuesday' is not a date this hub reads; write it as year-month-day, e.g. "
            "2026-12-01",
        ),
    ],
)
def test_a_date_that_is_not_one_day_is_refused_with_the_form_expected(written: str, reason: str):
    with pytest.raises(EventFileError) as refused:
        parse_event(_event(date=f"date = {written}"), "tuesday.toml")
    assert str(refused.value) == f"tuesday.toml: sessions[0].date: {reason}"
