"""Movements: generators, the movement file (decisions D3) and the checker."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from click.testing import CliRunner
from oracle import DATA

from hub.cli.main import cli
from hub.event.movement.barometer import barometer
from hub.event.movement.check import check_movement, format_report
from hub.event.movement.csv_format import HEADER, format_movement, parse_movement
from hub.event.movement.howell import howell
from hub.event.movement.mitchell import mitchell
from hub.event.movement.model import Layout, Movement, MovementError, MovementKind, MovementRow
from hub.event.movement.teams import berger_rounds, round_robin


def meetings(m: Movement) -> dict[frozenset, int]:
    out: dict[frozenset, set] = {}
    for r in m.rows:
        if r.ns_pair and r.ew_pair:
            out.setdefault(frozenset((r.ns_pair, r.ew_pair)), set()).add(r.round)
    return {k: len(v) for k, v in out.items()}


def boards_of(m: Movement, pair: int) -> list[int]:
    return sorted(
        b
        for r in m.rows
        if pair in (r.ns_pair, r.ew_pair) and r.ns_pair and r.ew_pair
        for b in r.boards
    )


def sd(m: Movement, boards_per_set: int = 1) -> float:
    return check_movement(m).balance[m.sections[0]].competition[1] / boards_per_set


# -- Mitchell -----------------------------------------------------------------------------
@pytest.mark.parametrize("tables", range(3, 16, 2))
def test_odd_mitchell_every_ns_meets_every_ew_and_plays_every_board(tables):
    m = mitchell(tables, 2)
    assert check_movement(m).ok
    assert len(meetings(m)) == tables * tables and set(meetings(m).values()) == {1}
    for p in m.pairs():
        assert boards_of(m, p) == list(range(1, 2 * tables + 1))


@pytest.mark.parametrize(
    ("tables", "variant"), [(t, v) for t in range(4, 15, 2) for v in ("skip", "relay")]
)
def test_even_mitchells_pass_the_checker(tables, variant):
    m = mitchell(tables, 3, variant=variant)
    report = check_movement(m)
    assert report.ok, report.errors[:3]
    if variant == "relay":
        assert m.layout.shares == ((1, tables),)
        assert set(meetings(m).values()) == {1} and len(meetings(m)) == tables * tables


def test_skip_mitchell_matches_the_research_file():
    """The skip rule (E. T. Baker): identical to the research team's 10-table file."""
    ours = mitchell(10, 3, 9, variant="skip")
    theirs = parse_movement((DATA / "mitchell_skip_10t_9r_3b.csv").read_text("utf-8"))
    strip = {(r.table, r.round, r.ns_pair, r.ew_pair, r.boards) for r in theirs.rows}
    assert {(r.table, r.round, r.ns_pair, r.ew_pair, r.boards) for r in ours.rows} == strip


def test_share_relay_file_needs_its_declared_share():
    """The research file passes once its share is declared; without it the checker names
    the row and the rule."""
    text = (DATA / "mitchell_share_relay_8t_8r_3b.csv").read_text("utf-8")
    bare = check_movement(parse_movement(text))
    assert not bare.ok and bare.errors[0].rule == "one-place" and bare.errors[0].row == 8
    declared = parse_movement(
        "# kind: mitchell\n# winners: 2\n# shares: 1+8\n# relays: 4-5\n" + text
    )
    assert check_movement(declared).ok
    ours = mitchell(8, 3, variant="relay")
    assert {(r.table, r.round, r.ns_pair, r.ew_pair, r.boards) for r in ours.rows} == {
        (r.table, r.round, r.ns_pair, r.ew_pair, r.boards) for r in declared.rows
    }


@pytest.mark.parametrize(
    ("tables", "variant", "expected_sd"),
    [
        # movements.md §4.4: 7-table Mitchell with the last round switched sd 1.05;
        # 8-table share-and-relay with one switched round 1.24 (the best there is).
        (7, "plain", 1.05),
        (8, "relay", 1.24),
    ],
)
def test_arrow_switch_reaches_the_published_balance(tables, variant, expected_sd):
    plain = mitchell(tables, 1, variant=variant)
    switched = mitchell(tables, 1, variant=variant, arrow_switch=True)
    assert check_movement(switched).ok
    assert switched.layout.winners == 1 and switched.layout.arrow_switch
    assert sd(switched) == pytest.approx(expected_sd, abs=0.005)
    assert sd(switched) < sd(plain)


