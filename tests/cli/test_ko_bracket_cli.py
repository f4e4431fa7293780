"""``bridgehub ko bracket`` (issue [KNOCKOUT], seed 003 §9-§12): TEAMS.csv with ``elo`` (the
players' Elo separated by ``;``) or ``rank``, printed as ``{"size", "ratings", "seeded",
"matches"}`` (``seeded``: every team by starting number; ``away`` null: a bye). Every bad
input is refused as FILE:LINE with what is allowed. Expected brackets worked by hand."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from hub.cli.ko import ko

ORDER_16 = (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)

NINE_TEAMS = """team,name,elo
T1,Praha,600;601
T2,Brno,
T3,Ostrava,700;700;710;;
T4,Plzeň,650;651
T5,Liberec,640
T6,Olomouc,630
T7,Zlín,620
T8,Kladno,610
T9,Most,605
"""


def write(tmp_path: Path, text: str, name: str = "teams.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def run(*args: str):
    return CliRunner().invoke(ko, ["bracket", *args], catch_exceptions=False)


def bracket_json(*args: str) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_seed_003_nine_teams_by_elo_in_a_bracket_of_16(tmp_path):
    """§10: T1 (600+601)/2 = 600.50 → 601; T2 no Elo known → 500; T3 2110/3 = 703.33 →
    703 (the two empty players unknown); T4 650.50 → 651. §9: 9 teams → 16; §11: 16/4 = 4
    seeded: T3 703, T4 651, T5 640, T6 630 as 1-4; T7, T8, T9, T1, T2 numbered 5-9 by lot.
    The standard order of 16 pairs 1-16, 8-9, 4-13, 5-12, 2-15, 7-10, 3-14, 6-11: only 8 v
    9 is played, 1-7 have byes (10-16 missing)."""
    path = write(tmp_path, NINE_TEAMS)
    out = bracket_json("--teams", str(path), "--seeding", "elo", "--lot-seed", "17")
    assert out["size"] == 16
    assert out["ratings"] == {
        "T1": 601,
        "T2": 500,
        "T3": 703,
        "T4": 651,
        "T5": 640,
        "T6": 630,
        "T7": 620,
        "T8": 610,
        "T9": 605,
    }
    seeded = out["seeded"]
    assert seeded[:4] == ["T3", "T4", "T5", "T6"]
    assert sorted(seeded[4:]) == ["T1", "T2", "T7", "T8", "T9"]
    team = {n: seeded[n - 1] if n <= 9 else None for n in range(1, 17)}
    assert out["matches"] == [
        {"match": i, "home": team[ORDER_16[2 * i - 2]], "away": team[ORDER_16[2 * i - 1]]}
        for i in range(1, 9)
    ]
    assert out["matches"][1] == {"match": 2, "home": seeded[7], "away": seeded[8]}


def test_seed_003_the_lot_seed_drawn_is_reported_and_reproduces_the_bracket(tmp_path):
    """Without --lot-seed the command draws one and says it on stderr; given back, it
    gives the same bracket."""
    path = write(tmp_path, NINE_TEAMS)
    first = run("--teams", str(path), "--seeding", "elo", "--json")
    assert first.exit_code == 0, first.output
    seed = re.search(r"--lot-seed (\d+)", first.stderr)
    assert seed, first.stderr
    again = bracket_json("--teams", str(path), "--seeding", "elo", "--lot-seed", seed.group(1))
    assert again == json.loads(first.stdout)


def test_seeding_by_rank_five_teams_in_a_bracket_of_8(tmp_path):
    """Each team numbered by its rank; 5 teams → 8 (§9); order 1 8 4 5 2 7 3 6: 1, 2, 3
    have byes (8, 7, 6 missing), 4 v 5 plays (the lower number at home)."""
    path = write(tmp_path, "team,name,rank\nA,a,3\nB,b,1\nC,c,5\nD,d,2\nE,e,4\n")
    out = bracket_json("--teams", str(path), "--seeding", "rank")
    assert out == {
        "size": 8,
        "ratings": {"B": 1, "D": 2, "A": 3, "E": 4, "C": 5},
        "seeded": ["B", "D", "A", "E", "C"],
        "matches": [
            {"match": 1, "home": "B", "away": None},
            {"match": 2, "home": "E", "away": "C"},
            {"match": 3, "home": "D", "away": None},
            {"match": 4, "home": "A", "away": None},
        ],
    }


def test_the_table_shows_numbers_ratings_and_byes(tmp_path):
    path = write(tmp_path, "team,name,rank\nA,Alfa,3\nB,Beta,1\nC,Gama,5\nD,Delta,2\nE,Eta,4\n")
    result = run("--teams", str(path), "--seeding", "rank")
    assert result.exit_code == 0, result.output
    assert "Bracket of 8 (5 teams, seeding by rank)" in result.stdout
    assert "    1  B  Beta  rank 1" in result.stdout
    assert "match  1: 1 B v bye" in result.stdout
    assert "match  2: 4 E v 5 C" in result.stdout


def test_a_bad_elo_is_refused_by_file_and_line(tmp_path):
    """Line 3 has a player's Elo "6x0", line 4 a decimal: the Elo are whole numbers."""
    path = write(tmp_path, NINE_TEAMS.replace("T2,Brno,", "T2,Brno,600;6x0", 1))
    path.write_text(path.read_text().replace("650;651", "650.5"))
    result = run("--teams", str(path), "--seeding", "elo", "--lot-seed", "1")
    assert result.exit_code == 1
    assert f"{path}:3: elo '6x0' must be a whole number" in result.output
    assert f"{path}:5: elo '650.5' must be a whole number" in result.output


