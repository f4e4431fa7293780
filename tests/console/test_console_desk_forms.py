"""The director's desk in the console (issue13 "Enter or assign a score for any table,
round and board…", TD trial F4), driven by keys as a TD would through Textual's pilot. The
hub here is a script that records each command and answers it the way the hub's
``enter_result`` / ``enter_results`` do (docs/api.md); the end-to-end run against a real
hub is in tests/console/test_console_desk_hub.py."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest
from console_feeds import DESK_SNAPSHOT, scripted
from console_pilot import error_at, type_text
from hub_stub import wait_until
from textual.widgets import DataTable, Input, Static

from hub.console.app import ConsoleApp
from hub.console.desk_entry import FieldError, score, weighted
from hub.console.desk_score import ScoreForm
from hub.console.desk_slips import SlipsScreen
from hub.console.desk_state import NotPlayed
from hub.console.state import RoomState


def test_typed_scores_are_checked_by_the_laws_before_they_are_sent():
    """Law 77 limits and the Law 12C1(c) weights, worked by hand: 4S needs 10 tricks, so
    +4 would be 14 (refused: at most +3); 3NTX S -2 stays as typed; two halves make a
    weighted score, 1/2 and 1/3 do not (5/6); a lead is a card; nothing after PASS."""
    assert score("4s n = ha") == {"contract": "4S", "declarer": "N", "result": "=", "lead": "HA"}
    assert score("3NTX S -2") == {"contract": "3NTX", "declarer": "S", "result": "-2"}
    assert score("a/a") == {"adjusted": "A/A"} and score("A-/A-") == {"adjusted": "A-/A-"}
    assert score("55/45") == {"adjusted": "55/45"}
    assert score("1/2 4S N =; 1/2 4S N -1")["weighted"][1] == {
        "weight": "1/2",
        "contract": "4S",
        "declarer": "N",
        "result": "-1",
    }
    assert [w["weight"] for w in weighted(["0.25 4S N =", "75% 4S N -1"])] == ["1/4", "3/4"]
    for text, field, words in [
        ("4S N +4", "result", "at most +3"),
        ("4S", "declarer", "needs a declarer"),
        ("4S N = Z9", "lead", "not a card"),
        ("1/2 4S N =; 1/3 4S N -1", "weighted", "add up to 5/6"),
        ("PASS = HA", "result", "nothing after PASS"),
        ("A+/B", "adjusted", "A+, A, A-"),
    ]:
        with pytest.raises(FieldError) as e:
            score(text)
        assert (e.value.field, words in e.value.message) == (field, True), e.value.message


@pytest.mark.slow
def test_td_scores_boards_not_played_and_any_board_from_the_scores_tab():
    """F4: the boards a forced round end left are listed; Enter on one opens its form with
    the pairs known; a mistake is shown next to its line and nothing is sent; the hub's
    refusal is shown next to the line it names; a stored board leaves the list; `e`
    scores any table, round and board (pairs left to the hub); artificial and weighted
    scores go out as the hub takes them; Escape leaves a form unsent."""

    def answer(cmd: dict[str, Any]) -> dict[str, Any]:
        if cmd["args"].get("table") == 4:
            return {"ok": False, "error": "board 2 is not played at table 4 in round 1"}
        return {"ok": True, "result": 99, "revision": 1}

    source, send, sent = scripted(answer)

    async def scenario() -> None:
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            await pilot.press("e")
            desk = app.query_one("#desk-table", DataTable)
            await wait_until(lambda: desk.row_count == 2, 5, "two boards awaiting a score")
            assert app.focused is desk  # Enter acts at once (no Tab first)
            await pilot.press("enter")
            await wait_until(lambda: isinstance(app.screen, ScoreForm), 5, "the score form")
            assert "NS 2 v EW 5" in app.screen.title_text
            await type_text(pilot, "4S")
            await pilot.press("enter", "n", "enter", "plus", "4", "enter")
            await pilot.press("enter", "enter", "enter", "enter", "enter")  # to the last line
            await pilot.pause(0.1)
            assert "at most +3" in error_at(app, "result") and not sent
            app.screen.query_one("#f-result", Input).value = "-1"
            await pilot.press("ctrl+s")
            await wait_until(lambda: not isinstance(app.screen, ScoreForm), 5, "form closed")
            assert sent[-1]["name"] == "enter_result"
            assert sent[-1]["args"] == {
                "section": "A",
                "table": 2,
                "round": 1,
                "board": 1,
                "ns_pair": 2,
                "ew_pair": 5,
                "contract": "4S",
                "declarer": "N",
                "result": "-1",
            }
            await wait_until(lambda: desk.row_count == 1, 5, "the scored board off the list")
            assert "stored" in str(app.query_one("#desk-status", Static).render())

            await pilot.press("enter")  # table 4: an artificial score, refused by the hub
            await wait_until(lambda: isinstance(app.screen, ScoreForm), 5, "the score form")
            await pilot.press("enter", "enter", "enter", "enter")  # to "or artificial"
            await type_text(pilot, "a+/a-")
            await pilot.press("ctrl+s")
            await wait_until(lambda: error_at(app, "board"), 5, "the refusal by its line")
            assert sent[-1]["args"]["adjusted"] == "A+/A-"
            assert "not played at table 4" in error_at(app, "board")
            await pilot.press("escape")
            await pilot.pause(0.1)
            assert not isinstance(app.screen, ScoreForm) and desk.row_count == 1

            n = len(sent)
            await pilot.press("e")  # any board: a weighted score (Law 12C1(c))
            await wait_until(lambda: isinstance(app.screen, ScoreForm), 5, "a blank form")
            assert app.screen.query_one("#f-section", Input).value == "A"
            await type_text(pilot, "1")
            await pilot.press("enter", "2", "enter", "3", "enter")
            await pilot.press("enter", "enter", "enter", "enter", "enter")  # to "or weighted"
            await type_text(pilot, "1/2 4S N =")
            await pilot.press("enter")
            await type_text(pilot, "1/2 4S N -1")
            await pilot.press("ctrl+s")
            await wait_until(lambda: len(sent) > n, 5, "the weighted score sent")
            assert sent[-1]["args"] == {
                "section": "A",
                "table": 1,
                "round": 2,
                "board": 3,
                "weighted": [
                    {"weight": "1/2", "contract": "4S", "declarer": "N", "result": "="},
                    {"weight": "1/2", "contract": "4S", "declarer": "N", "result": "-1"},
                ],
            }
            await wait_until(lambda: not isinstance(app.screen, ScoreForm), 5, "form closed")

    asyncio.run(scenario())


def test_a_round_of_slips_typed_in_one_screen():
    """F4 "a paper traveller or a whole round's slips typed in one screen": the grid opens
    with a line for each board awaiting a score; Enter moves from score to score; Ctrl+S
    sends the good lines in one enter_results; a typing mistake stays on its line
    unsent, the hub's refusal is shown on its line, stored lines are marked and not sent
    again."""

    def answer(cmd: dict[str, Any]) -> dict[str, Any]:
        entries = cmd["args"]["entries"]
        out = []
        for i, e in enumerate(entries):
            if e["table"] == 4:
                out.append({"index": i, "status": "refused", "reason": "pair 7 sits out"})
            else:
                out.append({"index": i, "status": "stored", "reason": None, "result": 50 + i})
        return {"ok": True, "entries": out}

    source, send, sent = scripted(answer)

    async def scenario() -> None:
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            await pilot.press("e", "k")
            await wait_until(lambda: isinstance(app.screen, SlipsScreen), 5, "the slips")
            slips = app.screen
            assert isinstance(slips, SlipsScreen) and slips.count == 2
            assert app.focused is slips.query_one("#s-0", Input)  # table, round, board known
            await type_text(pilot, "4H S +1")
            await pilot.press("enter")
            assert app.focused is slips.query_one("#s-1", Input)
            await type_text(pilot, "A+/A-")
            await pilot.press("enter")  # past the last line: a new line, round copied
            await pilot.pause(0.1)
            assert slips.count == 3 and slips.query_one("#r-2", Input).value == "1"
            await type_text(pilot, "3")
            await pilot.press("enter", "enter", "5", "enter")
            await type_text(pilot, "3NT S +8")  # 9 + 8 tricks: impossible
            await pilot.press("ctrl+s")
            await wait_until(lambda: sent, 5, "the slips sent")
            assert sent[-1]["name"] == "enter_results"
            assert [(e["table"], e["board"]) for e in sent[-1]["args"]["entries"]] == [
                (2, 1),
                (4, 2),
            ]
            await pilot.pause(0.2)

            def mark(i: int) -> str:
                return str(slips.query_one(f"#m-{i}", Static).render())

            assert mark(0).startswith("stored") and "pair 7 sits out" in mark(1)
            assert "at most +4" in mark(2)
            assert slips.query_one("#s-0", Input).disabled
            slips.query_one("#s-2", Input).value = "3NT S +1"
            await pilot.press("ctrl+s")
            await wait_until(lambda: len(sent) == 2, 5, "the corrected lines sent")
            assert [(e["table"], e["board"]) for e in sent[-1]["args"]["entries"]] == [
                (4, 2),
                (3, 5),
            ]
            await pilot.press("escape")
            await pilot.pause(0.2)
            assert "2 lines stored" in str(app.query_one("#desk-status", Static).render())
            # the two stored boards awaiting a score left the list; table 4's stays
            assert app.query_one("#desk-table", DataTable).row_count == 1

    asyncio.run(scenario())


def test_the_not_played_list_follows_the_feed():
    """F4: the list is the snapshot's ``not_played``, plus the boards a forced round end
    reports (``round_complete``'s ``unplayed``, the pairs from that round's seating), less
    every board scored since (a table's accepted result, or the director's score)."""
    room, boards = RoomState(), NotPlayed()
    for msg in [copy.deepcopy(DESK_SNAPSHOT)]:
        boards.apply(msg, room.sections)
        room.apply(msg)
    assert sorted(boards.boards) == [("A", 2, 1, 1), ("A", 4, 1, 2)]
    ended = {
        "type": "event",
        "seq": 11,
        "event": "round_complete",
        "section": "A",
        "round": 2,
        "unplayed": [{"table": 1, "boards": [3, 4]}],
    }
    boards.apply(ended, room.sections)
    assert boards.boards[("A", 1, 2, 4)]["ns_pair"] == 1  # table 1 in round 2: NS 1 v EW 5
    assert boards.boards[("A", 1, 2, 4)]["ew_pair"] == 5
    late = {
        "type": "event",
        "seq": 12,
        "event": "result",
        "section": "A",
        "table": 1,
        "round": 2,
        "board": 3,
        "status": "accepted",
    }
    boards.apply(late, room.sections)
    boards.scored("A", 2, 1, 1)
    assert sorted(boards.boards) == [("A", 1, 2, 4), ("A", 4, 1, 2)]
    assert [k for k, _ in boards.rows(room.sections)] == ["not:A:1:2:4", "not:A:4:1:2"]
