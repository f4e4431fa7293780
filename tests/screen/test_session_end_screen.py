"""The projector at the start and the end of the evening (TD trial F13: "the screen showed
full standings after round 5 of 7 and after round 6 of 7 [the event hides the last 2];
at the end it shows `round 7: play` with the clock still running down. It never says
'final results'"). Over the real API (``ScriptedHub``): round 1 waiting for the director,
hidden standings hidden as at the terminals, and "Final results" with no clock."""

from __future__ import annotations

import asyncio
from fractions import Fraction

from hub_stub import ScriptedHub, pairs_row, section_state, wait_until
from textual.widgets import Digits, Static

from hub.api.client import websocket_source
from hub.result_screen.app import ScreenApp
from hub.result_screen.barometer import screen_sections
from hub.result_screen.state import ScreenState

NAMES = {1: "Ann Berg - Bo Ek", 2: "Cai Dahl - Dan Fors"}


def rows(boards: int) -> list[dict]:
    return [
        pairs_row(1, "1", Fraction(60), boards=boards, name=NAMES[1]),
        pairs_row(2, "2", Fraction(40), boards=boards, name=NAMES[2]),
    ]


def night() -> dict:
    waiting = {"phase": "waiting", "seconds_left": 900, "round": 1}
    return {"event": "Club night", "sections": {"A": section_state(1, 3, clock=waiting)}}


def test_the_feed_folds_waiting_hidden_and_final():
    """Pure fold: "waiting" is no clock reading (nothing counts down) but says waiting;
    standings marked hidden give a page without rows; the session's end drops the clock
    and later clock events; the final standings are shown."""
    state = ScreenState()
    state.apply({"type": "snapshot", "seq": 1, "state": night()}, 0.0)
    sec = state.sections["A"]
    assert sec.clock is None and sec.waiting
    hidden = {"type": "event", "event": "standings", "section": "A", "round": 2}
    state.apply({**hidden, "provisional": [], "rows": rows(2), "hidden": True}, 1.0)
    (page,) = screen_sections(state)
    assert page.hidden and page.rows == [] and page.after_round == 2
    final = {**hidden, "round": 3, "provisional": [], "rows": rows(3), "final": True}
    state.apply(final, 2.0)
    state.apply({"type": "event", "event": "session_complete", "section": "A"}, 2.0)
    clock = {"type": "event", "event": "clock", "section": "A", "round": 3}
    assert state.apply({**clock, "phase": "play", "seconds_left": 10}, 3.0) is None
    (page,) = screen_sections(state)
    assert page.final and not page.hidden and len(page.rows) == 2 and sec.clock is None


def test_the_screen_says_waiting_hides_the_last_rounds_and_ends_with_final_results():
    async def scenario():
        hub = ScriptedHub(night())
        await hub.start()
        try:
            source, _ = websocket_source(hub.url, name="screen", retry_s=0.05)
            app = ScreenApp(source, page_s=3600, now=lambda: 1000.0, redraw_s=0.05)
            async with app.run_test(size=(100, 24)) as pilot:
                phase = app.query_one("#phase", Static)
                title = app.query_one("#title", Static)
                body = app.query_one("#rows", Static)
                await wait_until(
                    lambda: "waiting for the director" in str(phase.render()), 10, "waiting"
                )
                assert app.query_one("#clock", Digits).value == "--:--"
                hub.tick("A", 1, "play", 600)
                await wait_until(lambda: "round 1: play" in str(phase.render()), 10, "the clock")
                hub.feed.publish(
                    "standings", section="A", round=2, provisional=[], rows=rows(2), hidden=True
                )
                await wait_until(lambda: "hidden" in str(body.render()), 10, "hidden standings")
                assert "Berg" not in app.export_screenshot()  # F13: as at the terminals
                hub.feed.publish(
                    "standings", section="A", round=3, provisional=[], rows=rows(3), final=True
                )
                hub.feed.publish("session_complete", section="A")
                hub.tick("A", 3, "play", 5)  # a late tick: no clock after the end
                await wait_until(lambda: "Final results" in str(title.render()), 10, "final")
                await pilot.pause(0.2)
                assert "Final results" in str(phase.render())
                assert app.query_one("#clock", Digits).value == "--:--"
                assert "Berg" in app.export_screenshot()
                await pilot.press("q")
        finally:
            await hub.stop()

    asyncio.run(scenario())
