"""Results are never lost or stuck (issue [TRUST]; decisions D9, D10, D12, D21): a result
the director enters, or a held result the director accepts, finishes the board at its table
as if the terminal had entered it; a NO PLAY finishes once the director assigns a score; a
forced next round never calls a played board unplayed; a restarted hub counts every stored
result as played at once, and a round complete before the restart ends by itself; a result
the store cannot take is answered "busy, resend" and sent again after a pause (D11).

The hub runs whole (``HubService``, real SQLite store) behind a terminal port that records
its answers (tests/results_room.py), so every answer is the one a terminal would get. The
hub's clock is injected."""

from __future__ import annotations

import asyncio
from typing import Any

from hub_stub import wait_until
from results_room import EVENT, open_room
from room import simulated_room

from drivers.protocol.messages import NakCode
from hub.live.port import terminal_port as tp
from hub.live.service.hub_service import HubService
from hub.store.store import ResultEntry, Store


def test_director_entries_held_results_and_no_play_finish_the_round_d9(tmp_path):
    """Tables 2 and 3 enter both boards. Table 1 keys board 99 (held) and a NO PLAY: the
    director accepts the held result as the real board and assigns 60/40 to the other; the
    round then completes by itself with nothing unplayed, and round 2 starts."""

    async def scenario() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'e.db'}")
        eid = store.create_event(EVENT)
        room = await open_room(store, eid, auto_advance=True)
        try:
            for t in (1, 2, 3):
                await room.seat(t)
            for t in (2, 3):
                for b in room.row(t).boards:
                    assert (await room.result(t, b)).outcome is tp.Outcome.ACCEPTED
            first, second = room.row(1).boards
            held = await room.result(1, 99)
            assert held.outcome is tp.Outcome.HELD
            assert (await room.result(1, second, no_play=True)).outcome is tp.Outcome.ACCEPTED
            assert room.tables()[1] == 0 and room.hub.rounds.current("A") == 1
            (alert,) = [a for a in room.events("alert") if a.get("held")]
            await room.td("accept_held", result=alert["result"], rekey={"board": first})
            assert room.tables()[1] == 1  # finished as if the terminal had entered it
            assert room.hub.rounds.current("A") == 1  # the NO PLAY still waits for a score
            row = room.row(1)
            await room.td(
                "enter_result",
                section="A",
                table=1,
                round=1,
                board=second,
                ns_pair=row.ns_pair,
                ew_pair=row.ew_pair,
                adjusted="60/40",
            )
            assert room.hub.rounds.current("A") == 2
            (complete,) = room.events("round_complete")
            assert complete["round"] == 1 and complete["unplayed"] == []
        finally:
            await room.hub.stop()
            store.close()

    asyncio.run(scenario())


def test_a_forced_next_round_never_calls_a_played_board_unplayed(tmp_path):
    """Table 1's first board came as a held result the director accepted, table 2's first
    from the director's hand; the director moves on: only the boards without a result are
    reported unplayed."""

    async def scenario() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'e.db'}")
        eid = store.create_event(EVENT)
        room = await open_room(store, eid, auto_advance=False)
        try:
            await room.seat(1)
            assert (await room.result(1, 99)).outcome is tp.Outcome.HELD
            (alert,) = [a for a in room.events("alert") if a.get("held")]
            first1, second1 = room.row(1).boards
            await room.td("accept_held", result=alert["result"], rekey={"board": first1})
            row2 = room.row(2)
            await room.td(
                "enter_result",
                section="A",
                table=2,
                round=1,
                board=row2.boards[0],
                ns_pair=row2.ns_pair,
                ew_pair=row2.ew_pair,
                contract="4S",
                declarer="N",
                result="=",
            )
            moved = await room.td("next_round", section="A")
            unplayed = {u["table"]: u["boards"] for u in moved["unplayed"]}
            assert unplayed == {1: [second1], 2: [row2.boards[1]], 3: list(room.row(3).boards)}
            (alert,) = [a for a in room.events("alert") if "ended by the director" in a["text"]]
            assert f"table 1 boards {second1}," in alert["text"]
        finally:
            await room.hub.stop()
            store.close()

    asyncio.run(scenario())


