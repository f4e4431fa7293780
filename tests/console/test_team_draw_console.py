"""Issue 16 [TEAMS], decisions D19: the director reviews and publishes a draw from the
console (``D``). Real parts: the hub with its API on SQLite, the console over the WebSocket
with the PIN, a Danish of 4 teams whose round 1 is drawn by the teams' average
masterpoints (seed 001): 4, 2, 3, 1 by masterpoints, so 4 v 2 and 3 v 1, the higher-ranked
team at home; the Matches tab says the room waits for the draw until it is published."""

from __future__ import annotations

import asyncio

import pytest
from console_pilot import popup_shows, popup_title
from hub_stub import wait_until
from team_events import MASTERPOINT_TEAMS, drawn_event
from textual.widgets import DataTable, Static

from hub.api.client import websocket_source
from hub.console.app import ConsoleApp
from hub.console.matches import draw_notes, drawn_now
from hub.live.service.hub_service import HubService
from hub.store.store import Store


@pytest.mark.slow
def test_the_director_shows_and_publishes_the_draw_with_d(tmp_path):
    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(drawn_event("danish", 4, 3) + "\n" + MASTERPOINT_TEAMS)
        hub = HubService(store, eid, [], api=("127.0.0.1", 0), td_pin="1357", tick_s=0.2)
        await hub.start()
        try:
            source, send = websocket_source(f"ws://127.0.0.1:{hub.api.port}/v1", "1357")
            app = ConsoleApp(source, send, refresh_s=0.05)
            async with app.run_test(size=(120, 40)) as pilot:
                await wait_until(
                    lambda: "director session opened" in app.room.log, 10, "the TD session"
                )
                room = app.query_one("#room-table", DataTable)  # [MENDS] #25: not "sit out"
                await wait_until(lambda: room.row_count == 4, 10, "the Room's 4 tables")
                assert [str(c) for c in room.get_row_at(0)][3:6] == ["waiting for", "the draw", ""]
                await pilot.press("x")  # the Matches tab says what the room waits for
                await wait_until(
                    lambda: (
                        "round 1 waits for its danish draw: D shows it"
                        in str(app.query_one("#matches-note", Static).render())
                    ),
                    10,
                    "the note that round 1 waits for its draw",
                )
                await pilot.press("D")
                await popup_shows(app, "Section A, round 1: the draw")
                shown = popup_title(app)
                assert "1. tables 1/2: 4 Foxes v 2 Bears" in shown
                assert "2. tables 3/4: 3 Owls v 1 Lions" in shown
                assert "repeats: 0" in shown
                await pilot.press("enter")  # "Publish round 1's draw"
                await wait_until(
                    lambda: any("round 1's draw in section A: done" in x for x in app.room.log),
                    10,
                    "the hub's reply to the publication",
                )
                movement = hub.sections["A"].movement
                assert movement.layout.drawn == 1
                await wait_until(
                    lambda: [str(c) for c in room.get_row_at(0)][3:6] == ["4", "2", "0/2"],
                    10,
                    "table 1 seating team 4 NS and team 2 EW once drawn",
                )
                snap = (await hub.snapshot())["sections"]["A"]
                assert snap["draw"]["waiting"] is False  # round 1 in play: nothing waits
                assert movement.row("A", 1, 1).ns_pair == 4
                await pilot.press("D")  # round 2 waits for round 1 at the tables
                await wait_until(
                    lambda: any(
                        "drawn from the standings after round 1" in x for x in app.room.log
                    ),
                    10,
                    "the refusal in the log",
                )
                await pilot.press("x")
                note = app.query_one("#matches-note", Static)
                table = app.query_one("#matches-table", DataTable)
                await wait_until(lambda: table.row_count == 2, 10, "round 1's matches")
                assert [str(c) for c in table.get_row_at(0)][4:6] == ["4 Foxes", "2 Bears"]
                assert "waits for its" not in str(note.render())
                await pilot.press("W")
                await popup_shows(app, "Team of section A that withdraws")
                await pilot.press("3", "enter")
                # [MENDS] #25: the dialog names the team; it leaves round 1's match, not
                # begun, so its opponent (1 Lions) gets a bye, told in the log
                await popup_shows(app, "Team 3 Owls withdraws from section A")
                await pilot.press("enter")  # "Withdraw team 3 Owls"
                await wait_until(
                    lambda: any(
                        "team 3 Owls of section A withdrawn: done" in x for x in app.room.log
                    ),
                    10,
                    "the hub's reply to the withdrawal",
                )
                said = "Section A round 1: team 1 Lions gets a bye, 0 VP now"
                await wait_until(
                    lambda: any(said in x for x in app.room.log), 10, "the opponent's bye"
                )
                assert hub.sections["A"].movement.layout.withdrawn == ((3, 1),)
        finally:
            await hub.stop()
            store.close()

    asyncio.run(scenario())


def test_the_matches_tab_says_when_the_room_waits_for_the_next_draw():
    """The snapshot's ``draw`` follows the feed: a round over with its next round not drawn
    yet waits (the note names the key); a published draw ends the wait; the last round
    waits for nothing."""
    sec = {"rounds": 3, "draw": {"method": "monrad", "drawn": 1, "waiting": False}}
    sec["draw"] = drawn_now(sec["draw"], {"event": "round_complete", "round": 1}, 3)
    assert draw_notes({"A": sec}) == [
        "Section A: round 2 waits for its monrad draw: D shows it, to publish"
    ]
    sec["draw"] = drawn_now(sec["draw"], {"event": "draw_published", "round": 2}, 3)
    assert draw_notes({"A": sec}) == []
    sec["draw"] = drawn_now({"method": "monrad", "drawn": 3}, {"round": 3}, 3)
    assert draw_notes({"A": sec}) == []
