"""The scorer's command line: `bridgehub score` and `bridgehub vp`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from oracle import oracle_rows, traveller_csv

from hub.cli.main import cli

ROOT = Path(__file__).parents[2]


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture
def kops_mp(tmp_path):
    path = tmp_path / "pch1003.csv"
    path.write_text(traveller_csv(oracle_rows("kops_pch1003_mp_travellers.csv")), "utf-8")
    return path


def test_score_json_has_the_documented_shape(kops_mp):
    """The issue's shape: boards → results with ns_score/ew_score; pairs with total, rank."""
    r = run("score", kops_mp, "--method", "mp", "--winners", "1", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    first = doc["boards"][0]
    assert first["board"] == 1
    line = first["results"][0]
    assert {"ns", "ew", "score_ns", "ns_score", "ew_score"} <= set(line)
    assert (line["ns"], line["ew"], line["score_ns"]) == (1, 2, -500)
    assert round(line["ns_score"], 1) == 14.3 and round(line["ew_score"], 1) == 85.7
    pairs = doc["pairs"]
    assert len(pairs) == 44 and all(p["direction"] is None for p in pairs)
    assert pairs[0]["rank"] in ("1", "1=")
    totals = [p["total"] for p in pairs]
    assert totals == sorted(totals, reverse=True)
    # default --expected is the largest count on any board: board 7's TD row keeps 60/40
    b7 = next(b for b in doc["boards"] if b["board"] == 7)
    td = next(x for x in b7["results"] if x["adjusted"])
    assert (td["ns_score"], td["ew_score"], td["score_ns"]) == (60.0, 40.0, None)


def test_score_ximp_with_cap_matches_kops(tmp_path):
    path = tmp_path / "sm0807.csv"
    rows = oracle_rows("kops_sm0807_ximp_travellers.csv")
    path.write_text(traveller_csv(rows, adjusted="A/A"), "utf-8")
    r = run("score", path, "--method", "ximp", "--ximp-cap", "17", "--winners", "1", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    got = {(b["board"], x["ns"]): x["ns_score"] for b in doc["boards"] for x in b["results"]}
    for row in rows:
        if row.played:
            assert f"{got[(row.board, row.ns)]:.1f}" == row.ns_value.replace("-0.0", "0.0")


def test_two_winner_fields_rank_each_direction(tmp_path):
    path = tmp_path / "mitchell.csv"
    path.write_text(
        "board,ns,ew,contract,declarer,result\n"
        "1,1,1,4S,N,=\n1,2,2,4S,N,+1\n2,1,2,3NT,S,-1\n2,2,1,3NT,S,=\n",
        "utf-8",
    )
    r = run("score", path, "--method", "mp", "--json")
    assert r.exit_code == 0, r.output
    pairs = json.loads(r.output)["pairs"]
    # NS 2 tops both boards (450 > 420, 600 > −100); EW 1 and EW 2 each top one board.
    assert {(p["direction"], p["pair"], p["rank"]) for p in pairs} == {
        ("NS", 2, "1"),
        ("NS", 1, "2"),
        ("EW", 1, "1="),
        ("EW", 2, "1="),
    }


def test_readable_table(kops_mp):
    r = run("score", kops_mp, "--method", "mp", "--winners", "1")
    assert r.exit_code == 0
    assert "Board 1" in r.output and "Standings" in r.output and "14.3" in r.output


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("board,ns,ew,contract,declarer\n1,1,2,4S,N\n", "missing column(s): result"),
        ("board,ns,ew,contract,declarer,result\n1,1,2,4Q,N,=\n", ":2: contract '4Q' is not valid"),
        (
            "board,ns,ew,contract,declarer,result\n1,1,2,5H,N,+3\n",
            ":2: +3 is impossible for 5H: at most +2",
        ),
        (
            "board,ns,ew,contract,declarer,result\n1,3,3,4S,N,=\n",
            ":2: pair 3 cannot sit both NS and EW on board 1",
        ),
        (
            "board,ns,ew,contract,declarer,result\n1,1,2,4S,N,=\n1,1,4,4S,N,=\n",
            ":3: pair 1 already has a result on board 1 (line 2)",
        ),
        (
            "board,ns,ew,contract,declarer,result,score_ns\n1,1,2,,,,425\n",
            ":2: score_ns 425 is not a possible NS score on board 1",
        ),
        (
            "board,ns,ew,contract,declarer,result,score_ns\n1,1,2,4S,N,=,620\n",
            ":2: score_ns 620 does not match 4S N = on board 1",
        ),
        (
            "board,ns,ew,contract,declarer,result,adjusted\n1,1,2,4S,N,=,60/40\n",
            ":2: a row with an adjusted score leaves contract",
        ),
        ("board,ns,ew,contract,declarer,result\nx,1,2,4S,N,=\n", ":2: board 'x' must be a whole"),
        ("board,ns,ew,contract,declarer,result\n", "the file has no results"),
    ],
)
def test_bad_input_names_the_line_and_the_problem(tmp_path, body, message):
    path = tmp_path / "bad.csv"
    path.write_text(body, "utf-8")
    r = run("score", path, "--method", "mp", "--winners", "1")
    assert r.exit_code != 0
    assert message in r.output
    assert "Traceback" not in r.output


