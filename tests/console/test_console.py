"""The TD console driven by Textual's pilot, fed a recorded feed (no hub needed)."""

from __future__ import annotations

import asyncio
import copy

import pytest
from console_feeds import EVENTS, FLAG, LIVE_1, LIVE_2, SNAPSHOT, recorded
from event_text import one_section_event
from hub_stub import wait_until
from textual.widgets import DataTable, Label, RichLog, Static

from hub.api.client import websocket_source
from hub.console.app import ConsoleApp
from hub.console.commands import accepts
from hub.console.state import RoomState, clock_text, standings_note
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from simulator.bots import PlayerBot
from simulator.clocks import VirtualAlphaSign
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal


def test_state_folds_snapshot_and_events():
    room = RoomState()
    for m in [SNAPSHOT, *EVENTS]:
        room.apply(m)
    tables = {t["table"]: t for t in room.sections["A"]["tables"]}
    assert tables[2]["done"] == 2 and room.seq == 15
    assert not tables[5]["online"] and tables[1]["online"]  # table 5's line went down
    assert room.sections["A"]["standings"][0]["pair"] == 2
    assert room.sections["A"]["moved"] == {(2, None): 1, (1, None): -1}  # 2nd→1st, 1st→2nd
    assert "TD call 7 at table A3: launched" in room.log
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
            assert room.row_count == 7  # five tables in A, two in B
            assert room.get_row_at(1)[5] == "2/3"  # table 2 finished its second board
            assert str(room.get_row_at(3)[8]) == "OFF"  # table 4's terminal is not online
            assert str(room.get_row_at(4)[8]) == "OFF"  # table 5's base station went silent
            assert str(room.get_row_at(0)[8]) == "yes"
            assert str(room.get_row_at(2)[6]) == "+2.5"
            assert str(room.get_row_at(2)[9]) == "CALL"  # the director is wanted at A3
            await pilot.press("o")  # most behind first
            await pilot.pause(0.2)
            assert room.get_row_at(0)[1] == 3
            await pilot.press("o", "f")  # back to table order; section A only
            await pilot.pause(0.2)
            assert room.row_count == 5 and room.get_row_at(0)[1] == 1
            clock = str(app.query_one("#clock", Static).render())
            assert "round 2/9" in clock and "last board 06:40" in clock
            await pilot.press("s")
            standings = app.query_one("#standings-table", DataTable)
            assert standings.get_row_at(0)[2] == "2" and standings.get_row_at(0)[4] == "61.00"
            assert str(standings.get_row_at(0)[6]) == "▲1"
            assert str(standings.get_row_at(1)[6]) == "▼1"
            await pilot.press("v")  # one ranking: A2 61, B1 55, B2 45, A1 39
            await pilot.pause(0.2)
            assert [
                (standings.get_row_at(i)[0], standings.get_row_at(i)[1], standings.get_row_at(i)[2])
                for i in range(4)
            ] == [("A", "1", "2"), ("B", "2", "1"), ("B", "3", "2"), ("A", "4", "1")]
            await pilot.press("v")
            await pilot.press("c")
            calls = app.query_one("#calls-table", DataTable)
            assert calls.get_row_at(0)[4] == "revoke"
            await pilot.press("l")
            shown = "\n".join(s.text for s in app.query_one("#log-view", RichLog).lines)
            assert "TD call 7 at table A3" in shown
            await pilot.press("p")
            await pilot.pause(0.1)
            assert [(c["name"], c["args"]) for c in sent] == [("pause", {"section": "A"})]
            await pilot.press("f", "p")  # the room filtered to B: the clock key acts on B
            await pilot.pause(0.1)
            assert [(c["name"], c["args"]) for c in sent][1:] == [("pause", {"section": "B"})]
            await pilot.press("question_mark")
            await pilot.press("q")

    asyncio.run(scenario())


