"""``bridgehub ko places`` (issue [KNOCKOUT]): a bracket file and RESULTS.csv to every
team's final place or shared range as JSON; bad input refused as ``FILE:LINE: message``
with status 1. The bracket is seed 003's for 8 teams with its match for third place
(§13.2), as in docs/brackets.md."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from hub.cli.ko import ko

EIGHT = """\
schema_version = 1
name = "Bridge Open K.O., 8 teams"
entries = 8
rounds = ["QF", "SF", "F"]

[defaults]
tie = ["extra_set"]
"""
for k, (a, b) in enumerate([(1, 8), (4, 5), (2, 7), (3, 6)], start=1):
    EIGHT += f"""
[[match]]
name = "QF-{k}"
round = "QF"
teams = ["rank {a}", "rank {b}"]
places = ["", "5-8"]
"""
EIGHT += """
[[match]]
name = "SF-1"
round = "SF"
teams = ["winner QF-1", "winner QF-2"]

[[match]]
name = "SF-2"
round = "SF"
teams = ["winner QF-3", "winner QF-4"]

[[match]]
name = "F"
round = "F"
teams = ["winner SF-1", "winner SF-2"]
places = ["1", "2"]

[[match]]
name = "3rd"
round = "F"
teams = ["loser SF-1", "loser SF-2"]
places = ["3", "4"]
"""

TEAMS = "team,name,rank\n" + "".join(f"T{n},Team {n},{n}\n" for n in range(1, 9))


def files(tmp_path: Path, results: str, teams: str = TEAMS) -> list[str]:
    (tmp_path / "b.toml").write_text(EIGHT)
    (tmp_path / "r.csv").write_text(results)
    (tmp_path / "t.csv").write_text(teams)
    return ["places", "--bracket", str(tmp_path / "b.toml"), "--results",
            str(tmp_path / "r.csv"), "--teams", str(tmp_path / "t.csv")]  # fmt: skip


def run(args: list[str]):
    return CliRunner().invoke(ko, args, catch_exceptions=False)


def test_the_final_places_of_8_teams_with_a_third_place_match(tmp_path):
    """QF: 1, 5 (45-40 over 4), 2, 3 win; SF: 1 beats 5, 3 beats 2 on a level match
    decided by the tie rule (the winner column); F 1 beats 3; 3rd: 5 by walk-over (T2
    absent). So 1 T1, 2 T3, 3 T5, 4 T2, and T4 T6 T7 T8 share 5-8."""
    results = (
        "match,home_imps,away_imps,winner\n"
        "QF-1,50,20,\nQF-2,40,45,\nQF-3,61,12,\nQF-4,33,30,\n"
        "SF-1,70,10,\nSF-2,40,40,T3\nF,90,60,\n3rd,,,T5\n"
    )
    result = run([*files(tmp_path, results), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["places"] == [
        {"team": "T1", "place": "1"}, {"team": "T3", "place": "2"},
        {"team": "T5", "place": "3"}, {"team": "T2", "place": "4"},
        {"team": "T4", "place": "5-8"}, {"team": "T6", "place": "5-8"},
        {"team": "T7", "place": "5-8"}, {"team": "T8", "place": "5-8"},
    ]  # fmt: skip
    assert out["unplaced"] == []


def test_five_teams_the_byes_go_through_and_the_places_compress(tmp_path):
    """Ranks 6-8 missing: only QF-2 (4 v 5) and SF-2 (2 v 3) can be played first; with
    only those results T5 is 5th alone, the others still playing."""
    teams = "team,name,rank\n" + "".join(f"T{n},Team {n},{n}\n" for n in range(1, 6))
    results = "match,home_imps,away_imps\nQF-2,50,20\nSF-2,30,31\n"
    result = run([*files(tmp_path, results, teams), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out == {"places": [{"team": "T5", "place": "5"}], "unplaced": ["T1", "T2", "T3", "T4"]}


def test_a_level_result_without_a_winner_is_refused_on_its_line(tmp_path):
    results = "match,home_imps,away_imps\nQF-1,50,20\nQF-2,40,40\n"
    result = run(files(tmp_path, results))
    assert result.exit_code == 1
    level = "level: give the winner (decided by the tie rule) in a winner column"
    assert f"{tmp_path / 'r.csv'}:3: {level}" in result.output


def test_bad_rows_are_each_refused_by_file_and_line(tmp_path):
    """Line 2: no such match; 3: a winner who does not play QF-2; 4: SF-1 before its
    quarter-finals are in."""
    results = "match,home_imps,away_imps,winner\nQF-9,1,0,\nQF-2,,,T1\nSF-1,20,10,\n"
    result = run(files(tmp_path, results))
    assert result.exit_code == 1
    path = tmp_path / "r.csv"
    assert f"{path}:2: match 'QF-9' is not in the bracket" in result.output
    assert f"{path}:3: winner T1: QF-2 is played by T4, T5" in result.output
    assert f"{path}:4: SF-1: its teams are not known yet" in result.output


def test_a_bracket_by_rank_needs_the_teams_file(tmp_path):
    args = files(tmp_path, "match,home_imps,away_imps\n")[:5]
    result = run(args)
    assert result.exit_code == 1
    assert "the bracket places teams by rank: give --teams TEAMS.csv" in result.output


def test_a_bad_bracket_file_is_refused_by_its_line(tmp_path):
    args = files(tmp_path, "match,home_imps,away_imps\n")
    (tmp_path / "b.toml").write_text(EIGHT.replace('"rank 8"', '"rank 9"'))
    result = run(args)
    assert result.exit_code == 1
    assert f"{tmp_path / 'b.toml'}:10: match QF-1: rank 9: ranks go from 1 to 8" in result.output


def test_the_text_table(tmp_path):
    result = run(files(tmp_path, "match,home_imps,away_imps\nQF-1,50,20\n"))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "5-8  T8", "still playing: T1, T2, T3, T4, T5, T6, T7",
    ]  # fmt: skip


CHOSEN = """\
schema_version = 1
name = "Semi-finals by choice (seed 001)"
entries = 4
rounds = ["SF", "F"]

