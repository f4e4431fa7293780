"""[MENDS] #25 item 2 (TD trial turn 3 G4, G5): the director's result never takes the place
of a stored one without asking, and the question names both. A held result accepted as
another board that has a result ("refused: accept with replace", with no replace offered)
asks and replaces; "score any board" over a terminal's result asks as accepting does; an
erasure on the traveller asks first. A real hub on SQLite with its API (the terminals'
results stored as a terminal's intake stores them, before the hub starts), and the
console over the WebSocket driven by keys through Textual's pilot.

Howell, 3 tables, 2 boards a round: table 1 plays boards 1-2 in round 1, NS 6 v EW 1."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from console_pilot import popup_shows, type_text
from event_text import one_section_event
from hub_stub import wait_until
from textual.widgets import DataTable, Input, OptionList

from hub.api.client import websocket_source
from hub.console.app import ConsoleApp
from hub.console.choice import ChoiceScreen
from hub.console.desk_score import ScoreForm
from hub.live.service.hub_service import HubService
from hub.store.store import ResultEntry, Store

EVENT = one_section_event("Desk", 'kind = "howell", tables = 3, boards_per_round = 2')
TD = "TD Anna"
Scenario = Callable[[HubService, ConsoleApp, Any], Awaitable[None]]


def terminals(board: int, contract: str, declarer: str, tricks: int) -> ResultEntry:
    """BM-0001's result at A1 round 1 (NS 6 v EW 1), with its submission key."""
    key = f"BM-0001/A/1/1/{board}/1"
    return ResultEntry("A", 1, 1, board, 6, 1, contract, declarer, None, tricks,
                       entered_by="BM-0001", submission_key=key)  # fmt: skip


def run_console(
    tmp_path: Any, scenario: Scenario, stored: list[ResultEntry], status: str = "accepted"
) -> None:
    """The terminals' results ``stored``, the hub with its API, and a logged-in console."""

    async def main() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        if stored:
            store.record(eid, stored, status=status)
        hub = HubService(store, eid, [], api=("127.0.0.1", 0), td_pin="1357", auto_advance=False)
        await hub.start()
        try:
            assert hub.api is not None
            source, send = websocket_source(f"ws://127.0.0.1:{hub.api.port}/v1", "1357")
            app = ConsoleApp(source, send, refresh_s=0.05)
            async with app.run_test(size=(120, 40)) as pilot:
                await wait_until(lambda: app.room.sections, 10, "the hub's snapshot")
                await wait_until(
                    lambda: "director session opened" in app.room.log, 10, "the TD session"
                )
                await scenario(hub, app, pilot)
                app.workers.cancel_all()
                await pilot.pause(0.3)
        finally:
            await hub.stop()
            store.close()

    asyncio.run(main())


def live(hub: HubService, board: int) -> list[Any]:
    return [r for r in hub.store.live_results(hub.event_id) if r.board == board]


async def pick(app: ConsoleApp, pilot: Any, label: str) -> None:
    """Choose the pop-up's option that starts with ``label``."""
    choices = app.screen.query_one(OptionList)
    labels = [str(choices.get_option_at_index(i).prompt) for i in range(choices.option_count)]
    index = next(i for i, x in enumerate(labels) if x.startswith(label))
    choices.highlighted = index
    await pilot.press("enter")
    await pilot.pause(0.1)


def test_a_held_result_accepted_as_a_board_with_a_result_asks_and_replaces_it(tmp_path):
    """G4: the TD scored A1 round 1 board 1 (3NT S =); the table's own result turns up on
    the wrong board (7, which table 1 does not play) and is held. Accepted as board 1, the
    console asks "A1 round 1: board 1 already has 3NT S = from TD Anna: replace it with
    4S N =?"; keep sends nothing; replace stores the table's result (its author the
    terminal, accepted by the TD), with no "refused" on the way."""

    async def scenario(hub: HubService, app: ConsoleApp, pilot: Any) -> None:
        await hub.commands.dispatch(
            "enter_result",
            {"section": "A", "table": 1, "round": 1, "board": 1, "contract": "3NT",
             "declarer": "S", "result": "="},
            TD,
        )  # fmt: skip
        await wait_until(lambda: app.room.held, 10, "the held result on the console")
        held_id = app.room.held[0]["id"]
        await pilot.press("c")
        calls = app.query_one("#calls-table", DataTable)
        await wait_until(lambda: calls.row_count, 5, "the Calls tab's rows")
        calls.move_cursor(row=[r.key.value for r in calls.ordered_rows].index(f"held:{held_id}"))
        question = "A1 round 1: board 1 already has 3NT S = from TD Anna: replace it with 4S N =?"
        for answer in ("no, keep", "yes, replace"):
            await pilot.press("enter")
            await wait_until(lambda: isinstance(app.screen, ChoiceScreen), 5, "the decision")
            await pick(app, pilot, "accept as another board")
            await type_text(pilot, "1")
            await pilot.press("enter")
            await popup_shows(app, question, exact=True)
            await pick(app, pilot, answer)
            if answer == "no, keep":
                await wait_until(lambda: any("keeps 3NT S =" in x for x in app.room.log), 5, "kept")
                (kept,) = live(hub, 1)
                assert (kept.contract, kept.entered_by) == ("3NT", TD)
        await wait_until(lambda: live(hub, 1)[0].contract == "4S", 10, "the replacement")
        (now,) = live(hub, 1)
        assert (now.declarer, now.tricks, now.entered_by) == ("N", 10, "BM-0001")
        assert now.accepted_by is not None and now.accepted_by.startswith("TD")
        assert not [x for x in app.room.log if "refused" in x], app.room.log
        await wait_until(lambda: not app.room.held, 5, "the held result decided")

    run_console(tmp_path, scenario, [terminals(7, "4S", "N", 10)], status="held")


