"""Odd numbers of pairs (issue 13 "Odd numbers and sit-outs", TD trial F2): a 13-pair
Mitchell and a 13-pair Howell are generated with the sit-out written as pair 0 opposite the
pair sitting out, from the event file and from the command line; the checker and the cards
handle them."""

from __future__ import annotations

from collections import Counter

from click.testing import CliRunner
from event_text import one_section_event

from hub.cli.movement import movement
from hub.event.event_file import GeneratedMovement
from hub.event.movement.build import build_movement
from hub.event.movement.check import check_movement
from hub.event.movement.csv_format import format_movement, parse_movement
from hub.event.movement.mitchell import mitchell
from hub.store.store import Store


def run(*args):
    """``bridgehub movement …`` (the group itself: args start with "movement")."""
    assert args[0] == "movement"
    return CliRunner().invoke(movement, [str(a) for a in args[1:]])


def test_a_13_pair_mitchell_seats_7_ns_and_6_ew_pairs_and_each_ns_pair_sits_out_once():
    """Worked by hand from the Mitchell rule (NS t stays at table t; EW k starts at table k
    and moves up one table a round, so in round r table t holds EW ((t − r) mod 7) + 1;
    boards: table t plays set (t + r − 2) mod 7). With 13 pairs EW 7 is missing: it would be
    at table ((7 + r − 2) mod 7) + 1 = r − 1 (table 7 in round 1), so NS 7 sits out in
    round 1, NS 1 in round 2, ..., NS 6 in round 7. Every NS pair sits out once and plays
    6 × 2 = 12 boards; every EW pair plays all 7 rounds, 14 boards."""
    m = build_movement(GeneratedMovement(kind="mitchell", pairs=13, boards_per_round=2), "A")
    assert m.tables("A") == list(range(1, 8)) and m.rounds == 7
    sit_outs = {(r.round, r.ns_pair) for r in m.rows if r.ew_pair == 0}
    assert sit_outs == {(1, 7)} | {(r, r - 1) for r in range(2, 8)}
    assert all(r.ns_pair for r in m.rows)  # pair 0 only opposite the pair sitting out
    assert 14 not in m.pairs("A") and m.pairs("A") == list(range(1, 14))
    boards = Counter()
    for r in m.rows:
        if r.ns_pair and r.ew_pair:
            for p in (r.ns_pair, r.ew_pair):
                boards[p] += len(r.boards)
    assert {p: boards[p] for p in range(1, 8)} == dict.fromkeys(range(1, 8), 12)
    assert {p: boards[p] for p in range(8, 14)} == dict.fromkeys(range(8, 14), 14)
    assert check_movement(m).ok
    assert "13 pairs (EW 7 sits out)" in m.layout.description


def test_a_13_pair_howell_leaves_one_pair_out_each_round_and_everyone_meets_once():
    """A complete Howell for 13 pairs is the 14-pair Howell (7 tables, 13 rounds) with the
    stationary pair missing: each of pairs 1-13 sits out exactly one round (opposite 0),
    plays 12 rounds × 2 = 24 boards and meets each of the other 12 pairs exactly once
    (13·12/2 = 78 meetings over 13 rounds of 6 playing tables = 78)."""
    m = build_movement(GeneratedMovement(kind="howell", pairs=13, boards_per_round=2), "A")
    assert len(m.tables("A")) == 7 and m.rounds == 13
    out = Counter(r.ns_pair or r.ew_pair for r in m.rows if 0 in (r.ns_pair, r.ew_pair))
    assert out == dict.fromkeys(range(1, 14), 1)
    meetings = Counter(frozenset((r.ns_pair, r.ew_pair)) for r in m.rows if r.ns_pair and r.ew_pair)
    assert len(meetings) == 78 and set(meetings.values()) == {1}
    assert check_movement(m).ok


def test_the_movement_file_keeps_pair_0_through_a_round_trip():
    m = mitchell(None, 2, pairs=13)
    again = parse_movement(format_movement(m))
    assert again.rows == m.rows
    assert sum(1 for r in again.rows if r.ew_pair == 0) == 7


def test_an_impossible_pair_count_is_refused_with_the_sizes_that_fit():
    r = run("movement", "mitchell", "--tables", 7, "--pairs", 11, "--boards-per-round", 2)
    assert r.exit_code != 0 and "a Mitchell on 7 tables seats 13 or 14 pairs, not 11" in r.output


def test_the_command_line_makes_the_same_sit_out_movements(tmp_path):
    mitchell_csv = run("movement", "mitchell", "--pairs", 13, "--boards-per-round", 2, "--csv")
    assert mitchell_csv.exit_code == 0, mitchell_csv.output
    assert parse_movement(mitchell_csv.output).rows == mitchell(7, 2, pairs=13).rows
    howell_csv = run("movement", "howell", "--pairs", 13, "--boards-per-round", 2, "--csv")
    assert howell_csv.exit_code == 0, howell_csv.output
    path = tmp_path / "h13.csv"
    path.write_text(howell_csv.output, "utf-8")
    check = run("movement", "check", path)
    assert check.exit_code == 0 and "13 pairs, 13 rounds" in check.output
    assert "sit-out rounds per pair 1-1" in check.output
    assert run("movement", "mitchell", "--boards-per-round", 2).exit_code != 0


def test_cards_say_sit_out_and_print_table_cards_with_the_rooms_numbers(tmp_path):
    """Round 2 of the 13-pair Mitchell: NS 1 sits out (see the first test); table 7 holds
    NS 7 against EW 6 with set (7 + 2 − 2) mod 7 = 0, boards 1-2."""
    path = tmp_path / "m13.csv"
    path.write_text(format_movement(mitchell(7, 2, pairs=13)), "utf-8")
    out = run("movement", "cards", path).output
    ns1 = out.split("Section A, NS 1\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert ns1[2].split() == ["2", "1", "sit", "out", "(no", "opponents", "this", "round)"]
    table7 = out.split("Section A, table 7\n", 1)[1].splitlines()
    assert table7[0].split() == ["round", "NS", "EW", "boards"]
    assert table7[1].split() == ["1", "NS", "7", "sit", "out", "-"]
    assert table7[2].split() == ["2", "NS", "7", "EW", "6", "1-2"]
    assert out.index("Section A, NS 7") < out.index("Section A, EW 1")  # NS field first
    only = run("movement", "cards", path, "--pair", "EW 3").output
    assert only.startswith("Section A, EW 3\n") and "table 1" not in only
    tables = run("movement", "cards", path, "--only", "tables").output
    assert tables.startswith("Section A, table 1") and "EW 3\n" not in tables
    missing = run("movement", "cards", path, "--pair", "EW 7")
    assert missing.exit_code != 0 and "NS 1-7 and EW 1-6" in missing.output


def test_event_files_create_13_pair_mitchells_and_howells(tmp_path):
    for kind in ("mitchell", "howell"):
        store = Store.open(f"sqlite:///{tmp_path / kind}.db")
        eid = store.create_event(
            one_section_event(kind, f'kind = "{kind}", pairs = 13, boards_per_round = 2')
        )
        m = store.movement(eid, "A")
        assert len(m.pairs("A")) == 13 and len(m.tables("A")) == 7
        assert any(0 in (r.ns_pair, r.ew_pair) for r in m.rows)
        store.close()
