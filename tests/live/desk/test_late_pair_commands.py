"""Pairs during the session (issue 13 "Late pairs, withdrawals and substitutes", "Names";
TD trial F17): the director's `add_pair`, `withdraw_pair`, `substitute`, `edit_pair` and
`change_movement` on a real hub (real SQLite store, the real command dispatcher), with an
injected clock. The event (tests/late_pair_event.py) is a 3-table
Mitchell with EW 3 missing: NS 3 sits out each round; its movement is worked there by hand.
Pair numbers in the commands are the hub's (EW 3 is 6), as in the snapshot."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from late_pair_event import five_pairs

from hub.api.server import CommandError
from hub.live.service.hub_service import HubService
from hub.store.store import Store

START = 1_900_000_000.0


class FakeClock:
    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def started(tmp_path: Path) -> tuple[Store, int, HubService]:
    file = five_pairs(tmp_path)
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(file.read_text("utf-8"), base_dir=tmp_path)
    hub = HubService(store, eid, [], clock=FakeClock(), auto_advance=False, tick_s=3600)
    await hub.start()
    return store, eid, hub


def run(tmp_path: Path, scenario) -> None:
    async def go() -> None:
        store, eid, hub = await started(tmp_path)
        try:
            await scenario(store, eid, hub)
        finally:
            await hub.stop()
            store.close()

    asyncio.run(go())


async def enter(hub: HubService, table: int, rnd: int, board: int, ns: int, ew: int) -> None:
    args = {"section": "A", "table": table, "round": rnd, "board": board}
    args |= {"ns_pair": ns, "ew_pair": ew, "contract": "3NT", "declarer": "N", "result": "="}
    await hub.commands.dispatch("enter_result", args, "TD")


def row(store: Store, eid: int, table: int, rnd: int) -> tuple[int, int, tuple[int, ...]]:
    r = store.movement(eid, "A").row("A", table, rnd)
    assert r is not None
    return r.ns_pair, r.ew_pair, r.boards


def test_a_late_pair_takes_the_sit_outs_place_from_round_2(tmp_path):
    """Issue 13: a late pair after round 1 plays where pair 0 was, from round 2 on (table 1
    round 2 against NS 1 on boards 3-4; table 2 round 3 against NS 2 on boards 1-2); round 1
    stays as played; its name is in the standings; a result for it is taken."""

    async def scenario(store: Store, eid: int, hub: HubService) -> None:
        await enter(hub, 1, 1, 1, 1, 4)
        await hub.commands.dispatch("next_round", {"section": "A"}, "TD")
        players = [{"name": "Kim Lund", "number": "301"}, {"name": "Lo Mark"}]
        reply = await hub.commands.dispatch(
            "add_pair", {"section": "A", "from_round": 2, "players": players}, "TD"
        )
        tables = [{"round": 2, "table": 1}, {"round": 3, "table": 2}]
        players = [{"name": "Kim Lund", "number": "301"}, {"name": "Lo Mark"}]
        assert reply == {"pair": 6, "label": "EW 3", "tables": tables, "players": players}
        assert row(store, eid, 3, 1) == (3, 0, (5, 6))  # round 1 as played
        assert row(store, eid, 1, 2) == (1, 6, (3, 4))
        assert row(store, eid, 2, 3) == (2, 6, (1, 2))
        assert hub.rounds.sections["A"].movement.row("A", 1, 2).ew_pair == 6
        described = store.movement(eid, "A").layout.description  # the report's header
        assert described.endswith("; from round 2 EW 3 takes the sit-out's place"), described
        assert [t["ew"] for t in hub.rounds.tables("A")] == [6, 4, 5]
        await enter(hub, 1, 2, 3, 1, 6)  # the intake knows the late pair
        names = {r["pair"]: r.get("name") for r in hub.standings_rows("A")}
        assert names[6] == "Kim Lund & Lo Mark"
        directory = (await hub.snapshot())["sections"]["A"]["pairs"]
        assert directory["6"]["label"] == "EW 3"
        assert directory["6"]["names"] == "Kim Lund & Lo Mark"
        stored = {c["number"]: c["players"] for c in store.contestants(eid, "A")}
        assert stored[6] == [{"name": "Kim Lund", "number": "301"}, {"name": "Lo Mark"}]
        assert any(a["action"] == "pair_added" for a in store.audit_log(eid))

    run(tmp_path, scenario)


def test_a_late_pair_is_refused_without_a_sit_out_or_for_a_round_played(tmp_path):
    """Issue 13: with no sit-out left the director is told to change the movement; a round
    already over cannot take the pair."""

    async def scenario(store: Store, eid: int, hub: HubService) -> None:
        await hub.commands.dispatch("next_round", {"section": "A"}, "TD")
        with pytest.raises(CommandError, match="round 1 of section A is over"):
            await hub.commands.dispatch(
                "add_pair", {"section": "A", "from_round": 1, "players": []}, "TD"
            )
        await hub.commands.dispatch(
            "add_pair", {"section": "A", "from_round": 2, "players": []}, "TD"
        )
        with pytest.raises(CommandError, match=r"no sit-out .*change the movement"):
            await hub.commands.dispatch(
                "add_pair", {"section": "A", "from_round": 2, "players": [], "pair": 7}, "TD"
            )

    run(tmp_path, scenario)


def test_a_pair_leaving_at_half_time_leaves_its_opponents_sitting_out(tmp_path):
    """Issue 13: NS 2 leaves after round 2: from round 3 table 2 is 0 v 6 (a sit-out); its
    round 1 and 2 results stay. Withdrawing from a round where it already has a result is
    refused, saying from which round it can be done."""

    async def scenario(store: Store, eid: int, hub: HubService) -> None:
        await enter(hub, 2, 1, 3, 2, 5)
        await hub.commands.dispatch("next_round", {"section": "A"}, "TD")
        await enter(hub, 2, 2, 5, 2, 4)
        with pytest.raises(CommandError, match="table 2 round 2 already has results: start"):
            await hub.commands.dispatch(
                "withdraw_pair", {"section": "A", "pair": 2, "from_round": 2}, "TD"
            )
        await hub.commands.dispatch(
            "withdraw_pair", {"section": "A", "pair": 2, "from_round": 3}, "TD"
        )
        assert row(store, eid, 2, 3) == (0, 0, (1, 2))  # 2 left and 6 is the sit-out
        assert row(store, eid, 2, 2) == (2, 4, (5, 6))
        kept = {(r.round, r.ns_pair) for r in store.live_results(eid, "A")}
        assert kept == {(1, 2), (2, 2)}

    run(tmp_path, scenario)


def test_a_substitute_and_an_edit_change_the_names_and_keep_the_old_in_the_audit(tmp_path):
    """Issue 13 "Names": a substitute for NS 1's second player from round 2; the standings'
    names follow; the audit keeps who played before. An edit corrects a number."""

    async def scenario(store: Store, eid: int, hub: HubService) -> None:
        await enter(hub, 1, 1, 1, 1, 4)
        await hub.commands.dispatch(
            "substitute",
            {"section": "A", "pair": 1, "seat": 2, "name": "Sub Stitute", "number": "999"},
            "TD",
        )
        names = {r["pair"]: r.get("name") for r in hub.standings_rows("A")}
        assert names[1] == "Anna Berg & Sub Stitute"
        entry = next(a for a in store.audit_log(eid) if a["action"] == "substitute")
        assert entry["detail"]["before"][1] == {"name": "Partner 1"}
        await hub.commands.dispatch(
            "edit_pair",
            {"section": "A", "pair": 4, "players": [{"name": "Gun Holm", "number": "404"}]},
            "TD",
        )
        stored = {c["number"]: c["players"] for c in store.contestants(eid, "A")}
        assert stored[4] == [{"name": "Gun Holm", "number": "404"}]
        with pytest.raises(CommandError, match="section A has no pair 9"):
            await hub.commands.dispatch(
                "edit_pair", {"section": "A", "pair": 9, "players": [{"name": "X"}]}, "TD"
            )

    run(tmp_path, scenario)


def test_another_movement_from_round_2_keeps_round_1_and_the_round_state_follows(tmp_path):
    """D19 / issue 13: a 2-round change (a csv movement) from round 2 on: round 1 stays as
    played, rounds 2-3 are the new rows, the hub's round 2 tables are the new ones; a
    change that would rewrite a round with results is refused."""

    later = (
        "section,table,round,ns_pair,ew_pair,low_board,high_board\n"
        "A,1,2,1,5,5,6\nA,2,2,2,0,1,2\nA,3,2,3,4,3,4\n"
        "A,1,3,1,0,3,4\nA,2,3,2,4,5,6\nA,3,3,3,5,1,2\n"
    )

    async def scenario(store: Store, eid: int, hub: HubService) -> None:
        await enter(hub, 1, 1, 1, 1, 4)
        with pytest.raises(CommandError, match="table 1 round 1 already has results"):
            await hub.commands.dispatch(
                "change_movement", {"section": "A", "from_round": 1, "csv": later}, "TD"
            )
        await hub.commands.dispatch("next_round", {"section": "A"}, "TD")
        reply = await hub.commands.dispatch(
            "change_movement", {"section": "A", "from_round": 2, "csv": later}, "TD"
        )
        assert reply == {"rounds": 3, "tables": 3}
        assert row(store, eid, 1, 1) == (1, 4, (1, 2))
        assert row(store, eid, 1, 2) == (1, 5, (5, 6))
        assert [(t["ns"], t["ew"]) for t in hub.rounds.tables("A")] == [(1, 5), (2, 0), (3, 4)]
        assert hub.rounds.current("A") == 2
        await enter(hub, 1, 2, 5, 1, 5)

    run(tmp_path, scenario)


def test_a_generated_movement_from_round_2_and_names_for_the_pair_it_brings(tmp_path):
    """Issue 13: `change_movement` with a generated movement. The full 3-table Mitchell
    from round 2 seats EW 3 (the hub's 6) where pair 0 was (T1 r2 1-6, T2 r3 2-6, the same
    boards); the director then names that pair with `edit_pair`. A 3-table Howell from round
    2 is refused by the movement checker with the reason (NS 2 would meet boards 3-4 again,
    played at table 2 in round 1), saying which section and round."""

    async def scenario(store: Store, eid: int, hub: HubService) -> None:
        await hub.commands.dispatch("next_round", {"section": "A"}, "TD")
        howell = {"kind": "howell", "tables": 3, "boards_per_round": 2}
        with pytest.raises(CommandError, match=r"section A from round 2: .*already played board 3"):
            await hub.commands.dispatch(
                "change_movement", {"section": "A", "from_round": 2, "movement": howell}, "TD"
            )
        mitchell = {"kind": "mitchell", "tables": 3, "boards_per_round": 2}
        await hub.commands.dispatch(
            "change_movement", {"section": "A", "from_round": 2, "movement": mitchell}, "TD"
        )
        assert row(store, eid, 1, 2) == (1, 6, (3, 4))
        assert row(store, eid, 2, 3) == (2, 6, (1, 2))
        assert row(store, eid, 3, 1) == (3, 0, (5, 6))
        await hub.commands.dispatch(
            "edit_pair", {"section": "A", "pair": 6, "players": [{"name": "Kim Lund"}]}, "TD"
        )
        assert hub.views.names["A"][6] == "Kim Lund"

    run(tmp_path, scenario)
