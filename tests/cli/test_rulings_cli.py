"""``bridgehub rulings penalty`` (issue 29, "Command line"): one scale of a scales file,
printed as ``{"scale", "count", "minutes", "penalty"}`` with exact values as strings; a bad
file refused by FILE:LINE (the line of its scale), a bad argument by its option. Expected
penalties are worked by hand from the seeds' texts in the docstrings."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from hub.cli.main import cli

EXAMPLES = str(Path(__file__).parents[2] / "examples" / "penalty_scales.toml")


def run(*args: str):
    return CliRunner().invoke(cli, ["rulings", "penalty", *args], catch_exceptions=False)


def penalty(scale: str, *args: str, scales: str = EXAMPLES) -> dict:
    result = run("--scales", scales, "--scale", scale, *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_seed000_mobile_phone_second_offence_ten_vp():
    """Seed 000 §9: "2nd offense: 10 VPs (Swiss)"."""
    assert penalty("seed000_mobile_phone_swiss", "--count", "2") == {
        "scale": "seed000_mobile_phone_swiss",
        "count": 2,
        "minutes": None,
        "penalty": {"unit": "VP", "amount": "10"},
    }


def test_seed000_mobile_phone_knockout_third_offence_forfeit():
    """Seed 000 §9: "3rd offense: ... Forfeiture of the match (Knock out)"."""
    assert penalty("seed000_mobile_phone_ko", "--count", "3")["penalty"] == {"forfeit": True}


def test_seed000_mobile_phone_fourth_offence_td_decides():
    """Seed 000 lists three offences; the 4th is the CTD's (nothing guessed)."""
    out = penalty("seed000_mobile_phone_swiss", "--count", "4")
    assert out["penalty"] == {"td_decides": True}


def test_seed001_fourth_late_lineup_two_vp():
    """Seed 001 II.6: 0.5, 1, 1.5, then 2 VP for the 4th lack."""
    out = penalty("seed001_late_lineup", "--count", "4")
    assert out["penalty"] == {"unit": "VP", "amount": "2"}


def test_seed002_leaving_table_warning_then_ten_percent_of_a_top():
    """Seed 002: "först en varning därefter ... 10 % av toppen" at pairs; the count
    defaults to 1, the first offence."""
    assert penalty("seed002_leaving_table_pairs")["penalty"] == {"warning": True}
    assert penalty("seed002_leaving_table_pairs", "--count", "2")["penalty"] == {
        "unit": "percent_of_top",
        "amount": "10",
    }


def test_seed000_late_start_minutes_first_warning_then_point_eight_vp():
    """Seed 000 §9 Late Start, 0~5 minutes: "1st offense - Warning, 2nd and subsequent
    offense - 0.8 VPs (Swiss)"; 3.5 minutes late is in that band."""
    first = penalty("seed000_late_start_swiss", "--minutes", "3.5")
    assert first == {
        "scale": "seed000_late_start_swiss",
        "count": 1,
        "minutes": "3.5",
        "penalty": {"warning": True},
    }
    second = penalty("seed000_late_start_swiss", "--minutes", "7/2", "--count", "2")
    assert second["minutes"] == "3.5"
    assert second["penalty"] == {"unit": "VP", "amount": "0.8"}


def test_seed000_late_start_over_fifteen_minutes_forfeit():
    """Seed 000 §9: "Over 15 minutes: Forfeiture"."""
    assert penalty("seed000_late_start_swiss", "--minutes", "16")["penalty"] == {"forfeit": True}


def test_seed002_late_arrival_repeat_offender_half_a_vp():
    """Seed 002 "Sen ankomst": 0+–5 minutes is a warning, but a team warned before "ska
    som minimum 0.5 VP i kvalificeringen" (the second offence)."""
    out = penalty("seed002_late_arrival_qualifying", "--minutes", "2", "--count", "2")
    assert out["penalty"] == {"unit": "VP", "amount": "0.5"}


