"""The console's Traveller tab shows a board's makeable contracts and par above its results
when the hub sends them with the traveller (issue [PUBLISH]: "makeable contracts shown on
travellers"; docs/api.md, the ``traveller`` read), and nothing when it sends none (no hand
record). Textual's pilot, against a scripted hub."""

from __future__ import annotations

import asyncio
from typing import Any

from console_feeds import SNAPSHOT
from hub_stub import wait_until
from textual.widgets import DataTable, Static

from hub.console.app import ConsoleApp
from hub.console.traveller_rows import double_dummy_line

# RealBridge board 12 as the hub sends it (tests/event/test_double_dummy.py checks the values
# against RealBridge's own solver output)
DOUBLE_DUMMY = {
    "tricks": {
        "N": {"NT": 9, "S": 8, "H": 10, "D": 6, "C": 5},
        "S": {"NT": 9, "S": 9, "H": 10, "D": 6, "C": 5},
        "E": {"NT": 4, "S": 4, "H": 3, "D": 6, "C": 7},
        "W": {"NT": 4, "S": 4, "H": 3, "D": 6, "C": 7},
    },
    "par_score": 620,
    "par_contracts": ["4♥ N", "4♥ S"],
    "par": "NS 620: 4♥ N, 4♥ S",
    "makeable": ["NS 3NT", "N 2♠", "S 3♠", "NS 4♥", "EW 1♣"],
}
RESULT = {
    "table": 1, "round": 1, "ns": 1, "ew": 6, "contract": "4H", "declarer": "S",
    "lead": None, "tricks": 10, "score_ns": None, "adjusted": None, "entered_by": "BM-1",
    "revision": 1, "ns_score": 50.0, "ew_score": 50.0,
}  # fmt: skip


def test_the_line_reads_as_a_hand_record_sheet():
    assert double_dummy_line(DOUBLE_DUMMY) == (
        "Makeable: NS 3NT, N 2♠, S 3♠, NS 4♥, EW 1♣  ·  Par: NS 620: 4♥ N, 4♥ S"
    )
    assert double_dummy_line({"makeable": [], "par": "0: passed out"}) == (
        "Makeable: nothing above 6 tricks  ·  Par: 0: passed out"
    )


def test_the_traveller_tab_shows_makeable_contracts_and_par():
    """Board 2 comes with its double dummy: the line shows; board 3 without: it hides."""
    travellers: dict[int, dict[str, Any]] = {
        2: {"section": "A", "board": 2, "results": [RESULT], "double_dummy": DOUBLE_DUMMY},
        3: {"section": "A", "board": 3, "results": [RESULT], "double_dummy": None},
    }
    replies: asyncio.Queue = asyncio.Queue()

    async def send(cmd: dict[str, Any]) -> None:
        reply = travellers[cmd["args"]["board"]] if cmd["name"] == "traveller" else {}
        await replies.put({"type": "reply", "id": cmd["id"], "ok": True, **reply})

    async def source():
        yield SNAPSHOT
        while True:
            yield await replies.get()

    async def scenario() -> None:
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(160, 50)) as pilot:
            await pilot.pause(0.2)
            line = app.query_one("#traveller-dd", Static)
            assert not line.display  # nothing asked yet
            await pilot.press("t", "2", "enter")
            table = app.query_one("#traveller-table", DataTable)
            await wait_until(lambda: table.row_count == 1 and line.display, 10, "board 2")
            assert "Makeable: NS 3NT, N 2♠, S 3♠, NS 4♥, EW 1♣" in str(line.render())
            assert "Par: NS 620: 4♥ N, 4♥ S" in str(line.render())
            assert line.region.height == 1  # on screen, above the results
            await pilot.press("3", "enter")
            await wait_until(lambda: not line.display, 10, "board 3 without double dummy")

    asyncio.run(scenario())
