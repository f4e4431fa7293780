"""Issue13's evening on the console (TD trial F13, F16, F20, F21): round 1 waits for the
director's start and the clock line says which key starts it; the break is offered
between rounds and, asked during a round, said to start when the round ends; the session's
end shows "Final results" and where they were written; standings list the NS field first
with the room's labels and names; a sit-out table says so; the log has times and wraps."""

from __future__ import annotations

import asyncio
import copy

from console_feeds import LIVE_1, SNAPSHOT, scripted_hub
from console_pilot import popup_shows
from hub_stub import wait_until
from textual.widgets import RichLog, Static

from hub.console.app import ConsoleApp
from hub.console.rows import clock_line, room_rows, standings_rows
from hub.console.state import RoomState, standings_note


def one_section(**changes) -> dict:
    snap = copy.deepcopy(SNAPSHOT)
    del snap["state"]["sections"]["B"]
    snap["state"]["sections"]["A"].update(changes)
    return snap


def test_round_1_waits_for_the_director_and_g_starts_it_at_once():
    """F20: the hub starts with round 1 "waiting" (the room is not seated): the clock line
    says so; g starts it without asking (nothing runs yet to be restarted)."""
    feed, sent, source, send = scripted_hub()

    async def scenario():
        feed.put_nowait(
            one_section(round=1, clock={"phase": "waiting", "seconds_left": 1260, "round": 1})
        )
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the room")
            await pilot.pause(0.2)
            assert "A: round 1 waits: press g to start" in str(
                app.query_one("#clock", Static).render()
            )
            await pilot.press("g")
            await pilot.pause(0.1)
            assert [(c["name"], c["args"]) for c in sent] == [("start_clock", {"section": "A"})]

    asyncio.run(scenario())


def test_a_break_asked_during_a_round_says_it_starts_when_the_round_ends():
    """F20: during round 2 the break's pop-up says it will start when the round ends, and
    the hub's answer is shown; between rounds it is offered plainly."""
    told = "10-minute break in A starts when round 2 ends"
    feed, _, source, _ = scripted_hub()
    sent = []

    async def answering(cmd):
        sent.append(cmd)
        said = {"starts": "when round 2 ends"} if cmd["name"] == "start_break" else {}
        feed.put_nowait({"type": "reply", "id": cmd["id"], "ok": True, **said})

    async def scenario():
        feed.put_nowait(one_section(between_rounds=False))
        app = ConsoleApp(source, answering, refresh_s=0.05)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the room")
            await pilot.press("b")
            await pilot.pause(0.1)
            title = "Break for every section: it will start when round 2 of A ends"
            await popup_shows(app, title, exact=True)
            await pilot.press("down", "enter")
            await wait_until(
                lambda: told in [n.message for n in app._notifications], 5, "the hub's answer"
            )
            assert sent[-1]["args"] == {"section": "A", "minutes": 10}
            feed.put_nowait(
                {"type": "event", "seq": 40, "event": "round_complete", "section": "A", "round": 2}
            )
            await wait_until(lambda: app.room.sections["A"]["between_rounds"], 5, "round over")
            await pilot.press("b")
            await pilot.pause(0.1)
            await popup_shows(app, "Break for every section", exact=True)

    asyncio.run(scenario())


def test_the_end_of_the_session_says_final_results():
    """F13: after the last round the clock line and the standings say "Final results",
    and where the hub wrote them (its alert)."""
    room = RoomState()
    room.apply(one_section(round=9))
    for msg in (
        {"type": "event", "seq": 50, "event": "session_complete", "section": "A"},
        {
            "type": "event",
            "seq": 51,
            "event": "alert",
            "text": "final results written to /srv/club/tuesday-results",
        },
    ):
        room.apply(msg)
    assert clock_line(room) == (
        "Club pairs   A: Final results   final results written to /srv/club/tuesday-results"
    )
    assert standings_note(room).startswith("A: Final results")


def test_standings_list_the_ns_field_first_with_labels_and_names():
    """F16: a Mitchell's EW pairs are "EW 3", not "pair 10"; the NS field comes first;
    names from the rows or the section's pairs directory. The room shows the room's
    numbers, and "sit out" where the movement has pair 0 this round."""
    room = RoomState()
    ew = {**LIVE_1, "pair": 10, "direction": "EW", "rank": "1", "label": "EW 3"}
    ns = {**LIVE_1, "pair": 3, "direction": "NS", "rank": "1", "name": "Ann Ek & Bo Berg"}
    snap = one_section(
        standings=[ew, ns],
        pairs={
            "3": {"label": "NS 3", "direction": "NS", "names": "Ann Ek & Bo Berg"},
            "10": {"label": "EW 3", "direction": "EW", "names": "Cy Dahl & Di Falk"},
        },
    )
    snap["state"]["sections"]["A"]["tables"][2].update(ns=3, ew=10)
    snap["state"]["sections"]["A"]["tables"][4].update(ew=0)
    room.apply(snap)
    rows = standings_rows(room, overall=False, measure="total")
    assert [(r[2], r[3]) for r in rows] == [
        ("NS 3", "Ann Ek & Bo Berg"),
        ("EW 3", "Cy Dahl & Di Falk"),
    ]
    tables = room_rows(room)
    assert (tables["A:3"][3], tables["A:3"][4]) == ("3", "3")
    assert tables["A:5"][4] == "sit out"


def test_the_log_has_times_and_wraps_long_lines():
    """F21: each log line starts with its time (HH:MM:SS) and a long line wraps instead
    of being cut at the screen's width."""
    long = "board 117 is not played at table 5 in round 2 (it plays boards 16-18) " * 2
    feed, _, source, send = scripted_hub()

    async def scenario():
        feed.put_nowait(SNAPSHOT)
        app = ConsoleApp(source, send, refresh_s=0.05)
        app.room.stamp = lambda: "20:15:07"  # the log's clock, fixed
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the room")
            feed.put_nowait({"type": "event", "seq": 60, "event": "alert", "text": long.strip()})
            await wait_until(lambda: any("board 117" in x for x in app.room.log), 5, "alert")
            await pilot.press("l")
            await pilot.pause(0.2)
            shown = [s.text for s in app.query_one("#log-view", RichLog).lines]
            assert shown[0].startswith("20:15:07 ! board 117")
            assert len(shown) >= 2  # the 150-character line wrapped, not cut at 80
            assert "".join(x.strip() for x in shown).endswith("16-18)")

    asyncio.run(scenario())
