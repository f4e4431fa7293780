"""The round clock as a TD runs it (issue 13 "the director's desk", TD trial F20): round 1
waits for the director's start, results before the start count, a restart keeps what was
started; a break asked for during a round waits for the round's end (BCS-like) and starts
at once between rounds. The hub's clock is injected: nothing waits on real time."""

from __future__ import annotations

import asyncio

import pytest
from event_text import one_section_event

from hub.api.server import CommandError
from hub.live.rounds import round_controller as rc
from hub.live.service.hub_service import HubService
from hub.store.store import Store

# seed 004's time rule: 7.5 minutes a board; 2 boards a round is 900 s of play. The
# 3-table Howell plays boards 1-2 at every table in round 1, 3-4 in round 2.
EVENT = one_section_event("Desk", 'kind = "howell", tables = 3, boards_per_round = 2')
START = 1_900_000_000.0


class FakeClock:
    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def new_hub(store: Store, eid: int, clock: FakeClock) -> HubService:
    return HubService(
        store, eid, [], clock=clock, auto_advance=False, tick_s=3600, wait_for_director=True
    )


async def played(hub: HubService, table: int, rnd: int, board: int, at: float) -> None:
    """A terminal's result, accepted and verified by the opponents (D10: the board ends)."""
    await hub.rounds.handle("A", rc.ResultAccepted(table, rnd, board, at))
    await hub.rounds.handle("A", rc.Verified(table, rnd, board, at))


async def section(hub: HubService) -> dict:
    return (await hub.snapshot())["sections"]["A"]


def test_round_one_waits_for_the_director_and_early_results_count(tmp_path):
    """Issue 13: "the clock waits for the TD's start of round 1 (the room is not seated when
    the hub starts)". Waiting: the snapshot's clock phase is "waiting" with the round's full
    time (2 boards × 7.5 min = 900 s) and nothing counts down. A table that plays before
    the start is not punished: its result counts. ``start_clock`` starts the round; a hub
    restarted before the start still waits, one restarted after it runs on from the
    stored start (10 minutes after: 900 − 600 = 300 s left)."""

    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        clock = FakeClock()
        hub = new_hub(store, eid, clock)
        await hub.start()
        try:
            clock.now += 600  # ten minutes: people find their seats
            room = await section(hub)
            assert room["clock"] == {"phase": "waiting", "seconds_left": 900, "round": 1}
            assert room["between_rounds"] is False and room["final"] is False
            assert not [e for e in hub.feed.since(0) if e["event"] == "clock"]
            await played(hub, 2, 1, 1, clock.now)  # a table that started early
            room = await section(hub)
            assert next(t for t in room["tables"] if t["table"] == 2)["done"] == 1
            assert room["clock"]["phase"] == "waiting"  # one result does not start the round
        finally:
            await hub.stop()

        clock.now += 60
        again = new_hub(store, eid, clock)  # restarted before the director's start
        await again.start()
        try:
            assert (await section(again))["clock"]["phase"] == "waiting"
            out = await again.commands.dispatch("start_clock", {"section": "A"}, "TD Anna")
            assert out == {"round": 1, "seconds_left": 900}
            assert (await section(again))["clock"] == {"phase": "play", "seconds_left": 900}
        finally:
            await again.stop()

        clock.now += 600
        third = new_hub(store, eid, clock)  # restarted after it: the clock log replays
        await third.start()
        try:
            assert (await section(third))["clock"] == {"phase": "last_board", "seconds_left": 300}
        finally:
            await third.stop()
            store.close()

    asyncio.run(scenario())


def test_a_running_round_is_restarted_only_when_the_director_says_so(tmp_path):
    """F20: "`g` restarts the round's clock from full time with no confirmation". Refused
    with the time left (900 − 492 = 408 s = 6:48), so the console can ask; with
    ``restart: true`` it starts again from full time."""

    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        clock = FakeClock()
        hub = new_hub(store, eid, clock)
        await hub.start()
        try:
            await hub.commands.dispatch("start_clock", {"section": "A"}, "TD Anna")
            clock.now += 492
            with pytest.raises(
                CommandError,
                match=r"^round 1 of section A is running \(6:48 left\): restart its clock "
                r"from full time\? \(send restart: true\)$",
            ):
                await hub.commands.dispatch("start_clock", {"section": "A"}, "TD Anna")
            assert (await section(hub))["clock"]["seconds_left"] == 408  # unchanged
            restart = {"section": "A", "restart": True}
            assert (await hub.commands.dispatch("start_clock", restart, "TD Anna")) == {
                "round": 1,
                "seconds_left": 900,
            }
        finally:
            await hub.stop()
            store.close()

    asyncio.run(scenario())


def test_a_break_in_a_round_waits_for_its_end_and_between_rounds_starts_now(tmp_path):
    """F20: "`b` offers a break in the middle of a round". BCS-like: asked at 5 minutes
    into round 1 (a board played) a 10-minute break is scheduled for the round's end;
    the round's clock runs on (900 − 300 = 600 s). Round 2 starts with the break: 600 s of
    break, then its own 900 s of play; 60 s after the break, 840 s left, also after a
    restart. Between rounds (round 2 just begun, no board played; or round 2 complete,
    waiting for the director) a break starts now."""

    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        clock = FakeClock()
        hub = new_hub(store, eid, clock)
        await hub.start()
        try:
            with pytest.raises(CommandError, match="round 1 of section A has not started"):
                await hub.commands.dispatch("start_break", {"section": "A", "minutes": 10}, "TD")
            await hub.commands.dispatch("start_clock", {"section": "A"}, "TD")
            clock.now += 300
            await played(hub, 1, 1, 1, clock.now)
            assert (await section(hub))["between_rounds"] is False
            out = await hub.commands.dispatch("start_break", {"section": "A", "minutes": 10}, "TD")
            assert out == {"starts": "when round 1 ends", "round": 1, "minutes": 10}
            room = await section(hub)
            assert room["break_after_round"] == {"round": 1, "minutes": 10}
            assert room["clock"] == {"phase": "play", "seconds_left": 600}
            clock.now += 600
            await hub.commands.dispatch("next_round", {"section": "A"}, "TD")
            room = await section(hub)
            assert room["round"] == 2 and room["break_after_round"] is None
            assert room["clock"] == {"phase": "break", "seconds_left": 600}
            clock.now += 660
            assert (await section(hub))["clock"] == {"phase": "play", "seconds_left": 840}
        finally:
            await hub.stop()

        again = new_hub(store, eid, clock)
        await again.start()
        try:
            room = await section(again)
            assert room["clock"] == {"phase": "play", "seconds_left": 840}
            assert room["between_rounds"] is True  # 60 s into round 2, no board played
            out = await again.commands.dispatch("start_break", {"section": "A", "minutes": 5}, "TD")
            assert out["starts"] == "now" and out["phase"] == "break"
            assert (await section(again))["clock"] == {"phase": "break", "seconds_left": 300}
            clock.now += 300
            await played(again, 1, 2, 3, clock.now)
            assert (await section(again))["between_rounds"] is False  # a board played
            for table in (1, 2, 3):
                for board in (3, 4):
                    await played(again, table, 2, board, clock.now)
            room = await section(again)
            assert room["round"] == 2 and room["between_rounds"] is True  # waits for the TD
        finally:
            await again.stop()
            store.close()

    asyncio.run(scenario())
