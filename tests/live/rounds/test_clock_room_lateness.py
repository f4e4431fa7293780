"""Lateness against the clock the room sees (decisions D10, TD trial F20: "after I took 21
minutes off with `-` the clock read `no new board -01:59` while the room said every table
was about 12 minutes *ahead*; no slow-play penalty was proposed for tables that finished
after the shortened clock"). Pauses and breaks do not count; the director's adjustments
and extensions do. Times in seconds, worked by hand in each docstring."""

from __future__ import annotations

import asyncio

import pytest
from event_text import one_section_event

from hub.live.rounds import round_controller as rc
from hub.live.rounds.round_clock import RoundClock, RoundTiming
from hub.live.rounds.slow_play import TableRound, lateness_minutes, minutes_off_pace
from hub.live.service.hub_service import HubService
from hub.store.store import Store

MIN = 60.0
PER_BOARD = 7.5 * MIN


def two_boards() -> RoundClock:
    """2 boards × 7.5 minutes = 15 minutes allowed a round (whole minutes)."""
    return RoundClock(RoundTiming(7.5), {1: 2, 2: 2})


def test_time_taken_off_makes_a_table_behind_and_late():
    """F20's case. Start at 0; table 1 finishes board 1 at 4 min; at 6 min the TD takes 21
    minutes off. At 10 min the room's clock shows 15 − 10 − 21 = −16 min. On that clock
    10 + 21 = 31 min are used: board 2 fell due at 15, so the table is 16.0 min behind
    (from the start alone it would be 3.5 min *ahead*: 4 − 7.5). It finishes at 12 min:
    12 + 21 = 33 min used of 15 allowed, 18.0 min late (from the start alone −3.0: no
    penalty)."""
    c = two_boards()
    c.start_round(1, 0.0)
    tr = TableRound("A", 1, 1, (1, 2), 6, 1)
    tr.finished_at[1] = 4 * MIN
    c.adjust(-21 * MIN, 6 * MIN)
    assert c.show(10 * MIN).seconds_left == -16 * MIN
    room = c.room_time(1)
    assert room is not None and room(10 * MIN) == 31 * MIN and room(4 * MIN) == 4 * MIN
    assert minutes_off_pace(tr, 0.0, PER_BOARD, 10 * MIN) == pytest.approx(-3.5)  # before
    assert minutes_off_pace(tr, 0.0, PER_BOARD, 10 * MIN, room) == pytest.approx(16.0)
    tr.finished_at[2] = 12 * MIN
    assert lateness_minutes(tr, 0.0, 15 * MIN) == pytest.approx(-3.0)  # before
    assert lateness_minutes(tr, 0.0, 15 * MIN, room) == pytest.approx(18.0)


def test_pauses_and_extensions_are_not_lateness():
    """Paused from 2 to 7 min (5 min), then 5 more minutes given (extend at 8 min): a table
    done at 18 min used 18 − 5 = 13 min of the clock and had 15 + 5 = 20: on the room's
    clock 13 − 5 (the extension) − 15 = −7.0, not late (from the start alone: +3.0)."""
    c = two_boards()
    c.start_round(1, 0.0)
    c.pause(2 * MIN)
    c.resume(7 * MIN)
    c.extend(5, 8 * MIN)
    tr = TableRound("A", 2, 1, (1, 2), 5, 2, {1: 9 * MIN, 2: 18 * MIN})
    assert c.seconds_left(18 * MIN) == 7 * MIN  # what the room sees: 20 − 13
    assert lateness_minutes(tr, 0.0, 15 * MIN) == pytest.approx(3.0)  # before
    assert lateness_minutes(tr, 0.0, 15 * MIN, c.room_time(1)) == pytest.approx(-7.0)


def test_a_round_after_a_scheduled_break_counts_from_the_breaks_end():
    """A 10-minute break asked for during round 1 starts when round 2 starts (at 1000 s);
    a table that ends round 2 at 1000 + 600 + 900 + 60 s used 960 s of its 900: 1.0 min
    late. The break ends by itself: 60 s into play after it, 840 s are left. Read after
    round 3's start the round-2 clock runs on as it stood. The predicted end of the session
    counts the break."""
    c = RoundClock(RoundTiming(7.5), {1: 2, 2: 2, 3: 2})
    c.start_round(1, 0.0)
    c.break_after_round(10, 300.0)
    assert c.scheduled_break() == (1, 10)
    # the session's end: 600 s left of round 1, the 10-minute break, rounds 2 and 3
    assert c.predicted_finish(300.0, 3) == 300.0 + 600 + 600 + 2 * 900
    c.start_round(2, 1000.0)
    assert c.scheduled_break() is None
    assert c.show(1300.0).phase.name == "BREAK" and c.show(1300.0).seconds_left == 300
    assert c.show(1660.0).phase.name == "PLAY" and c.show(1660.0).seconds_left == 840
    tr = TableRound("A", 3, 2, (3, 4), 4, 3, {3: 2000.0, 4: 2560.0})
    assert lateness_minutes(tr, 1000.0, 900.0, c.room_time(2)) == pytest.approx(1.0)
    c.start_round(3, 2600.0)
    assert c.room_elapsed(2, 2560.0) == 960.0 and c.room_elapsed(2, 2700.0) == 1100.0


SLOW = one_section_event("Slow", 'kind = "howell", tables = 3, boards_per_round = 2').replace(
    'scoring = "mp"',
    """scoring = "mp"
[rules.slow_play]
steps = [{ above_minutes = 0, up_to_minutes = 60, penalty = 10, unit = "percent_of_top" }]""",
)


def test_the_hub_proposes_a_penalty_against_the_shortened_clock(tmp_path):
    """F20 end to end: the round starts at 0 (no wait); board 1 done at table 1 at 4 min;
    the TD takes 21 minutes off at 6 min (``adjust_clock`` −1260 s). At 10 min the room
    view says table 1 is 16.0 min behind (31 − 15) and table 2, nothing done, 23.5 (31 −
    7.5). Table 1 ends at 12 min: 18.0 min late, the scale's 10 % proposed."""
    now = [0.0]

    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(SLOW)
        hub = HubService(store, eid, [], clock=lambda: now[0], auto_advance=False, tick_s=3600)
        await hub.start()
        try:

            async def played(table: int, board: int) -> None:
                await hub.rounds.handle("A", rc.ResultAccepted(table, 1, board, now[0]))
                await hub.rounds.handle("A", rc.Verified(table, 1, board, now[0]))

            now[0] = 4 * MIN
            await played(1, 1)
            now[0] = 6 * MIN
            await hub.commands.dispatch("adjust_clock", {"section": "A", "seconds": -1260.0}, "TD")
            now[0] = 10 * MIN
            room = (await hub.snapshot())["sections"]["A"]
            behind = {t["table"]: t["minutes_behind"] for t in room["tables"]}
            assert behind[1] == 16.0 and behind[2] == 23.5
            now[0] = 12 * MIN
            await played(1, 2)
            await asyncio.sleep(0)
            proposed = [e for e in hub.feed.since(0) if e["event"] == "penalty_proposed"]
            assert len(proposed) == 1 and proposed[0]["table"] == 1
            assert "18.0 min late" in proposed[0]["text"]
        finally:
            await hub.stop()
            store.close()

    asyncio.run(scenario())
