"""Review findings on the wire and terminal side (issue [TRUST]): the audit trail loses no
batch when the hub stops mid-write and writes no entry twice after a failure (decisions
D20: every refusal is audited); a stranger's repeated LOGONs, or PIN attempts while locked
out, cost one audit row a minute and no memory per made-up serial; a terminal that loses
its table to a takeover is told (docs/protocol.md §4.5); a director's message is cut by
bytes, not characters (§2); idle terminals come back to their tables after a hub restart
(§3); a table is online again once its terminal speaks after its line came back, and
offline after TERMINAL_LEFT; a request whose handling fails is answered."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any

from trust_room import EVENT, PIN, Room, run_room

from drivers.protocol import messages as wire
from drivers.protocol.link import Link
from hub.live.oversight.audit_trail import AuditTrail
from hub.live.port import terminal_port as tp
from hub.live.port.base_station import BaseStationPort
from hub.live.tables.takeover_pin import LIMIT
from hub.store.store import Store


class GatedStore:
    """A real store whose audit writes wait for ``gate`` (a slow disk), counting starts."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.gate = threading.Event()
        self.started = threading.Event()

    def audit(self, event_id: int, actor: str, action: str, detail: dict[str, Any]) -> None:
        if actor != "late":  # what the stop's own flush writes is not held up
            self.started.set()
            assert self.gate.wait(10), "the test never opened the gate"
        self.store.audit(event_id, actor, action, detail)


def test_stopping_the_audit_writer_mid_write_loses_no_entry(tmp_path):
    """D20 (every refusal audited): the hub's stop cancels the audit task while a batch is
    being written, then flushes; that batch, already off the queue, must still be in the
    store when ``flush`` returns, and nothing is written twice."""

    async def scenario() -> list[dict[str, Any]]:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        gated = GatedStore(store)
        audit = AuditTrail(gated, eid)  # type: ignore[arg-type]
        task = asyncio.create_task(audit.run())
        audit.record("BM-1", "logon", {"n": 1})
        audit.record("BM-2", "logon", {"n": 2})
        assert await asyncio.to_thread(gated.started.wait, 10), "the write never began"
        task.cancel()  # as the supervisor's stop does
        asyncio.get_running_loop().call_later(0.2, gated.gate.set)  # the disk answers later
        with contextlib.suppress(asyncio.CancelledError):
            await task
        audit.record("late", "logon", {"n": 3})
        await audit.flush()
        rows = store.audit_log(eid, "logon")
        store.close()
        return rows

    rows = asyncio.run(scenario())
    assert [r["actor"] for r in rows] == ["BM-1", "BM-2", "late"]


def test_a_strangers_repeated_logons_cost_one_audit_row_a_minute(tmp_path):
    """D20 / issue [TRUST] "Refused frames are audited in aggregate": a refused LOGON sent
    again and again is written in full once in its minute and counted, not one row per
    message; the next minute's first is written again."""

    async def scenario(room: Room) -> None:
        assert (await room.logon(1, "BM-1", 1)).outcome is tp.Outcome.OK
        for k in range(20):  # another serial at the held table, and a table not there
            await room.logon(7, f"X-{k}", 1 if k % 2 else 99)
        rows = await room.audit("refused")
        assert len(rows) == 1, rows
        assert rows[0]["detail"]["address"] == 7
        room.now[0] += 61
        await room.logon(7, "X-late", 1)
        assert len(await room.audit("refused")) == 2
        await room.hub.audit.flush()
        tallies = await room.audit("logon_refused")
        assert [t["detail"]["count"] for t in tallies] == [20, 1]
        assert tallies[0]["detail"]["reasons"] == {"TABLE_HELD": 10, "NOT_IN_MOVEMENT": 10}

    run_room(tmp_path, scenario)


def test_the_terminal_that_loses_its_table_to_a_takeover_is_told(tmp_path):
    """docs/protocol.md §4.5: the previous terminal loses the table; it gets a TD_MESSAGE
    saying so at once, and its next request for the table is refused (NAK 16) with a text
    that says the table was taken over."""

    async def scenario(room: Room) -> None:
        await room.logon(1, "BM-1", 1)
        room.port.sent.clear()
        taken = await room.logon(2, "BM-2", 1, pin=PIN)
        assert taken.outcome is tp.Outcome.OK, taken
        told = [text for a, what, text in room.port.sent if a == 1 and what == "message"]
        assert len(told) == 1 and "taken over" in told[0] and "A1" in told[0], room.port.sent
        back = await room.result(1, 1, room.row(1).boards[0])
        assert back.reason is tp.Reason.NOT_LOGGED_ON
        assert "taken over" in back.text, back.text

    run_room(tmp_path, scenario)