def test_every_problem_is_reported_at_once(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("board,ns,ew,contract,declarer,result\n1,1,2,9S,N,=\n2,1,2,4S,N,+9\n", "utf-8")
    r = run("score", path, "--method", "ximp")
    assert ":2:" in r.output and ":3:" in r.output


def test_missing_file_is_an_error_not_a_traceback(tmp_path):
    r = run("score", tmp_path / "nope.csv", "--method", "mp")
    assert r.exit_code != 0 and "cannot read the file" in r.output


def test_vp_one_line_winner_then_loser():
    """Decisions D5: `bridgehub vp --boards 8 --imps 20` prints `16.46 3.54`
    (scoring-rules.md §3.1, N = 8 table)."""
    r = run("vp", "--boards", 8, "--imps", 20)
    assert r.output == "16.46 3.54\n"
    assert run("vp", "--boards", 8, "--imps", 99).output == "20.00 0.00\n"
    assert run("vp", "--boards", 20, "--imps", 13, "--scale", "wbf_discrete_20").output == (
        "13.00 7.00\n"
    )


def test_vp_whole_scale_and_table_file():
    r = run("vp", "--boards", 10)
    lines = r.output.splitlines()
    assert lines[0].split() == ["0", "10.00", "10.00"]
    assert lines[-1].split() == ["48+", "20.00", "0.00"]
    assert len(lines) == 49
    r = run(
        "vp", "--boards", 8, "--table", ROOT / "examples" / "vp_table_illustrative.csv", "--imps", 0
    )
    assert r.output == "15.00 15.00\n"
    r = run("vp", "--boards", 8, "--table", ROOT / "examples" / "vp_table_illustrative.csv")
    assert r.output.splitlines()[0].split() == ["0-2", "15.00", "15.00"]


def test_vp_bad_margin():
    r = run("vp", "--boards", 8, "--imps", "lots")
    assert r.exit_code != 0 and "not a number of IMPs" in r.output


@pytest.mark.skipif(
    shutil.which("bridgehub") is None and not (Path(sys.executable).parent / "bridgehub").exists(),
    reason="console script not installed",
)
def test_installed_command_runs_the_example():
    exe = shutil.which("bridgehub") or str(Path(sys.executable).parent / "bridgehub")
    out = subprocess.run(
        [
            exe,
            "score",
            ROOT / "examples" / "imp_pairs.csv",
            "--method",
            "ximp",
            "--ximp-cap",
            "17",
            "--winners",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert "Standings" in out.stdout


def test_barometer_standings_after_any_round(tmp_path):
    """A barometer publishes standings after each round: --after-round uses rounds 1..r."""
    path = tmp_path / "baro.csv"
    path.write_text(
        "board,ns,ew,contract,declarer,result,round\n"
        "1,1,2,4S,N,=,1\n1,3,4,4S,N,+1,1\n"
        "2,1,3,3NT,S,+1,2\n2,4,2,3NT,S,=,2\n",
        "utf-8",
    )
    r1 = json.loads(
        run("score", path, "--method", "mp", "--winners", "1", "--after-round", 1, "--json").output
    )
    assert [b["board"] for b in r1["boards"]] == [1]
    assert {p["pair"]: p["rank"] for p in r1["pairs"]} == {3: "1=", 2: "1=", 1: "3=", 4: "3="}
    r2 = json.loads(
        run("score", path, "--method", "mp", "--winners", "1", "--after-round", 2, "--json").output
    )
    assert len(r2["boards"]) == 2
    bad = run("score", path, "--method", "mp", "--after-round", 1, "--winners", "1")
    assert bad.exit_code == 0
    nor = tmp_path / "noround.csv"
    nor.write_text("board,ns,ew,contract,declarer,result\n1,1,2,4S,N,=\n", "utf-8")
    r = run("score", nor, "--method", "mp", "--after-round", 1)
    assert r.exit_code != 0 and "needs a round" in r.output


def test_a_problem_on_many_lines_is_reported_once_with_its_lines(tmp_path):
    """Issue [TRUST]: a traveller file whose every row has the same mistake gives one line
    naming the rows, not one copy per row; a different problem keeps its own line."""
    path = tmp_path / "bad.csv"
    rows = "".join(f"{b},1,2,4S,Q,=\n" for b in range(1, 41))
    path.write_text("board,ns,ew,contract,declarer,result\n" + rows + "41,1,2,9S,N,=\n", "utf-8")
    r = run("score", path, "--method", "mp")
    assert r.exit_code == 1
    assert r.output.count("is not a seat") == 1, r.output
    assert f"{path}: lines 2-41: declarer 'Q' is not a seat: use N, E, S or W" in r.output
    assert f"{path}:42: contract '9S' is not valid" in r.output


def test_a_missing_round_is_one_problem_not_one_per_table(tmp_path):
    """Issue [TRUST] (the TD trial's F22): a movement file without round 3 says so once."""
    made = run("movement", "mitchell", "--tables", 7, "--boards-per-round", 3, "--csv")
    assert made.exit_code == 0, made.output
    lines = [ln for ln in made.output.splitlines() if ln.split(",")[2:3] != ["3"]]
    path = tmp_path / "m.csv"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    r = run("movement", "check", path)
    assert r.output.count("[every-round]") == 1, r.output
    assert "section A: round 3 is missing (no table has a row for it)" in r.output
