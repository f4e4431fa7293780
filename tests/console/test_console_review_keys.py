"""A reviewer's findings on the TD console (issue13 [EVENING], "Console keys that always
work", "a refused command is shown where the TD is looking"; TD trial F12), each driven on
the real Textual app through its pilot, fed a scripted hub:

- the redraw timer fired while Textual was closing the app raised NoMatches '#clock'
  (a flake seen in the console tests): a closing app redraws nothing;
- the Scores and Pairs tabs had an empty status line: it now says which key acts there;
- the status line spoke of the list as it was when the tab was chosen: the Scores tab's
  first board, listed just after, was left with "no board awaits a score" over it (the
  status line now follows every redraw; the Calls case is kept as a guard);
- a score form refused by the hub kept "sending: … …" on its status line under the
  refusal, as if the command were still on its way;
- the pair forms' member-number box cut its hint ("member number (may stay");
- the traveller opened from a table or a suspicious score did not say which board it
  was (the box kept the number typed before);
- a result corrected on the traveller lost its lead;
- the key bar was cut before "? Help" and "q Quit";
- a form took an alert arriving while its command went out for its own failure.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest
from console_feeds import DESK_SNAPSHOT, HELD, SNAPSHOT, scripted, scripted_hub
from console_pilot import popup_shows, type_text
from hub_stub import wait_until
from textual.widgets import DataTable, Input, Static

from hub.console.app import ConsoleApp
from hub.console.desk_score import ScoreForm, Where
from hub.console.pairs_forms import EditPairForm, LatePairForm, MovementForm, SubstituteForm
from hub.console.status_line import StatusLine


def status_line(app: ConsoleApp) -> str:
    return str(app.query_one(StatusLine).render())


def test_a_redraw_while_the_app_closes_does_nothing():
    """Follow-up of the flake "NoMatches '#clock'": Textual stops the app's timers only
    after it has removed the screens, so a redraw may run with the main screen gone. After
    the app has closed, a redraw with every part marked changed returns quietly (before the
    fix it raised NoMatches for '#clock'), and so does the status line's hint (a row
    highlighted while closing: NoMatches for TabbedContent, seen in a full console run)."""
    source, send, _ = scripted(lambda cmd: {"ok": True})

    async def scenario() -> ConsoleApp:
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(120, 40)):
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
        return app

    app = asyncio.run(scenario())
    app.room.dirty |= {"clock", "room", "standings", "calls", "slow", "log"}
    app.redraw()  # the main screen is gone: nothing to draw, nothing raised
    app.show_hint()  # as a row highlighted while closing calls it (NoMatches TabbedContent)


def test_the_scores_and_pairs_tabs_say_which_key_acts():
    """Issue13 "every view key settles something": on the Scores tab the status line names
    the board under the cursor and the keys (Enter scores it, e any board, k slips); on the
    Pairs tab what Enter does on a pair, a late pair and a movement change. Both were empty
    lines before."""
    source, send, _ = scripted(lambda cmd: {"ok": True})

    async def scenario() -> None:
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            await pilot.press("e")
            desk = app.query_one("#desk-table", DataTable)
            await wait_until(lambda: desk.row_count == 2, 5, "two boards awaiting a score")
            # the snapshot's first board awaiting a score: A2, round 1, board 1
            await wait_until(
                lambda: "board 1 at A2, round 1" in status_line(app), 5, "the desk hint"
            )
            assert "Enter to score it" in status_line(app)
            assert "k a round's slips" in status_line(app)
            await pilot.press("a")
            pairs = app.query_one("#pairs-table", DataTable)
            await wait_until(lambda: pairs.row_count > 0, 5, "the pairs")
            await wait_until(lambda: "Enter on the pair" in status_line(app), 5, "the hint")
            assert "a late pair" in status_line(app) and "M another movement" in status_line(app)

    asyncio.run(scenario())


def test_the_status_line_follows_a_list_that_fills_under_it():
    """TD trial F12: the TD is on the empty Calls tab ("nothing waits for the director")
    when held results 41 and 42 arrive: the status line names 41, under the cursor; 41 is
    accepted (elsewhere) and leaves the list, 42 is now under the cursor, and the status
    line says so."""
    feed, _, source, send = scripted_hub()

    async def scenario() -> None:
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(120, 40)) as pilot:
            await feed.put(SNAPSHOT)
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            await pilot.press("c")
            await wait_until(lambda: "nothing waits" in status_line(app), 5, "the empty tab")
            await feed.put(HELD)
            await feed.put({**HELD, "seq": 18, "result": 42, "board": 10})
            await wait_until(
                lambda: status_line(app).startswith("held result 41: Enter to decide"),
                5,
                "the first held result's hint",
            )
            await feed.put(
                {"type": "event", "seq": 19, "event": "held_accepted", "result": 41, "board": 9}
            )
            await wait_until(
                lambda: status_line(app).startswith("held result 42: Enter to decide"),
                5,
                "the hint of the held result now under the cursor",
            )

    asyncio.run(scenario())


def test_a_refused_score_does_not_still_say_sending():
    """TD trial F12 ("a refused command is shown where the TD is looking"): the hub refuses
    an artificial score on a board the table did not play; the reason is next to the board
    line, and the form's status line no longer says "sending: …" as if it were still on
    its way."""
    refusal = "board 2 is not played at table 4 in round 1"

    def answer(cmd: dict[str, Any]) -> dict[str, Any]:
        return {"ok": False, "error": refusal}

    source, send, sent = scripted(answer)

    async def scenario() -> None:
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            app.push_screen(ScoreForm(app, Where("A", 4, 1, 2, 4, 7)))
            await wait_until(lambda: isinstance(app.screen, ScoreForm), 5, "the score form")
            await pilot.pause()
            app.screen.query_one("#f-adjusted", Input).focus()
            await type_text(pilot, "A/A")
            await pilot.press("ctrl+s")
            form = app.screen
            await wait_until(
                lambda: refusal in str(form.query_one("#e-board", Static).render()),
                5,
                "the refusal by the board line",
            )
            assert sent and sent[-1]["args"]["adjusted"] == "A/A"
            status = str(form.query_one("#status", Static).render())
            assert "sending" not in status and "refused" in status

    asyncio.run(scenario())


def test_no_form_box_cuts_its_hint():
    """Issue13 review "text is cut": every box of the desk and pairs forms shows its whole
    hint (the member-number boxes showed "member number (may stay")."""
    source, send, _ = scripted(lambda cmd: {"ok": True})

    async def scenario() -> None:
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            book = app.pairs_book
            forms = [
                ScoreForm(app, Where("A")),
                LatePairForm(app, book, "A", 2),
                SubstituteForm(app, book, "A", 3, "3"),
                EditPairForm(app, book, "A", 3, "3", []),
                MovementForm(app, book, "A", 3),
            ]
            for form in forms:
                app.push_screen(form)
                await wait_until(lambda f=form: app.screen is f, 5, "the form")
                await pilot.pause()
                for box in form.query(Input):
                    room = box.content_region.width
                    assert len(box.placeholder) <= room, (
                        f"{type(form).__name__} {box.id}: {box.placeholder!r} in {room} columns"
                    )
                form.dismiss(None)
                await wait_until(lambda f=form: app.screen is not f, 5, "the form closed")

    asyncio.run(scenario())


def _traveller_hub() -> tuple[Any, Any, list[dict[str, Any]]]:
    """A hub whose ``traveller`` answers the board asked for: table 3 played 4HX by S with
    the lead SA, as the hub's traveller read sends it."""
    replies: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    sent: list[dict[str, Any]] = []

    async def send(cmd: dict[str, Any]) -> None:
        sent.append(cmd)
        reply: dict[str, Any] = {}
        if cmd["name"] == "traveller":
            result = {
                "table": 3, "round": 1, "ns": 3, "ew": 8, "contract": "4HX", "declarer": "S",
                "lead": "SA", "tricks": 8, "result": "-2", "score_ns": -500, "adjusted": None,
                "entered_by": "BM-3", "revision": 1, "ns_score": 50.0, "ew_score": 50.0,
            }  # fmt: skip
            reply = {"section": cmd["args"]["section"], "board": cmd["args"]["board"]}
            reply["results"] = [result]
        await replies.put({"type": "reply", "id": cmd["id"], "ok": True, **reply})

    async def source() -> Any:
        yield SNAPSHOT
        while True:
            yield await replies.get()

    return source, send, sent


