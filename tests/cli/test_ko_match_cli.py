"""``bridgehub ko match --boards BOARDS.csv [--carry-over HOME_IMPS] [--tie RULE …] --json``
(issue [KNOCKOUT]): the segments' IMPs, the totals with the carry-over, the winner and what
decided it, or what must be played now; exact values as strings. IMPs by the WBF table:
0-10 → 0, 20-40 → 1, 50-80 → 2, 220-260 → 6, 430-490 → 10. Home sits NS in the open room:
its net is open NS − closed NS. Every problem of the file as ``FILE:LINE: message``."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from hub.cli.ko_match import match

HEADER = "segment,board,open_ns,closed_ns\n"


def boards_file(tmp_path: Path, *rows: str) -> str:
    path = tmp_path / "boards.csv"
    path.write_text(HEADER + "".join(f"{r}\n" for r in rows), encoding="utf-8")
    return str(path)


def run(*args: str):
    return CliRunner().invoke(match, list(args), catch_exceptions=False)


def match_json(*args: str) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_seed_003_level_after_two_sets_plays_an_extra_set(tmp_path):
    """Seed 003 §12.5. Set 1, board 1: 620 v 170, +450 → 10 to home; set 2, board 17:
    −100 v 330, −430 → 10 to away. 10-10 → an extra set of 4 boards is next."""
    path = boards_file(tmp_path, "1,1,620,170", "2,17,-100,330")
    assert match_json("--boards", path, "--tie", "extra_set") == {
        "segments": [
            {"segment": 1, "home": "10", "away": "0"},
            {"segment": 2, "home": "0", "away": "10"},
        ],
        "carry_over": {"home": "0", "away": "0"},
        "home": "10",
        "away": "10",
        "winner": None,
        "decided_by": None,
        "next": "extra_set",
        "under_way": False,
        "total_points": {"home": 450, "away": 430},
        "boards_won": {"home": 1, "away": 1},
        "lot_seed": None,
    }


def test_seed_003_extra_set_decides(tmp_path):
    """The same match with an extra set (segment 3, --segments 2): board 33 140 v 110, +30
    → 1 IMP to home; three flat boards. 11-10: home wins on the extra set."""
    rows = ["1,1,620,170", "2,17,-100,330", "3,33,140,110"] + [f"3,{b},0,0" for b in (34, 35, 36)]
    out = match_json("--boards", boards_file(tmp_path, *rows), "--segments", "2",
                     "--tie", "extra_set")  # fmt: skip
    assert (out["home"], out["away"], out["winner"], out["decided_by"]) == (
        "11", "10", "home", "extra_set",
    )  # fmt: skip


def test_seed_000_carry_over_6_5_decides(tmp_path):
    """Seed 000's final: 6.5 IMP to the unbeaten team (home). Board 1: 200 v 420, −220 → 6
    to away. 6.5 v 6: home wins on IMPs; the carry-over is shown as "6.5"."""
    out = match_json(
        "--boards", boards_file(tmp_path, "1,1,200,420"), "--carry-over", "6.5",
        "--tie", "total_points", "--tie", "boards_won", "--tie", "sudden_death",
        "--sudden-death-boards", "2",
    )  # fmt: skip
    assert out["carry_over"] == {"home": "6.5", "away": "0"}
    assert (out["home"], out["away"], out["winner"], out["decided_by"]) == (
        "6.5", "6", "home", "imps",
    )  # fmt: skip


def test_seed_001_carry_over_0_1_to_the_away_team(tmp_path):
    """Seed 001: 0.1 IMP to the higher-placed team, here away (--carry-over −0.1). Board 1
    140 v 120, +20 → 1 home; board 15 110 v 140, −30 → 1 away. 1 v 1.1: away wins."""
    out = match_json(
        "--boards", boards_file(tmp_path, "1,1,140,120", "2,15,110,140"), "--carry-over", "-0.1"
    )  # fmt: skip
    assert (out["home"], out["away"], out["winner"], out["decided_by"]) == (
        "1", "1.1", "away", "imps",
    )  # fmt: skip


def test_seed_000_ko_boards_won_with_a_10_point_board(tmp_path):
    """Seed 000 §6-2. Board 1 +20 (1 home), board 2 −30 (1 away), board 17 430 v 420 +10
    (0 IMP, a board won): IMPs 1-1, total points 30-30, boards won 2-1 → home."""
    path = boards_file(tmp_path, "1,1,140,120", "1,2,110,140", "2,17,430,420")
    out = match_json("--boards", path, "--tie", "total_points", "--tie", "boards_won",
                     "--tie", "lot", "--lot-seed", "7")  # fmt: skip
    assert out["total_points"] == {"home": 30, "away": 30}
    assert out["boards_won"] == {"home": 2, "away": 1}
    assert (out["winner"], out["decided_by"], out["lot_seed"]) == ("home", "boards_won", None)


def test_seed_002_higher_placed(tmp_path):
    """Seed 002 Knock Out: level in IMPs → the team placed higher in Gröna Hissen."""
    path = boards_file(tmp_path, "1,1,140,120", "1,2,110,140")
    out = match_json("--boards", path, "--tie", "higher_placed", "--higher", "away")
    assert (out["winner"], out["decided_by"]) == ("away", "higher_placed")


def test_seed_001_final_sudden_death_next_in_text(tmp_path):
    """Seed 001's final: level after 2x14 → a 1-board sudden death, said in plain text."""
    result = run("--boards", boards_file(tmp_path, "1,1,420,420", "2,15,0,0"),
                 "--tie", "sudden_death")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "level: play a sudden_death now"