# -- Howell -------------------------------------------------------------------------------
@pytest.mark.parametrize("tables", range(3, 16))
def test_complete_howell_everyone_meets_once_and_plays_every_board(tables):
    m = howell(tables, 2)
    assert check_movement(m).ok, check_movement(m).errors[:3]
    pairs = 2 * tables
    assert m.rounds == pairs - 1
    got = meetings(m)
    assert len(got) == pairs * (pairs - 1) // 2 and set(got.values()) == {1}
    for p in range(1, pairs + 1):
        assert boards_of(m, p) == list(range(1, 2 * (pairs - 1) + 1))


@pytest.mark.parametrize("tables", [4, 6, 8])
def test_complete_howells_with_perfect_balance(tables):
    """movements.md §4.4: complete 4-, 6- and 8-table Howells exist with sd 0."""
    assert sd(howell(tables, 1)) == pytest.approx(0)


def test_seed000_five_table_nine_round_three_board_howell():
    """Seed 000: sections of 5 tables, a Howell of 9 rounds × 3 boards (27 boards), with
    relays (no shared boards) and the balance of the three public 5-table Howells."""
    m = howell(5, 3)
    assert check_movement(m).ok and m.rounds == 9 and len(m.boards()) == 27
    assert not m.layout.shares and len(m.layout.relays) == 4
    public = parse_movement((DATA / "howell_5t_9r_3b.csv").read_text("utf-8"))
    assert check_movement(public).ok
    assert sd(m, 3) == pytest.approx(sd(public, 3), abs=0.005) == pytest.approx(1.79, abs=0.005)
    for r in range(1, 10):
        assert len({row.boards for row in m.round_rows(r)}) == 5


def test_howell_with_a_phantom_and_a_three_quarter_howell():
    m = howell(5, 3, pairs=9)
    rep = check_movement(m)
    assert rep.ok and rep.balance["A"].sit_outs == (1, 1)
    assert all(r.ns_pair != 10 and r.ew_pair != 10 for r in m.rows)
    short = howell(7, 2, rounds=9)
    assert check_movement(short).ok and short.rounds == 9
    assert set(meetings(short).values()) == {1}


def test_three_tables_share_the_round_set():
    """Six pairs have no Howell with separate sets; every table plays the round's set."""
    m = howell(3, 2)
    assert check_movement(m).ok and m.layout.shares == ((1, 2, 3),)


# -- barometer and teams ------------------------------------------------------------------
def test_seed002_barometer_final_52_pairs_102_boards():
    """Seed 002: a barometer final of 52 pairs over 102 boards (2 per round)."""
    m = barometer(52, 2)
    rep = check_movement(m)
    assert rep.ok and m.rounds == 51 and len(m.boards()) == 102
    assert set(meetings(m).values()) == {1} and len(meetings(m)) == 52 * 51 // 2
    lo, hi = rep.balance["A"].ns_counts
    assert 51 // 2 - 2 <= lo <= hi <= 51 // 2 + 3
    for r in range(1, 52):
        assert len({row.boards for row in m.round_rows(r)}) == 1


def test_odd_barometer_uses_a_phantom():
    m = barometer(27, 2)
    rep = check_movement(m)
    assert rep.ok and rep.balance["A"].sit_outs == (1, 1) and m.rounds == 27


def test_berger_tables_match_the_published_8_team_rounds():
    """movements.md §5.2 (Fox tables): round 1 1-8, 2-7, 3-6, 4-5; round 2 8-5, 6-4, 7-3, 1-2."""
    assert berger_rounds(8)[0] == [(1, 8), (2, 7), (3, 6), (4, 5)]
    assert berger_rounds(8)[1] == [(8, 5), (6, 4), (7, 3), (1, 2)]