def test_score_any_board_over_a_terminals_result_asks_first(tmp_path):
    """G5: ``e e``, A / 1 / 1 / 1, artificial 60/40, Ctrl+S over the terminal's 4S N -2:
    the console asks "A1 round 1: board 1 already has 4S N -2 from BM-0001: replace it with
    60/40?"; keep leaves the terminal's result and the form open; replace stores 60/40."""

    async def scenario(hub: HubService, app: ConsoleApp, pilot: Any) -> None:
        await pilot.press("e", "e")
        await wait_until(lambda: isinstance(app.screen, ScoreForm), 5, "the score form")
        form = app.screen
        await pilot.press("1", "enter", "1", "enter", "1", "enter")
        form.query_one("#f-adjusted", Input).focus()
        await pilot.pause()
        await type_text(pilot, "60/40")
        question = "A1 round 1: board 1 already has 4S N -2 from BM-0001: replace it with 60/40?"
        await pilot.press("ctrl+s")
        await popup_shows(app, question, exact=True)
        await pick(app, pilot, "no, keep")
        await wait_until(lambda: app.screen is form, 5, "back on the form")
        (kept,) = live(hub, 1)
        assert (kept.contract, kept.entered_by, kept.revision) == ("4S", "BM-0001", 1)
        await pilot.press("ctrl+s")
        await popup_shows(app, question, exact=True)
        await pick(app, pilot, "yes, replace")
        await wait_until(lambda: not isinstance(app.screen, ScoreForm), 10, "the form closed")
        (now,) = live(hub, 1)
        assert (now.adjusted, now.revision) == ("60/40", 2)

    run_console(tmp_path, scenario, [terminals(1, "4S", "N", 8)])


def test_a_board_with_no_result_is_scored_without_a_question(tmp_path):
    """Only a result there is asked about: board 2 at A1, not played yet, is stored at
    once."""

    async def scenario(hub: HubService, app: ConsoleApp, pilot: Any) -> None:
        await pilot.press("e", "e")
        await wait_until(lambda: isinstance(app.screen, ScoreForm), 5, "the score form")
        await pilot.press("1", "enter", "1", "enter", "2", "enter")
        await type_text(pilot, "4S")
        await pilot.press("enter", "n", "enter", "equals_sign", "ctrl+s")
        await wait_until(lambda: not isinstance(app.screen, ScoreForm), 10, "the form closed")
        (now,) = live(hub, 2)
        assert (now.contract, now.declarer, now.tricks) == ("4S", "N", 10)

    run_console(tmp_path, scenario, [])


def test_erasing_on_the_traveller_asks_first(tmp_path):
    """G4: "erase" on the traveller erased at once. Now it asks "Erase 4S N = at A1 board 1
    (round 1)? The table enters the board again."; keep leaves it, erase erases it."""

    async def scenario(hub: HubService, app: ConsoleApp, pilot: Any) -> None:
        await app.fetch_traveller("A", 1)
        app.action_tab("traveller")
        table = app.query_one("#traveller-table", DataTable)
        await wait_until(lambda: table.row_count == 1, 10, "the traveller's row")
        table.focus()
        question = "Erase 4S N = at A1 board 1 (round 1)? The table enters the board again."
        for answer in ("no, keep", "yes, erase"):
            await pilot.press("enter")
            await wait_until(lambda: isinstance(app.screen, ChoiceScreen), 5, "the choices")
            await pick(app, pilot, "erase")
            await popup_shows(app, question, exact=True)
            await pick(app, pilot, answer)
            if answer == "no, keep":
                await pilot.pause(0.3)
                assert len(live(hub, 1)) == 1
        await wait_until(lambda: not live(hub, 1), 10, "the erasure")

    run_console(tmp_path, scenario, [terminals(1, "4S", "N", 10)])