def test_the_board_box_names_the_board_shown():
    """TD trial F14 (the traveller a TD checks): board 2 typed, then the traveller of table
    A1 opened from the Room tab (its first board, 1): the box said "2" over board 1's
    results, so the TD could not tell which board was shown. It now names the board, with
    its section as the room has two (A and B)."""
    source, send, sent = _traveller_hub()

    async def scenario() -> None:
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(160, 50)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            box = app.query_one("#board-input", Input)
            table = app.query_one("#traveller-table", DataTable)
            await pilot.press("t", "2", "enter")
            await wait_until(lambda: table.row_count == 1, 5, "board 2's traveller")
            assert box.value == "A 2"
            await pilot.press("r")
            await wait_until(lambda: app.query_one("#room-table", DataTable).row_count, 5, "room")
            await pilot.press("enter")  # table A1: takeover or its traveller
            await popup_shows(app, "Table A1")
            await pilot.press("down", "enter")
            await wait_until(lambda: sent[-1]["args"].get("board") == 1, 5, "board 1 asked")
            await wait_until(lambda: box.value == "A 1", 5, "the box naming board 1")

    asyncio.run(scenario())


@pytest.mark.slow
def test_a_corrected_result_keeps_its_lead():
    """TD trial F14, data not lost: the TD corrects the tricks of table 3's 4HX by S (lead
    SA) on the traveller, typing "4HX S -1" as the pop-up asks (contract, declarer,
    result); the correction sent keeps the lead SA (before, it went without one and the
    stored lead was lost). A lead typed after the result replaces it; PASS has none."""
    source, send, sent = _traveller_hub()

    async def correct(pilot: Any, app: ConsoleApp, typed: str) -> dict[str, Any]:
        n = len(sent)
        await pilot.press("enter")  # the result under the cursor
        await popup_shows(app, "Result at A3 board 2")
        await pilot.press("enter")  # correct the contract or the tricks
        await popup_shows(app, "Correct A3 board 2")
        await type_text(pilot, typed)
        await pilot.press("enter")
        await wait_until(lambda: len(sent) > n, 5, "the correction sent")
        return dict(sent[-1]["args"])

    async def scenario() -> None:
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(160, 50)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            table = app.query_one("#traveller-table", DataTable)
            await pilot.press("t", "2", "enter")
            await wait_until(lambda: table.row_count == 1, 5, "board 2's traveller")
            args = await correct(pilot, app, "4HX S -1")
            assert args == {
                "section": "A", "table": 3, "round": 1, "board": 2, "ns_pair": 3, "ew_pair": 8,
                "contract": "4HX", "declarer": "S", "result": "-1", "lead": "SA",
            }  # fmt: skip
            assert (await correct(pilot, app, "4HX S -1 HK"))["lead"] == "HK"
            assert "lead" not in await correct(pilot, app, "PASS")

    asyncio.run(scenario())


