"""``bridgehub teams standings`` as issue 16 specifies it: TEAMS.csv (``team,name``
[,``masterpoints``]), MATCHES.csv (``round,home,away,home_vp,away_vp`` [,``home_imps,
away_imps``], a bye with ``away`` empty), ``--tie-break wbf|NAME …``, ``--json`` printing
``{"teams": [{"team", "vp", "rank", "tie"}]}`` with exact values as strings and shared ranks
written ``3=``. Bad files get ``Error: FILE:LINE: …`` and status 1, never a traceback.

The command is tested on its own (the ``teams`` group that will hold it is another file's).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from hub.cli.teams_standings import exact_text, standings

TEAMS = "team,name,masterpoints\nT1,Aces,120.5\nT2,Bears,98\nT3,Cubs,\nT4,Dons,40\n"

# A round robin of four, worked by hand:
#   T1 12.5 + 7.5 + 10 = 30 VP, IMPs 30+20+22 = 72 won, 20+30+22 = 72 lost
#   T2 7.5 + 15 + 10 = 32.5 VP, 20+40+18 = 78 won, 30+10+18 = 58 lost (39/29 ≈ 1.34)
#   T3 10 + 12.5 + 10 = 32.5 VP, 15+30+18 = 63 won, 15+20+18 = 53 lost (≈ 1.19)
#   T4 10 + 5 + 10 = 25 VP
# T2 and T3 level on VP; WBF A.1 (IMP quotient): T2 first.
MATCHES = """round,home,away,home_vp,away_vp,home_imps,away_imps
1,T1,T2,12.5,7.5,30,20
1,T3,T4,10,10,15,15
2,T1,T3,7.5,12.5,20,30
2,T2,T4,15,5,40,10
3,T1,T4,10,10,22,22
3,T2,T3,10,10,18,18
"""


def run(tmp_path: Path, teams: str, matches: str, *args: str, raw: bytes | None = None):
    """The command on files in ``tmp_path`` (messages name them by their full path)."""
    (tmp_path / "teams.csv").write_text(teams, encoding="utf-8")
    if raw is None:
        (tmp_path / "matches.csv").write_text(matches, encoding="utf-8")
    else:
        (tmp_path / "matches.csv").write_bytes(raw)
    paths = ["--teams", str(tmp_path / "teams.csv"), "--matches", str(tmp_path / "matches.csv")]
    return CliRunner().invoke(standings, [*paths, *args])


def rows(result) -> list[dict]:
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["teams"]


def test_wbf_imp_quotient_separates_two_teams_level_on_vp(tmp_path):
    result = run(tmp_path, TEAMS, MATCHES, "--tie-break", "wbf", "--json")
    assert rows(result) == [
        {"team": "T2", "vp": "32.5", "rank": "1", "tie": "imp_quotient"},
        {"team": "T3", "vp": "32.5", "rank": "2", "tie": "imp_quotient"},
        {"team": "T1", "vp": "30", "rank": "3", "tie": None},
        {"team": "T4", "vp": "25", "rank": "4", "tie": None},
    ]


def test_without_a_rule_teams_level_on_vp_share_the_place(tmp_path):
    assert [
        (r["team"], r["rank"], r["tie"]) for r in rows(run(tmp_path, TEAMS, MATCHES, "--json"))
    ] == [
        ("T2", "1=", "shared"),
        ("T3", "1=", "shared"),
        ("T1", "3", None),
        ("T4", "4", None),
    ]


def test_shared_third_place_when_the_imps_are_not_given(tmp_path):
    """T1-T4 7.5-12.5 in round 3 instead: T1 27.5, T4 27.5 VP, level in 3rd. Without IMP
    columns the IMP quotient cannot be worked out: "3=", and why."""
    matches = """round,home,away,home_vp,away_vp
