"""Issue13's clock keys against the real hub (TD trial F20): round 1 waits for the
director's start and the console says which key starts it; g starts it at once; g again
asks first and the hub accepts the restart; a break asked during the round is answered.
Real parts: the hub with its API on SQLite, the console over the WebSocket with the PIN."""

from __future__ import annotations

import asyncio

from console_pilot import popup_shows, popup_title
from event_text import one_section_event
from hub_stub import wait_until
from textual.widgets import Static

from hub.api.client import websocket_source
from hub.console.app import ConsoleApp
from hub.live.service.hub_service import HubService
from hub.store.store import Store

HOWELL_3 = one_section_event("Clock keys", 'kind = "howell", tables = 3, boards_per_round = 2')


def clock(app) -> str:
    return str(app.query_one("#clock", Static).render())


def test_the_clock_keys_with_the_real_hub(tmp_path):
    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(HOWELL_3)
        hub = HubService(
            store, eid, [], api=("127.0.0.1", 0), td_pin="1357", tick_s=0.2, wait_for_director=True
        )
        await hub.start()
        try:
            source, send = websocket_source(f"ws://127.0.0.1:{hub.api.port}/v1", "1357")
            app = ConsoleApp(source, send, refresh_s=0.05)
            async with app.run_test(size=(120, 30)) as pilot:
                await wait_until(
                    lambda: "director session opened" in app.room.log, 10, "the TD session"
                )
                await wait_until(
                    lambda: "A: round 1 waits: press g to start" in clock(app),
                    10,
                    "round 1 waiting for the director",
                )
                await pilot.press("g")  # nothing runs: started at once
                await wait_until(
                    lambda: "clock of A started: done" in app.room.log, 10, "the start"
                )
                await wait_until(
                    lambda: "A: round 1/" in clock(app) and " play " in clock(app),
                    10,
                    "the running clock",
                )
                await pilot.press("g")
                await pilot.pause(0.2)
                await popup_shows(app, "Restart the clock of round 1 of A (play ")
                await pilot.press("enter")
                await wait_until(
                    lambda: "clock of A restarted from full time: done" in app.room.log,
                    10,
                    "the hub's reply to the restart",
                )
                await pilot.press("b")
                await pilot.pause(0.2)
                await popup_shows(app, "Break for every section")
                title = popup_title(app)
                await pilot.press("down", "enter")  # ten minutes
                await wait_until(
                    lambda: any(x.startswith("10-minute break in A: done") for x in app.room.log),
                    10,
                    "the hub's reply to the break",
                )
                await wait_until(
                    lambda: any(
                        n.message.startswith("10-minute break in A starts ")
                        for n in app._notifications
                    ),
                    10,
                    "the hub's answer shown: when the break starts",
                )
                assert title in (
                    "Break for every section",  # the round has just begun: between rounds
                    "Break for every section: it will start when round 1 of A ends",
                )
        finally:
            await hub.stop()

    asyncio.run(scenario())