def test_a_directors_message_is_cut_by_bytes_not_characters():
    """§2 "Text that does not fit": TD_MESSAGE text is cut at 1024 UTF-8 bytes by the codec;
    the adapter no longer cuts at 300 characters first (a 600-character message in ASCII fits
    whole; 600 'é' are 1200 bytes and are cut to 512 characters)."""

    sent: list[tuple[int, wire.Message]] = []

    class Driver:
        link = Link(lambda: 0.0, 1)

        def send(self, address: int, message: wire.Message) -> None:
            sent.append((address, message))

    port = BaseStationPort(Driver(), "line")  # type: ignore[arg-type]
    port.message(3, "a" * 600, True)
    port.message(3, "é" * 600, False)
    (_, plain), (_, accented) = sent
    assert isinstance(plain, wire.TDMessage) and isinstance(accented, wire.TDMessage)
    assert plain.text == "a" * 600
    decoded = wire.decode_message(wire.TDMessage.TYPE, accented.payload())
    assert isinstance(decoded, wire.TDMessage) and decoded.text == "é" * 512


def test_idle_terminals_come_back_to_their_tables_after_a_hub_restart(tmp_path):
    """docs/protocol.md §3 (epochs, a dead hub): the hub restarts while the terminals keep
    running and have nothing to say (the players are mid-board). The restarted hub greets
    every terminal it hears of (the station announces them again on the hub's new HELLO);
    each terminal, seeing the hub's HELLO in a new epoch, logs on again: every table is
    back, online, with its assignment, without the director."""
    from hub_stub import wait_until

    from drivers.protocol.messages import Assignment
    from hub.live.service.hub_service import HubService
    from simulator.bots import PlayerBot
    from simulator.line import PtyLine
    from simulator.station import VirtualBaseStation
    from simulator.terminal import VirtualTerminal

    async def scenario() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        terminals = [  # so slow that nothing more is said after the log-on
            VirtualTerminal(t, f"BM-{t}", "A", t, PlayerBot(seed=t), speed=1e-6) for t in (1, 2, 3)
        ]
        for t in terminals:
            station.add_terminal(t)
        hub = HubService(store, eid, [str(line.path)])
        await hub.start()
        station.start()
        try:
            await wait_until(
                lambda: all(hub.gateway.online("A", t.table) for t in terminals),
                20,
                "every table logged on before the restart",
            )
            await hub.stop()
            before = [len(t.log.received) for t in terminals]
            hub = HubService(store, eid, [str(line.path)])  # the restarted hub
            await hub.start()
            await wait_until(
                lambda: all(hub.gateway.online("A", t.table) for t in terminals),
                20,
                "every table back online after the hub's restart, without the director",
            )
            await wait_until(
                lambda: all(
                    any(isinstance(m, Assignment) for m in t.log.received[n:])
                    for t, n in zip(terminals, before, strict=True)
                ),
                20,
                "the assignment again at every table",
            )
            online = [e for e in hub.feed.since(0) or [] if e["event"] == "table_online"]
            assert {e["table"] for e in online if e["online"]} == {1, 2, 3}
        finally:
            await station.stop()
            await hub.stop()
            store.close()
            line.close()

    asyncio.run(scenario())


def test_a_table_is_online_again_once_its_terminal_speaks_after_its_line_came_back(tmp_path):
    """docs/protocol.md §3 (heartbeats): a station silent for 15 s marks its line down and
    its tables offline; when the line is back the terminals do not log on again (neither end
    restarted), so the console must show a table online once its terminal speaks again over
    the link that holds it (a stranger's word does not count)."""

    async def scenario(room: Room) -> None:
        await room.logon(1, "BM-1", 1)
        room.port.inbound.put_nowait(tp.PortDown("line", "nothing heard for 15 s"))
        await room.say(tp.Other, 5, 1)  # the queue is handled in order: the line is down
        assert not room.hub.gateway.online("A", 1)
        await room.say(tp.Other, 1, 99)  # another session at the address: not the holder
        assert not room.hub.gateway.online("A", 1)
        await room.say(tp.Other, 1, 1)  # the holder speaks again
        assert room.hub.gateway.online("A", 1)
        states = [e["online"] for e in room.events("table_online") if e["table"] == 1]
        assert states == [True, False, True]

    run_room(tmp_path, scenario)


