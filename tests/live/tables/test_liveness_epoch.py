"""Issue [LIVENESS]: the table that fell silent for ever in the full campaign on seed 3
(shared review campaign-seed3-turn3.md). Its terminal rebooted while its base station was
unplugged; its HELLO went unanswered until the link gave it up, so its next frames began
the new epoch at sequence 2 and the hub refused them ("epoch … must start with HELLO or
sequence 1", NAK 3). The terminal dropped what was refused, kept its results in memory
unsent, and waited for an assignment the hub would only send once the table finished.

docs/protocol.md §3: after a reboot a device "sends HELLO as sequence 1 of its new epoch",
and "a sender refused with NAK 3 or 4 begins its epoch again: HELLO as sequence 1, then
the refused message". A HELLO given up is sent again before the next message; what a
terminal keyed is never dropped for a link fault. Replayed on a real pty and sans I/O."""

from __future__ import annotations

import asyncio

from hub_stub import wait_until
from pty_room import exactly_once, room, run_room

from drivers.protocol.link import Acked, Link, Received
from drivers.protocol.messages import DeviceKind, Hello, Logon, NakCode, Result


def test_a_reboot_whose_hello_is_given_up_still_plays_every_board(tmp_path):
    """[LIVENESS] seed 3: the terminal reboots with its line down until its HELLO is given
    up, then the line comes back. Before the fix its LOGON and results went as sequence 2,
    3, … of an epoch the hub never saw begin, were refused (NAK 3) and dropped, and the
    table never finished. Now the HELLO goes again first: nothing is refused, every board
    reaches the hub once."""
    line, station, driver = room(tmp_path, terminals=2, speed=4_000.0)

    async def reboot_on_a_dead_line(station, hub, driver):
        t = station.terminals[2]
        await wait_until(lambda: len(hub.results) >= 1, 10, "the first result")
        station.unplug()
        station.link.max_tries = 2  # the HELLO given up in 0.75 s, not 10 s
        t.reboot()
        await wait_until(lambda: t.log.gave_up >= 1, 10, "the rebooted terminal's HELLO given up")
        station.link.max_tries = 8
        station.replug()

    hub = asyncio.run(run_room(line, station, driver, reboot_on_a_dead_line, timeout=20))
    exactly_once(station, hub)
    assert driver.link.stats["refused"] == 0, "no frame of the new epoch came before its HELLO"


def test_a_result_refused_for_a_link_fault_is_sent_again_until_taken(tmp_path):
    """[LIVENESS]: a result the link refuses (NAK below 16: here 5, a replay, twice) is
    kept and sent again by the terminal as a new message, never dropped (before the fix it
    stayed in memory unsent and its board never finished): stored once, acknowledged
    once."""
    line, station, driver = room(tmp_path, terminals=2, speed=4_000.0)
    refusals: list[Result] = []
    ack = driver.ack

    def refuse_twice(rx, *args, **kwargs):
        if isinstance(rx.message, Result) and rx.terminal == 1 and len(refusals) < 2:
            refusals.append(rx.message)
            return driver.nak(rx, NakCode.REPLAY, "sequence already used")
        return ack(rx, *args, **kwargs)

    driver.ack = refuse_twice  # type: ignore[method-assign]
    hub = asyncio.run(run_room(line, station, driver, timeout=20))
    exactly_once(station, hub)
    assert len(refusals) == 2  # (the stub had stored each: the resends are "duplicate")


def exchange(device: Link, hub: Link) -> tuple[list, list]:
    """Carry what each end has to send to the other until both are quiet; each end takes
    (ACK) every message it is given."""
    at_device, at_hub = [], []
    for _ in range(20):
        to_hub, to_device = device.data_to_send(), hub.data_to_send()
        if not to_hub and not to_device:
            break
        for link, data, got in ((hub, to_hub, at_hub), (device, to_device, at_device)):
            for ev in link.feed(data):
                got.append(ev)
                if isinstance(ev, Received) and ev.message.NEEDS_ACK:
                    link.ack(ev)
    return at_device, at_hub