@pytest.mark.slow
def test_td_decides_calls_flags_and_penalties_from_the_console():
    """Calls tab: Enter on a held result accepts it as another board; on a suspicious
    score marks the contract valid; on withheld standings releases them; on a TD call
    moves it on. Slow tab: the proposed penalty first, then the late tables; Enter on the
    penalty says who pays. Every command goes to the hub and its reply, refused or done,
    reaches the log. The hub here is a script answering each command (the end-to-end run
    is in test_console_follows_a_real_hub)."""
    replies: asyncio.Queue = asyncio.Queue()
    sent = []

    async def send(cmd):
        sent.append(cmd)
        ok = cmd["name"] != "td_call"
        await replies.put(
            {
                "type": "reply",
                "id": cmd["id"],
                "ok": ok,
                **({} if ok else {"error": "call 7 is already resolved"}),
            }
        )

    async def source():
        yield SNAPSHOT
        for m in EVENTS:
            yield m
        yield {
            "type": "event",
            "seq": 16,
            "event": "penalty_proposed",
            "id": 3,
            "section": "A",
            "table": 3,
            "round": 2,
            "text": "table A3 12 min late",
        }
        yield {
            "type": "event",
            "seq": 17,
            "event": "alert",
            "held": True,
            "result": 41,
            "section": "A",
            "table": 1,
            "round": 2,
            "board": 9,
            "text": "board 9 is not played at table 1 in round 2",
        }
        yield {
            "type": "event",
            "seq": 18,
            "event": "suspicious",
            "section": "A",
            "board": 2,
            "flags": [FLAG],
        }
        yield {
            "type": "event",
            "seq": 19,
            "event": "standings_withheld",
            "section": "A",
            "round": 2,
            "boards": [2],
        }
        yield {
            "type": "event",
            "seq": 20,
            "event": "behind",
            "section": "A",
            "round": 2,
            "tables": [[1, 0.5], [3, 6.0]],
        }
        while True:
            yield await replies.get()

    async def scenario():
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.3)
            await pilot.press("c")
            calls = app.query_one("#calls-table", DataTable)
            calls.focus()
            assert [str(calls.get_row_at(i)[0]) for i in range(4)] == [
                "TD call",
                "held",
                "suspicious",
                "standings",
            ]
            await pilot.press("down", "enter")  # the held result: accept as board 3
            await pilot.pause(0.1)
            await pilot.press("down", "enter")
            await pilot.pause(0.1)
            await pilot.press("3", "enter")
            await pilot.pause(0.2)
            assert sent[-1]["name"] == "accept_held"
            assert sent[-1]["args"] == {"result": 41, "rekey": {"board": 3}}
            await pilot.press("down", "enter", "enter")  # the flag: the contract is valid
            await pilot.pause(0.2)
            assert (sent[-1]["name"], sent[-1]["args"]) == (
                "contract_valid",
                {"section": "A", "board": 2, "table": 1, "round": 2},
            )
            await pilot.press("down", "enter", "enter")  # release the withheld standings
            await pilot.pause(0.2)
            assert (sent[-1]["name"], sent[-1]["args"]) == ("release_standings", {"section": "A"})
            await pilot.press("up", "up", "up", "enter")
            await pilot.pause(0.1)
            await pilot.press("down", "enter")  # resolved: the ruling asked for, none given
            await pilot.pause(0.1)
            await pilot.press("enter")
            await pilot.pause(0.2)
            assert sent[-1]["args"] == {"call": 7, "status": "resolved"}

            await pilot.press("w")
            slow = app.query_one("#slow-table", DataTable)
            slow.focus()
            assert [(str(slow.get_row_at(i)[0]), slow.get_row_at(i)[2]) for i in range(3)] == [
                ("penalty", 3),
                ("late", 3),
                ("late", 1),
            ]
            assert str(slow.get_row_at(1)[4]) == "+6.0"  # the 'behind' event, not 2.5
            await pilot.press("enter")
            await pilot.pause(0.1)
            await pilot.press("down", "enter")  # the second choice: EW pays
            await pilot.pause(0.2)
            assert sent[-1]["name"] == "confirm_penalty"
            assert sent[-1]["args"] == {"penalty": 3, "payer": "EW"}
            await pilot.pause(0.2)
            log = app.room.log
            assert "penalty 3: EW pay: done" in log
            assert "! TD call 7 resolved refused: call 7 is already resolved" in log
            assert any("suspicious score at table A1 board 2" in x for x in log)

    asyncio.run(scenario())


