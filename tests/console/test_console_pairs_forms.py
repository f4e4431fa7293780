"""Pairs during the session from the console (issue13 "Late pairs, withdrawals and
substitutes…", "Names"; TD trial F17), driven by keys as a TD would through Textual's
pilot: each action a small form, confirmed, then sent as the hub's pair commands
(docs/api.md); the hub's reply shown on the Pairs tab, a refusal next to the line it
names. The hub here is a script answering as ``hub.live.desk.td_pair_commands`` does."""

from __future__ import annotations

import asyncio

import pytest
from console_feeds import PAIRS, with_pairs
from console_pilot import confirm, error_at, type_text
from hub_stub import wait_until
from textual.widgets import DataTable, Input, Static

from hub.console.app import ConsoleApp
from hub.console.choice import ChoiceScreen
from hub.console.desk_form import FormScreen
from hub.console.pairs_book import PairsBook
from hub.console.pairs_forms import EditPairForm, LatePairForm, MovementForm


@pytest.mark.slow
def test_td_edits_withdraws_adds_and_changes_movement_from_the_pairs_tab():
    """Names with member numbers (edit_pair), EW 3 leaving at half time (withdraw_pair,
    from the next round), a late pair refused because there is no sit-out (shown by the
    round line), and a 3/4 Howell from round 3 (change_movement); each confirmed first,
    and Escape leaves a form unsent."""
    feed, send, sent = with_pairs()

    async def scenario() -> None:
        app = ConsoleApp(feed, send, refresh_s=0.05)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            await pilot.press("a")
            pairs = app.query_one("#pairs-table", DataTable)
            await wait_until(lambda: pairs.row_count == 8, 5, "eight pairs")
            assert app.focused is pairs
            assert [pairs.get_row_at(i)[1] for i in (0, 4)] == ["NS 1", "EW 1"]
            assert pairs.get_row_at(1)[3] == "Anna Berg & Bo Ek"

            await pilot.press("down", "enter")  # NS 2: edit names and numbers
            await wait_until(lambda: isinstance(app.screen, ChoiceScreen), 5, "the choices")
            await pilot.press("enter")
            await wait_until(lambda: isinstance(app.screen, EditPairForm), 5, "the form")
            form = app.screen
            assert form.query_one("#f-name2", Input).value == "Bo Ek"
            await type_text(pilot, "101")  # focus on the first empty line: player 1's number
            await pilot.press("enter", "enter")
            await type_text(pilot, "202")
            await confirm(app, pilot)
            await wait_until(lambda: not isinstance(app.screen, FormScreen), 5, "form closed")
            assert (sent[-1]["name"], sent[-1]["args"]) == (
                "edit_pair",
                {
                    "section": "A",
                    "pair": 2,
                    "players": [
                        {"name": "Anna Berg", "number": "101"},
                        {"name": "Bo Ek", "number": "202"},
                    ],
                },
            )
            await wait_until(lambda: pairs.get_row_at(1)[4] == "101, 202", 5, "the numbers")
            assert "done" in str(app.query_one("#pairs-status", Static).render())

            await pilot.press("down", "down", "down", "down", "down")  # EW 3 (pair 7)
            await pilot.press("enter", "down", "down", "enter")  # withdraw
            await wait_until(lambda: isinstance(app.screen, FormScreen), 5, "the form")
            assert app.screen.query_one("#f-from_round", Input).value == "3"  # after round 2
            await confirm(app, pilot)
            await wait_until(lambda: not isinstance(app.screen, FormScreen), 5, "form closed")
            assert (sent[-1]["name"], sent[-1]["args"]) == (
                "withdraw_pair",
                {"section": "A", "pair": 7, "from_round": 3},
            )

            n = len(sent)
            await pilot.press("a")  # on the Pairs tab: a late pair
            await wait_until(lambda: isinstance(app.screen, LatePairForm), 5, "the form")
            await type_text(pilot, "Eva Fors")  # the round is filled in: the first name
            await pilot.press("enter", "enter")
            await type_text(pilot, "Gus Holm")
            await confirm(app, pilot)
            await wait_until(lambda: error_at(app, "from_round"), 5, "the refusal by its line")
            assert "change the movement first" in error_at(app, "from_round")
            assert sent[-1]["args"] == {
                "section": "A",
                "from_round": 2,
                "players": [{"name": "Eva Fors"}, {"name": "Gus Holm"}],
            }
            await pilot.press("escape")
            await pilot.pause(0.1)

            await pilot.press("M")  # another movement from round 3
            await wait_until(lambda: isinstance(app.screen, MovementForm), 5, "the form")
            await type_text(pilot, "howell")  # the round is filled in: the movement
            await pilot.press("enter", "4", "enter", "enter", "2")
            await confirm(app, pilot)
            await wait_until(lambda: not isinstance(app.screen, FormScreen), 5, "form closed")
            assert (sent[-1]["name"], sent[-1]["args"]) == (
                "change_movement",
                {
                    "section": "A",
                    "from_round": 3,
                    "movement": {"kind": "howell", "tables": 4, "boards_per_round": 2},
                },
            )
            assert len(sent) == n + 2

            await pilot.press("M")  # Escape leaves without sending
            await wait_until(lambda: isinstance(app.screen, MovementForm), 5, "the form")
            await pilot.press("escape")
            await pilot.pause(0.1)
            assert len(sent) == n + 2 and not isinstance(app.screen, FormScreen)

    asyncio.run(scenario())


