"""The hub's end of the link (docs/protocol.md §3): its epoch is a boot counter kept in the
store, it greets the station and heartbeats when idle, it reports every NAK and give-up of
its own messages, and a message it cannot encode is refused where it is sent. The station
presumes the hub gone after three heartbeats of silence. Clocks are injected; the store is
real (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import calendar
import datetime as dt
import logging
import threading

from event_text import one_section_event
from hub_stub import wait_until
from room import simulated_room

from drivers.base_station import BaseStationDriver, LineUp
from drivers.protocol.frame import FrameDecoder
from drivers.protocol.link import Acked, GaveUp, Link, Nacked, PeerRestarted, Received
from drivers.protocol.messages import (
    Assignment,
    Clock,
    DeviceKind,
    Heartbeat,
    Hello,
    NakCode,
    TDMessage,
    decode_message,
)
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation

T0 = dt.datetime(2026, 11, 30, 20, 0, 0, tzinfo=dt.UTC)
T0_S = calendar.timegm((2026, 11, 30, 20, 0, 0))  # the same instant, counted independently
ASSIGN = Assignment("A", 3, 1, 3, 103, (1, 2))


class StoreClock:
    """A settable clock for the store (datetime) and the links (seconds)."""

    def __init__(self, at: dt.datetime = T0) -> None:
        self.at = at
        self.s = 0.0

    def __call__(self) -> dt.datetime:
        return self.at


# -- the boot counter ---------------------------------------------------------------------------
def test_s3_each_boot_takes_a_higher_epoch_in_the_same_second_and_after_a_clock_step_back(
    store_url,
):
    """next_boot: at least the clock's seconds since 1970, always above the last boot."""
    clock = StoreClock()
    store = Store.open(store_url, clock)
    try:
        first = store.next_boot()
        assert first >= T0_S  # PostgreSQL's shared test database may hold later boots
        assert store.next_boot() == first + 1  # the same second
        clock.at = T0 - dt.timedelta(hours=5)  # an NTP step back, a Pi without a clock
        assert store.next_boot() == first + 2
        clock.at = T0 + dt.timedelta(days=400)
        later = calendar.timegm((2028, 1, 4, 20, 0, 0))
        assert store.next_boot() == max(later, first + 3)
        assert store.boots()[-4:] == [first, first + 1, first + 2, max(later, first + 3)]
    finally:
        store.close()


def test_two_hubs_starting_at_once_never_share_an_epoch(store_url):
    store = Store.open(store_url, StoreClock())
    got: list[int] = []
    try:
        threads = [threading.Thread(target=lambda: got.append(store.next_boot())) for _ in range(6)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        store.close()
    assert len(got) == 6 and len(set(got)) == 6


def test_s3_terminals_accept_a_hub_restarted_in_the_same_second_or_after_a_clock_step_back(
    tmp_path,
):
    """Three hub boots on one store: the first, one in the same second, one after the clock
    stepped back an hour. A terminal that kept its link state all along takes the assignment
    of each (with the wall clock as epoch the second got NAK 5, the third NAK 4)."""
    clock = StoreClock()
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}", clock)
    terminal = Link(lambda: clock.s, epoch=1)
    try:
        for at in (T0, T0, T0 - dt.timedelta(hours=1)):
            clock.at = at
            driver = BaseStationDriver("unused", clock=lambda: clock.s)
            driver.begin_epoch(store.next_boot())
            driver.send(3, ASSIGN)
            delivered, hub_events = [], []
            for _ in range(3):  # HELLO, then the assignment, each answered
                for ev in terminal.feed(driver.link.data_to_send()):
                    assert isinstance(ev, Received | PeerRestarted), ev  # never Refused
                    if isinstance(ev, Received):
                        delivered.append(ev.message)
                        terminal.ack(ev)
                hub_events += driver.link.feed(terminal.data_to_send())
            assert delivered[-1] == ASSIGN
            assert [type(e) for e in hub_events] == [Acked, Acked]
    finally:
        store.close()


