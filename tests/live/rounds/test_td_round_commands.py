"""The director's round commands (issue [CONSOLE] "Clock: start … next round"): start the
round's clock when the room is seated, move a section on when the time is up whatever the
tables have done, and a restarted hub keeps both (the clock goes on from the stored clock
events). The hub's clock is injected: no waiting on real time."""

from __future__ import annotations

import asyncio

import pytest
from event_text import one_section_event

from hub.api.server import CommandError
from hub.live.service.hub_service import HubService
from hub.store.store import Store

# seed 004's time rule: 7.5 minutes a board; 2 boards a round is 15 minutes of play
EVENT = one_section_event("Rounds", 'kind = "howell", tables = 3, boards_per_round = 2')


class FakeClock:
    def __init__(self, now: float = 1_900_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_start_clock_next_round_and_a_restart(tmp_path):
    """Issue 13 "the director's desk": round 1 waits for the director's start (the room is
    not seated when the hub starts); a running round's clock is started again only when
    the director says restart; "next round" in the last round ends the session."""

    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        clock = FakeClock()
        hub = HubService(store, eid, [], clock=clock, auto_advance=False, wait_for_director=True)
        await hub.start()
        try:
            clock.now += 300  # five minutes of finding seats: the clock has not moved
            waiting = (await hub.snapshot())["sections"]["A"]["clock"]
            assert waiting == {"phase": "waiting", "seconds_left": 900, "round": 1}
            out = await hub.commands.dispatch("start_clock", {"section": "A"}, "TD Anna")
            assert out == {"round": 1, "seconds_left": 900}  # 2 boards × 7.5 minutes
            assert hub.sections["A"].clock.official_start(1) == clock.now
            clock.now += 130  # 900 - 130 = 770 s = 12:50 left
            with pytest.raises(
                CommandError, match=r"round 1 of section A is running \(12:50 left\)"
            ):
                await hub.commands.dispatch("start_clock", {"section": "A"}, "TD Anna")
            restart = {"section": "A", "restart": True}
            out = await hub.commands.dispatch("start_clock", restart, "TD Anna")
            assert out["seconds_left"] == 900  # from full time again

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
        again = HubService(store, eid, [], clock=clock, auto_advance=False, wait_for_director=True)
        await again.start()  # what was started stays started (the clock log replays)
        try:
            room = (await again.snapshot())["sections"]["A"]
            assert room["round"] == 2  # not back to round 1, which was never finished
            assert room["clock"]["seconds_left"] == 720  # the clock ran on
            for _ in range(room["rounds"] - 2):
                await again.commands.dispatch("next_round", {"section": "A"}, "TD Anna")
            await again.commands.dispatch("next_round", {"section": "A"}, "TD Anna")  # the end
            assert (await again.snapshot())["sections"]["A"]["final"] is True
            with pytest.raises(CommandError, match="last round of section A: the session is over"):
                await again.commands.dispatch("next_round", {"section": "A"}, "TD Anna")
            with pytest.raises(CommandError, match="the session of section A is over"):
                await again.commands.dispatch("start_clock", {"section": "A"}, "TD Anna")
        finally:
            await again.stop()
            store.close()

    asyncio.run(scenario())
