"""One thread owns the hub's state, and it never waits for the disk (issue [HOUSE],
decisions D17): every call into the store during a whole session — start, terminals'
results, the director's commands, snapshots for the console — runs in a worker thread,
never on the asyncio loop."""

from __future__ import annotations

import asyncio
import threading

from event_text import one_section_event
from hub_stub import wait_until
from room import simulated_room

from hub.live.service.hub_service import HubService
from hub.store.store import Store

EVENT = one_section_event("Loop", 'kind = "howell", tables = 3, boards_per_round = 2')


def watch_store(store: Store, loop_thread: int, on_loop: list[str]) -> None:
    """Every public method of this store notes when it is called on the loop's thread."""
    for name in dir(store):
        method = getattr(store, name)
        if name.startswith("_") or not callable(method):
            continue

        def watched(*args, __method=method, __name=name, **kwargs):
            if threading.get_ident() == loop_thread:
                on_loop.append(__name)
            return __method(*args, **kwargs)

        setattr(store, name, watched)


def test_no_store_call_runs_on_the_loop_in_a_whole_session(tmp_path):
    async def scenario():
        store, eid, line, station = simulated_room(tmp_path, EVENT)
        on_loop: list[str] = []
        watch_store(store, threading.get_ident(), on_loop)
        hub = HubService(store, eid, [str(line.path)], auto_advance=False)
        await hub.start()
        station.start()
        try:
            await wait_until(lambda: hub.rounds.controller("A").is_complete(1), 60, "round 1")
            row = hub.sections["A"].movement.row("A", 1, 1)
            assert row is not None
            board = row.boards[0]
            await hub.commands.dispatch(
                "enter_result",
                {"section": "A", "table": 1, "round": 1, "board": board, "ns_pair": row.ns_pair,
                 "ew_pair": row.ew_pair, "contract": "3NT", "declarer": "N", "result": "="},
                "TD Anna",
            )  # fmt: skip
            await hub.commands.dispatch("traveller", {"section": "A", "board": board}, "TD Anna")
            await hub.commands.dispatch("release_standings", {"section": "A"}, "TD Anna")
            await hub.commands.dispatch("pause", {"section": "A"}, "TD Anna")
            await hub.commands.dispatch("next_round", {"section": "A"}, "TD Anna")
            snapshot = await hub.snapshot()
            assert snapshot["sections"]["A"]["round"] == 2
        finally:
            await station.stop()
            await hub.stop()
            line.close()
        assert on_loop == [], f"store calls on the loop: {sorted(set(on_loop))}"
        store.close()

    asyncio.run(scenario())