def test_hub_service_gives_every_line_the_next_boot(tmp_path):
    """``bridgehub run`` (HubService.start) takes a boot from the store for its lines."""

    async def scenario():
        event = one_section_event("Boots", 'kind = "howell", tables = 3, boards_per_round = 2')
        store, eid, line, _station = simulated_room(tmp_path, event)
        try:
            for _ in range(2):
                hub = HubService(store, eid, [str(line.path)])
                await hub.start()
                await hub.stop()
                assert hub.ports[0].driver.link.default_epoch == store.boots()[-1]
            assert len(store.boots()) == 2
        finally:
            line.close()
            store.close()

    asyncio.run(scenario())


# -- the driver, over a line in memory, with an injected clock ----------------------------------
class MemoryLine:
    """A transport in memory: what the station says is put in ``inbox``; what the hub
    wrote collects in ``written``. Used on the test's loop."""

    url = "memory://station"

    def __init__(self) -> None:
        self.inbox: asyncio.Queue[bytes] = asyncio.Queue()
        self.written = bytearray()
        self._decoder = FrameDecoder()
        self.frames: list = []

    async def read(self) -> bytes:
        return await self.inbox.get()

    async def write(self, data: bytes) -> None:
        self.written += data
        for frame in self._decoder.feed(data):
            self.frames.append((frame, decode_message(frame.type, frame.payload)))

    async def close(self) -> None:
        pass


class Bench:
    """The driver on a memory line, a station's link on the other end, one clock."""

    def __init__(self, **driver_args) -> None:
        self.now = 0.0
        self.line = MemoryLine()
        self.station = Link(lambda: self.now, epoch=77)
        self.read = 0

        async def opener(_url: str) -> MemoryLine:
            return self.line

        self.driver = BaseStationDriver(
            "memory://station", clock=lambda: self.now, opener=opener, **driver_args
        )
        self.driver.begin_epoch(1_800_000_123)

    def from_hub(self) -> list:
        """The station's link takes what the hub wrote since the last call."""
        data = bytes(self.line.written[self.read :])
        self.read = len(self.line.written)
        return self.station.feed(data)

    async def to_hub(self) -> None:
        """The station sends what its link has, and waits until the driver took it (its
        poll runs in the same step)."""
        frames_in = self.driver.link.stats["frames_in"]
        self.line.inbox.put_nowait(self.station.data_to_send())
        await wait_until(
            lambda: self.driver.link.stats["frames_in"] > frames_in, 5, "the driver to read"
        )

    async def tick(self, seconds: float) -> None:
        """Time passes; a station heartbeat wakes the driver (and keeps the line up)."""
        self.now += seconds
        self.station.send(0, Heartbeat(0))
        await self.to_hub()

    async def events(self) -> list:
        out = []
        while not self.driver.events.empty():
            out.append(self.driver.events.get_nowait())
        return out


def test_s3_the_hub_greets_the_station_on_line_up_and_heartbeats_only_when_idle():
    async def scenario():
        bench = Bench(heartbeat_s=5.0, silence_s=1e9)
        bench.driver.start()
        try:
            await wait_until(lambda: bench.line.frames, 5, "the hub's first frame")
            frame, hello = bench.line.frames[0]
            assert (frame.terminal, frame.epoch, frame.seq) == (0, 1_800_000_123, 1)
            assert isinstance(hello, Hello) and hello.kind == DeviceKind.HUB
            (rx,) = bench.from_hub()
            bench.station.ack(rx)
            await bench.to_hub()

            def beats() -> list:
                return [m for _, m in bench.line.frames if isinstance(m, Heartbeat)]

            await bench.tick(4.9)
            assert beats() == []
            await bench.tick(0.2)  # 5.1 s since the HELLO: idle
            await wait_until(lambda: len(beats()) == 1, 5, "a heartbeat after 5 s idle")
            for k in range(4):  # busy: a clock frame every 2 s, no heartbeat needed
                await bench.tick(2.0)
                sent = len(bench.line.frames)
                bench.driver.send(3, Clock("A", 1, 0, 600 - k))
                await wait_until(lambda: len(bench.line.frames) > sent, 5, "the clock frame")  # noqa: B023
            assert len(beats()) == 1
        finally:
            await bench.driver.stop()

    asyncio.run(scenario())


