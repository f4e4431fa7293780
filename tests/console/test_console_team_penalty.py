"""[MENDS] #25 (TD trial G9, seed 000 §9: "No console key adds a procedural penalty (VP or
IMP: late line-up, mobile phone)"). At the console the director gives one with ``P`` or
from a table's Enter menu in the Room: the table, who pays, VP or IMP, the amount, the
reason, the round; the hub stores it confirmed and the team's standing drops by it.

Real parts: the hub with its API on SQLite, the console over the WebSocket with the PIN
(the Textual pilot). The Danish of tests/console/test_team_draw_console.py: round 1 is 4 Foxes v
2 Bears at tables 1 (Foxes NS: the open room) and 2 (Foxes EW), 3 Owls v 1 Lions at 3-4.
"""

from __future__ import annotations

import asyncio
from fractions import Fraction

import pytest
from console_pilot import popup_shows
from hub_stub import wait_until
from team_events import MASTERPOINT_TEAMS, drawn_event
from textual.widgets import DataTable

from hub.api.client import websocket_source
from hub.console.app import ConsoleApp
from hub.live.service.hub_service import HubService
from hub.store.store import Store


@pytest.mark.slow
def test_the_director_gives_a_vp_penalty_with_p_and_an_imp_one_from_the_room(tmp_path):
    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(drawn_event("danish", 4, 3) + "\n" + MASTERPOINT_TEAMS)
        hub = HubService(store, eid, [], api=("127.0.0.1", 0), td_pin="1357", tick_s=0.2)
        await hub.start()
        try:
            await hub.commands.dispatch("draw_publish", {"section": "A", "round": 1}, "TD")
            source, send = websocket_source(f"ws://127.0.0.1:{hub.api.port}/v1", "1357")
            app = ConsoleApp(source, send, refresh_s=0.05)
            async with app.run_test(size=(120, 40)) as pilot:
                await wait_until(
                    lambda: "director session opened" in app.room.log, 10, "the TD session"
                )
                room = app.query_one("#room-table", DataTable)
                await wait_until(
                    lambda: room.row_count == 4 and str(room.get_row_at(0)[3]) == "4",
                    10,
                    "round 1 seated in the Room",
                )
                await pilot.press("P")
                await popup_shows(app, "Penalty: the table in section A")
                await pilot.press("1", "enter")
                await popup_shows(app, "Penalty at table A1: who pays?")
                await pilot.press("enter")  # NS pays: team 4 Foxes
                await popup_shows(app, "Penalty to team 4 Foxes: in")
                await pilot.press("enter")  # in VP
                await popup_shows(app, "How many VP")
                await pilot.press("3", "enter")
                await popup_shows(app, "The reason")
                await pilot.press(*"mobile phone", "enter")
                await popup_shows(app, "Round (Enter: round 1")
                await pilot.press("enter")
                await popup_shows(
                    app, "team 4 Foxes at table A1, round 1: 3 VP off, for mobile phone"
                )
                await pilot.press("enter")  # "Give the penalty"
                await wait_until(
                    lambda: any("penalty of 3 VP to team 4 Foxes" in x and "done" in x
                                for x in app.room.log),
                    10,
                    "the hub's reply to the VP penalty",
                )  # fmt: skip
                vp_total = {r["team"]: Fraction(r["total"]) for r in hub.standings_rows("A")}
                # the Room's table 2 (Foxes EW), from its Enter menu: 6 IMP, late line-up
                await pilot.press("r")
                room.move_cursor(row=1)
                await pilot.press("enter")
                await popup_shows(app, "Table A2")
                await pilot.press("down", "down", "down", "enter")  # a procedural penalty
                await popup_shows(app, "Penalty at table A2: who pays?")
                await pilot.press("down", "enter")  # EW pays: team 4 Foxes
                await popup_shows(app, "Penalty to team 4 Foxes: in")
                await pilot.press("down", "enter")  # in IMP
                await pilot.press("6", "enter")
                await pilot.press(*"late line-up", "enter")
                await pilot.press("enter")  # round 1
                await popup_shows(app, "6 IMP off, for late line-up")
                await pilot.press("enter")
                await wait_until(
                    lambda: any("penalty of 6 IMP to team 4 Foxes" in x and "done" in x
                                for x in app.room.log),
                    10,
                    "the hub's reply to the IMP penalty",
                )  # fmt: skip
            return vp_total, store.penalties(eid)
        finally:
            await hub.stop()
            store.close()

    vp_total, penalties = asyncio.run(scenario())
    assert vp_total[4] == -3  # no board played yet: 0 VP less the penalty
    given = [
        (p["table"], p["round"], p["amount"], p["unit"], p["payer"], p["reason"], p["status"])
        for p in penalties
    ]
    assert given == [
        (1, 1, "3", "VP", "NS", "mobile phone", "confirmed"),
        (2, 1, "6", "IMP", "EW", "late line-up", "confirmed"),
    ]
