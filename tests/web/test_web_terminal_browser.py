"""Issue 15 [ENTRY] acceptance, in a real browser: Debian's chromium, headless at a phone's
size (390x844), driven by selenium through Debian's chromedriver, plays table A1 of a short
session (a three-table Mitchell cut to 2 rounds of 2 boards) on the hub's browser terminal page
(docs/web-terminal.md "Entry, as on a Bridgemate"). Tables A2 and A3 are simulated
browser terminals over the same WebSocket (simulator/web_terminal.py).

The phone opens nothing but the table's link with its code, enters every board in the
Bridgemate order, the opponents verify on the same device, a wrong board number is held
for the director, the page reloads mid-round with a result the hub never got and loses
nothing, the director's message appears, and "final results" shows.

Screenshots of each screen go to the test's folder; with ``BRIDGEHUB_SCREENSHOTS=1`` also
to tests/screenshots/web_terminal/ (the PNGs kept with the tests).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import NEEDS, PHONE, By
from event_text import one_section_event
from terminal_phone import phone, stored, wait_stored
from web_terminal_hub import WebHub, web_event, web_terminal_hub_thread

from simulator.bots import PlayerBot
from simulator.web_terminal import WebTerminal

SHORT_SESSION = one_section_event(  # 2 rounds of 2 boards: table A1 plays boards 1-2 first
    "Web terminals, a short session",
    'kind = "mitchell", tables = 3, rounds = 2, boards_per_round = 2',
)

pytestmark = NEEDS


async def drop_connections(room: WebHub) -> None:
    """The venue's network fails: every browser terminal's connection is cut at once."""
    assert room.hub.web is not None
    for conn in list(room.hub.web.port.connections):
        conn.ws.transport.abort()


@contextlib.contextmanager
def other_tables(room: WebHub, tables: range) -> Iterator[list[WebTerminal]]:
    """The rest of the room: simulated browser terminals on the hub's loop, playing at once
    (simulator/web_terminal.py, the page's protocol)."""
    bots = [
        WebTerminal(room.url, "A", t, room.codes[("A", t)], PlayerBot(seed=t), speed=50_000)
        for t in tables
    ]

    async def start() -> None:
        for bot in bots:
            bot.start()

    async def stop() -> None:
        for bot in bots:
            await bot.stop()

    room.run(start())
    try:
        yield bots
    finally:
        room.run(stop())


@pytest.mark.slow
def test_a_table_plays_its_session_on_a_phone(tmp_path: Path) -> None:
    """Issue 15's acceptance: the whole table on the phone, every screen photographed."""
    shots = tmp_path / "screens"
    shots.mkdir()
    with (
        web_terminal_hub_thread(tmp_path, tables=3, event=SHORT_SESSION) as room,
        other_tables(room, range(2, 4)),
        phone(shots) as p,
    ):
        # the form at / (a phone that cannot scan), then the table's own link with its code
        p.open(room.url)
        p.on("join")
        p.shot("01-log-on")
        p.open(room.link("A", 1))
        p.on("contract")  # logged on: round 1's first board comes up by itself
        assert "?c=" not in p.driver.current_url, "the used code stays out of the address"
        assert p.text("board-title") == "Board 1"
        p.shot("02-board")

        # board 1, step by step: 4♥ by South, lead ♠K, made: NS +420 (none vulnerable)
        p.enter(4, "H", "S", 0, lead="SK", shots="b1")
        assert p.text("summary") == "4♥ S =, lead ♠K"
        assert p.text("score") == "NS +420"
        p.shot("09-score")
        p.tap("confirm")
        p.on("verify")
        p.shot("10-opponents-verify")
        p.tap("agree")
        p.on("outcome")
        p.shows('[data-k="traveller"]', "board 1's traveller")
        assert p.status() == "accepted", p
        p.shot("11-traveller")
        row = wait_stored(room, 1, 1, 1, "accepted")
        assert (row.contract, row.declarer, row.tricks, row.lead) == ("4H", "S", 10, "SK")

        # a wrong board: the table keys board 3 (it plays boards 1-2): held for the director
        p.tap("next")
        p.on("contract")
        assert p.text("board-title") == "Board 2"
        p.tap("boards")
        p.on("round")
        p.type("other-board", "3")
        p.tap("other-go")
        p.on("contract")
        assert p.text("board-title") == "Board 3"
        p.tap("pass")  # a pass-out: one tap
        p.on("confirm")
        assert p.text("score") == "NS 0"
        p.agree()
        p.until(lambda: p.status() == "held", "board 3 held for the director")
        p.shot("12-held-for-director")
        held = wait_stored(room, 1, 1, 3, "held")

        # the director turns it down and speaks to the room: the phone shows both
        room.run(room.command("reject_held", result=held.id))
        box = p.shows("#message", "the director's message")
        assert "board 3" in box, box
        p.tap("msg-ok")
        room.run(room.command("message", text="Table A1: board 3 is played in round 2."))
        p.until(
            lambda: "board 3 is played in round 2" in p.shows("#message", "a message"),
            "the director's second message",
        )
        p.shot("13-director-message")
        p.tap("msg-ok")

        # board 2: 3NT by West, lead ♥Q, one down (only NS vulnerable): NS +50
        p.tap("next")
        p.on("contract")
        assert p.text("board-title") == "Board 2"
        p.enter(3, "N", "W", -1, lead="HQ")
        assert p.text("score") == "NS +50"
        p.agree()
        p.until(lambda: p.status() == "accepted", "board 2 accepted")
        wait_stored(room, 1, 1, 2, "accepted")

        # round 2 comes by itself once both tables are done (auto-advance)
        p.tap("next")
        p.until(
            lambda: p.screen() == "contract" and p.text("board-title") != "Board 2",
            "round 2's first board",
        )
        rnd2 = p.kept()["assignment"]
        assert rnd2["round"] == 2, rnd2
        first, second = rnd2["boards"]
        assert p.text("board-title") == f"Board {first}"

        # the network drops what the page sends: the result stays in the browser...
        p.driver.execute_script("WebSocket.prototype.send = function () {};")
        p.enter(2, "S", "E", 1, double="X")
        p.agree()
        p.until(lambda: p.status() == "sending", "the unsent result shown as sending")
        kept = [m for m in p.kept()["pending"] if m["type"] == "result"]
        assert [m["board"] for m in kept] == [first], kept
        p.shows("#link:not([hidden])", "the bar saying a result is not sent yet")
        p.shot("14-not-sent-yet")
        assert not stored(room, 1, 2, first), "the hub got a result the network dropped"

        # ... and the page reloads mid-round: it logs on without the code, sends it again
        p.driver.refresh()
        p.on("outcome")
        p.until(lambda: p.status() == "accepted", "the kept result accepted after the reload")
        row = wait_stored(room, 1, 2, first, "accepted")
        assert (row.contract, row.declarer, row.tricks) == ("2SX", "E", 9)
        p.until(lambda: not p.kept()["pending"], "every kept request answered")

        # a correction within the round: the board list shows the board entered; tapping it
        # erases it and the table enters it again (revision 2): 2♠ undoubled, not 2♠X
        p.tap("next")
        p.on("contract")
        p.tap("boards")
        p.on("round")
        p.shot("14a-board-list")
        p.tap(f"board-{first}")
        p.on("correct")
        p.shot("14b-correction")
        p.tap("correct-yes")
        p.enter(2, "S", "E", 1)
        assert p.text("board-title") == f"Board {first} (2)"
        p.agree()
        p.until(lambda: p.status() == "accepted", "the corrected board accepted")
        p.until(
            lambda: (
                [(r.contract, r.status) for r in stored(room, 1, 2, first)][-1]
                == ("2S", "accepted")
            ),
            "the corrected result stored as the live one",
        )

        # the director is called from the bar, on any screen
        p.tap("next")
        p.on("contract")
        p.tap("td")
        p.shows("#toast", "the page saying the director is called")
        p.until(
            lambda: [
                c["table"] for c in room.run(asyncio.to_thread(room.store.td_calls, room.event_id))
            ],
            "the TD call at the hub",
        )

        # the network drops under the page: it connects again by itself and logs on again
        before = room.hub.web.port.stats["connections"] if room.hub.web else 0
        room.run(drop_connections(room))
        p.until(
            lambda: room.hub.web and room.hub.web.port.stats["connections"] > before,
            "the page connecting again",
        )
        p.until(lambda: not p.driver.find_element(By.ID, "link").is_displayed(), "back online")

        # the last board: 6♣ by North, made; the session ends: final results
        assert p.text("board-title") == f"Board {second}"
        p.size(PHONE[1], PHONE[0])  # turned sideways: the entry in two columns
        p.shot("16-board-landscape")
        p.size(*PHONE)
        p.enter(6, "C", "N", 0)
        p.agree()
        wait_stored(room, 1, 2, second, "accepted")
        p.until(lambda: p.status() == "accepted", "the last board accepted")
        p.tap("next")
        p.on("final")
        p.shows('[data-k="ranking"] tr', "the final ranking")
        assert p.text("final") == "Final results"
        p.shot("15-final-results")

    for name in ("01-log-on", "b1-03-contract", "09-score", "12-held-for-director"):
        assert (shots / f"{name}.png").stat().st_size > 1000, name


@pytest.mark.slow
def test_the_page_speaks_the_events_language(tmp_path: Path) -> None:
    """docs/web-terminal.md: the page's language is the event's ([event] language = "sv")."""
    shots = tmp_path / "screens"
    shots.mkdir()
    event = web_event(2, language="sv")
    with web_terminal_hub_thread(tmp_path, tables=2, event=event) as room, phone(shots) as p:
        # the form at / with a mistyped code: refused with the hub's words; the right code
        # typed on the page then
        p.open(room.url)
        p.on("join")
        p.type("join-table", "1")
        p.type("join-code", "wrong234")
        p.tap("join")
        p.on("logon")
        assert p.driver.current_url.endswith("/t/A1?c=WRONG234"), p.driver.current_url
        assert "not the code of table A1" in p.shows(".note.error", "the refusal"), p
        p.shot("18-log-on-refused")
        p.type("logon-code", room.codes[("A", 1)])
        p.tap("logon")
        p.on("contract")
        assert p.text("board-title") == "Bricka 1"
        assert p.text("td") == "Tillkalla TL"
        p.shot("17-swedish-board")

        # "not played" is one tap from the board, then confirmed: no opponents' check
        p.tap("not-played")
        p.on("confirm")
        p.tap("confirm")
        p.on("outcome")
        p.until(lambda: p.status() == "accepted", "the board not played accepted")
        assert p.text("next") == "Nästa: bricka 2"

        # player numbers, optional: keyed per seat from the board list
        p.tap("next")
        p.tap("boards")
        p.tap("players")
        p.on("players")
        p.type("player-N", "1234")
        p.tap("player-save-N")
        p.until(lambda: not p.kept()["pending"], "the player number answered")


@pytest.mark.slow
def test_the_table_opened_in_a_second_tab_stops_the_first(tmp_path: Path) -> None:
    """docs/web-terminal.md "What the page keeps": the table card scanned again opens a
    second tab of the same browser; two live tabs would overwrite each other's unanswered
    entries in the browser's storage. The newest tab takes the table, the older one stops
    and says where the table is now."""
    shots = tmp_path / "screens"
    shots.mkdir()
    with web_terminal_hub_thread(tmp_path, tables=2) as room, phone(shots) as p:
        p.open(room.link("A", 1))
        p.on("contract")
        first = p.driver.current_window_handle
        p.driver.switch_to.new_window("tab")
        p.open(room.link("A", 1))
        p.on("contract")
        p.driver.switch_to.window(first)
        p.on("elsewhere")
        assert "open in another tab" in str(p).lower(), p
        p.shot("19-open-in-another-tab")
