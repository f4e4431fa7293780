"""The console's Matches tab (issue 16 [TEAMS] "Team matches in the running hub"): every
match of the round, its tables (open/closed room), home v away, running IMPs and VPs and
the boards still out, from the snapshot's ``matches``; the feed's ``matches`` events keep
it current, and a new round shows its seating with every board out. The tab shows in a
teams event only.

Four teams, two boards a round, round 1: Lions (1) v Foxes (4) at tables 1/2 have played
both boards, 470 on board 1 (10 IMPs, Law 78B 430-490) and a push; Bears (2) v Owls (3)
at tables 3/4 have played board 1 in both rooms, 230 to the Bears (6 IMPs, 220-260).
VPs: the official WBF continuous table (tests/data/wbf_vp_continuous_oracle.csv): 10 IMPs
over 2 boards 16.46-3.54; 6 IMPs over 1 board 15.74-4.26.
"""

from __future__ import annotations

import asyncio
import copy

from console_feeds import SNAPSHOT, recorded
from console_pilot import rows
from console_teams_feed import BEARS, LIONS, event, seat, teams_snapshot
from hub_stub import wait_until
from textual.widgets import DataTable, TabbedContent

from hub.console.app import ConsoleApp


def test_matches_tab_shows_each_match_its_imps_vps_and_boards_out():
    """Bears v Owls then play board 2 in the open room too: a 600 v 620 difference of 20,
    1 IMP to the Owls (Law 78B 20-40), Bears 6-1 over 2 boards, 5 IMPs: 13.78-6.22 in the
    official table. Round 2 seats Lions v Bears at 1/2, Foxes v Owls at 3/4 on boards 3-4."""
    bears_done = BEARS | {"out": [], "scored": 2, "away_imps": "1"}
    bears_done |= {"home_vp": "689/50", "away_vp": "311/50"}  # 13.78, 6.22
    round_two = [seat(1, 1, 2, [3, 4]), seat(2, 2, 1, [3, 4])]
    round_two += [seat(3, 4, 3, [3, 4]), seat(4, 3, 4, [3, 4])]
    feed = [
        teams_snapshot(),
        {"type": "pause"},
        event(2, "result", table=3, round=1, board=2, status="accepted", id=9),
        event(3, "matches", round=1, matches=[LIONS, bears_done]),
        {"type": "pause"},
        event(4, "round_started", round=2, tables=round_two),
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

    async def scenario():
        app = ConsoleApp(source, refresh_s=0.05)
        async with app.run_test(size=(120, 30)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            tabs = app.query_one(TabbedContent)
            await pilot.press("x")
            table = app.query_one("#matches-table", DataTable)
            await wait_until(lambda: table.row_count == 2, 5, "the two matches")
            assert tabs.active == "matches" and tabs.get_tab("matches").display
            lions = ("1 Lions", "4 Foxes", "10.00 - 0.00", "16.46 - 3.54", "none")
            bears = ("2 Bears", "3 Owls", "6.00 - 0.00", "15.74 - 4.26", "2")
            assert rows(table) == [("A", "1", "1/2", "1", *lions), ("A", "2", "3/4", "1", *bears)]
            gate.put_nowait(None)
            await wait_until(lambda: "6.00 - 1.00" in rows(table)[1], 5, "the feed's news")
            assert rows(table)[1][7:] == ("13.78 - 6.22", "none")
            gate.put_nowait(None)
            await wait_until(lambda: rows(table)[0][3] == "2", 5, "round 2's matches")
            assert rows(table) == [
                ("A", "1", "1/2", "2", "1 Lions", "2 Bears", "-", "-", "3, 4"),
                ("A", "2", "3/4", "2", "4 Foxes", "3 Owls", "-", "-", "3, 4"),
            ]
            gate.put_nowait(None)

    asyncio.run(scenario())


def test_matches_tab_is_not_in_the_tab_bar_of_a_pairs_event():
    """A pairs event has no matches: no tab in the bar; ``x`` shows why it is empty."""

    async def scenario():
        app = ConsoleApp(recorded([copy.deepcopy(SNAPSHOT)]), refresh_s=0.05)
        async with app.run_test(size=(120, 30)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the snapshot")
            await pilot.pause(0.3)
            tabs = app.query_one(TabbedContent)
            assert not tabs.get_tab("matches").display
            await pilot.press("x")
            await pilot.pause(0.1)
            assert app.query_one("#matches-table", DataTable).row_count == 0
            note = str(app.query_one("#matches-note").render())
            assert "teams event" in note

    asyncio.run(scenario())