[[match]]
name = "SF-1"
round = "SF"
teams = ["choice SF", "choice SF"]

[[match]]
name = "SF-2"
round = "SF"
teams = ["choice SF", "choice SF"]

[[match]]
name = "F"
round = "F"
teams = ["winner SF-1", "winner SF-2"]
places = ["1", "2"]

[[match]]
name = "3rd"
round = "F"
teams = ["loser SF-1", "loser SF-2"]
places = ["3", "4"]

[[choice]]
name = "SF"
order = "rank"
pool = ["rank 1", "rank 2", "rank 3", "rank 4"]
matches = ["SF-1", "SF-2"]
"""


def chosen_files(tmp_path: Path, choices: str, results: str) -> list[str]:
    (tmp_path / "b.toml").write_text(CHOSEN)
    (tmp_path / "c.csv").write_text(choices)
    (tmp_path / "r.csv").write_text(results)
    (tmp_path / "t.csv").write_text("team,name,rank\n" + "".join(
        f"T{n},Team {n},{n}\n" for n in range(1, 5)))  # fmt: skip
    return ["places", "--bracket", str(tmp_path / "b.toml"), "--results",
            str(tmp_path / "r.csv"), "--teams", str(tmp_path / "t.csv"), "--choices",
            str(tmp_path / "c.csv"), "--json"]  # fmt: skip


def test_choices_file_pairs_the_semi_finals(tmp_path):
    """T1 chooses T4 (so T2 v T3). T4 beats T1, T2 beats T3; T4 wins the final, T1 the
    third-place match: 1 T4, 2 T2, 3 T1, 4 T3."""
    results = ("match,home_imps,away_imps\nSF-1,20,30\nSF-2,40,30\nF,25,20\n"
               "3rd,50,10\n")  # fmt: skip
    result = run(chosen_files(tmp_path, "group,chooser,chosen\nSF,T1,T4\n", results))
    assert result.exit_code == 0, result.output
    places = [(p["team"], p["place"]) for p in json.loads(result.output)["places"]]
    assert places == [("T4", "1"), ("T2", "2"), ("T1", "3"), ("T3", "4")]


def test_a_choice_out_of_turn_is_refused_on_its_line(tmp_path):
    result = run(chosen_files(tmp_path, "group,chooser,chosen\nSF,T2,T4\n", "match,winner\n"))
    assert result.exit_code == 1
    assert f"{tmp_path / 'c.csv'}:2: SF: it is T1's turn to choose" in result.output