@pytest.mark.parametrize("teams", [4, 7, 8, 10])
def test_round_robin_two_tables_per_match(teams):
    """Home team NS in the open room, EW in the closed room; both rooms play the boards."""
    m = round_robin(teams, 3)
    assert check_movement(m).ok
    met = meetings(m)
    assert len(met) == teams * (teams - 1) // 2 and set(met.values()) == {1}
    for r in m.rows:
        if r.ns_pair and r.table % 2 == 1:
            closed = m.row("A", r.table + 1, r.round)
            assert (closed.ns_pair, closed.ew_pair, closed.boards) == (
                r.ew_pair,
                r.ns_pair,
                r.boards,
            )


# -- the checker's hard rules -------------------------------------------------------------
def _mv(rows, **layout):
    return Movement(tuple(MovementRow("A", *r) for r in rows), Layout(**layout))


@pytest.mark.parametrize(
    ("rows", "layout", "rule", "row"),
    [
        ([(1, 1, 1, 2, (1,)), (2, 1, 1, 3, (2,))], {}, "seated-once", 2),
        ([(1, 1, 1, 2, (1,)), (1, 2, 1, 3, (1,))], {}, "board-once", 2),
        ([(1, 1, 1, 2, (1,)), (2, 1, 3, 4, (1,))], {}, "one-place", 2),
        (
            [(1, 1, 1, 2, (1,)), (2, 1, 3, 4, (2,))],
            {"kind": MovementKind.BAROMETER},
            "barometer",
            2,
        ),
        ([(1, 1, 1, 2, (1,)), (2, 1, 2, 1, (2,))], {"kind": MovementKind.TEAMS}, "team-match", 1),
        ([(1, 1, 1, 2, (1,)), (1, 2, 3, 4, (2,)), (2, 1, 3, 4, (3,))], {}, "every-round", None),
        ([(1, 1, 5, 5, (1,))], {}, "seated-once", 1),
    ],
)
def test_hard_rules_name_the_row_and_the_rule(rows, layout, rule, row):
    report = check_movement(_mv(rows, **layout))
    assert not report.ok
    assert report.errors[0].rule == rule and report.errors[0].row == row


def test_declared_shares_and_copies_allow_a_board_in_two_places():
    rows = [(1, 1, 1, 2, (1,)), (2, 1, 3, 4, (1,))]
    assert check_movement(_mv(rows, shares=((1, 2),))).ok
    assert check_movement(_mv(rows, copies=2)).ok


# -- the movement file --------------------------------------------------------------------
def test_round_trip_keeps_rows_and_layout():
    for m in (
        howell(5, 3),
        mitchell(8, 3, variant="relay", arrow_switch=True),
        round_robin(6, 4),
        barometer(9, 2),
    ):
        assert parse_movement(format_movement(m)) == m


def test_custom_boards_column():
    m = _mv([(1, 1, 1, 2, (1, 4, 7)), (2, 1, 3, 4, (2, 3))])
    text = format_movement(m)
    assert "boards" in text.splitlines()[2] and "1;4;7" in text
    assert parse_movement(text) == m


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("section,table,round,ns_pair\nA,1,1,1\n", 1, "missing column(s) ew_pair"),
        (
            "section,table,round,ns_pair,ew_pair,low_board,high_board\nA,x,1,1,2,1,1\n",
            2,
            "whole numbers",
        ),
        (
            "section,table,round,ns_pair,ew_pair,low_board,high_board\nA,1,1,1,2,3,1\n",
            2,
            "1 ≤ low ≤ high",
        ),
        (
            "section,table,round,ns_pair,ew_pair,low_board,high_board\nA,1,1,1,2,1,1\nA,1,1,3,4,2,2\n",
            3,
            "already has a row (line 2)",
        ),
        (
            "# kind: swiss\nsection,table,round,ns_pair,ew_pair,low_board,high_board\n",
            1,
            "kind 'swiss' is not valid",
        ),
        (
            "section,table,round,ns_pair,ew_pair,low_board,high_board,boards\nA,1,1,1,2,1,7,1;9\n",
            2,
            "must ascend from low_board 1 to high_board 7",
        ),
    ],
)
def test_bad_movement_files_name_the_line(text, line, message):
    with pytest.raises(MovementError) as e:
        parse_movement(text)
    assert e.value.row == line and message in e.value.message