def test_a_substitute_player_from_the_pairs_tab():
    """A substitute for NS 2's player 2 (substitute, seat 2), confirmed, and the new name
    on the Pairs tab."""
    feed, send, sent = with_pairs()

    async def scenario() -> None:
        app = ConsoleApp(feed, send, refresh_s=0.05)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            await pilot.press("a")
            pairs = app.query_one("#pairs-table", DataTable)
            await wait_until(lambda: pairs.row_count == 8, 5, "eight pairs")
            await pilot.press("down", "enter", "down", "enter")
            await wait_until(lambda: isinstance(app.screen, FormScreen), 5, "the form")
            await pilot.press("2", "enter")
            await type_text(pilot, "Cy Dahl")
            await confirm(app, pilot)
            await pilot.pause(0.3)
            assert sent and sent[-1]["args"] == {
                "section": "A",
                "pair": 2,
                "seat": 2,
                "name": "Cy Dahl",
            }
            await wait_until(
                lambda: pairs.get_row_at(1)[3] == "Anna Berg & Cy Dahl", 5, "the new name"
            )

    asyncio.run(scenario())


def test_the_pairs_book_keeps_what_the_hub_answered():
    """The Pairs tab: the snapshot's directory (NS field first), the players the hub
    answered with (names and member numbers), and the late pairs and withdrawals the
    feed reported (``pairs_changed``)."""
    sections = {"A": {"pairs": PAIRS, "tables": []}}
    book = PairsBook()
    book.took(
        "A", {"pair": 2, "players": [{"name": "Anna Berg", "number": "101"}, {"name": "Bo Ek"}]}
    )
    book.apply(
        {
            "type": "event",
            "event": "pairs_changed",
            "section": "A",
            "action": "withdraw_pair",
            "pair": 7,
            "from_round": 3,
        }
    )
    book.apply(
        {
            "type": "event",
            "event": "pairs_changed",
            "section": "A",
            "action": "add_pair",
            "pair": 9,
            "from_round": 2,
        }
    )
    rows = dict(book.rows(sections))
    assert rows["pair:A:2"][3:5] == ("Anna Berg & Bo Ek", "101, -")
    assert (
        rows["pair:A:7"][1:3] == ("EW 3", "EW") and rows["pair:A:7"][5] == "withdrawn from round 3"
    )
    assert rows["pair:A:9"][5] == "late: plays from round 2"
    assert list(rows)[:2] == ["pair:A:1", "pair:A:2"]