1,T1,T2,12.5,7.5
1,T3,T4,10,10
2,T1,T3,7.5,12.5
2,T2,T4,15,5
3,T1,T4,7.5,12.5
3,T2,T3,10,9
"""
    # T2 7.5+15+10 = 32.5, T3 10+12.5+9 = 31.5
    assert rows(run(tmp_path, TEAMS, matches, "--tie-break", "wbf", "--json")) == [
        {"team": "T2", "vp": "32.5", "rank": "1", "tie": None},
        {"team": "T3", "vp": "31.5", "rank": "2", "tie": None},
        {"team": "T1", "vp": "27.5", "rank": "3=", "tie": "missing IMPs"},
        {"team": "T4", "vp": "27.5", "rank": "3=", "tie": "missing IMPs"},
    ]


def test_a_bye_counts_its_vp_and_exact_values_stay_exact(tmp_path):
    """A bye (away empty) scores its VP. C: 50/3 + 19.99 = 5000/300 + 5997/300 = 10997/300,
    which has no finite decimal and is written so; A: 16.46 + 0.01 = 16.47 exactly."""
    teams = "team,name\nA,a\nB,b\nC,c\n"
    matches = "round,home,away,home_vp,away_vp\n1,A,B,16.46,3.54\n1,C,,50/3,\n2,A,C,0.01,19.99\n"
    assert rows(run(tmp_path, teams, matches, "--json")) == [
        {"team": "C", "vp": "10997/300", "rank": "1", "tie": None},
        {"team": "A", "vp": "16.47", "rank": "2", "tie": None},
        {"team": "B", "vp": "3.54", "rank": "3", "tie": None},
    ]


def test_seed000_final_chain_uses_the_match_between_them(tmp_path):
    """Seed 000 6-1 after round 10 with total points given: A beat B 30-20 (12-8); A's other
    match 8-12, 20-30 IMPs; B's 12-8, 30-20 (vs C, D). A and B: 20 VP, 50/50 IMPs; (b) A
    obtained more IMPs against B. During the event (6-1's first chain) the total-point
    quotient decides instead: A 1900/2200, B 2300/1900, so B first."""
    teams = "team,name\nA,a\nB,b\nC,c\nD,d\n"
    matches = """round,home,away,home_vp,away_vp,home_imps,away_imps,home_points,away_points
1,A,B,12,8,30,20,900,700
2,A,C,8,12,20,30,1000,1500
2,B,D,12,8,30,20,1600,1000
"""
    final = rows(run(tmp_path, teams, matches, "--tie-break", "yeh_swiss_final", "--json"))
    assert [(r["team"], r["rank"], r["tie"]) for r in final[:2]] == [
        ("A", "1", "h2h_imps_won"),
        ("B", "2", "h2h_imps_won"),
    ]
    during = rows(run(tmp_path, teams, matches, "--tie-break", "yeh_swiss", "--json"))
    assert [(r["team"], r["tie"]) for r in during[:2]] == [
        ("B", "total_point_quotient"),
        ("A", "total_point_quotient"),
    ]


def test_a_chain_of_names_repeated_or_with_commas(tmp_path):
    """D2's grammar: tie-break names in order; a lot is drawn only with a recorded seed."""
    level = "round,home,away,home_vp,away_vp,home_imps,away_imps\n1,T1,T2,10,10,20,20\n"
    teams = "team,name\nT1,a\nT2,b\n"
    open_lot = rows(run(tmp_path, teams, level, "--tie-break", "imp_quotient,lot", "--json"))
    assert [(r["rank"], r["tie"]) for r in open_lot] == [("1=", "lot"), ("1=", "lot")]
    a = rows(
        run(
            tmp_path,
            teams,
            level,
            "--tie-break",
            "imp_quotient",
            "--tie-break",
            "lot",
            "--lot-seed",
            "3",
            "--json",
        )
    )
    b = rows(
        run(tmp_path, teams, level, "--tie-break", "imp_quotient,lot", "--lot-seed", "3", "--json")
    )
    assert a == b
    assert sorted(r["rank"] for r in a) == ["1", "2"] and {r["tie"] for r in a} == {"lot"}


def test_unknown_tie_break_is_a_usage_error(tmp_path):
    result = run(tmp_path, TEAMS, MATCHES, "--tie-break", "imp_quota")
    assert result.exit_code == 2
    assert "unknown tie-break 'imp_quota'" in result.output


def test_text_output(tmp_path):
    result = run(tmp_path, TEAMS, MATCHES, "--tie-break", "wbf")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[1].split() == ["1", "T2", "Bears", "32.50", "imp_quotient"]
    assert lines[4].split() == ["4", "T4", "Dons", "25.00"]


@pytest.mark.parametrize(
    ("teams", "matches", "message"),
    [
        (TEAMS, "round,home,away,home_vp\n", "matches.csv:1: missing column(s): away_vp"),
        (
            TEAMS,
            MATCHES.replace("home_imps", "home_imp"),
            "matches.csv:1: unknown column(s): home_imp",
        ),
        (
            TEAMS,
            MATCHES + "4,T1,T9,10,10,1,1\n",
            "matches.csv:8: away team T9 is not in the teams file",
        ),
        (TEAMS, MATCHES + "4,T1,T1,10,10,1,1\n", "matches.csv:8: team T1 cannot play itself"),
        (
            TEAMS,
            MATCHES + "3,T1,T2,10,10,1,1\n",
            "matches.csv:8: team T1 already plays in round 3 (line 6)",
        ),
        (TEAMS, MATCHES + "x,T1,T2,10,10,1,1\n", "matches.csv:8: round 'x' must be a whole number"),
        (TEAMS, MATCHES + "0,T1,T2,10,10,1,1\n", "matches.csv:8: round 0 must be at least 1"),
        (TEAMS, MATCHES + "4,T1,T2,ten,10,1,1\n", "matches.csv:8: home_vp 'ten' must be a number"),
        (
            TEAMS,
            MATCHES + "4,T1,T2,10,10,1,\n",
            "matches.csv:8: give both home_imps and away_imps, or neither",
        ),
        (TEAMS, MATCHES + "4,T1,T2,10,10,-1,3\n", "matches.csv:8: home_imps -1 must be at least 0"),
        (
            TEAMS,
            MATCHES + "4,T1,,10,10,,\n",
            "matches.csv:8: a bye (away empty) has only home_vp; away_vp given",
        ),
        (
            TEAMS,
            MATCHES + "4,T1,T2,10,10,1,1,9\n",
            "matches.csv:8: more values than the header has columns",
        ),
        (TEAMS + "T1,again\n", MATCHES, "teams.csv:6: team T1 is already on line 2"),
        (TEAMS + "T5,e,lots\n", MATCHES, "teams.csv:6: masterpoints 'lots' must be a number"),
        ("name\nA\n", MATCHES, "teams.csv:1: missing column(s): team"),
        ("team,name\n", MATCHES, "teams.csv: no teams"),
    ],
)
def test_file_errors_name_file_and_line(tmp_path, teams, matches, message):
    result = run(tmp_path, teams, matches, "--json")
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)
    assert message in result.output


