"""Pairs during the session against a real hub (issue13 "Late pairs…", "Names"; TD trial
F17): a 7-pair Mitchell (four tables, one pair sits out each round) on SQLite with its
API, the console over the WebSocket with the TD PIN, driven by keys through Textual's
pilot. The TD types a pair's names and member numbers, a substitute plays for
one of them, a late pair arrives for round 2
and takes the sit-out's place, a pair leaves from round 3, and the section changes to
another movement from round 4; each confirmed, each answered by the hub on the Pairs tab,
the names in the store."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from console_pilot import confirm, quiet, type_text
from event_text import one_section_event
from hub_stub import wait_until
from textual.widgets import DataTable, Input, Static

from hub.api.client import websocket_source
from hub.console.app import ConsoleApp
from hub.console.choice import ChoiceScreen
from hub.console.desk_form import FormScreen
from hub.console.pairs_forms import EditPairForm, LatePairForm, MovementForm, WithdrawForm
from hub.live.service.hub_service import HubService
from hub.store.store import Store

MITCHELL_7 = one_section_event(
    "Pairs evening", 'kind = "mitchell", pairs = 7, boards_per_round = 2'
) + "".join(
    f"""
[[sessions.sections.pairs]]
number = {n}
direction = "{d}"
players = [{{ name = "{d} {n} first" }}, {{ name = "{d} {n} second" }}]
"""
    for d, n in [("NS", 1), ("NS", 2), ("NS", 3), ("NS", 4), ("EW", 1), ("EW", 2), ("EW", 3)]
)


def status(app: ConsoleApp) -> str:
    return str(app.query_one("#pairs-status", Static).render())


@pytest.mark.slow
def test_names_a_late_pair_and_a_withdrawal_from_the_console_on_a_real_hub(
    tmp_path: Any,
) -> None:
    async def scenario() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(MITCHELL_7)
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
                await pilot.press("a")
                pairs = app.query_one("#pairs-table", DataTable)
                await wait_until(lambda: pairs.row_count >= 7, 5, "the seven pairs")
                first = pairs.get_row_at(0)

                await pilot.press("enter")  # the first pair: names and member numbers
                await wait_until(lambda: isinstance(app.screen, ChoiceScreen), 5, "choices")
                await pilot.press("enter")
                await wait_until(lambda: isinstance(app.screen, EditPairForm), 5, "the form")
                form = app.screen
                assert form.query_one("#f-name1", Input).value == "NS 1 first"  # as stored
                form.query_one("#f-name1", Input).value = "Anna Berg"
                form.query_one("#f-name2", Input).value = "Bo Ek"
                form.query_one("#f-number1", Input).focus()
                await type_text(pilot, "101")
                await confirm(app, pilot)
                await wait_until(
                    lambda: not isinstance(app.screen, FormScreen), 10, "the hub's reply"
                )
                assert "done" in status(app), status(app)
                await wait_until(
                    lambda: pairs.get_row_at(0)[3] == "Anna Berg & Bo Ek", 5, "the names"
                )
                assert pairs.get_row_at(0)[4] == "101, -"

                await pilot.press("enter", "down", "enter")  # a substitute for player 2
                await wait_until(lambda: isinstance(app.screen, FormScreen), 5, "the form")
                await pilot.press("2", "enter")
                await type_text(pilot, "Eva Fors")
                await pilot.press("enter", "7", "enter")
                await confirm(app, pilot)
                await wait_until(
                    lambda: not isinstance(app.screen, FormScreen), 10, "the hub's reply"
                )
                await wait_until(
                    lambda: pairs.get_row_at(0)[3] == "Anna Berg & Eva Fors", 5, "the substitute"
                )
                assert pairs.get_row_at(0)[4] == "101, 7"

                await app.command("next_round", "next round in A", section="A")
                await wait_until(
                    lambda: app.room.sections["A"]["round"] == 2, 10, "round 2 on the console"
                )
                await pilot.press("a")  # on the Pairs tab: the late pair, from round 2
                await wait_until(lambda: isinstance(app.screen, LatePairForm), 5, "the form")
                await type_text(pilot, "Cy Dahl")
                await pilot.press("enter", "enter")
                await type_text(pilot, "Di Ek")
                await confirm(app, pilot)
                await wait_until(
                    lambda: not isinstance(app.screen, FormScreen), 10, "the hub's reply"
                )
                assert "added" in status(app), status(app)

                await pilot.press("home", "enter")  # the first pair leaves from round 3
                await wait_until(lambda: isinstance(app.screen, ChoiceScreen), 5, "choices")
                await pilot.press("down", "down", "enter")
                await wait_until(lambda: isinstance(app.screen, WithdrawForm), 5, "the form")
                await confirm(app, pilot)
                await wait_until(
                    lambda: not isinstance(app.screen, FormScreen), 10, "the hub's reply"
                )
                assert "withdrawn from round 3: done" in status(app), status(app)
                await wait_until(
                    lambda: "withdrawn from round 3" in str(pairs.get_row_at(0)[5]),
                    5,
                    "the withdrawal on the Pairs tab",
                )

                await pilot.press("M")  # a 4-table Mitchell again from round 4
                await wait_until(lambda: isinstance(app.screen, MovementForm), 5, "the form")
                app.screen.query_one("#f-from_round", Input).value = "4"
                await type_text(pilot, "mitchell")
                await pilot.press("enter", "4", "enter", "enter", "2")
                await confirm(app, pilot)
                await wait_until(
                    lambda: not isinstance(app.screen, FormScreen),
                    10,
                    "the hub's reply to the movement change",
                )
                assert "from round 4: done" in status(app), status(app)
                await quiet(app, pilot)
        finally:
            await hub.stop()
        players = {
            int(c["number"]): [p.get("name") for p in c["players"] or []]
            for c in store.contestants(eid, "A")
        }
        assert players[int(str(first[1]).split()[-1])] == ["Anna Berg", "Eva Fors"]
        assert ["Cy Dahl", "Di Ek"] in players.values()

    asyncio.run(scenario())
