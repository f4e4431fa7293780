"""Issue13 (TD trial F15): the console asks for the director's PIN when it is missing or
wrong, shows the hub's refusal, and logs in when the TD types the right one, without a
restart. The hub here is the real API server (its PIN check and log-in limits) with a
scripted room (tests/hub_stub.py); the console is the real app over the WebSocket."""

from __future__ import annotations

import asyncio
import copy

from console_feeds import SNAPSHOT
from hub_stub import ScriptedHub, wait_until
from textual.widgets import Input, Label

from hub.api.client import websocket_source
from hub.console.app import ConsoleApp
from hub.console.choice import AskScreen

PIN = "K7QX2M9P"


def prompt(app) -> str:
    """The PIN prompt's text, or "" when none is up."""
    if not isinstance(app.screen, AskScreen):
        return ""
    labels = app.screen.query(Label)  # empty until the prompt is composed
    return str(labels.first().render()) if labels else ""


async def type_pin(pilot, pin: str) -> None:
    """Type the PIN into the prompt once its box has the focus (bounded wait)."""
    app = pilot.app
    await wait_until(lambda: isinstance(app.focused, Input), 10, "the PIN box focused")
    await pilot.press(*pin, "enter")


def test_a_wrong_pin_is_asked_again_with_the_hubs_refusal():
    """`bridgehub console --pin WRONG`: the hub's "wrong PIN" is shown in the prompt; the
    right PIN typed there opens the director's session, and the clock key reaches the hub."""

    async def scenario():
        hub = ScriptedHub(copy.deepcopy(SNAPSHOT["state"]), pin=PIN)
        await hub.start()
        try:

            def connect(pin: str):
                return websocket_source(hub.url, pin)

            app = ConsoleApp(*connect("WRONG123"), refresh_s=0.05, connect=connect)
            async with app.run_test(size=(100, 30)) as pilot:
                await wait_until(lambda: "wrong PIN" in prompt(app), 10, "the PIN prompt")
                assert prompt(app).startswith("The hub refused the PIN: wrong PIN")
                await type_pin(pilot, PIN)
                await wait_until(
                    lambda: "director session opened" in app.room.log, 10, "the TD session"
                )
                await wait_until(lambda: app.room.sections, 10, "the room")
                await pilot.press("f", "p")
                await wait_until(
                    lambda: ("pause", {"section": "A"}) in hub.commands, 10, "the pause"
                )
        finally:
            await hub.stop()

    asyncio.run(scenario())


def test_a_console_without_a_pin_asks_for_it():
    """`bridgehub console` without --pin: the prompt comes up at once; Escape keeps a
    read-only console that says so where the TD looks and asks again at the next command;
    ``i`` asks too."""

    async def scenario():
        hub = ScriptedHub(copy.deepcopy(SNAPSHOT["state"]), pin=PIN)
        await hub.start()
        try:

            def connect(pin: str):
                return websocket_source(hub.url, pin)

            source, _ = websocket_source(hub.url, None)
            app = ConsoleApp(source, None, refresh_s=0.05, connect=connect, ask_pin=True)
            async with app.run_test(size=(100, 30)) as pilot:
                await wait_until(lambda: prompt(app), 10, "the PIN prompt")
                await pilot.press("escape")
                await wait_until(lambda: app.room.sections, 10, "the room, read-only")
                await pilot.press("f", "p")
                await wait_until(lambda: prompt(app), 10, "the prompt again")
                assert "! pause clock A: this console is read-only (no PIN)" in [
                    n.message for n in app._notifications
                ]
                await pilot.press("escape")
                await pilot.pause(0.1)
                await pilot.press("i")
                await wait_until(lambda: prompt(app), 10, "the prompt on i")
                await type_pin(pilot, PIN)
                await wait_until(
                    lambda: "director session opened" in app.room.log, 10, "the TD session"
                )
                await wait_until(lambda: app.room.sections, 10, "the room")
                await pilot.press("p")
                await wait_until(
                    lambda: ("pause", {"section": "A"}) in hub.commands, 10, "the pause"
                )
        finally:
            await hub.stop()

    asyncio.run(scenario())
