"""The TD console driven by Textual's pilot, fed a recorded feed (no hub needed)."""

from __future__ import annotations

import asyncio

from textual.widgets import DataTable, Log, Static

from hub.console.app import ConsoleApp
from hub.console.state import RoomState, clock_text

SNAPSHOT = {"type": "snapshot", "seq": 10, "state": {
    "event": "Club pairs",
    "sections": {"A": {"round": 2, "rounds": 9, "predicted_finish": 0,
                       "clock": {"phase": "play", "seconds_left": 1234},
                       "tables": [{"table": t, "ns": t, "ew": t + 5, "boards": [1, 2, 3],
                                   "done": 1, "minutes_behind": 2.5 if t == 3 else 0,
                                   "online": t != 4, "unverified": 0} for t in range(1, 6)],
                       "standings": [{"pair": 1, "direction": None, "total": 55.0,
                                      "rank": "1", "boards": 3},
                                     {"pair": 2, "direction": None, "total": 45.0,
                                      "rank": "2", "boards": 3}]}},
    "held": [], "td_calls": [], "penalties": [], "alerts": []}}
EVENTS = [
    {"type": "event", "seq": 11, "event": "result", "section": "A", "table": 2, "round": 2,
     "board": 2, "status": "accepted", "id": 40},
    {"type": "event", "seq": 12, "event": "td_call", "call": 7, "section": "A", "table": 3,
     "round": 2, "status": "launched", "text": "revoke"},
    {"type": "event", "seq": 13, "event": "standings", "section": "A", "round": 2,
     "released_by": None, "provisional": [],
     "rows": [{"pair": 2, "direction": None, "total": 61.0, "rank": "1", "boards": 6},
              {"pair": 1, "direction": None, "total": 39.0, "rank": "2", "boards": 6}]},
    {"type": "event", "seq": 14, "event": "clock", "section": "A", "round": 2,
     "phase": "last_board", "seconds_left": 400},
    {"type": "event", "seq": 15, "event": "table_online", "section": "A", "table": 5,
     "online": False},
]


def recorded(messages):
    async def source():
        for m in messages:
            yield m
        while True:
            await asyncio.sleep(3600)
    return source


def test_state_folds_snapshot_and_events():
    room = RoomState()
    for m in [SNAPSHOT, *EVENTS]:
        room.apply(m)
    tables = {t["table"]: t for t in room.sections["A"]["tables"]}
    assert tables[2]["done"] == 2 and room.seq == 15
    assert not tables[5]["online"] and tables[1]["online"]  # table 5's line went down
    assert room.sections["A"]["standings"][0]["pair"] == 2
    assert "TD call at table A3: launched" in room.log
    assert clock_text(room.sections["A"]["clock"]) == "last board 06:40"
    assert clock_text({"phase": "move", "seconds_left": -65}) == "move -01:05"


def test_console_shows_the_room_and_switches_views():
    sent = []

    async def send(cmd):
        sent.append(cmd)

    async def scenario():
        app = ConsoleApp(recorded([SNAPSHOT, *EVENTS]), send, refresh_s=0.05)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause(0.3)
            room = app.query_one("#room-table", DataTable)
            assert room.row_count == 5
            assert room.get_row_at(1)[5] == "2/3"  # table 2 finished its second board
            assert room.get_row_at(3)[8] == "OFF"  # table 4's terminal is not online
            assert room.get_row_at(4)[8] == "OFF"  # table 5's base station went silent
            assert room.get_row_at(0)[8] != "OFF"
            assert room.get_row_at(2)[6] == "+2.5"
            clock = str(app.query_one("#clock", Static).render())
            assert "round 2/9" in clock and "last board 06:40" in clock
            await pilot.press("s")
            standings = app.query_one("#standings-table", DataTable)
            assert standings.get_row_at(0)[2] == 2 and standings.get_row_at(0)[4] == "61.00"
            await pilot.press("c")
            calls = app.query_one("#calls-table", DataTable)
            assert calls.get_row_at(0)[4] == "revoke"
            await pilot.press("l")
            assert "TD call at table A3" in "\n".join(app.query_one("#log-view", Log).lines)
            await pilot.press("p")
            await pilot.pause(0.1)
            assert sent == [{"name": "pause", "args": {"section": "A"}}]
            await pilot.press("question_mark")
            await pilot.press("q")

    asyncio.run(scenario())
