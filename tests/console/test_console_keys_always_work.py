"""Issue13 "Console keys that always work" (TD trial F12), driven by keys as the TD
would, on the real Textual app fed a scripted hub: a tab's key puts the focus on its table
so Enter acts on the row under the cursor at once; typing in the board box never swallows
the view keys and Escape leaves it; a refilled list keeps the cursor on the same item; a
refused command is shown where the TD is looking; the status line says which key settles
the row."""

from __future__ import annotations

import asyncio

import pytest
from console_feeds import HELD, SNAPSHOT, scripted_hub
from console_pilot import popup_shows
from hub_stub import wait_until
from textual.widgets import DataTable, Input, Static, TabbedContent

from hub.console.app import ConsoleApp


def call(seq: int, ident: int, table: int) -> dict:
    return {
        "type": "event",
        "seq": seq,
        "event": "td_call",
        "call": ident,
        "section": "A",
        "table": table,
        "round": 2,
        "status": "launched",
        "text": "",
    }


def status(app) -> str:
    return str(app.query_one("#status", Static).render())


def test_enter_acts_on_the_row_right_after_the_tab_key():
    """F12: after c, r or w, Enter opens the row's decision at once (no Tab first), and
    the status line says what Enter will do on the row under the cursor."""
    feed, _, source, send = scripted_hub()

    async def scenario():
        for m in (SNAPSHOT, call(11, 7, 3), HELD):
            feed.put_nowait(m)
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(lambda: app.room.held, 5, "the held result")
            await pilot.pause(0.2)
            await pilot.press("c", "down")
            await pilot.pause(0.1)
            assert status(app).startswith("held result 41: Enter to decide")
            await pilot.press("enter")
            await pilot.pause(0.1)
            await popup_shows(app, "Held result 41 at A1, round 2, board 9")
            await pilot.press("escape")
            await pilot.pause(0.1)
            await pilot.press("r", "enter")
            await pilot.pause(0.1)
            await popup_shows(app, "Table A1", exact=True)
            await pilot.press("escape", "w")
            await pilot.pause(0.1)
            assert isinstance(app.focused, DataTable) and app.focused.id == "slow-table"

    asyncio.run(scenario())


@pytest.mark.slow
def test_the_board_box_never_swallows_the_view_keys():
    """F12: after a board is opened the focus is on its results, so l, s, r switch views;
    a view key typed in the box leaves it and acts; Escape leaves the box for the table;
    a board number typed on the traveller goes to the box."""
    feed, sent, source, send = scripted_hub()

    async def scenario():
        feed.put_nowait(SNAPSHOT)
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause(0.2)
            tabs = app.query_one(TabbedContent)
            box = app.query_one("#board-input", Input)
            await pilot.press("t", "2", "enter")
            await pilot.pause(0.1)
            assert sent[-1]["args"] == {"section": "A", "board": 2}
            assert app.focused is app.query_one("#traveller-table")
            await pilot.press("l")
            await pilot.pause(0.1)
            assert tabs.active == "log"
            await pilot.press("t", "5", "s")  # a view key in the box: leaves it and acts
            await pilot.pause(0.1)
            assert tabs.active == "standings" and box.value == ""
            await pilot.press("t", "escape")
            await pilot.pause(0.1)
            assert app.focused is app.query_one("#traveller-table")
            await pilot.press("7")  # typed on the table: goes to the box
            await pilot.pause(0.1)
            assert app.focused is box and box.value == "7"
            await pilot.press("enter")
            await pilot.pause(0.1)
            assert sent[-1]["args"] == {"section": "A", "board": 7}

    asyncio.run(scenario())


def test_a_refilled_list_keeps_the_cursor_on_the_same_item():
    """F12: the Calls list is refilled on every update; a new TD call arriving above the
    held result leaves the cursor on the held result (by its key, not its place), so
    Down-Down-Enter never opens another row."""
    feed, _, source, send = scripted_hub()

    async def scenario():
        for m in (SNAPSHOT, call(11, 7, 3), HELD):
            feed.put_nowait(m)
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(lambda: app.room.held, 5, "the held result")
            await pilot.pause(0.2)
            await pilot.press("c", "down")
            calls = app.query_one("#calls-table", DataTable)
            assert calls.cursor_row == 1
            feed.put_nowait(call(18, 8, 4))  # a new call: rows above the held one
            await wait_until(lambda: calls.row_count == 3, 5, "the new call on the list")
            assert calls.cursor_row == 2
            assert calls.get_row_at(calls.cursor_row)[0] == "held"
            await pilot.press("enter")
            await pilot.pause(0.1)
            await popup_shows(app, "Held result 41")

    asyncio.run(scenario())


def test_a_refused_command_is_shown_where_the_td_looks():
    """F12: a refusal is shown as a notification over the tab and on the status line, not
    only in the log."""
    why = "section A's clock is not running"
    feed, _, source, send = scripted_hub({"pause": why})

    async def scenario():
        feed.put_nowait(SNAPSHOT)
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause(0.2)
            await pilot.press("s", "f", "p")
            await wait_until(lambda: why in status(app), 5, "the refusal on the status line")
            assert f"! pause clock A refused: {why}" in [n.message for n in app._notifications]
            assert app.query_one(TabbedContent).active == "standings"

    asyncio.run(scenario())
