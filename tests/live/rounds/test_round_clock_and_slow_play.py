"""The round clock and the slow-play watch, with injected time (seconds)."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from drivers.clock.show import Phase
from hub.live.rounds.round_clock import RoundClock, RoundTiming
from hub.live.rounds.slow_play import (
    TableRound,
    late_arrival_minutes,
    lateness_minutes,
    minutes_behind,
    minutes_off_pace,
    propose,
)
from scoring.penalties import PenaltyUnit, scale_from_data

MIN = 60.0


def test_seed004_a_half_of_10_boards_is_75_minutes_rounded_to_5():
    """Seed 004: 7.5 min a board, the total rounded up to the next 5 minutes."""
    t = RoundTiming(7.5, round_up_to_minutes=5)
    assert t.allowed_seconds(10) == 75 * MIN
    assert t.allowed_seconds(7) == 55 * MIN  # 52.5 → 55
    assert RoundTiming(7.5, round_up_to_minutes=5, extra_minutes=5).allowed_seconds(7) == 60 * MIN


def test_seed000_ten_boards_in_80_minutes():
    assert RoundTiming(8.0).allowed_seconds(10) == 80 * MIN


def clock3():
    return RoundClock(RoundTiming(7.5, move_minutes=2), {1: 3, 2: 3, 3: 3})


def test_phases_warnings_and_move():
    c = clock3()
    c.start_round(1, 1000.0)
    allowed = 23 * MIN  # 3 × 7.5 = 22.5, rounded up to whole minutes
    assert c.show(1000.0).phase is Phase.PLAY and c.show(1000.0).seconds_left == allowed
    assert c.show(1000 + allowed - 7.5 * MIN).phase is Phase.LAST_BOARD  # start your last
    assert c.show(1000 + allowed - 3 * MIN).phase is Phase.NO_NEW_BOARD
    move = c.show(1000 + allowed + 30)
    assert move.phase is Phase.MOVE and move.seconds_left == 90
    over = c.show(1000 + allowed + 3 * MIN)
    assert over.phase is Phase.NO_NEW_BOARD and over.seconds_left < 0


def test_pause_adjust_extend_and_break():
    c = clock3()
    c.start_round(1, 0.0)
    c.pause(60.0)
    assert c.show(600.0).phase is Phase.PAUSED
    c.resume(600.0)
    assert c.play_seconds(660.0) == 120.0  # 9 paused minutes do not count
    c.adjust(-30, 700.0)
    c.extend(5, 700.0)
    assert c.seconds_left(700.0) == 23 * MIN + 5 * MIN - 30 - 160
    assert c.allowed_seconds(1) == 28 * MIN
    c.start_break(10, 800.0)
    brk = c.show(900.0)
    assert brk.phase is Phase.BREAK and brk.seconds_left == 500
    c.resume(1400.0)
    assert c.show(1400.0).phase is not Phase.BREAK


def test_predicted_finish_and_a_restart_gives_the_same_clock():
    c = clock3()
    c.start_round(1, 0.0)
    c.pause(300.0)
    c.resume(360.0)
    assert c.predicted_finish(360.0, 3) == 360.0 + (23 * MIN - 300) + 2 * (2 * MIN + 23 * MIN)
    replayed = RoundClock(c.timing, c.boards_per_round)
    for ev in c.events:
        replayed.apply(ev)
    assert replayed.show(400.0) == c.show(400.0)


def test_clock_refuses_nonsense():
    c = clock3()
    with pytest.raises(ValueError, match="no round has started"):
        c.pause(1.0)
    with pytest.raises(ValueError, match="round 9 is not in the movement"):
        c.start_round(9, 1.0)


def test_an_event_stamped_before_the_last_one_counts_at_the_last_ones_time():
    """D10 (the clock is a fold over its stored events, the same after a restart) with a
    wall clock set back 4 s: the pause came after the start, so it counts at the start's
    time (not refused, not before it); the clock is read no earlier than its last event,
    and the same events replayed give the same clock."""
    c = clock3()
    c.start_round(1, 5.0)
    c.pause(1.0)  # the wall clock went back 4 s
    assert [ev.at for ev in c.events] == [5.0, 5.0]
    held = c.show(3.0)  # read before the last event: as at the last event
    assert held.phase is Phase.PAUSED and held.seconds_left == 23 * MIN
    c.resume(65.0)
    assert c.play_seconds(125.0) == 60.0  # 60 s paused (5 → 65) do not count
    replayed = RoundClock(c.timing, c.boards_per_round)
    for ev in [*c.events[:1], replace(c.events[1], at=1.0), *c.events[2:]]:
        replayed.apply(ev)  # as stored: the pause at the wall clock's 1.0
    assert replayed.events == c.events and replayed.show(125.0) == c.show(125.0)


SCALES = tomllib.loads(
    (Path(__file__).parents[3] / "examples" / "penalty_scales.toml").read_text("utf-8")
)


def test_a_quick_table_is_shown_ahead_of_an_even_pace():
    """7.5 minutes a board: board 1 done at 5 minutes is 2.5 minutes ahead until board 2
    falls due at 15; a minute after that, with board 2 still open, 1 minute behind."""
    start, per_board = 0.0, 7.5 * MIN
    tr = TableRound("A", 2, 1, (1, 2, 3), 2, 9)
    assert minutes_off_pace(tr, start, per_board, 4 * MIN) == 0  # nothing done yet
    tr.finished_at[1] = 5 * MIN
    assert minutes_off_pace(tr, start, per_board, 6 * MIN) == pytest.approx(-2.5)
    assert minutes_off_pace(tr, start, per_board, 14 * MIN) == pytest.approx(-2.5)
    assert minutes_off_pace(tr, start, per_board, 16 * MIN) == pytest.approx(1.0)


def test_slow_table_flagged_and_seed002_penalty_proposed():
    """Seed 002: allowed time from the official start; 6 minutes late → 1.5 VP."""
    start, per_board = 0.0, 7.5 * MIN
    tr = TableRound("A", 4, 1, (1, 2, 3), 7, 14)
    assert minutes_behind(tr, start, per_board, 7 * MIN) == 0
    assert minutes_behind(tr, start, per_board, 10 * MIN) == pytest.approx(2.5)
    tr.finished_at.update({1: 9 * MIN, 2: 18 * MIN})
    assert minutes_behind(tr, start, per_board, 24 * MIN) == pytest.approx(1.5)
    tr.finished_at[3] = 28.5 * MIN
    assert lateness_minutes(tr, start, 22.5 * MIN) == pytest.approx(6.0)
    scale = scale_from_data(SCALES["seed002_slow_play_qualifying"])
    p = propose(tr, scale, 6.0, offences=1)
    assert p is not None and p.penalty.amount == 1.5 and p.penalty.unit is PenaltyUnit.VP
    assert "table 4 round 1: 6.0 min late" in p.text and "NS 7, EW 14" in p.text


def test_on_time_table_gets_no_proposal_and_late_arrival_is_measured():
    tr = TableRound("A", 1, 2, (4, 5, 6), 1, 8, first_action_at=3 * MIN)
    tr.finished_at.update({4: 6 * MIN, 5: 12 * MIN, 6: 20 * MIN})
    assert lateness_minutes(tr, 0.0, 22.5 * MIN) < 0
    scale = scale_from_data(SCALES["seed002_slow_play_qualifying"])
    assert propose(tr, scale, lateness_minutes(tr, 0.0, 22.5 * MIN), 1) is None
    assert late_arrival_minutes(tr, 0.0) == 3.0
    warn = propose(
        tr, scale_from_data(SCALES["seed002_late_arrival_qualifying"]), 3.0, 1, "late_arrival"
    )
    assert warn.penalty.unit is PenaltyUnit.WARNING
