"""Issue13 "Held results show what was sent" and the TD calls (TD trial F7, F21), on the
real console app fed a scripted hub: the Calls row and the decision show the contract,
declarer, result, lead, score, the pairs and the terminal; the conflict is shown and
replacing asks first and sends ``replace: true``; "accept as sent" is offered only when it
can succeed; a call carries the ruling or a note; settled calls leave the list."""

from __future__ import annotations

import asyncio
import copy

from console_feeds import SNAPSHOT, scripted_hub
from console_pilot import popup_shows
from hub_stub import wait_until
from textual.widgets import DataTable, Input, OptionList

from hub.console.app import ConsoleApp
from hub.console.commands import accepts
from hub.console.state import RoomState

# H3a's held row: what the terminal sent (2NT by E, one over: 150 to EW, so NS -150), the
# pairs in a Mitchell (internal EW 11 is "EW 5" in the room), why it is held, the conflict
HELD_17 = {
    "id": 32,
    "section": "A",
    "table": 5,
    "round": 2,
    "board": 17,
    "contract": "2NT",
    "declarer": "E",
    "result": "+1",
    "tricks": 9,
    "lead": "HA",
    "score_ns": -150,
    "entered_by": "BM-0005",
    "ns_pair": 5,
    "ew_pair": 11,
    "reason": "a second, different result for board 17",
    "conflict": "board 17 already has 4S N = from table 3",
    "can_accept_as_sent": True,
}
HELD_117 = {
    **HELD_17,
    "id": 33,
    "board": 117,
    "reason": "board 117 is not played at table 5 in round 2 (it plays boards 16-18)",
    "conflict": None,
    "can_accept_as_sent": False,
}
CALLS = [
    {"id": 1, "section": "A", "table": 2, "round": 2, "status": "resolved", "note": "revoke"},
    {"id": 2, "section": "A", "table": 4, "round": 2, "status": "deferred", "note": "claim"},
    {"id": 3, "section": "A", "table": 3, "round": 2, "status": "launched", "note": None},
]


def snapshot() -> dict:
    snap = copy.deepcopy(SNAPSHOT)
    snap["state"]["held"] = [HELD_17, HELD_117]
    snap["state"]["td_calls"] = copy.deepcopy(CALLS)
    snap["state"]["sections"]["A"]["pairs"] = {
        "5": {"label": "NS 5", "direction": "NS", "names": "Ann Ek & Bo Berg"},
        "11": {"label": "EW 5", "direction": "EW", "names": "Cy Dahl & Di Falk"},
    }
    return snap


def test_held_rows_show_what_was_sent_and_why():
    """F7: the two held results that once looked identical differ by what was sent; the
    table carries its section letter (A5, like TD calls)."""
    room = RoomState()
    room.apply(snapshot())
    from hub.console.rows import calls_rows

    rows = dict(calls_rows(room))
    assert rows["held:32"][2] == "A5" and rows["held:32"][3] == "board 17"
    assert rows["held:32"][4] == (
        "2NT E +1, lead HA, NS -150, NS 5 v EW 5, from BM-0005: a second, different result "
        "for board 17; board 17 already has 4S N = from table 3"
    )
    assert rows["held:33"][4].startswith("2NT E +1, lead HA")
    assert rows["held:33"][4].endswith("(it plays boards 16-18)")


def test_a_result_held_while_the_console_is_open_shows_what_was_sent():
    """Review R4: a result held after the console connected came as an alert with the reason
    only; the hub's ``held_details`` that follows it fills the row like the snapshot's."""
    room = RoomState()
    snap = snapshot()
    snap["state"]["held"] = []
    room.apply(snap)
    alert = {"type": "event", "seq": 900, "event": "alert", "held": True, "result": 32}
    room.apply({**alert, "section": "A", "table": 5, "round": 2, "board": 17, "text": "held"})
    details = {k: v for k, v in HELD_17.items() if k not in ("section", "table", "round", "board")}
    room.apply({"type": "event", "seq": 901, "event": "held_details", **details})
    from hub.console.rows import calls_rows

    row = dict(calls_rows(room))["held:32"]
    assert row[4].startswith("2NT E +1, lead HA, NS -150, NS 5 v EW 5, from BM-0005")
    assert row[4].endswith("board 17 already has 4S N = from table 3")


