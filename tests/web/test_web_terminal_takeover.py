"""Issue 15 [ENTRY] in a real browser, the paths a table meets less often (the set-up is
tests/terminal_phone.py's: Debian's chromium at a phone's size, driven by selenium).

- The opponents disagree with the score on the same device: the director is told, the page
  says so and offers to enter the board again; entered again and agreed, it counts.
- A result held for the director shows the players why.
- A second phone claims a table another phone holds: refused, even with the table's code,
  until the director's PIN comes with it (decisions D20); the first phone then stops
  entering for the table and says why. Each phone is its own browser (its own storage, so
  its own device id), as two players' phones are.
- The hands and what was makeable come up under the traveller once the board is played.
- Last week's state on the same phone is dropped for this week's event.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browser import NEEDS
from terminal_phone import phone, stored, wait_stored
from web_terminal_hub import PIN, web_event, web_terminal_hub_thread

from hub.event.hand_records import read_hand_records

pytestmark = NEEDS
REALBRIDGE = Path(__file__).parents[1] / "data" / "realbridge_2021_online_qual_open_r2.pbn"


@pytest.mark.slow
def test_the_opponents_disagree_and_the_board_is_entered_again(tmp_path: Path) -> None:
    shots = tmp_path / "screens"
    shots.mkdir()
    with web_terminal_hub_thread(tmp_path, tables=2) as room, phone(shots) as p:
        p.open(room.link("A", 1))
        p.on("contract")
        assert p.text("board-title") == "Board 1"
        p.enter(4, "S", "N", 0)  # 4♠ by North, made: NS +420 (none vulnerable)
        p.tap("confirm")
        p.on("verify")
        p.tap("disagree")
        p.on("outcome")
        p.until(lambda: p.status() == "disagreed", "the opponents' disagreement shown")
        p.shot("20-opponents-disagree")
        p.until(
            lambda: any(
                "opponents rejected the result of board 1 at table A1" in text
                for text in room.hub.alerts.recent()
            ),
            "the director told of the disagreement",
        )
        p.tap("enter-again")  # the table corrects it: erased, then entered again
        p.on("correct")
        p.tap("correct-yes")
        p.enter(4, "S", "N", -1)  # one down after all: NS −50
        assert p.text("score") == "NS −50"
        p.agree()
        p.until(lambda: p.status() == "accepted", "the board entered again accepted")
        p.until(
            lambda: [(r.tricks, r.status) for r in stored(room, 1, 1, 1)][-1:] == [(9, "accepted")],
            "the result entered again stored as the live one",
        )


@pytest.mark.slow
def test_a_held_result_says_why(tmp_path: Path) -> None:
    """Decisions D9: a board the table does not play is held for the director; the players
    read why, so they can tell the director when he comes."""
    shots = tmp_path / "screens"
    shots.mkdir()
    with web_terminal_hub_thread(tmp_path, tables=2) as room, phone(shots) as p:
        p.open(room.link("A", 1))
        p.on("contract")
        p.tap("boards")
        p.on("round")
        played = p.kept()["assignment"]["boards"]
        wrong = max(played) + 10
        p.type("other-board", str(wrong))
        p.tap("other-go")
        p.on("contract")
        p.tap("pass")
        p.on("confirm")
        p.agree()
        p.until(lambda: p.status() == "held", f"board {wrong} held for the director")
        why = p.text("status-text")
        assert f"board {wrong} is not played at table" in why, why
        assert not why.lower().startswith("held for the director"), "the label is not repeated"
        wait_stored(room, 1, 1, wrong, "held")


@pytest.mark.slow
def test_a_second_phone_takes_a_held_table_only_with_the_directors_pin(tmp_path: Path) -> None:
    shots = tmp_path / "screens"
    shots.mkdir()
    with (
        web_terminal_hub_thread(tmp_path, tables=2) as room,
        phone(shots) as first,
        phone(shots) as second,
    ):
        first.open(room.link("A", 1))
        first.on("contract")

        # the same card scanned by another phone: the code is used up, the table held
        second.open(room.link("A", 1))
        second.on("logon")
        refused = second.shows(".note.error", "the refusal")
        assert "director" in refused.lower(), refused
        second.shot("21-table-held")

        # the director comes and types the PIN on the second phone: it takes the table
        second.type("logon-pin", PIN)
        second.tap("logon")
        second.on("contract")
        second.shot("22-taken-over-with-pin")

        # the first phone is told at once; its next entry finds the table gone: it stops
        box = first.shows("#message", "the first phone told of the takeover")
        assert "taken over by another terminal" in box, box
        first.shot("23-table-taken-over")
        first.tap("msg-ok")
        first.enter(3, "N", "S", 0)
        first.tap("confirm")  # sent: "log on first"; it tries again without a code, in vain
        first.on("logon")
        why = first.shows(".note.error", "why the table is gone")
        assert "needs its code" in why, why
        assert [m["type"] for m in first.kept()["pending"]] == ["result"], "kept, not lost"
        assert not stored(room, 1, 1, 1), "a result from the phone that lost the table"

        # the second phone enters the board: it counts
        second.enter(3, "N", "S", 0)
        second.agree()
        second.until(lambda: second.status() == "accepted", "the board from the new phone")
        row = wait_stored(room, 1, 1, 1, "accepted")
        assert (row.contract, row.declarer, row.tricks) == ("3NT", "S", 9)


def test_the_hands_and_what_was_makeable_after_the_board(tmp_path: Path) -> None:
    """Issue 14: once the table has played a board with a hand record, the phone shows the
    four hands and what was makeable double dummy under the traveller (HAND_RECORD's
    browser form, docs/web-terminal.md `hand`). Board 1 carries RealBridge's board 11."""
    shots = tmp_path / "screens"
    shots.mkdir()
    deals = read_hand_records(REALBRIDGE)
    (tmp_path / "deals.pbn").write_text(f'[Board "1"]\n[Deal "{deals[11]}"]\n', "utf-8")
    event = web_event(2).replace(
        '[[sessions]]\nname = "Evening"',
        f'[[sessions]]\nname = "Evening"\nhand_records = "{tmp_path / "deals.pbn"}"',
    )
    with web_terminal_hub_thread(tmp_path, tables=2, event=event) as room, phone(shots) as p:
        p.open(room.link("A", 1))
        p.on("contract")
        assert p.text("board-title") == "Board 1"
        p.enter(3, "N", "S", 0)
        p.agree()
        block = p.shows('[data-k="hand-record"]', "the hand record under the traveller")
        north = deals[11].split(":")[1].split()[0].split(".")
        assert all(cards in block for cards in north if cards), block
        assert "Makeable (double dummy):" in block and "Par:" in block, block
        p.shot("24-hand-record")


