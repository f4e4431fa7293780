"""Review R3 of issue 13's movements (numbering, sit-outs, arrow switches; TD trial F22): the
checker's figures for a movement with a round missing, the grid of an arrow-switched
Mitchell, and generators that stay quick on a large or mistyped size."""

from __future__ import annotations

from dataclasses import replace

import pytest
from click.testing import CliRunner

from hub.cli.main import cli
from hub.event.movement.check import check_movement, format_report
from hub.event.movement.mitchell import mitchell
from hub.event.movement.model import MovementError


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_a_missing_round_is_no_sit_out_and_a_mitchells_competition_stays_in_its_field():
    """TD trial F22 (review R3): without round 3 the check said "sit-out rounds per pair 1-1"
    and a Manning range of -18..15 (NS against EW pairs, who are ranked apart).

    Worked by hand: in a plain 7-table Mitchell (3 boards a round) NS pair t plays set
    (t − 1 + r) mod 7 in round r + 1, so without round 3 each NS pair misses a different set
    (t + 1 mod 7), likewise each EW pair: any two pairs of one field share 7 − 2 = 5 sets,
    15 boards, always in the same direction and never meeting: competition 15 for every
    two pairs of a field. Nobody sits out a round that is played."""
    m = mitchell(7, 3)
    gone = replace(m, rows=tuple(r for r in m.rows if r.round != 3))
    b = check_movement(gone).balance["A"]
    assert b.sit_outs == (0, 0)
    assert b.field_competition == (15.0, 0.0, 15.0, 15.0)
    report = format_report(check_movement(gone))
    assert "sit-out rounds per pair 0-0" in report
    assert "competition within each field (Manning): mean 15.00, sd 0.00, range 15..15" in report
    assert "range -" not in report
    # one winner (arrow-switched): the whole field still competes, as movements.md §4.4 says
    switched = check_movement(mitchell(7, 3, arrow_switch=True)).balance["A"]
    assert switched.field_competition is None and switched.competition is not None


def test_the_grid_of_an_arrow_switched_mitchell_keeps_ns_then_ew_and_marks_the_switch():
    """Review R3 (issue 13 "arrow-switch rounds with labels"): the grid printed a switched
    round seat by seat, "2-1 9-10" at table 1, which a TD reads as NS 2 against EW 1.

    Worked by hand: a plain 5-table Mitchell moves EW up one table a round, so in round 5
    table t holds NS t against EW t + 1 (EW 1 at table 5), on set 5 at table 1 (boards
    9-10), set t − 1 at table t. The balance search switches round 5 (the last; ties go to
    later rounds): still "1-2 9-10", marked *."""
    grid_text = run(
        "movement", "mitchell", "--tables", 5, "--boards-per-round", 2, "--arrow-switch"
    ).output
    lines = grid_text.splitlines()
    assert "(* arrows switched: the EW pair sits NS, the NS pair EW)" in lines
    last = next(line for line in lines if line.strip().startswith("5 "))
    assert last.split() == [
        "5",
        "1-2",
        "9-10*",
        "2-3",
        "1-2*",
        "3-4",
        "3-4*",
        "4-5",
        "5-6*",
        "5-1",
        "7-8*",
    ]


def test_a_large_arrow_switched_mitchell_is_made_in_bounded_work(monkeypatch):
    """Review R3: the arrow-switch search tried every choice of up to a quarter of the
    rounds; 21 tables took ~50 s and 25 tables (C(25, 1..6) ≈ 245,000 choices) hours, so
    `event create` with `arrow_switch = true` hung. Beyond 6,000 choices rounds are now
    added one at a time: 25 tables, at most a quarter (6) switched, is 25 + 24 + … + 20 =
    135 choices scored."""
    import hub.event.movement.mitchell as gen

    calls = 0
    real = gen.spread

    def counted(*args, **kwargs):
        nonlocal calls
        calls += 1
        assert calls <= 1000, "the arrow-switch search tries every choice of rounds"
        return real(*args, **kwargs)

    monkeypatch.setattr(gen, "spread", counted)
    m = gen.mitchell(25, 1, arrow_switch=True)
    assert calls == 135
    assert m.layout.winners == 1 and 1 <= len({r for r, _ in m.layout.arrow_switch}) <= 6
    assert check_movement(m).ok


def test_a_mitchell_of_more_than_500_tables_is_refused_at_once():
    """Review R3: `tables = 7000` (a typo) built 49 million rows before any check."""
    with pytest.raises(MovementError, match="a Mitchell here has 2 to 500 tables"):
        mitchell(7000, 2)


def test_the_grid_of_a_13_pair_howell_says_what_0_is():
    """Review R3: a 13-pair Howell's grid printed "0-13 25-26" with no word that 0 is the
    sit-out (the Mitchell grid said it): 7 tables seat 14 pairs, one seat is empty."""
    lines = run("movement", "howell", "--pairs", 13, "--boards-per-round", 2).output.splitlines()
    assert lines[1] == "(NS-EW: NS pair, EW pair; 0 = sit out)"
    full = run("movement", "howell", "--pairs", 14, "--boards-per-round", 2).output
    assert "0 = sit out" not in full
