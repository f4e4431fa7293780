"""A short director's PIN is refused unless the TD says so ([MENDS] #25 item 5, code review
turn 3 N5; decisions D20). Under the wrong-PIN limits (10 takeover tries every ~15 min and
20 API tries an hour) a 4-digit PIN, 10**4 of them, falls within days:
``bridgehub run`` refuses a PIN under 8 characters, with the reason and the ways on, unless
started with ``--short-pin-ok``."""

from __future__ import annotations

from click.testing import CliRunner
from event_text import one_section_event

from hub.cli.director_pin import director_pin
from hub.cli.main import cli

EVENT = one_section_event("Short PIN", 'kind = "howell", tables = 3, boards_per_round = 2')


def test_mends_a_4_digit_pin_takes_days_not_years_under_the_limits():
    """The reason for the rule, computed: 10 takeover tries per 15 quiet minutes is 960 a
    day; 10**4 PINs are all tried within 11 days, 32**8 not in a million years."""
    per_day = 10 * (24 * 60 // 15)
    assert per_day == 960
    assert 10**4 / per_day < 11
    assert 32**8 / per_day / 365 > 1_000_000


def _run(tmp_path, *extra: str, pin: str) -> object:
    event = tmp_path / "e.toml"
    event.write_text(EVENT, "utf-8")
    # an impossible --clock: refused only after the PIN was taken, so nothing is served
    args = ["run", "--event", str(event), "--station", "loop://", "--clock", "sign", *extra]
    return CliRunner().invoke(cli, args, env={"BRIDGEHUB_TD_PIN": pin})


def test_mends_run_refuses_a_pin_under_8_characters_and_says_why(tmp_path):
    refused = _run(tmp_path, pin="2468")
    assert refused.exit_code == 2 and "Traceback" not in refused.output
    text = " ".join(refused.output.split())
    assert "the director's PIN has 4 characters: with fewer than 8" in text
    assert "can guess it within days" in text and "--short-pin-ok" in text
    assert not (tmp_path / "e.db").exists()  # refused before anything was opened


def test_mends_run_takes_a_short_pin_with_short_pin_ok_and_warns(tmp_path):
    taken = _run(tmp_path, "--short-pin-ok", pin="2468")
    assert "can guess it within days" not in taken.output  # past the PIN check
    assert "warning: the director's PIN has 4 characters" in taken.output
    assert "'sign': write alpha:URL or panel:URL" in taken.output  # the next check


def test_mends_a_pin_of_8_characters_or_a_made_one_needs_no_option(capsys):
    assert director_pin("K7M4Q9TX") == "K7M4Q9TX"
    assert len(director_pin(None)) == 8
    assert director_pin("2468", short_ok=True) == "2468"
    assert "warning: the director's PIN has 4 characters" in capsys.readouterr().err
