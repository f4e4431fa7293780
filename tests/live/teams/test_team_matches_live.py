"""Issue 16 [TEAMS] "Team matches in the running hub": the hub's snapshot and feed carry
each match of a teams section's round: its tables (open room: home NS; closed room: home
EW), the teams, running IMPs (Law 78B) and VPs (the event's scale, WBF continuous to 20),
and the boards still out (not yet played in both rooms).

Four teams, two boards a round; round 1: team 1 (Lions) v team 4 (Foxes) at tables 1/2,
team 2 (Bears) v team 3 (Owls) at tables 3/4. The director enters the results.
"""

from __future__ import annotations

import asyncio
import csv
from fractions import Fraction
from pathlib import Path
from typing import Any

from hub_stub import wait_until

from hub.live.service.hub_service import HubService
from hub.store.store import Store

DATA = Path(__file__).parents[2] / "data"
TD = "TD console"
EVENT = """schema_version = 1
[event]
name = "Four teams"
[rules]
scoring = "teams"
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = { kind = "teams", teams = 4, boards_per_round = 2 }
teams = [
  { number = 1, name = "Lions" },
  { number = 2, name = "Bears" },
  { number = 3, name = "Owls" },
  { number = 4, name = "Foxes" },
]
"""


def danish_vp(boards: int, margin: int) -> tuple[Fraction, Fraction]:
    """Winner's and loser's VPs from the official Danish WBF table (the two sum to 20)."""
    with (DATA / "wbf_vp_continuous_oracle.csv").open() as f:
        for row in csv.DictReader(f):
            if (int(row["boards"]), int(row["imp_margin"])) == (boards, margin):
                win = Fraction(row["official_dk_table"])
                return win, 20 - win
    raise AssertionError(f"no official value for {boards} boards, {margin} IMPs")


# (table, board, contract, declarer, result); board 1 nobody vulnerable, board 2 NS
RESULTS = [
    (1, 1, "4S", "N", "="),  # open room, Lions NS: +420
    (2, 1, "4S", "N", "-1"),  # closed room, Foxes NS: -50; Lions +470: 10 IMPs
    (1, 2, "3NT", "S", "="),  # +600 vulnerable
    (2, 2, "3NT", "S", "="),  # +600: a push, 0 IMPs; Lions win 10-0 over 2 boards
    (3, 1, "1NT", "N", "+1"),  # open room, Bears NS: +120
    (4, 1, "2H", "E", "="),  # closed room, Owls EW: NS -110; Bears +230: 6 IMPs
    (4, 2, "4H", "N", "="),  # board 2 in the closed room only: still out
]


def played_round_one(
    tmp_path: Path, results: list[tuple[int, int, str, str, str]] = RESULTS
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The snapshot after ``results``, and the feed's ``matches`` events."""

    async def scenario() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        hub = HubService(store, eid, [], clock=lambda: 1_000_000.0, auto_advance=False)
        await hub.start()
        feed = hub.feed.subscribe()
        try:
            for table, board, contract, declarer, result in results:
                what = {"contract": contract, "declarer": declarer, "result": result}
                if contract == "adjusted":
                    what = {"adjusted": result}
                where = {"section": "A", "table": table, "round": 1, "board": board}
                reply = await hub.commands.dispatch("enter_result", where | what, TD)
                assert reply.get("result"), reply
            events: list[dict[str, Any]] = []

            def seven() -> bool:
                while not feed.empty():
                    ev = feed.get_nowait()
                    if ev is not None and ev.get("event") == "matches":
                        events.append(ev)
                return len(events) >= len(results)

            await wait_until(seven, 10, "a matches event after each result")
            return await hub.snapshots.build(), events
        finally:
            await hub.stop()
            store.close()

    return asyncio.run(scenario())


def test_snapshot_and_feed_carry_each_match_with_imps_vps_and_boards_out(tmp_path):
    """Lions v Foxes: 470 → 10 IMPs (Law 78B: 430-490), then a push; 10-0 over 2 boards is
    the official table's VPs. Bears v Owls: 230 → 6 IMPs (220-260) over the one board both
    rooms have played (VPs for 1 board); board 2 is out."""
    snapshot, events = played_round_one(tmp_path)
    section = snapshot["sections"]["A"]
    lions, bears = section["matches"]
    w10, l10 = danish_vp(2, 10)
    w6, l6 = danish_vp(1, 6)
    assert {k: lions[k] for k in ("match", "round", "open_table", "closed_table")} == {
        "match": 1,
        "round": 1,
        "open_table": 1,
        "closed_table": 2,
    }
    assert (lions["home"], lions["home_name"], lions["away"], lions["away_name"]) == (
        1,
        "Lions",
        4,
        "Foxes",
    )
    assert (lions["boards"], lions["out"], lions["scored"]) == ([1, 2], [], 2)
    assert (Fraction(lions["home_imps"]), Fraction(lions["away_imps"])) == (10, 0)
    assert (Fraction(lions["home_vp"]), Fraction(lions["away_vp"])) == (w10, l10)
    assert (bears["match"], bears["open_table"], bears["closed_table"]) == (2, 3, 4)
    assert (bears["home"], bears["away"], bears["away_name"]) == (2, 3, "Owls")
    assert (bears["boards"], bears["out"], bears["scored"]) == ([1, 2], [2], 1)
    assert (Fraction(bears["home_imps"]), Fraction(bears["away_imps"])) == (6, 0)
    assert (Fraction(bears["home_vp"]), Fraction(bears["away_vp"])) == (w6, l6)
    # the feed told the console after each result; the last is the snapshot's
    assert [e["round"] for e in events] == [1] * len(RESULTS)
    assert events[-1]["section"] == "A" and events[-1]["matches"] == section["matches"]
    first = events[0]["matches"][0]  # one room of board 1 played: nothing scored yet
    assert (first["out"], first["scored"], first["home_imps"], first["home_vp"]) == (
        [1, 2],
        0,
        None,
        None,
    )


def test_a_board_with_an_artificial_score_is_not_out_and_is_scored_with_assigned_imps(tmp_path):
    """Board 2 of Lions v Foxes: an artificial score (A/A) in the closed room. The board is
    no longer out; as in the standings it is scored with its assigned IMPs (Law 86A: an
    average to both sides is 0 IMPs, [RULINGS] #29): 10 IMPs over 2 boards."""
    results = [*RESULTS[:3], (2, 2, "adjusted", "", "A/A")]
    snapshot, _ = played_round_one(tmp_path, results)
    lions = snapshot["sections"]["A"]["matches"][0]
    assert (lions["out"], lions["scored"]) == ([], 2)
    assert (Fraction(lions["home_imps"]), Fraction(lions["away_imps"])) == (10, 0)
    assert (Fraction(lions["home_vp"]), Fraction(lions["away_vp"])) == danish_vp(2, 10)