def test_clock_start_next_round_and_the_standings_measure_keys():
    """g on a running round asks first and restarts its clock from full time (TD trial
    F20), n asks and then moves to the next round, m shows matchpoints of the top instead
    of MP % (the section filter picks the section)."""
    sent = []

    async def send(cmd):
        sent.append(cmd)

    async def source():
        yield SNAPSHOT
        yield {
            "type": "event",
            "seq": 11,
            "event": "standings",
            "section": "A",
            "round": 2,
            "released_by": None,
            "provisional": [],
            "rows": [
                {
                    **LIVE_1,
                    "pair": 2,
                    "total": "125/2",
                    "text": "62.50",
                    "boards": 6,
                    "points": "15",
                    "top": 24,
                    "previous_rank": "2",
                },
                {
                    **LIVE_1,
                    "total": "75/2",
                    "text": "37.50",
                    "rank": "2",
                    "boards": 6,
                    "points": "9",
                    "top": 24,
                    "previous_rank": "1",
                },
            ],
        }
        await asyncio.Event().wait()

    async def scenario():
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.3)
            await pilot.press("f", "g")  # section A only; round 2 is running: asks first
            await pilot.pause(0.1)
            assert "Restart the clock of round 2 of A (play 20:34)" in str(
                app.screen.query_one(Label).render()
            )  # 1234 s = 20 min 34 s
            await pilot.press("escape")  # not now: nothing sent (TD trial F20)
            await pilot.pause(0.1)
            assert sent == []
            await pilot.press("g", "enter")
            await pilot.pause(0.1)
            restart = {"restart": True} if accepts("start_clock", "restart") else {}
            assert (sent[-1]["name"], sent[-1]["args"]) == (
                "start_clock",
                {"section": "A", **restart},
            )
            await pilot.press("n")
            await pilot.pause(0.1)
            await pilot.press("escape")  # not now
            await pilot.pause(0.1)
            assert sent[-1]["name"] == "start_clock"
            await pilot.press("n", "enter")
            await pilot.pause(0.2)
            assert (sent[-1]["name"], sent[-1]["args"]) == ("next_round", {"section": "A"})
            await pilot.press("s")
            await pilot.pause(0.1)
            standings = app.query_one("#standings-table", DataTable)
            assert standings.get_row_at(0)[4] == "62.50"
            await pilot.press("m")
            await pilot.pause(0.1)
            assert standings.get_row_at(0)[4] == "15/24"  # 62.5 % of 24 matchpoints
            assert standings.get_row_at(1)[4] == "9/24"

    asyncio.run(scenario())


HOWELL_3 = one_section_event("Console session", 'kind = "howell", tables = 3, boards_per_round = 2')


