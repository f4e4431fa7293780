"""[MENDS] #25 item 3 (TD trial turn 3 G6): the console's forms under a TD's fingers. The
cursor starts on the line the TD is most likely to type in; keys typed fast (a keypad, a
barcode reader, ``tmux send-keys``) land in the lines in the order typed (``2 Enter 4 Enter
13 Enter`` gave ``table 2413``); after a refusal the cursor is on the line named. Driven
through Textual's pilot; the hub is a script that records each command."""

from __future__ import annotations

import asyncio

from console_feeds import scripted, with_pairs
from console_pilot import confirm, error_at, type_text
from hub_stub import wait_until
from textual import events
from textual.widgets import Input

from hub.console.app import ConsoleApp
from hub.console.desk_score import ScoreForm, Where
from hub.console.desk_slips import SlipLine, SlipsScreen
from hub.console.pairs_forms import LatePairForm


def typed_fast(app: ConsoleApp, keys: list[str]) -> None:
    """Every key into the app's queue at once, as a terminal delivers a burst of input:
    nothing waits for a key to be handled before the next arrives."""
    assert app._driver is not None
    for key in keys:
        char = key if len(key) == 1 else None
        if key == "enter":
            char = "\r"
        event = events.Key(key, char)
        event.set_sender(app)
        app._driver.send_message(event)


def value(app: ConsoleApp, line: str) -> str:
    return app.screen.query_one(f"#f-{line}", Input).value


def test_keys_typed_fast_land_in_the_score_forms_lines_in_order():
    """G6: ``2 Enter 4 Enter 13 Enter`` typed in one burst into "score any board" is table 2,
    round 4, board 13, and the cursor waits on the contract."""
    source, send, _sent = scripted(lambda cmd: {"ok": True})

    async def scenario() -> None:
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            app.push_screen(ScoreForm(app, Where("A")))
            await wait_until(lambda: isinstance(app.screen, ScoreForm), 5, "the score form")
            await pilot.pause()
            assert app.screen.focused is not None and app.screen.focused.id == "f-table"
            typed_fast(app, ["2", "enter", "4", "enter", "1", "3", "enter"])
            await wait_until(lambda: value(app, "board") == "13", 5, "board 13 typed")
            await pilot.pause(0.2)
            assert (value(app, "table"), value(app, "round"), value(app, "board")) == (
                "2",
                "4",
                "13",
            )
            assert app.screen.focused is not None and app.screen.focused.id == "f-contract"

    asyncio.run(scenario())


def focused_line(app: ConsoleApp) -> str:
    focused = app.screen.focused
    return (focused.id or "").removeprefix("f-") if focused is not None else ""


def test_the_late_pair_form_starts_on_player_1_the_round_below_a_refusal_at_its_line():
    """G6: the form opened on "player 1" *below* the round filled in, so a round typed there
    became a name. Now player 1 is the form's first line, where the cursor starts, and the
    round (filled in: 3) is its last. The hub refuses the round ("no sit-out from round 3:
    change the movement first", sent from player 2's line): the cursor goes to the round."""
    source, send, sent = with_pairs()

    async def scenario() -> None:
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            app.push_screen(LatePairForm(app, app.pairs_book, "A", 3))
            await wait_until(lambda: isinstance(app.screen, LatePairForm), 5, "the form")
            await pilot.pause()
            order = [w.id for w in app.screen.query(Input)]
            assert order == ["f-name1", "f-number1", "f-name2", "f-number2", "f-from_round"]
            assert focused_line(app) == "name1"
            assert value(app, "from_round") == "3"
            await type_text(pilot, "Bertil Late")
            await pilot.press("enter", "enter")
            await type_text(pilot, "Carin Late")
            await confirm(app, pilot)
            await wait_until(lambda: error_at(app, "from_round"), 5, "the refusal by its line")
            assert "change the movement first" in error_at(app, "from_round")
            assert sent[-1]["args"]["from_round"] == 3
            assert focused_line(app) == "from_round"

    asyncio.run(scenario())


def test_a_line_the_form_refuses_gets_the_cursor():
    """G6: "after a refusal the cursor stays in a field other than the one named". 4S with
    no declarer, sent from the contract's line: the declarer is named and has the cursor."""
    source, send, sent = scripted(lambda cmd: {"ok": True})

    async def scenario() -> None:
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            app.push_screen(ScoreForm(app, Where("A", 2, 1, 1, 2, 5)))
            await wait_until(lambda: isinstance(app.screen, ScoreForm), 5, "the score form")
            await pilot.pause()
            assert focused_line(app) == "contract"
            await type_text(pilot, "4S")
            await pilot.press("ctrl+s")
            await wait_until(lambda: error_at(app, "declarer"), 5, "the declarer's error")
            assert focused_line(app) == "declarer"
            assert sent == []

    asyncio.run(scenario())


def test_keys_typed_fast_land_in_the_slips_boxes_in_order():
    """G6 on the slips screen (a round's slips typed from a keypad): ``2 Enter 1 Enter 13
    Enter`` in one burst is table 2, round 1, board 13, and the cursor waits on the score."""
    source, send, _sent = scripted(lambda cmd: {"ok": True})

    async def scenario() -> None:
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            app.push_screen(SlipsScreen(app, "A", [SlipLine()]))
            await wait_until(lambda: isinstance(app.screen, SlipsScreen), 5, "the slips")
            await pilot.pause()
            assert app.screen.focused is not None and app.screen.focused.id == "t-0"
            typed_fast(app, ["2", "enter", "1", "enter", "1", "3", "enter"])
            box = app.screen.query_one("#b-0", Input)
            await wait_until(lambda: box.value == "13", 5, "board 13 typed")
            await pilot.pause(0.2)
            boxes = [app.screen.query_one(f"#{c}-0", Input).value for c in "trb"]
            assert boxes == ["2", "1", "13"]
            assert app.screen.focused is not None and app.screen.focused.id == "s-0"

    asyncio.run(scenario())
