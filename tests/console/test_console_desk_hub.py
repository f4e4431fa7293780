"""The director's desk against a real hub (issue13 "Enter or assign a score for any table,
round and board…", TD trial F4): the hub on SQLite with its API, the console over the
WebSocket with the TD PIN, driven by keys through Textual's pilot. The director ends
round 1 before anyone played; the boards are listed as not played; one is scored from
its form, one elsewhere (it leaves the list too), the rest typed as a round's slips (one
line the hub refuses, shown on its line); the store has every score, entered by the TD."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from console_pilot import quiet, type_text
from event_text import one_section_event
from hub_stub import wait_until
from textual.widgets import DataTable, Input, Static

from hub.api.client import websocket_source
from hub.console.app import ConsoleApp
from hub.console.desk_score import ScoreForm
from hub.console.desk_slips import SlipsScreen
from hub.live.service.hub_service import HubService
from hub.store.store import Store

HOWELL_3 = one_section_event("Desk evening", 'kind = "howell", tables = 3, boards_per_round = 2')


@pytest.mark.slow
def test_boards_not_played_are_scored_from_the_console_on_a_real_hub(tmp_path: Any) -> None:
    async def scenario() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(HOWELL_3)
        hub = HubService(store, eid, [], api=("127.0.0.1", 0), td_pin="1357", tick_s=0.2)
        await hub.start()
        try:
            source, send = websocket_source(f"ws://127.0.0.1:{hub.api.port}/v1", "1357")
            app = ConsoleApp(source, send, refresh_s=0.05)
            async with app.run_test(size=(120, 40)) as pilot:
                await wait_until(lambda: app.room.sections, 10, "the hub's snapshot")
                await wait_until(
                    lambda: "director session opened" in app.room.log, 10, "the TD session"
                )
                await app.command("next_round", "next round in A", section="A")
                # three tables, two boards each: six boards nobody played in round 1
                await wait_until(lambda: len(app.not_played.boards) == 6, 10, "six boards")
                await pilot.press("e")
                desk = app.query_one("#desk-table", DataTable)
                await wait_until(lambda: desk.row_count == 6, 5, "the Scores tab's list")
                first = min(app.not_played.boards)
                await pilot.press("enter")
                await wait_until(lambda: isinstance(app.screen, ScoreForm), 5, "its form")
                await type_text(pilot, "4S")
                await pilot.press("enter", "n", "enter", "equals_sign", "enter")
                await type_text(pilot, "HA")
                await pilot.press("ctrl+s")
                await wait_until(
                    lambda: not isinstance(app.screen, ScoreForm), 10, "the hub's reply"
                )
                await wait_until(lambda: desk.row_count == 5, 5, "the scored board off the list")
                # a board scored elsewhere (the traveller tab, another console) leaves too
                other = sorted(app.not_played.boards)[-1]
                await app.command(
                    "enter_result",
                    "50/50 from elsewhere",
                    section="A",
                    table=other[1],
                    round=other[2],
                    board=other[3],
                    adjusted="50/50",
                )
                await wait_until(lambda: desk.row_count == 4, 10, "the board scored elsewhere")

                await pilot.press("k")  # the four left as a round's slips, and one wrong line
                await wait_until(lambda: isinstance(app.screen, SlipsScreen), 5, "the slips")
                slips = app.screen
                assert isinstance(slips, SlipsScreen) and slips.count == 4
                for text in ("A+/A-", "3NT S =", "PASS", "1/2 4S N =; 1/2 4S N -1"):
                    await type_text(pilot, text)
                    await pilot.press("enter")
                await pilot.pause(0.1)
                assert slips.count == 5  # Enter past the last line opened a new one
                await type_text(pilot, str(first[1]))  # the first board's table
                await pilot.press("enter", "1", "enter", "9", "9", "enter")
                await type_text(pilot, "4H E -1")
                await pilot.press("ctrl+s")
                await wait_until(
                    lambda: "stored" in str(slips.query_one("#slip-status", Static).render()),
                    10,
                    "the hub's answer per line",
                )
                assert "4 stored, 1 refused" in str(slips.query_one("#slip-status").render())
                refusal = str(slips.query_one("#m-4", Static).render())
                assert "99" in refusal, refusal  # board 99 is not in that table's round
                assert slips.query_one("#s-0", Input).disabled  # stored: not sent again
                await pilot.press("escape")
                await wait_until(lambda: desk.row_count == 0, 5, "every board scored")
                await quiet(app, pilot)
        finally:
            await hub.stop()
        live = store.live_results(eid, "A")
        assert len(live) == 6
        by_key = {(r.table, r.round, r.board): r for r in live}
        scored = by_key[first[1:]]
        assert (scored.contract, scored.declarer, scored.lead) == ("4S", "N", "HA")
        assert scored.tricks == 10  # 4S = : six and four
        assert sorted(r.adjusted or "" for r in live).count("A+/A-") == 1
        assert {r.entered_by for r in live} == {"TD console"}

    asyncio.run(scenario())
