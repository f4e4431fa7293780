"""[MENDS] #25 item 4 (TD trial turn 3 G8): one label per pair everywhere. The late pair was
``EW 7`` in the standings, the report and the web, but ``14`` in the console's Pairs tab
and Room until a restart; and the Pairs tab's numbers column was empty for pairs whose
member numbers the event file holds. A real hub on SQLite with its API and the console
over the WebSocket.

The event (tests/late_pair_event.py): a 3-table Mitchell with EW 3 missing, so NS 3 sits
out; NS 1-3 are the hub's pairs 1-3, EW 1-2 its pairs 4-5, and the late pair takes the
sit-out's number, 6: EW 3. Player 1 of each pair has member number 100 + its number."""

from __future__ import annotations

import asyncio
from typing import Any

from hub_stub import wait_until
from late_pair_event import five_pairs

from hub.api.client import websocket_source
from hub.console.app import ConsoleApp
from hub.console.rows import room_rows
from hub.live.service.hub_service import HubService
from hub.store.store import Store


def pairs_tab(app: ConsoleApp) -> dict[str, tuple[Any, ...]]:
    """The Pairs tab's rows by key: section, label, direction, names, numbers, note."""
    return dict(app.pairs_book.rows(app.room.sections))


async def started(tmp_path: Any) -> tuple[Store, HubService]:
    """The event in a new SQLite store and its hub, serving its API."""
    file = five_pairs(tmp_path)
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(file.read_text("utf-8"), base_dir=tmp_path)
    hub = HubService(store, eid, [], api=("127.0.0.1", 0), td_pin="1357", tick_s=0.2)
    await hub.start()
    return store, hub


async def console_of(app: ConsoleApp) -> None:
    """The console has the hub's snapshot and the director's session."""
    await wait_until(lambda: app.room.sections, 10, "the hub's snapshot")
    await wait_until(lambda: "director session opened" in app.room.log, 10, "the TD session")


def test_the_late_pair_is_ew_3_on_the_console_at_once_and_the_numbers_show(tmp_path: Any):
    """The event file's member numbers in the numbers column (NS 1: 101 and none for its
    partner; EW 2, the hub's pair 5: 105). A late pair from round 2 takes the sit-out's
    place (round 2: table 1, NS 1 v the sit-out): the Pairs tab says ``EW 3`` with its
    names and numbers at once, and in round 2 the Room's EW column at table 1 says ``3``,
    with no restart; the snapshot a new console reads says the same."""

    async def scenario() -> None:
        store, hub = await started(tmp_path)
        try:
            assert hub.api is not None
            source, send = websocket_source(f"ws://127.0.0.1:{hub.api.port}/v1", "1357")
            app = ConsoleApp(source, send, refresh_s=0.05)
            async with app.run_test(size=(120, 40)) as pilot:
                await console_of(app)
                rows = pairs_tab(app)
                assert rows["pair:A:1"][1:5] == ("NS 1", "NS", "Anna Berg & Partner 1", "101, -")
                assert rows["pair:A:5"][1:5] == ("EW 2", "EW", "Ivar Jung & Partner 5", "105, -")
                await app.command(
                    "add_pair",
                    "late pair",
                    section="A",
                    from_round=2,
                    players=[{"name": "Bertil Late", "number": "1027"}, {"name": "Carin Late"}],
                )
                await wait_until(lambda: "pair:A:6" in pairs_tab(app), 10, "the late pair")
                await wait_until(
                    lambda: pairs_tab(app)["pair:A:6"][1] == "EW 3", 10, "the late pair's label"
                )
                late = pairs_tab(app)["pair:A:6"]
                assert late[1:5] == ("EW 3", "EW", "Bertil Late & Carin Late", "1027, -")
                await app.command("next_round", "next round in A", section="A")
                await wait_until(lambda: app.room.sections["A"]["round"] == 2, 10, "round 2")
                await wait_until(
                    lambda: room_rows(app.room)["A:1"][3:5] == ("1", "3"), 10, "EW 3 at table 1"
                )
                app.workers.cancel_all()
                await pilot.pause(0.3)
            snapshot = await hub.snapshot()
            entry = snapshot["sections"]["A"]["pairs"]["6"]
            assert entry["label"] == "EW 3" and entry["players"] == [
                {"name": "Bertil Late", "number": "1027"},
                {"name": "Carin Late"},
            ]
        finally:
            await hub.stop()
            store.close()

    asyncio.run(scenario())


def test_a_late_pair_from_the_round_being_played_is_seated_in_the_room_at_once(tmp_path: Any):
    """From round 1 itself (nothing played yet): table 3's sit-out, NS 3 v nobody, becomes
    NS 3 v EW 3 in the Room as soon as the hub answers, not at the next round."""

    async def scenario() -> None:
        store, hub = await started(tmp_path)
        try:
            assert hub.api is not None
            source, send = websocket_source(f"ws://127.0.0.1:{hub.api.port}/v1", "1357")
            app = ConsoleApp(source, send, refresh_s=0.05)
            async with app.run_test(size=(120, 40)) as pilot:
                await console_of(app)
                assert room_rows(app.room)["A:3"][3:5] == ("3", "sit out")
                players = [{"name": "Bertil Late"}, {"name": "Carin Late"}]
                await app.command("add_pair", "late", section="A", from_round=1, players=players)
                await wait_until(
                    lambda: room_rows(app.room)["A:3"][3:5] == ("3", "3"), 10, "EW 3 at table 3"
                )
                app.workers.cancel_all()
                await pilot.pause(0.3)
        finally:
            await hub.stop()
            store.close()

    asyncio.run(scenario())
