"""[MENDS] #25 item 1 (TD trial turn 3 G3): after a ``kill -9`` and a restart with
``--clock-speed``, the round clock froze ("the computer's clock is 7581 s behind the round
clock's last stored event"). The stored clock events and the restarted hub's clock must read
one time base: the rehearsal time runs on at its speed, across the crash too (the room went
on playing at the rehearsal's pace). The wall clock is injected: nothing waits on real time."""

from __future__ import annotations

import asyncio

from event_text import one_section_event

from hub.live.rounds.clock_time_base import hub_clock
from hub.live.service.hub_service import HubService
from hub.store.store import Store

# seed 004's time rule: 7.5 minutes a board; 2 boards a round is 900 s of play
EVENT = one_section_event("Rehearsal", 'kind = "howell", tables = 3, boards_per_round = 2')
WALL = 1_900_000_000.0
SPEED = 15


class Wall:
    """The computer's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = WALL

    def __call__(self) -> float:
        return self.now


def new_hub(store: Store, eid: int, wall: Wall) -> HubService:
    """A hub as ``bridgehub run --clock-speed 15`` makes it: its clock from the store."""
    return HubService(
        store,
        eid,
        [],
        clock=hub_clock(store, eid, SPEED, wall),
        auto_advance=False,
        tick_s=3600,
        wait_for_director=True,
    )


async def clock_of(hub: HubService) -> dict:
    return (await hub.snapshot())["sections"]["A"]["clock"]


def test_a_rehearsal_hub_restarted_after_a_crash_runs_its_round_clock_on(tmp_path):
    """Wall seconds × 15: the TD starts round 1 20 wall-s after the hub (rehearsal 300 s);
    20 wall-s later (300 s played) the hub is killed; it is back 4 wall-s later (60 s more
    at the rehearsal's pace). The restarted clock shows 900 − 360 = 540 s left, counts down
    (4 wall-s more: 480 s) and tells the director nothing about a clock set back."""

    async def scenario() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        wall = Wall()
        hub = new_hub(store, eid, wall)
        await hub.start()
        wall.now += 20
        await hub.commands.dispatch("start_clock", {"section": "A"}, "TD Anna")
        wall.now += 20
        assert (await clock_of(hub))["seconds_left"] == 900 - 300
        await hub.stop()  # the store is all a killed hub leaves: nothing else is carried over

        wall.now += 4
        again = new_hub(store, eid, wall)
        await again.start()
        try:
            assert await clock_of(again) == {"phase": "play", "seconds_left": 540}
            wall.now += 4
            assert (await clock_of(again))["seconds_left"] == 480
            again.ticker.report_refused()
            texts = [a["text"] for a in (await again.snapshot())["alerts"]]
            assert not [t for t in texts if "behind" in t], texts
        finally:
            await again.stop()
            store.close()

    asyncio.run(scenario())


def test_a_real_session_keeps_the_wall_clock_and_stores_no_time_base(tmp_path):
    """At speed 1 with no rehearsal before, the hub's time is the computer's clock itself
    (decisions D10: a clock set back is still reported)."""
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(EVENT)
    wall = Wall()
    clock = hub_clock(store, eid, 1, wall)
    wall.now += 42
    assert clock() == WALL + 42
    assert store.clock_events(eid) == []
    store.close()


def test_a_rehearsals_time_is_never_carried_into_a_real_session_or_another_speed():
    """Review of [MENDS] G3: a store rehearsed at ``--clock-speed 10`` (its base: hub time
    1,000 at wall 1,000) and then run for real a day later reads the wall clock, not 10
    days ahead; a rehearsal at another speed goes on from the last event, not from the
    old speed's projection; the same speed after a crash continues the base."""
    import datetime as dt

    from hub.live.rounds.clock_time_base import KIND, resumed_base

    def at(t: float) -> dt.datetime:
        return dt.datetime.fromtimestamp(t, dt.UTC)

    day = 86_400.0
    records = [
        {
            "kind": KIND,
            "section": None,
            "at": at(1_000.0),
            "detail": {"wall": 1_000.0, "speed": 10},
        },
        {"kind": "start", "section": "A", "at": at(1_600.0), "detail": {}},
    ]
    assert resumed_base(records, 1_000.0 + day, 1).at(1_000.0 + day) == 1_000.0 + day
    other = resumed_base(records, 1_100.0, 5)
    assert other.at(1_100.0) == 1_600.0  # the last event, not 1,000 + 100 × 10
    crash = resumed_base(records, 1_070.0, 10)
    assert crash.at(1_070.0) == 1_700.0  # 1,000 + 70 × 10: the base goes on