def test_last_weeks_state_on_the_phone_is_dropped_for_a_new_event(tmp_path: Path) -> None:
    """docs/web-terminal.md `welcome`: the page keeps its table's state under the event's
    key. A phone that scored table A1 last week (an unsent result and a hand record still
    in its storage) opens this week's card for A1: nothing of last week is shown or sent."""
    shots = tmp_path / "screens"
    shots.mkdir()
    with web_terminal_hub_thread(tmp_path, tables=2) as room, phone(shots) as p:
        p.open(room.url)  # the hub's origin: its storage
        last_week = {
            "eventKey": "1@1700000000.000000",
            "pending": [
                {
                    "type": "result",
                    "id": 7,
                    "section": "A",
                    "table": 1,
                    "round": 1,
                    "board": 1,
                    "contract": "7NT",
                    "declarer": "N",
                    "lead": "",
                    "tricks": 13,
                    "revision": 1,
                }
            ],
            "hands": {"1": {"board": 1, "makeable": "NS 7NT", "par": "NS 2220: 7NT N"}},
        }
        p.driver.execute_script(
            "localStorage.setItem('bh.table.A1', arguments[0])", json.dumps(last_week)
        )
        p.open(room.link("A", 1))
        p.on("contract")
        kept = p.kept()
        assert kept["eventKey"] and kept["eventKey"] != last_week["eventKey"], kept
        assert not kept["pending"] and not kept["hands"], kept
        assert not stored(room, 1, 1, 1), "last week's unsent result reached this event"