@pytest.mark.slow
def test_console_follows_a_real_hub(tmp_path):
    """Real parts end to end: simulated terminals on a pseudo-terminal, the hub with its
    API on SQLite, and the console over the WebSocket with the TD PIN. The room fills in,
    rounds advance, standings arrive, and a pause reaches the hub and is confirmed."""

    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(HOWELL_3)
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        for t in (1, 2, 3):
            station.add_terminal(
                VirtualTerminal(t, f"BM-{t}", "A", t, PlayerBot(seed=t), speed=50_000)
            )
        sign_line = PtyLine(tmp_path / "clock-1")
        sign = VirtualAlphaSign(sign_line)
        sign.start()
        hub = HubService(
            store,
            eid,
            [str(line.path)],
            api=("127.0.0.1", 0),
            td_pin="1357",
            tick_s=0.2,
            clock_displays=[("alpha", str(sign_line.path))],
        )
        await hub.start()
        try:
            source, send = websocket_source(f"ws://127.0.0.1:{hub.api.port}/v1", "1357")
            app = ConsoleApp(source, send, refresh_s=0.05)
            async with app.run_test(size=(100, 30)) as pilot:
                await wait_until(lambda: app.room.sections, 10, "the hub's snapshot")
                await wait_until(
                    lambda: "director session opened" in app.room.log, 10, "the TD session"
                )
                station.start()
                await wait_until(
                    lambda: (app.room.sections["A"].get("round") or 0) >= 3,
                    30,
                    "round 3 on the console",
                )
                await pilot.pause(0.2)
                room = app.query_one("#room-table", DataTable)
                assert [str(room.get_row_at(i)[8]) for i in range(3)] == ["yes"] * 3
                assert app.room.sections["A"]["standings"], "standings after round 2"
                # the simulated terminals report their battery (STATUS): shown per table
                await wait_until(
                    lambda: all(
                        t.get("battery") is not None for t in app.room.sections["A"]["tables"]
                    ),
                    10,
                    "battery levels in the room",
                )
                await pilot.pause(0.2)
                assert str(room.get_row_at(0)[10]).endswith("%")
                await pilot.press("d")
                devices = app.query_one("#devices-table", DataTable)
                await wait_until(
                    lambda: devices.row_count == 5,
                    10,
                    "one base station, a clock display and three terminals",
                )
                assert str(devices.get_row_at(0)[2]) == "up"
                assert devices.get_row_at(1)[0] == "clock (alpha)"
                assert {devices.get_row_at(i)[0] for i in (2, 3, 4)} == {"BM-1", "BM-2", "BM-3"}
                assert "devices: done" not in app.room.log  # periodic reads stay quiet
                await pilot.press("r")
                room.focus()
                room.move_cursor(row=0)
                await pilot.press("enter")  # table A1's terminal died: a spare takes over
                await pilot.pause(0.1)
                await pilot.press("enter")
                await wait_until(
                    lambda: "takeover allowed at A1: done" in app.room.log,
                    10,
                    "the hub's reply to the takeover",
                )
                await pilot.press("p")
                await wait_until(
                    lambda: "pause clock A: done" in app.room.log, 10, "the hub's reply to pause"
                )
                assert app.room.sections["A"]["clock"]["phase"] == "paused"
                await pilot.press("p")  # the same key resumes
                await wait_until(
                    lambda: "resume clock A: done" in app.room.log, 10, "the hub's reply to resume"
                )
                await pilot.press("plus")
                await wait_until(
                    lambda: "clock A +1 min: done" in app.room.log,
                    10,
                    "the hub's reply to one more minute",
                )
                await pilot.press("b")
                await pilot.pause(0.1)
                await pilot.press("down", "enter")  # ten minutes
                await wait_until(
                    lambda: "10-minute break in A: done" in app.room.log,
                    10,
                    "the hub's reply to the break",
                )
                await wait_until(
                    lambda: app.room.sections["A"]["clock"]["phase"] == "break",
                    10,
                    "the break on the console's clock",
                )

                # The traveller of board 1: at matchpoints each line's two sides share 100 %
                await pilot.press("t", "1", "enter")
                await wait_until(lambda: len(app.traveller) >= 2, 10, "board 1's traveller")
                assert all(r["ns_score"] + r["ew_score"] == 100 for r in app.traveller)
                first = app.traveller[0]
                table = app.query_one("#traveller-table", DataTable)
                assert table.row_count == len(app.traveller)
                # Adjust it (Law 12C2: 60 % to the side not at fault, 40 % to the other)
                await pilot.press("enter")
                await pilot.pause(0.1)
                await pilot.press("down", "down", "enter")  # 60/40
                await wait_until(
                    lambda: app.traveller and any(r["adjusted"] == "60/40" for r in app.traveller),
                    10,
                    "the adjusted score on the traveller",
                )
                adjusted = next(r for r in app.traveller if r["table"] == first["table"])
                assert (adjusted["ns_score"], adjusted["ew_score"]) == (60, 40)
                assert adjusted["entered_by"] == "TD console"  # the TD session, audited
                n = len(app.traveller)
                await pilot.press("enter")
                await pilot.pause(0.1)
                await pilot.press("down", "enter")  # erase
                await wait_until(
                    lambda: any("Erase" in str(x.render()) for x in app.screen.query(Label)),
                    5,
                    "the erase question",
                )
                await pilot.press("enter")  # yes, erase it ([MENDS] #25: asked first)
                await wait_until(
                    lambda: len(app.traveller) == n - 1,
                    10,
                    "the erased result gone from the traveller",
                )
        finally:
            await station.stop()
            await hub.stop()
            sign.detach()
            sign_line.close()

    asyncio.run(scenario())