def test_seed003_late_start_a_board_per_started_seven_minutes():
    """Seed 003 item 8: a board removed per started 7 minutes: 15 minutes late starts the
    3rd period (7, 14, 15), 3 boards."""
    out = penalty("seed003_late_start", "--minutes", "15")
    assert out["penalty"] == {"unit": "boards_removed", "amount": "3"}


def test_seed003_slow_play_three_imp_per_board_unfinished():
    """Seed 003 item 9: 3 IMP per board not finished in time: 2 boards, 6 IMP."""
    out = penalty("seed003_slow_play", "--minutes", "4", "--boards-unfinished", "2")
    assert out["penalty"] == {"unit": "IMP", "amount": "6"}


def test_a_fractional_rise_is_exact(tmp_path):
    """A rise of 1/3 VP is printed as a fraction, not a rounded decimal: 1/3 + 2 × 1/3 = 1."""
    f = tmp_path / "s.toml"
    f.write_text('[thirds]\nthen = "rise"\nrise = "1/3"\nsteps = [{ count = 1, penalty = "1/3", '
                 'unit = "VP" }]\n')  # fmt: skip
    assert penalty("thirds", "--count", "2", scales=str(f))["penalty"]["amount"] == "2/3"
    assert penalty("thirds", "--count", "3", scales=str(f))["penalty"]["amount"] == "1"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--scale", "nope"], "--scale.*'nope' is not a scale.*seed000_smoking"),
        (["--scale", "seed000_smoking", "--minutes", "3"], "--minutes.*counted offence"),
        (["--scale", "seed000_smoking", "--boards-unfinished", "1"], "--boards-unfinished"),
        (["--scale", "seed000_slow_play_ko"], "--minutes.*by minutes"),
        (["--scale", "seed000_slow_play_ko", "--minutes", "0"], "--minutes.*more than 0"),
        (["--scale", "seed000_slow_play_ko", "--minutes", "five"], "--minutes.*7.5 or 15/2"),
        (["--scale", "seed000_smoking", "--count", "0"], "--count"),
    ],
)
def test_bad_arguments_are_refused_by_option(args, says):
    result = run("--scales", EXAMPLES, *args, "--json")
    assert result.exit_code == 2
    assert re.search(says, result.output), result.output


def test_a_bad_scale_is_refused_at_its_line_every_problem_at_once(tmp_path):
    """Both broken scales are named, each by the line of its ``[name]``."""
    f = tmp_path / "scales.toml"
    f.write_text(
        "schema_version = 1\n"  # 1
        "\n"  # 2
        "[ok]\n"  # 3
        'steps = [{ count = 1, penalty = 2, unit = "VP" }]\n'  # 4
        "\n"  # 5
        "[phone]\n"  # 6
        'steps = [{ count = 1, penalty = 2, unit = "points" }]\n'  # 7
        "[late]\n"  # 8
        'steps = [{ above_minutes = 1, up_to_minutes = 5, penalty = 1, unit = "VP" }]\n'
    )
    result = run("--scales", str(f), "--scale", "ok", "--json")
    assert result.exit_code == 1
    assert f"{f}:6: phone.steps[0].unit: unit 'points' is not one of VP, IMP" in result.output
    assert f"{f}:8: late.steps[0].above_minutes: bands must follow on" in result.output


def test_not_toml_is_refused_at_its_line(tmp_path):
    f = tmp_path / "scales.toml"
    f.write_text('[a]\nname = "a"\nthen = = 1\n')
    result = run("--scales", str(f), "--scale", "a", "--json")
    assert result.exit_code == 1
    assert f"{f}:3: not valid TOML" in result.output


def test_a_missing_file_is_refused(tmp_path):
    result = run("--scales", str(tmp_path / "none.toml"), "--scale", "a", "--json")
    assert result.exit_code == 1
    assert "none.toml: cannot be read" in result.output


def test_text_output_names_the_scale_and_the_penalty():
    result = run("--scales", EXAMPLES, "--scale", "seed001_late_lineup", "--count", "3")
    assert result.exit_code == 0
    assert result.output.startswith("Late or missing line-up")
    assert ": 1.5 VP" in result.output
