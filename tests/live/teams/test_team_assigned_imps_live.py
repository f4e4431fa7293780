"""Issue 29 [RULINGS] "Assigned scores at teams", in the running hub: the director enters an
artificial score (``enter_result`` with ``adjusted``) in one room and the match in the
snapshot counts the board with its assigned IMPs (Law 86A: average-plus is +3 IMPs).

Four teams, two boards a round; round 1: Lions (1) v Foxes (4) at tables 1 (open room,
Lions NS) and 2 (closed room, Lions EW). VPs: WBF continuous to 20, the official table.
"""

from __future__ import annotations

import asyncio
from fractions import Fraction
from pathlib import Path
from typing import Any

from hub.live.service.hub_service import HubService
from hub.store.store import Store

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

# (table, board, what the director enters); board 2 NS vulnerable
RESULTS: list[tuple[int, int, dict[str, Any]]] = [
    (1, 1, {"adjusted": "A+/A-"}),  # open room: Lions NS not at fault: +3 to Lions
    (2, 1, {"contract": "4S", "declarer": "N", "result": "="}),  # not compared
    (1, 2, {"contract": "3NT", "declarer": "S", "result": "="}),  # +600
    (2, 2, {"contract": "3NT", "declarer": "S", "result": "="}),  # +600: a push
]


def _snapshot(tmp_path: Path) -> dict[str, Any]:
    async def scenario() -> dict[str, Any]:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        hub = HubService(store, eid, [], clock=lambda: 1_000_000.0, auto_advance=False)
        await hub.start()
        try:
            for table, board, what in RESULTS:
                where = {"section": "A", "table": table, "round": 1, "board": board}
                reply = await hub.commands.dispatch("enter_result", where | what, TD)
                assert reply.get("result"), reply
            return await hub.snapshots.build()
        finally:
            await hub.stop()
            store.close()

    return asyncio.run(scenario())


def test_an_artificial_score_in_one_room_counts_as_assigned_imps(tmp_path):
    """Board 1: A+/A− to Lions in the open room, +3 IMPs to Lions (the closed room's 420 is
    not compared); board 2 a push: Lions 3-0 over 2 boards, 12.42-7.58 on the official
    WBF continuous table (2 boards, 3 IMPs)."""
    lions = _snapshot(tmp_path)["sections"]["A"]["matches"][0]
    assert (lions["home"], lions["away"]) == (1, 4)
    assert (lions["out"], lions["scored"]) == ([], 2)
    assert (Fraction(lions["home_imps"]), Fraction(lions["away_imps"])) == (3, 0)
    assert (Fraction(lions["home_vp"]), Fraction(lions["away_vp"])) == (
        Fraction("12.42"),
        Fraction("7.58"),
    )