def test_a_request_whose_handling_fails_is_answered_not_left_to_time_out(tmp_path):
    """Bad input never crashes the hub, and every refusal gets a message (the rules): a TD
    call the store cannot record is refused with a text the players can act on at once,
    instead of no answer (the terminal would retry for 12 s and lose the call)."""

    async def scenario(room: Room) -> None:
        await room.logon(1, "BM-1", 1)
        store = room.hub.store

        def broken(*args: Any, **kw: Any) -> int:
            raise OSError("disk full")

        store.open_td_call = broken  # type: ignore[method-assign]
        answer = await room.say(tp.DirectorCall, 1, 1, "A", 1, 1, "revoke")
        assert answer.outcome is tp.Outcome.REFUSED and "call the director" in answer.text

    run_room(tmp_path, scenario)


def test_pin_attempts_while_locked_are_tallied_per_link_not_per_declared_serial(tmp_path):
    """D20: once a link is locked out of PIN attempts, a stranger making up a new serial for
    every LOGON still costs one tallied row a minute (keyed by the link's seat, not by the
    serial it declares), besides the audited wrong PINs."""

    async def scenario(room: Room) -> None:
        await room.logon(1, "BM-1", 1)
        for k in range(LIMIT):
            await room.logon(2, f"W-{k}", 1, pin="guess")
        for k in range(20):
            locked = await room.logon(2, f"X-{k}", 1, pin=PIN)
            assert "too many" in locked.text
        await room.hub.audit.flush()
        rows = await room.audit("takeover_pin_refused")
        tallied = [r for r in rows if "count" in r["detail"]]
        assert len(rows) - len(tallied) == LIMIT
        assert [r["detail"]["count"] for r in tallied] == [20]

    run_room(tmp_path, scenario)


def test_terminal_left_takes_the_table_offline_until_its_terminal_speaks(tmp_path):
    """docs/protocol.md TERMINAL_LEFT: the station's word that a terminal left (here:
    powered off) shows its table offline on the console, until the terminal speaks again
    over the link that holds the table; the station is answered ACK 0."""
    from drivers.protocol.link import Received
    from hub.live.port.base_station import request

    left = request("line", Received(0, 7, 3, wire.TerminalLeft(1, 1)))
    assert isinstance(left, tp.Left) and left.ref == tp.TerminalRef("line", 1)
    assert left.why == "powered off"

    async def scenario(room: Room) -> None:
        await room.logon(1, "BM-1", 1)
        answer = await room.say(tp.Left, 1, 7, "powered off")  # at the station's epoch
        assert answer.outcome is tp.Outcome.OK
        assert not room.hub.gateway.online("A", 1)
        await room.say(tp.Other, 1, 1)
        assert room.hub.gateway.online("A", 1)

    run_room(tmp_path, scenario)


def test_pin_attempts_with_made_up_serials_do_not_grow_the_hubs_memory():
    """D20 (attempts limited per peer and overall): while a link is locked out, a LOGON with
    a new made-up serial each time is refused without keeping anything for that serial, and
    counts quiet for longer than the longest wait are dropped."""
    from hub.live.tables.takeover_pin import CAP_S, PinVerdict, TakeoverPins

    now = [0.0]
    pins = TakeoverPins(PIN, lambda: now[0])
    ref = tp.TerminalRef("line", 9)
    for k in range(LIMIT):
        assert pins.check(f"W-{k}", ref, "guess").verdict is PinVerdict.WRONG
    for k in range(1000):
        assert pins.check(f"X-{k}", ref, "guess").verdict is PinVerdict.LOCKED
    assert len(pins._counts) <= LIMIT + 2  # the wrong ones' serials, the link, the room
    now[0] += 2 * CAP_S + 1
    assert pins.check("Y", ref, "guess").verdict is PinVerdict.WRONG
    assert len(pins._counts) == 3  # the old ones forgotten: this serial, the link, the room


def test_a_failed_audit_write_is_tried_again_without_writing_any_entry_twice(tmp_path):
    """D20 (every refusal audited, once): the store fails in the middle of a batch; the
    entries committed before the failure are not queued again, the rest are written at the
    next try."""

    async def scenario() -> list[dict[str, Any]]:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        failing = {"BM-2"}

        class Flaky:
            def audit(self, event_id: int, actor: str, action: str, d: dict[str, Any]) -> None:
                if actor in failing:
                    failing.discard(actor)
                    raise OSError("disk full")
                store.audit(event_id, actor, action, d)

        audit = AuditTrail(Flaky(), eid)  # type: ignore[arg-type]
        for k in (1, 2, 3):
            audit.record(f"BM-{k}", "logon", {})
        with contextlib.suppress(OSError):
            await audit.flush()
        await audit.flush()
        rows = store.audit_log(eid, "logon")
        store.close()
        return rows

    rows = asyncio.run(scenario())
    assert [r["actor"] for r in rows] == ["BM-1", "BM-2", "BM-3"]