def test_a_stale_hello_arriving_late_is_survived_by_beginning_the_epoch_again():
    """§3: a delayed copy of the terminal's HELLO from before its reboot reaches the hub
    after the new epoch began; the hub goes back to the old epoch (a HELLO starts any), so
    the terminal's next result is refused with NAK 3; the terminal's end begins its epoch
    again (HELLO as sequence 1, then the result) and the result is delivered once."""

    def hello(_address: int) -> Hello:
        return Hello(int(DeviceKind.TERMINAL), "BM-0003", "sim-1")

    hub = Link(lambda: 0.0, 900, hello=lambda _a: Hello(int(DeviceKind.HUB), "hub", "1"))
    device = Link(lambda: 0.0, 5, hello=hello)
    device.send(3, Logon("BM-0003", "A", 3, "sim-1"))
    old_hello = device.data_to_send()  # HELLO (epoch 5, seq 1), also copied by the line
    for ev in hub.feed(old_hello):
        hub.ack(ev)
    exchange(device, hub)
    device.set_epoch(3, 6)  # the reboot
    device.send(3, Logon("BM-0003", "A", 3, "sim-1"))
    exchange(device, hub)
    hub.feed(old_hello)  # the line's late copy
    result = Result("A", 3, 1, 1, 3, 13, "3NT", 0, "S4", 9, 0, 1)
    device.send(3, result)
    at_device, at_hub = exchange(device, hub)
    assert hub.stats["refused"] == 1
    delivered = [ev for ev in at_hub if isinstance(ev, Received) and ev.message == result]
    assert len(delivered) == 1 and delivered[0].epoch == 6
    assert any(isinstance(ev, Acked) and ev.message == result for ev in at_device)


def test_the_seed_3_sequence_against_the_real_hub_plays_on(tmp_path):
    """[LIVENESS], the seed-3 table's sequence against the real hub on a real pty: its
    terminal reboots and logs on in the new epoch; then a late copy of its HELLO from
    before the reboot reaches the hub, which goes back to that epoch, so the terminal's
    next frame is refused ("epoch … must start with HELLO or sequence 1", NAK 3). The
    terminal begins its epoch again, logs on again when told to, and the table plays
    every board to the end of the session: nothing lost, nothing stored twice."""
    from event_text import one_section_event

    from drivers.protocol.frame import Frame
    from drivers.protocol.link import Acked
    from hub.live.service.hub_service import HubService
    from hub.store.store import Store
    from simulator.bots import PlayerBot
    from simulator.line import PtyLine
    from simulator.station import VirtualBaseStation
    from simulator.terminal import VirtualTerminal

    event = one_section_event("Seed 3", 'kind = "howell", tables = 2, boards_per_round = 2')

    async def scenario() -> tuple[int, int, int]:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(event)
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        for t in (1, 2):
            station.add_terminal(
                VirtualTerminal(t, f"BM-{t}", "A", t, PlayerBot(seed=t), speed=3_000.0)
            )
        hub = HubService(store, eid, [str(line.path)])
        t = station.terminals[2]
        logons: list[int] = []
        heard = t.on_event

        def spy(ev) -> None:
            if isinstance(ev, Acked) and isinstance(ev.message, Logon):
                logons.append(t.epoch)
            heard(ev)

        t.on_event = spy  # type: ignore[method-assign]
        await hub.start()
        station.start()
        try:
            await wait_until(lambda: len(store.results(eid)) >= 2, 20, "the first results")
            old = t.epoch
            t.reboot()
            await wait_until(lambda: logons and logons[-1] == t.epoch, 20, "the new log-on")
            late = Hello(int(DeviceKind.TERMINAL), "BM-2", "sim-1")
            station._to_line(Frame(2, old, 1, Hello.TYPE, late.payload()).encode())
            await wait_until(
                lambda: hub.ports[0].driver.link.stats["refused"] >= 1, 20, "a refused frame"
            )
            await asyncio.wait_for(hub.session_done.wait(), 60)
            refused = hub.ports[0].driver.link.stats["refused"]
            return len(store.results(eid)), len(store.live_results(eid)), refused
        finally:
            await station.stop()
            await hub.stop()
            store.close()

    stored, live, refused = asyncio.run(scenario())
    assert refused >= 1
    assert live == 12  # 2 tables × 3 rounds × 2 boards, each once
    assert stored == live