def test_a_team_twice_and_a_missing_column_are_refused(tmp_path):
    path = write(tmp_path, NINE_TEAMS + "T1,Again,600\n")
    result = run("--teams", str(path), "--seeding", "elo", "--lot-seed", "1")
    assert result.exit_code == 1
    assert f"{path}:11: team T1 is already on line 2" in result.output
    result = run("--teams", str(path), "--seeding", "rank")
    assert result.exit_code == 1
    assert f"{path}:1: missing column(s): rank; the header needs team,name,rank" in result.output


def test_a_rank_twice_or_a_rank_missing_is_refused(tmp_path):
    """Ranks 1, 2, 2, 4, 5: the second 2 (line 4) is refused; ranks 1, 2, 3, 4, 6 of five
    teams: 5 is missing (the file as a whole)."""
    twice = write(tmp_path, "team,name,rank\nA,a,1\nB,b,2\nC,c,2\nD,d,4\nE,e,5\n", "twice.csv")
    result = run("--teams", str(twice), "--seeding", "rank")
    assert result.exit_code == 1
    assert f"{twice}:4: rank 2 is already on line 3" in result.output
    gap = write(tmp_path, "team,name,rank\nA,a,1\nB,b,2\nC,c,3\nD,d,4\nE,e,6\n", "gap.csv")
    result = run("--teams", str(gap), "--seeding", "rank")
    assert result.exit_code == 1
    assert f"{gap}: the ranks must be 1 to 5, each once: 5 missing" in result.output
    zero = write(tmp_path, "team,name,rank\nA,a,0\n", "zero.csv")
    result = run("--teams", str(zero), "--seeding", "rank")
    assert f"{zero}:2: rank '0' must be a whole number, 1 or more" in result.output


def test_too_few_teams_for_a_bracket_of_8(tmp_path):
    """3 teams in a bracket of 8 would leave 4 v 5 with no team at all."""
    path = write(tmp_path, "team,name,rank\nA,a,1\nB,b,2\nC,c,3\n")
    result = run("--teams", str(path), "--seeding", "rank")
    assert result.exit_code == 1
    assert f"{path}: 3 teams: the smallest bracket (8) needs 4 to 8 teams" in result.output


def test_a_lot_seed_with_rank_seeding_is_a_usage_error(tmp_path):
    path = write(tmp_path, "team,name,rank\nA,a,1\nB,b,2\nC,c,3\nD,d,4\n")
    result = run("--teams", str(path), "--seeding", "rank", "--lot-seed", "3")
    assert result.exit_code == 2
    assert "--lot-seed is for --seeding elo" in result.output
