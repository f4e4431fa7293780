"""[MENDS] #25 in the TD console (TD trial G9): the Matches tab lists the round's bye and
keeps the earlier rounds' matches below the current round's; a team board's traveller shows
each line's IMPs against the match's other room. Textual's pilot, against a scripted feed.

The room is tests/console_teams_feed.py's four teams and a fifth, Aces (5), who sit
out: Lions (1) v Foxes (4) at tables 1/2, Bears (2) v Owls (3) at 3/4. Board 2 (NS vul):
table 1 (Lions NS) 4♠ N = +620, table 2 (Foxes NS) 4♠ N -1 -100: Lions +720, 12 IMPs by
the WBF table (600-740); table 3 has no other room yet.
"""

from __future__ import annotations

import asyncio
from dataclasses import asdict, replace
from typing import Any

from console_pilot import rows
from console_teams_feed import BEARS, LIONS, event, seat, teams_snapshot
from hub_stub import wait_until
from textual.widgets import DataTable, Static

from hub.console.app import ConsoleApp
from hub.report.team_model import ByeLine, MatchLine


def five_teams() -> dict[str, Any]:
    snap = teams_snapshot()
    section = snap["state"]["sections"]["A"]
    section["pairs"] = {**section["pairs"], "5": {"label": "5", "direction": None, "names": "Aces"}}
    return snap


def test_the_matches_tab_lists_the_bye_and_keeps_earlier_rounds():
    """Round 1: both matches and "5 Aces bye". Round 2 starts (Lions v Bears, Foxes v
    Owls): the table shows round 2, and "Earlier rounds" below keeps round 1 as it ended
    (Bears 6-1 Owls, 13.78-6.22) with its bye."""
    bears_done = BEARS | {"out": [], "scored": 2, "away_imps": "1"}
    bears_done |= {"home_vp": "689/50", "away_vp": "311/50"}  # 13.78, 6.22
    round_two = [seat(1, 1, 2, [3, 4]), seat(2, 2, 1, [3, 4])]
    round_two += [seat(3, 4, 3, [3, 4]), seat(4, 3, 4, [3, 4])]
    feed = [
        five_teams(),
        {"type": "pause"},
        event(2, "matches", round=1, matches=[LIONS, bears_done]),
        event(3, "round_started", round=2, tables=round_two),
        {"type": "pause"},
    ]
    gate: asyncio.Queue[None] = asyncio.Queue()

    async def source():
        for m in feed:
            if m["type"] == "pause":
                await gate.get()
            else:
                yield m
        while True:
            await asyncio.sleep(3600)

    async def scenario() -> None:
        app = ConsoleApp(source, refresh_s=0.05)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            await pilot.press("x")
            table = app.query_one("#matches-table", DataTable)
            past = app.query_one("#matches-past", DataTable)
            await wait_until(lambda: table.row_count == 3, 5, "two matches and the bye")
            assert rows(table)[2] == ("A", "", "", "1", "5 Aces", "bye", "", "", "")
            assert not past.display  # no earlier round yet
            gate.put_nowait(None)
            await wait_until(lambda: rows(table)[0][3] == "2", 5, "round 2's matches")
            assert [r[4:6] for r in rows(table)] == [
                ("1 Lions", "2 Bears"),
                ("4 Foxes", "3 Owls"),
                ("5 Aces", "bye"),
            ]
            await wait_until(lambda: past.display and past.row_count == 3, 5, "round 1 kept")
            assert "Earlier rounds" in str(app.query_one("#matches-past-title", Static).render())
            assert rows(past) == [
                (
                    "A",
                    "1",
                    "1/2",
                    "1",
                    "1 Lions",
                    "4 Foxes",
                    "10.00 - 0.00",
                    "16.46 - 3.54",
                    "none",
                ),
                ("A", "2", "3/4", "1", "2 Bears", "3 Owls", "6.00 - 1.00", "13.78 - 6.22", "none"),
                ("A", "", "", "1", "5 Aces", "bye", "", "", ""),
            ]
            gate.put_nowait(None)

    asyncio.run(scenario())


def result(table: int, ns: int, ew: int, contract: str, tricks: int, score: int) -> dict:
    return {
        "table": table, "round": 1, "ns": ns, "ew": ew, "contract": contract,
        "declarer": "N", "lead": None, "tricks": tricks, "score_ns": score, "adjusted": None,
        "entered_by": f"BM-{table}", "revision": 1, "ns_score": None, "ew_score": None,
    }  # fmt: skip


def test_a_team_traveller_shows_each_lines_imps_against_the_other_room():
    board_2 = [
        result(1, 1, 4, "4S", 10, 620),
        result(2, 4, 1, "4S", 9, -100),
        result(3, 2, 3, "3NT", 9, 600),
    ]
    replies: asyncio.Queue = asyncio.Queue()

    async def send(cmd: dict[str, Any]) -> None:
        if cmd.get("name") != "traveller":
            await replies.put({"type": "reply", "id": cmd["id"], "ok": False, "error": "no"})
            return
        reply = {"section": "A", "board": 2, "results": board_2, "double_dummy": None}
        await replies.put({"type": "reply", "id": cmd["id"], "ok": True, **reply})

    async def source():
        yield five_teams()
        while True:
            yield await replies.get()

    async def scenario() -> None:
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(160, 50)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            await pilot.press("t", "2", "enter")
            table = app.query_one("#traveller-table", DataTable)
            await wait_until(lambda: table.row_count == 3, 10, "board 2's traveller")
            shown = {r[0]: r[10:12] for r in rows(table)}
            assert shown == {"1": ("12.00", "-12.00"), "2": ("-12.00", "12.00"), "3": ("", "")}

    asyncio.run(scenario())