def _stored(store: Store, eid: int, table: int, boards: int | None = None) -> None:
    """Results the hub committed before it died (kill -9 between commit and the rest)."""
    movement = store.movement(eid, "A")
    row = movement.row("A", table, 1)
    assert row is not None
    store.record(
        eid,
        [
            ResultEntry(
                "A", table, 1, b, row.ns_pair, row.ew_pair, "3NT", "S", tricks=9,
                entered_by=f"BM-{table}", submission_key=f"BM-{table}:A:{table}:1:{b}:1",
            )
            for b in row.boards[:boards]
        ],
    )  # fmt: skip


def test_a_restarted_hub_counts_every_stored_result_at_once(tmp_path):
    """Tables 1 and 2 finished round 1, table 3 one board, before the hub died: at start the
    room shows 2, 2, 1 done in round 1 (no terminal needs to speak first), and the director
    forcing the round on is told only of table 3's last board."""

    async def scenario() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'e.db'}")
        eid = store.create_event(EVENT)
        _stored(store, eid, 1)
        _stored(store, eid, 2)
        _stored(store, eid, 3, boards=1)
        room = await open_room(store, eid, auto_advance=True)
        try:
            assert room.hub.rounds.current("A") == 1
            assert room.tables() == {1: 2, 2: 2, 3: 1}
            snapshot = (await room.hub.snapshot())["sections"]["A"]
            assert {t["table"]: t["done"] for t in snapshot["tables"]} == {1: 2, 2: 2, 3: 1}
            moved = await room.td("next_round", section="A")
            assert moved["unplayed"] == [{"table": 3, "boards": [room.row(3).boards[1]]}]
        finally:
            await room.hub.stop()
            store.close()

    asyncio.run(scenario())


def test_a_round_complete_before_the_restart_ends_by_itself(tmp_path):
    """Every result of round 1 was committed, the hub died before the round ended: the
    restarted hub ends it once (nothing unplayed) and starts round 2 on its own."""

    async def scenario() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'e.db'}")
        eid = store.create_event(EVENT)
        store.add_clock_event(eid, "start", "A", 1, {})
        for t in (1, 2, 3):
            _stored(store, eid, t)
        room = await open_room(store, eid, auto_advance=True)
        try:
            assert room.hub.rounds.current("A") == 2
            assert room.hub.rounds.controller("A").is_complete(1)
            unplayed = [e for e in room.events("alert") if "ended by" in e["text"]]
            assert unplayed == []
        finally:
            await room.hub.stop()
            store.close()

    asyncio.run(scenario())


def test_a_failed_commit_is_answered_busy_and_the_terminal_resends_after_a_pause(tmp_path):
    """D11, never silence: the store fails the first commit and its retry; the terminal is
    NAKed BUSY (a link-level code, below 16), sends the result again after the 250 ms
    pause (docs/protocol.md §3), and it is stored — long before the link's 8 tries (about
    12 s) would give up. The director is told that the store would not take results."""

    async def scenario() -> None:
        store, eid, line, station = simulated_room(tmp_path, EVENT, tables=(1,))
        hub = HubService(store, eid, [str(line.path)])
        record, failures = store.record, []

        def record_failing(*args: Any, **kwargs: Any) -> Any:
            if len(failures) < 2:
                failures.append(args)
                raise OSError("injected: disk I/O error")
            return record(*args, **kwargs)

        store.record = record_failing  # type: ignore[method-assign]
        await hub.start()
        station.start()
        terminal = station.terminals[1]
        try:

            def busy() -> list[Any]:
                return [m for m, code, _ in terminal.log.refused if code == NakCode.BUSY]

            await wait_until(lambda: busy(), 10, "the busy answer")
            (refused,) = busy()
            await wait_until(lambda: refused in terminal.log.accepted, 5, "the resent result")
            assert int(NakCode.BUSY) < 16 and terminal.log.gave_up == 0
            assert any("the store cannot record results" in t for t in hub.alerts.recent())
            stored = [(r.round, r.board) for r in store.results(eid)]
            assert stored.count((refused.round, refused.board)) == 1
        finally:
            await station.stop()
            await hub.stop()
            line.close()
            store.close()

    asyncio.run(scenario())