def test_every_problem_of_the_file_by_line(tmp_path):
    """Line 2 fine; 3 a score not a multiple of 10; 4 segment 0; 5 the board of line 2
    again; 6 a board 'x'."""
    path = boards_file(tmp_path, "1,1,420,420", "1,2,425,420", "0,3,0,0", "1,1,0,0", "1,x,0,0")
    result = run("--boards", path)
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "Error: " + f"{path}:3: open_ns '425' must be a score: a whole multiple of 10 (420, -100)",
        f"{path}:4: segment '0' must be a whole number ≥ 1",
        f"{path}:5: segment 1 board 1 is already on line 2",
        f"{path}:6: board 'x' must be a whole number ≥ 1",
    ]


def test_missing_column_refused(tmp_path):
    path = tmp_path / "boards.csv"
    path.write_text("segment,board,open_ns\n1,1,420\n", encoding="utf-8")
    result = run("--boards", str(path))
    assert result.exit_code == 1
    assert f"{path}:1: missing column(s): closed_ns; the header is " in result.output


def test_extension_without_a_play_more_rule_points_at_its_first_line(tmp_path):
    """--segments 1 with a segment 2 in the file and no extra_set / sudden_death rule."""
    path = boards_file(tmp_path, "1,1,420,420", "2,1,420,420")
    result = run("--boards", path, "--segments", "1", "--tie", "total_points")
    assert result.exit_code == 1
    assert f"{path}:3: segment 2 is beyond the match's 1 segment(s)" in result.output


def test_tie_words_and_their_companions_refused(tmp_path):
    path = boards_file(tmp_path, "1,1,420,420")
    result = run("--boards", path, "--tie", "coin")
    assert result.exit_code == 2 and "'extra_set'" in result.output
    result = run("--boards", path, "--tie", "lot")
    assert result.exit_code == 2 and "--lot-seed" in result.output
    result = run("--boards", path, "--tie", "higher_placed")
    assert result.exit_code == 2 and "--higher home|away" in result.output
    result = run("--boards", path, "--tie", "lot", "--tie", "extra_set", "--lot-seed", "1")
    assert result.exit_code == 2 and "lot always decides: it must be the last" in result.output
    result = run("--boards", path, "--carry-over", "six")
    assert result.exit_code == 2 and "6.5, 0.1 or 1/3" in result.output


def test_registered_under_bridgehub_ko():
    from hub.cli.ko import ko

    result = CliRunner().invoke(ko, ["match", "--help"])
    assert result.exit_code == 0 and "--boards" in result.output