def test_a_console_started_in_round_2_asks_the_hub_for_round_1():
    """A console opened late has seen no earlier round: it asks the hub's read-only
    ``results`` (docs/api.md), whose report lists the matches and byes it shows, and puts
    round 1 under "Earlier rounds": Lions 10-0 Foxes at 1/2, 16.46-3.54 (the official WBF
    table for 10 IMPs over 2 boards), Bears 6-1 Owls, 13.78-6.22, and Aces' bye."""
    lions = MatchLine(1, 1, 1, "1 Lions", 4, "4 Foxes", "10", "0", "16.46", "3.54", "", ())
    lions = replace(lions, home_vp_exact="823/50", away_vp_exact="177/50", open_table=1)
    bears = MatchLine(1, 2, 2, "2 Bears", 3, "3 Owls", "6", "1", "13.78", "6.22", "", ())
    bears = replace(bears, home_vp_exact="689/50", away_vp_exact="311/50", open_table=3)
    lions, bears = replace(lions, closed_table=2), replace(bears, closed_table=4)
    aces = ByeLine(1, 5, "5 Aces", "0.00")
    section_json = {"letter": "A", "matches": [asdict(lions), asdict(bears)]}
    report = {"sections": [section_json | {"byes": [asdict(aces)]}]}
    asked: list[dict[str, Any]] = []
    replies: asyncio.Queue = asyncio.Queue()

    async def send(cmd: dict[str, Any]) -> None:
        asked.append(cmd)
        answer = {"report": report, "complete": {}} if cmd.get("type") == "request" else {}
        await replies.put({"type": "reply", "id": cmd["id"], "ok": True, **answer})

    snap = five_teams()
    section = snap["state"]["sections"]["A"]
    section["round"] = 2
    section["matches"] = [m | {"round": 2, "out": [3, 4]} for m in (LIONS, BEARS)]

    async def source():
        yield snap
        while True:
            yield await replies.get()

    async def scenario() -> None:
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            await pilot.press("x")
            past = app.query_one("#matches-past", DataTable)
            await wait_until(lambda: past.row_count == 3, 5, "round 1 from the hub")
            assert rows(past) == [
                (
                    "A",
                    "1",
                    "1/2",
                    "1",
                    "1 Lions",
                    "4 Foxes",
                    "10.00 - 0.00",
                    "16.46 - 3.54",
                    "none",
                ),
                ("A", "2", "3/4", "1", "2 Bears", "3 Owls", "6.00 - 1.00", "13.78 - 6.22", "none"),
                ("A", "", "", "1", "5 Aces", "bye", "", "", ""),
            ]
            requests = [c for c in asked if c.get("type") == "request"]
            assert [(c["name"], c["args"]) for c in requests] == [("results", {})]

    asyncio.run(scenario())


def test_a_console_joining_a_real_hub_in_round_2_shows_round_1(tmp_path):
    """Real parts: the hub with its API on SQLite (``tests/team_results_room.py``'s
    evening, round 1 played and round 2 begun), the console over the WebSocket with the
    PIN. "Earlier rounds" has round 1 from the hub's ``results``: Hawks 6-12 Foxes, 5.61 -
    14.39 and Eagles 12-0 Bears, 17.31 - 2.69 (the WBF IMP table and VP formula, worked in
    ``tests/web/test_team_results_out_of_room.py``), Aces' bye."""
    from team_results_room import team_evening, wbf_imps, wbf_vp

    from hub.api.client import websocket_source
    from hub.live.service.hub_service import HubService
    from hub.store.store import Store

    hawks = [wbf_imps(420 - 170), wbf_imps(-100 - 600)]  # boards 1 and 2, Hawks' side
    eagles = [wbf_imps(120 - 120), wbf_imps(620 - -100)]
    hv, fv = wbf_vp(sum(hawks), 2)
    ev, bv = wbf_vp(sum(eagles), 2)

    async def scenario() -> None:
        url, eid = team_evening(tmp_path, played=9)
        store = Store.open(url)
        hub = HubService(store, eid, [], api=("127.0.0.1", 0), td_pin="1357", tick_s=0.2)
        await hub.start()
        try:
            source, send = websocket_source(f"ws://127.0.0.1:{hub.api.port}/v1", "1357")
            app = ConsoleApp(source, send, refresh_s=0.05)
            async with app.run_test(size=(140, 40)) as pilot:
                await wait_until(lambda: app.room.sections, 10, "the snapshot")
                await pilot.press("x")
                past = app.query_one("#matches-past", DataTable)
                await wait_until(lambda: past.row_count == 3, 20, "round 1 from the hub")
                assert rows(past) == [
                    ("A", "1", "1/2", "1", "1 Hawks", "2 Foxes", "6.00 - 12.00",
                     f"{hv:.2f} - {fv:.2f}", "none"),
                    ("A", "2", "3/4", "1", "3 Eagles", "4 Bears", "12.00 - 0.00",
                     f"{ev:.2f} - {bv:.2f}", "none"),
                    ("A", "", "", "1", "5 Aces", "bye", "", "", ""),
                ]  # fmt: skip
        finally:
            await hub.stop()
            store.close()

    asyncio.run(scenario())