@pytest.mark.slow
def test_the_footer_shows_help_and_quit_on_every_tab():
    """The demo in a 160-column terminal: on the Scores and Pairs tabs (whose own keys come
    first) the key bar was cut before "? Help" and "q Quit", and at 80 columns Help was
    never seen. Help now comes first, the room-only keys (o, f) are on the Room's status
    line, and the command palette (not a TD's tool) leaves its place to the keys."""
    from textual.widgets._footer import FooterKey

    def shown(app: ConsoleApp) -> set[str]:
        width = app.size.width
        return {
            k.key for k in app.screen.query(FooterKey) if k.region.width and k.region.right <= width
        }

    async def scenario(size: tuple[int, int], tabs: str, keys: set[str]) -> None:
        source, send, _ = scripted(lambda cmd: {"ok": True})
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=size) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            for tab in tabs:
                await pilot.press(tab)
                await pilot.pause(0.1)
                await wait_until(lambda: keys <= shown(app), 5, f"{keys} shown on tab {tab}")

    asyncio.run(scenario((160, 50), "reacsw", {"question_mark", "q"}))
    asyncio.run(scenario((80, 24), "reacsw", {"question_mark"}))


def test_an_alert_while_a_score_goes_out_is_not_its_refusal():
    """F12 / no result sent twice: while the score form's command goes out, the feed
    brings an alert (a suspicious score elsewhere, "! ..." in the log). The form took any
    "!" line logged meanwhile for its own failure: it showed the alert as its status and
    let Ctrl+S send the score a second time. Now only a command that did not go out says
    so; the form waits for the hub's answer, and the score is sent once."""
    feed: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    sent: list[dict[str, Any]] = []
    release = asyncio.Event()
    alert = "suspicious score at table A1 board 3: check the declarer"

    async def source() -> Any:
        yield copy.deepcopy(DESK_SNAPSHOT)
        while True:
            yield await feed.get()

    async def send(cmd: dict[str, Any]) -> None:
        sent.append(cmd)
        event = {"type": "event", "seq": 20 + len(sent), "event": "alert", "text": alert}
        await feed.put({**event, "section": "A"})
        await asyncio.sleep(0.2)  # the link is slow: the feed's worker runs meanwhile

        async def answer() -> None:
            await release.wait()
            await feed.put({"type": "reply", "id": cmd["id"], "ok": True, "result": 9})

        asyncio.get_running_loop().create_task(answer())

    async def scenario() -> None:
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            app.push_screen(ScoreForm(app, Where("A", 2, 1, 1, 2, 5)))
            await wait_until(lambda: isinstance(app.screen, ScoreForm), 5, "the score form")
            await pilot.pause()
            form = app.screen
            form.query_one("#f-adjusted", Input).focus()
            await type_text(pilot, "A/A")
            await pilot.press("ctrl+s")
            await wait_until(lambda: any(alert in x for x in app.room.log), 5, "the alert")
            await pilot.pause(0.3)
            assert "sending" in str(form.query_one("#status", Static).render())
            await pilot.press("ctrl+s")  # impatient: the first is still on its way
            await pilot.pause(0.1)
            release.set()
            await wait_until(lambda: app.screen is not form, 5, "the form closed by the reply")
            # the board's traveller is read first ([MENDS] #25 G5: ask before replacing)
            assert [c["name"] for c in sent if c["name"] != "traveller"] == ["enter_result"]

    asyncio.run(scenario())


def test_a_lost_hub_is_shown_until_it_is_heard_again():
    """Issue13 acceptance "a hub restart in the last round": the link to the hub drops;
    the clock line says so first (the clock and lists are as last heard, not live) and the
    TD is told on screen, not only in the log, as before; when the hub is heard again (its
    snapshot after the restart) the clock line is the room's again."""
    feed, _, source, send = scripted_hub()

    def clock(app: ConsoleApp) -> str:
        return str(app.query_one("#clock", Static).render())

    async def scenario() -> None:
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(160, 50)):
            await feed.put(SNAPSHOT)
            await wait_until(lambda: "A: round 2/9" in clock(app), 5, "the clock line")
            await feed.put({"type": "link", "up": False, "error": "connection refused"})
            await wait_until(lambda: "HUB LOST" in clock(app), 5, "the lost hub on the clock")
            assert "connection refused" in clock(app)
            assert "lost the hub (connection refused)" in status_line(app)
            await feed.put({**SNAPSHOT, "seq": 40})  # the restarted hub's snapshot
            await wait_until(lambda: "HUB LOST" not in clock(app), 5, "the hub heard again")
            assert "A: round 2/9" in clock(app)

    asyncio.run(scenario())