def test_every_problem_of_a_file_is_reported_at_once(tmp_path):
    bad = MATCHES + "4,T9,T2,10,10,1,1\n4,T3,T4,x,10,1,1\n"
    result = run(tmp_path, TEAMS, bad)
    assert result.exit_code == 1
    assert "matches.csv:8: home team T9" in result.output
    assert "matches.csv:9: home_vp 'x'" in result.output


def test_not_utf8_and_missing_file(tmp_path):
    result = run(tmp_path, TEAMS, "", raw=b"round,home\n\xff\xfe\n")
    assert result.exit_code == 1 and "matches.csv:2: not UTF-8 text" in result.output
    (tmp_path / "teams.csv").write_text(TEAMS)
    missing = CliRunner().invoke(
        standings, ["--teams", str(tmp_path / "teams.csv"), "--matches", str(tmp_path / "nope.csv")]
    )
    assert missing.exit_code == 1 and "nope.csv: cannot be read" in missing.output


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=200))
def test_garbage_never_crashes(tmp_path_factory, data):
    """Any bytes as MATCHES.csv: a standings list or an ``Error:``, never a traceback."""
    tmp = tmp_path_factory.mktemp("garbage")
    result = run(tmp, TEAMS, "", raw=b"round,home,away,home_vp,away_vp\n" + data)
    assert result.exit_code in (0, 1), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize(
    ("value", "text"),
    [(Fraction(30), "30"), (Fraction(1646, 100), "16.46"), (Fraction(1, 3), "1/3"),
     (Fraction(-1, 8), "-0.125"), (Fraction(0), "0")],
)  # fmt: skip
def test_exact_text(value, text):
    assert exact_text(value) == text
    assert Fraction(text) == value