def test_nacks_and_give_ups_of_hub_messages_come_out_as_events():
    """For every message the hub sends: Acked, Nacked (with its code and text) or GaveUp,
    carrying the address and the message, on ``driver.events``. A HELLO given up is sent
    once more before what waits (docs/protocol.md §3), then what waits is given up."""

    async def scenario():
        bench = Bench(silence_s=1e9)
        bench.driver.start()
        try:
            await wait_until(lambda: bench.line.frames, 5, "the hub's HELLO")
            for ev in bench.from_hub():
                bench.station.ack(ev)
            bench.driver.send(3, ASSIGN)  # terminal 3 answers; terminal 4 never does
            bench.driver.send(4, ASSIGN)
            await wait_until(lambda: len(bench.line.frames) >= 3, 5, "two HELLOs")
            for ev in bench.from_hub():
                if ev.terminal == 3:
                    bench.station.ack(ev)
            await bench.to_hub()
            await wait_until(lambda: len(bench.line.frames) >= 4, 5, "the assignment")
            for ev in bench.from_hub():
                if ev.terminal == 3 and ev.message == ASSIGN:
                    bench.station.nak(ev, NakCode.NOT_IN_MOVEMENT, "section A has no table 3")
            await bench.to_hub()
            for _ in range(30):
                await bench.tick(2.5)
            events = [e for e in await bench.events() if isinstance(e, Acked | Nacked | GaveUp)]
            outcome = [(type(e).__name__, e.terminal, type(e.message).__name__) for e in events]
            assert outcome == [
                ("Acked", 0, "Hello"),
                ("Acked", 3, "Hello"),
                ("Nacked", 3, "Assignment"),
                ("GaveUp", 4, "Hello"),
                ("GaveUp", 4, "Hello"),  # [LIVENESS]: a HELLO given up goes again, once
                ("GaveUp", 4, "Assignment"),
            ]
            nacked = events[2]
            assert nacked.code is NakCode.NOT_IN_MOVEMENT
            assert nacked.text == "section A has no table 3" and nacked.message == ASSIGN
            assert events[5].tries == 8 and events[5].message == ASSIGN
        finally:
            await bench.driver.stop()

    asyncio.run(scenario())


def test_a_message_the_driver_cannot_encode_is_refused_at_send_and_the_line_goes_on(caplog):
    async def scenario():
        bench = Bench(silence_s=1e9)
        bench.driver.start()
        try:
            await wait_until(lambda: bench.line.frames, 5, "the hub's HELLO")
            with caplog.at_level(logging.ERROR, "drivers.base_station"):
                error = bench.driver.send(3, Assignment("A", 70000, 1, 1, 2, (1,)))
            assert error is not None and error.field == "table"
            assert "not sent to terminal 3, Assignment cannot be encoded: table" in caplog.text
            assert bench.driver.send(3, TDMessage("😀" * 300)) is None  # cut, not refused
            await wait_until(lambda: len(bench.line.frames) >= 2, 5, "the next message")
            assert bench.driver.connected.is_set()
            events = await bench.events()
            assert isinstance(events[0], LineUp) and len(events) == 1
        finally:
            await bench.driver.stop()

    asyncio.run(scenario())


# -- the station's view of the hub --------------------------------------------------------------
def test_s3_a_station_presumes_the_hub_gone_after_three_heartbeats_of_silence(tmp_path):
    """The hub heartbeats every 5 s when idle; the station presumes it gone after 15 s
    with no intact frame from it, and back at its next frame."""

    async def scenario():
        bench = Bench(heartbeat_s=5.0, silence_s=1e9)
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line, clock=lambda: bench.now)
        bench.driver.start()
        try:
            assert not station.hub_present()  # nothing heard yet
            await wait_until(lambda: bench.line.frames, 5, "the hub's HELLO")
            for _ in range(24):  # two idle minutes: the hub's heartbeats keep it present
                await bench.tick(5.0)
                await wait_until(
                    lambda: len(bench.line.written) > bench.read, 5, "the hub's heartbeat"
                )
                station.receive(bytes(bench.line.written[bench.read :]))
                bench.read = len(bench.line.written)
                assert station.hub_present(), bench.now
            await bench.driver.stop()  # the hub dies
            bench.now += 14.9
            assert station.hub_present()
            bench.now += 0.1
            assert not station.hub_present() and station.hub_losses == 1
            hub = Link(lambda: bench.now, epoch=1_800_000_124)  # a hub back
            hub.send(0, Heartbeat(0))
            station.receive(hub.data_to_send())
            assert station.hub_present() and station.hub_losses == 1
        finally:
            await bench.driver.stop()
            line.close()

    asyncio.run(scenario())