def test_held_decisions_accept_only_when_possible_and_ask_before_replacing():
    """F7: board 117 of a set of 21 cannot be accepted as sent: not offered; board 17's
    conflict is asked about and the replacement goes with ``replace: true``."""
    feed, sent, source, send = scripted_hub()

    async def scenario():
        feed.put_nowait(snapshot())
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(lambda: app.room.held, 5, "the held results")
            await pilot.pause(0.2)
            calls = app.query_one("#calls-table", DataTable)
            await pilot.press("c")
            await pilot.pause(0.1)
            held_117 = [r.key.value for r in calls.ordered_rows].index("held:33")
            calls.move_cursor(row=held_117)
            await pilot.press("enter")
            await pilot.pause(0.1)
            choices = app.screen.query_one(OptionList)
            labels = [
                str(choices.get_option_at_index(i).prompt) for i in range(choices.option_count)
            ]
            assert "accept as sent" not in labels
            assert labels[0].startswith("accept as another board")
            await pilot.press("escape", "up", "enter")  # held result 32 (board 17)
            await pilot.pause(0.1)
            await popup_shows(app, "Held result 32 at A5, round 2, board 17")
            await popup_shows(app, "board 17 already has 4S N = from table 3")
            await pilot.press("enter")  # accept as sent: the conflict is asked about
            await pilot.pause(0.1)
            await popup_shows(
                app,
                "board 17 already has 4S N = from table 3: replace it with 2NT E +1?",
                exact=True,
            )
            await pilot.press("down", "enter")  # keep the stored result: nothing sent
            await pilot.pause(0.1)
            assert sent == []
            await pilot.press("enter", "enter", "enter")  # accept, replace
            await pilot.pause(0.2)
            assert (sent[-1]["name"], sent[-1]["args"]) == (
                "accept_held",
                {"result": 32, "replace": True},
            )

    asyncio.run(scenario())


def test_td_calls_carry_the_ruling_and_settled_calls_leave_the_list():
    """F21: a resolved call is not on the list, a deferred one is marked; resolving a call
    sends the ruling typed (a note where the hub takes no ruling); the log names the
    table even though the ``td_call`` event of a settled call carries none."""
    feed, sent, source, send = scripted_hub()

    async def scenario():
        feed.put_nowait(snapshot())
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(lambda: app.room.td_calls, 5, "the calls")
            await pilot.pause(0.2)
            await pilot.press("c")
            await pilot.pause(0.1)
            calls = app.query_one("#calls-table", DataTable)
            keys = [r.key.value for r in calls.ordered_rows]
            assert "call:1" not in keys and keys[:2] == ["call:2", "call:3"]
            assert str(calls.get_row_at(0)[3]) == "deferred"
            await pilot.press("down", "enter")  # call 3
            await popup_shows(app, "TD call 3 at table A3", exact=True)
            await pilot.press("down", "enter")  # resolved: the ruling
            await popup_shows(app, "TD call 3: ")
            await wait_until(lambda: isinstance(app.focused, Input), 5, "the ruling's box")
            await pilot.press(*"12C1c 50/50", "enter")
            await pilot.pause(0.2)
            said = "ruling" if accepts("td_call", "ruling") else "note"
            assert sent[-1]["args"] == {"call": 3, "status": "resolved", said: "12C1c 50/50"}
            feed.put_nowait(
                {
                    "type": "event",
                    "seq": 30,
                    "event": "td_call",
                    "call": 3,
                    "status": "resolved",
                }  # no table: the log takes it from the call it knows
            )
            await wait_until(
                lambda: "TD call 3 at table A3: resolved" in app.room.log, 5, "the log line"
            )
            await wait_until(lambda: calls.row_count == 3, 5, "call 3 off the list")
            assert "call:3" not in [r.key.value for r in calls.ordered_rows]

    asyncio.run(scenario())