def test_overall_ranking_shares_places_on_level_totals():
    """One ranking of every section by total; level totals share the place (1=, 1=, 3)."""
    from hub.console.rows import overall_rows

    room = RoomState()
    room.sections = {
        "A": {"standings": [{**LIVE_1, "total": "60"}, {**LIVE_2, "total": "40"}]},
        "B": {"standings": [{**LIVE_1, "total": "60"}]},
    }
    assert [(rank, name, r["pair"]) for rank, name, r in overall_rows(room)] == [
        ("1=", "A", 1),
        ("1=", "B", 1),
        ("3", "A", 2),
    ]


def test_overall_ranking_compares_exact_totals_not_floats():
    """Decisions D4: totals once travelled as floats rounded to four decimals, which made
    7300/130 % (56.153846…) and 56.1538 % level. Compared exactly it is ahead; 1123/20 and
    2246/40 are the same number, so level."""
    from hub.console.rows import overall_rows

    room = RoomState()
    room.sections = {
        "A": {"standings": [{**LIVE_1, "total": "561538/10000"}, {**LIVE_2, "total": "1123/20"}]},
        "B": {"standings": [{**LIVE_1, "total": "7300/130"}, {**LIVE_2, "total": "2246/40"}]},
    }
    assert [(rank, name, r["pair"]) for rank, name, r in overall_rows(room)] == [
        ("1", "B", 1),
        ("2", "A", 1),
        ("3=", "A", 2),
        ("3=", "B", 2),
    ]


def test_points_measure_is_exact():
    """The ``m`` toggle: matchpoints of the tops (half matchpoints kept), or IMPs a board
    rounded half away from zero (decisions D4: -6.5 IMPs over 4 boards is -1.625, shown
    -1.63; binary floats would show -1.62)."""
    from hub.console.rows import standing_text

    mp = {**LIVE_1, "points": "61/2", "top": 52}
    assert standing_text(mp, "points") == "30.5/52" and standing_text(mp) == "55.00"
    imps = {**LIVE_1, "total": "-13/2", "text": "-6.50", "boards": 4, "top": None}
    assert standing_text(imps, "points") == "-1.63/bd" and standing_text(imps) == "-6.50"
    assert standing_text({**imps, "total": "5"}, "points") == "+1.25/bd"


def test_a_reconnected_console_shows_the_published_standings():
    """A snapshot carries the live standings and, apart, the last publication: a console
    that (re)connects after round 2 was published shows that publication, its movers and
    "after round 2", as one that saw the ``standings`` event does."""
    published = {
        "round": 2,
        "provisional": [5],
        "released_by": "TD Anna",
        "rows": [
            {**LIVE_2, "rank": "1", "previous_rank": "2"},
            {**LIVE_1, "rank": "2", "previous_rank": "1"},
        ],
    }
    snapshot = copy.deepcopy(SNAPSHOT)
    snapshot["state"]["sections"]["A"]["published"] = published
    room = RoomState()
    room.apply(snapshot)
    assert [r["pair"] for r in room.sections["A"]["standings"]] == [2, 1]
    assert room.sections["A"]["moved"] == {(2, None): 1, (1, None): -1}
    assert standings_note(room) == (
        "A: after round 2, PROVISIONAL on board 5 (released by TD Anna)   B: as of now"
    )


