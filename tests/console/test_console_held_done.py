"""[MENDS] #25 (TD trial G9): "Tables where I accepted held results stayed at 5/6 in the
Room after the round had completed". A held result the director accepts is a board done at
its table in the console's Room, as one the table entered is: the hub's ``held_accepted``
says where it was played.

The hub runs whole behind tests/results_room.py's recording terminal port,
with its API and the console (the Textual pilot) over the WebSocket. Table 1 of a 3-table
Howell (2 boards a round) keys board 99, which it does not play: held. The director
accepts it as the table's first board; the Room then shows 1/2 at table 1.
"""

from __future__ import annotations

import asyncio
from functools import partial

from hub_stub import wait_until
from results_room import EVENT, Port, Room
from textual.widgets import DataTable

from hub.api.client import websocket_source
from hub.console.app import ConsoleApp
from hub.live.port import terminal_port as tp
from hub.live.service.hub_service import HubService
from hub.store.store import Store


def test_a_held_result_the_director_accepts_counts_as_done_in_the_room(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'held.db'}")
    eid = store.create_event(EVENT)

    async def scenario() -> tuple[str, str]:
        now = [1_900_000_000.0]
        hub = HubService(store, eid, [], clock=lambda: now[0], api=("127.0.0.1", 0), td_pin="1357")
        port = Port()
        await hub.start()
        hub.gateway.ports[port.name] = port  # type: ignore[assignment]
        hub.supervisor.spawn("test port requests", partial(hub.requests.serve, port))  # type: ignore[arg-type]
        room = Room(hub, port)
        try:
            await room.seat(1)
            source, send = websocket_source(f"ws://127.0.0.1:{hub.api.port}/v1", "1357")
            app = ConsoleApp(source, send, refresh_s=0.05)
            async with app.run_test(size=(120, 40)) as pilot:
                await wait_until(
                    lambda: "director session opened" in app.room.log, 10, "the TD session"
                )
                table = app.query_one("#room-table", DataTable)
                await wait_until(lambda: table.row_count == 3, 10, "the Room's 3 tables")
                assert (await room.result(1, 99)).outcome is tp.Outcome.HELD
                await wait_until(lambda: app.room.held, 10, "the held result at the console")
                before = str(table.get_row_at(0)[5])
                (alert,) = [a for a in room.events("alert") if a.get("held")]
                first = room.row(1).boards[0]
                await room.td("accept_held", result=alert["result"], rekey={"board": first})
                await wait_until(lambda: str(table.get_row_at(0)[5]) == "1/2", 10, "table 1 at 1/2")
                await pilot.pause(0.1)
                return before, str(table.get_row_at(0)[5])
        finally:
            await hub.stop()
            store.close()

    before, after = asyncio.run(scenario())
    assert (before, after) == ("0/2", "1/2")