def test_mid_session_change_keeps_the_rounds_already_played():
    """A change from round r (a late pair, a filled phantom) never touches rounds < r."""
    before = howell(5, 3, pairs=9)
    after = howell(5, 3)
    changed = before.from_round(4, after)
    assert [r for r in changed.rows if r.round < 4] == [
        r for r in before.sorted().rows if r.round < 4
    ]
    assert [r for r in changed.rows if r.round >= 4] == [r for r in after.rows if r.round >= 4]


# -- command line -------------------------------------------------------------------------
def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_cli_prints_the_movement_file_with_the_exact_header():
    r = run("movement", "howell", "--tables", 5, "--rounds", 9, "--boards-per-round", 3, "--csv")
    assert r.exit_code == 0, r.output
    body = [ln for ln in r.output.splitlines() if not ln.startswith("#")]
    assert body[0] == ",".join(HEADER) == "section,table,round,ns_pair,ew_pair,low_board,high_board"
    assert len(body) == 1 + 5 * 9


@pytest.mark.parametrize(
    "args",
    [
        ["mitchell", "--tables", 9, "--boards-per-round", 3],
        ["mitchell", "--tables", 10, "--skip", "--rounds", 9, "--boards-per-round", 3],
        ["mitchell", "--tables", 8, "--relay", "--arrow-switch", "--boards-per-round", 3],
        ["mitchell", "--tables", 13, "--barometer", "--boards-per-round", 2],
        ["howell", "--tables", 7, "--boards-per-round", 2],
        ["barometer", "--pairs", 28, "--boards-per-round", 2],
        ["teams", "--teams", 8, "--boards-per-round", 24],
    ],
)
def test_cli_generates_movements_the_checker_accepts(tmp_path, args):
    r = run("movement", *args, "--csv")
    assert r.exit_code == 0, r.output
    path = tmp_path / "m.csv"
    path.write_text(r.output, "utf-8")
    check = run("movement", "check", path)
    assert check.exit_code == 0 and "OK: no hard-rule violations" in check.output
    assert "Section" in run("movement", *args).output


def test_cli_check_fails_naming_row_and_rule(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text(
        "section,table,round,ns_pair,ew_pair,low_board,high_board\nA,1,1,1,2,1,2\nA,2,1,1,3,3,4\n",
        "utf-8",
    )
    r = run("movement", "check", path)
    assert r.exit_code != 0
    assert "[seated-once] row 2 (section A, table 2, round 1): pair 1 is already seated" in (
        r.output
    )


def test_cli_cards_and_bad_sizes(tmp_path):
    path = tmp_path / "h.csv"
    path.write_text(
        run("movement", "howell", "--tables", 4, "--boards-per-round", 3, "--csv").output, "utf-8"
    )
    card = run("movement", "cards", path, "--pair", 3).output
    assert card.startswith("Section A, pair 3") and len(card.splitlines()) == 2 + 7
    r = run("movement", "mitchell", "--tables", 8, "--rounds", 12, "--boards-per-round", 2)
    assert r.exit_code != 0 and "1 to 8 rounds" in r.output


def test_every_generated_layout_survives_a_text_round_trip():
    for t, b in itertools.product((4, 5), (1, 3)):
        m = howell(t, b)
        assert parse_movement(format_movement(m)).rows == m.rows
    assert replace(Layout(), winners=2).winners == 2


def test_the_summary_says_which_round_is_missing():
    """TD trial F22: without round 3 the summary still said "7 rounds" with no word of it."""
    m = mitchell(7, 3)
    gone = replace(m, rows=tuple(r for r in m.rows if r.round != 3))
    report = format_report(check_movement(gone))
    assert "section A: 14 pairs, 7 rounds (round 3 missing), " in report
    assert report.count("round 3 is missing") == 1