def test_a_flag_is_logged_once_however_often_its_board_changes():
    """The hub resends a board's flags whenever a result on it comes in (the reason's
    counts change); the TD's log gets each flagged result once, and its clearing."""
    room = RoomState()
    room.apply(SNAPSHOT)
    for seq, tables in ((21, 2), (22, 3)):
        flag = dict(FLAG, reason=f"2S by N taking 8, but EW declared spades at {tables} tables")
        room.apply(
            {
                "type": "event",
                "seq": seq,
                "event": "suspicious",
                "section": "A",
                "board": 2,
                "flags": [flag],
            }
        )
    room.apply(
        {"type": "event", "seq": 23, "event": "suspicious", "section": "A", "board": 2, "flags": []}
    )
    flagged = [x for x in room.log if "suspicious score at table A1 board 2" in x]
    assert len(flagged) == 1 and "at 2 tables" in flagged[0]
    assert room.log[-1] == "board 2 in section A: no suspicious score left"
    assert room.suspicious == {}


def _result(table, contract, declarer, tricks, adjusted=None):
    """A traveller result as the hub's ``traveller`` read sends it: ``score_ns`` is only
    the score keyed instead of a contract, so it is None for every contract result."""
    return {
        "table": table, "round": 1, "ns": table, "ew": table + 4, "contract": contract,
        "declarer": declarer, "lead": None, "tricks": tricks, "score_ns": None,
        "adjusted": adjusted, "entered_by": f"BM-{table}", "revision": 1,
        "ns_score": 50.0, "ew_score": 50.0,
    }  # fmt: skip


def test_the_traveller_shows_what_a_td_checks():
    """Issue [TRUST] / [EVENING] (the TD trial's F14): the traveller shows the result in
    the +1/-2 form and the table's score in the column of the side that scored it (Law 77),
    for every contract result, not only for a keyed score. Board 2: NS vulnerable, EW not.
    Reference values from the Law 77 table: 2S by N making 8 (=), +110 to NS; 3NT by E
    making 10 (+1, EW not vulnerable), 400 + 30 = 430 to EW; 4HX by S two down vulnerable
    (-2), 200 + 300 = 500 to EW; a pass-out 0 to NS; an adjusted score has no table score.
    Who entered it: the terminal, and the TD who accepted it (H3a's ``accepted_by``)."""
    traveller = {
        "section": "A",
        "board": 2,
        "results": [
            _result(1, "2S", "N", 8),
            _result(2, "3NT", "E", 10),
            {**_result(3, "4HX", "S", 8), "lead": "SA", "accepted_by": "TD Anna"},
            _result(4, "PASS", None, None),
            _result(5, None, None, None, adjusted="60/40"),
        ],
    }

    async def send(cmd):
        reply = traveller if cmd["name"] == "traveller" else {}
        await replies.put({"type": "reply", "id": cmd["id"], "ok": True, **reply})

    replies: asyncio.Queue = asyncio.Queue()

    async def source():
        yield SNAPSHOT
        while True:
            yield await replies.get()

    def column(table, label):
        return [str(c.label) for c in table.columns.values()].index(label)

    async def scenario():
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(160, 50)) as pilot:
            await pilot.pause(0.2)
            await pilot.press("t", "2", "enter")
            table = app.query_one("#traveller-table", DataTable)
            await wait_until(lambda: table.row_count == 5, 10, "board 2's traveller")

            def shown(label):
                return [str(table.get_row_at(i)[column(table, label)]) for i in range(5)]

            assert shown("result") == ["=", "+1", "-2", "", ""]
            assert shown("NS score") == ["110", "", "", "0", ""]
            assert shown("EW score") == ["", "430", "500", "", ""]
            assert shown("lead")[2] == "SA"
            assert shown("entered by")[2] == "BM-3 (accepted by TD Anna)"

    asyncio.run(scenario())
