"""Issue [LIVENESS]: "A table that is online and seated in a running round and has made no
progress (no result, no board started, no answer) for longer than the event's time per
board is shown to the director: on the Room view, as an alert naming the table and what it
is waiting for, and in the devices read." And a terminal that has logged on ends up with
its assignment: one that went unanswered is sent again by the hub without waiting for the
terminal's next contact (docs/protocol.md §3). Real ptys, an injected hub clock."""

from __future__ import annotations

import asyncio

from event_text import one_section_event
from hub_stub import wait_until

from drivers.protocol.messages import Assignment, BoardStarted, Status
from hub.console.rows import room_rows
from hub.console.state import RoomState
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal


def heard(hub: HubService, table: int) -> float | None:
    """When the table's terminal last made progress, as the hub's clock says."""
    return next(s.progress_at for s in hub.gateway.in_section("A") if s.table == table)


EVENT = one_section_event("Silent tables", 'kind = "howell", tables = 2, boards_per_round = 2')


def test_a_silent_table_is_shown_to_the_director_and_a_lost_assignment_goes_again(tmp_path):
    """Two tables log on; nobody plays (the players are slow beyond measure). Within a
    board's time (the event's default, 7.5 min) nothing is said; past it, table 2, still
    silent but for a battery report, is an alert naming it and its boards, a SILENT mark on
    the Room view and an entry in the devices read, once; table 1 started a board meanwhile
    and is not. When
    table 2 speaks again the mark goes. A lost assignment is sent again at the next check."""
    now = [0.0]

    async def scenario() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        for t in (1, 2):
            station.add_terminal(
                VirtualTerminal(t, f"BM-{t}", "A", t, PlayerBot(seed=t), speed=1e-6)
            )
        hub = HubService(store, eid, [str(line.path)], clock=lambda: now[0], tick_s=3600)
        await hub.start()
        station.start()
        try:
            await wait_until(
                lambda: len([s for s in hub.gateway.in_section("A") if s.online]) == 2,
                20,
                "both tables logged on",
            )
            ctl = hub.sections["A"].controller
            await wait_until(
                lambda: all(
                    ctl.table_round(t, 1).first_action_at is not None
                    and station.link.pending(t) == 0
                    for t in (1, 2)
                ),
                20,
                "both tables' first board started and answered",
            )
            per_board = hub.sections["A"].clock.timing.minutes_per_board * 60
            assert per_board == 7.5 * 60
            now[0] = per_board - 1
            assert hub.silent.check() == []
            station.terminals[1].send(BoardStarted("A", 1, 1, 2, 0))  # table 1 moves on
            station.terminals[2].send(Status(90, 90, 0))  # table 2 only reports its battery
            await wait_until(
                lambda: all(
                    s.last_seen == now[0] for s in hub.gateway.in_section("A") if s.table == 1
                ),
                10,
                "table 1's status at the hub",
            )
            now[0] = per_board + 60
            silent = hub.silent.check()
            assert [(t.section, t.table) for t in silent] == [("A", 2)]
            assert hub.silent.check() == silent  # still silent: told once
            alerts = [
                e for e in hub.feed.since(0) if e["event"] == "alert" and "silent" in e["text"]
            ]
            assert len(alerts) == 1 and alerts[0]["table"] == 2
            boards = hub.sections["A"].controller.table_round(2, 1).boards
            text = alerts[0]["text"]
            assert "table A2" in text and "BM-2" in text
            assert f"boards {', '.join(map(str, boards))}" in text
            room = (await hub.snapshot())["sections"]["A"]
            marks = {t["table"]: t["silent"] for t in room["tables"]}
            assert marks[1] is None and "results of boards" in marks[2]
            devices = hub.devices()["silent_tables"]
            assert [(d["section"], d["table"], d["serial"]) for d in devices] == [("A", 2, "BM-2")]

            console = RoomState()
            console.sections["A"] = {"round": 1, "rounds": 3, "tables": room["tables"]}
            assert str(room_rows(console)["A:2"][8]) == "SILENT"
            assert str(room_rows(console)["A:1"][8]) == "yes"

            station.terminals[2].send(BoardStarted("A", 2, 1, 2, 0))
            await wait_until(
                lambda: all(
                    s.last_seen == now[0] for s in hub.gateway.in_section("A") if s.table == 2
                ),
                10,
                "table 2's status at the hub",
            )
            assert hub.silent.check() == []
            cleared = [e for e in hub.feed.since(0) if e["event"] == "table_silent"]
            assert [e["silent"] is None for e in cleared] == [False, True]
            console.apply({**cleared[-1], "seq": 10**6})
            assert str(room_rows(console)["A:2"][8]) == "yes"

            t2 = station.terminals[2]
            seat = next(s for s in hub.gateway.in_section("A") if s.table == 2)
            before = sum(isinstance(m, Assignment) for m in t2.log.received)
            seat.assignment_lost = True  # its ACK never came; the terminal says nothing more
            hub.silent.check()
            await wait_until(
                lambda: sum(isinstance(m, Assignment) for m in t2.log.received) > before,
                10,
                "the assignment sent again without the terminal's contact",
            )
        finally:
            await station.stop()
            await hub.stop()
            store.close()

    asyncio.run(scenario())
