"""The director's round commands (issue [CONSOLE] "Clock: start … next round"): start the
round's clock when the room is seated, move a section on when the time is up whatever the
tables have done, and a restarted hub keeps both (the clock goes on from the stored clock
events). The hub's clock is injected: no waiting on real time."""

from __future__ import annotations

import asyncio

import pytest
from event_text import one_section_event

from hub.api.server import CommandError
from hub.live.service import HubService
from hub.store.store import Store

# seed 004's time rule: 7.5 minutes a board; 2 boards a round is 15 minutes of play
EVENT = one_section_event("Rounds", 'kind = "howell", tables = 3, boards_per_round = 2')


class FakeClock:
    def __init__(self, now: float = 1_900_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_start_clock_next_round_and_a_restart(tmp_path):
    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        clock = FakeClock()
        hub = HubService(store, eid, [], clock=clock, auto_advance=False)
        await hub.start()
        try:
            clock.now += 300  # five minutes of finding seats
            assert (await hub.snapshot())["sections"]["A"]["clock"]["seconds_left"] == 600
            out = await hub.commands.dispatch("start_clock", {"section": "A"}, "TD Anna")
            assert out == {"round": 1, "seconds_left": 900}  # 2 boards × 7.5 minutes
            assert hub.sections["A"].clock.official_start(1) == clock.now

            clock.now += 900
            moved = await hub.commands.dispatch("next_round", {"section": "A"}, "TD Anna")
            assert moved["round"] == 2
            assert {u["table"] for u in moved["unplayed"]} == {1, 2, 3}  # nothing entered
            events = hub.feed.since(0)
            names = [e["event"] for e in events]
            assert names.index("round_complete") < names.index("round_started")
            alert = next(e for e in events if e["event"] == "alert")
            assert "ended by the director; not played: table 1 boards" in alert["text"]
            assert any(e["event"] == "standings" and e["round"] == 1 for e in events)
            clock.now += 120
            assert (await hub.snapshot())["sections"]["A"]["clock"]["seconds_left"] == 780
        finally:
            await hub.stop()

        clock.now += 60  # the hub restarts a minute later
        again = HubService(store, eid, [], clock=clock, auto_advance=False)
        await again.start()
        try:
            room = (await again.snapshot())["sections"]["A"]
            assert room["round"] == 2  # not back to round 1, which was never finished
            assert room["clock"]["seconds_left"] == 720  # the clock ran on
            for _ in range(room["rounds"] - 2):
                await again.commands.dispatch("next_round", {"section": "A"}, "TD Anna")
            with pytest.raises(CommandError, match="is the last round of section A"):
                await again.commands.dispatch("next_round", {"section": "A"}, "TD Anna")
        finally:
            await again.stop()
            store.close()

    asyncio.run(scenario())
