"""A virtual base station with N virtual terminals on one line, speaking BHWP/1 exactly as
hardware would (the same link code as the hub's driver), with faults and unplugging.

The station's own messages (HELLO, TERMINAL_JOINED, heartbeats) travel at address 0 in its
own epoch; it presumes the hub gone when no intact frame came from it for three of the
hub's heartbeat periods (docs/protocol.md §3).

Faults hurt both directions, as a noisy cable does: what the station writes and what it
reads from the hub pass through a fault stream each, and delayed frames are scheduled on
the loop (the station goes on serving its other terminals meanwhile)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from drivers.protocol.link import Acked, GaveUp, Link, Nacked, Received, random_epoch
from drivers.protocol.messages import (
    DeviceKind,
    Heartbeat,
    Hello,
    Message,
    StationStatus,
    TerminalJoined,
)
from simulator.faults import DelayLine, Faults
from simulator.line import SocketLine
from simulator.terminal import VirtualTerminal

log = logging.getLogger(__name__)


class Line(Protocol):
    """The device end of a line (simulator/line.py, simulator/usb_line.py): ``master`` is
    a non-blocking file descriptor the station reads and writes, None while unplugged."""

    master: int | None
    path: Path

    @property
    def url(self) -> str: ...

    @property
    def plugged(self) -> bool: ...

    def plug(self) -> None: ...

    def unplug(self) -> None: ...

    def close(self) -> None: ...


HUB_SILENCE_S = 15.0  # three of the hub's 5 s heartbeats


class VirtualBaseStation:
    """A simulated base station and its terminals; runs on the simulator's asyncio loop.
    ``epoch``: the station's own (default random: a simulated station keeps no boot
    counter, and a random epoch differs from its previous run's)."""

    def __init__(
        self,
        line: Line,
        *,
        serial: str = "BS-0001",
        clock: Callable[[], float] = time.monotonic,
        epoch: int | None = None,
        faults: Faults | None = None,
        heartbeat_s: float = 5.0,
        hub_silence_s: float = HUB_SILENCE_S,
    ) -> None:
        self.line = line
        self.serial = serial
        self.clock = clock
        self.link = Link(clock, epoch if epoch is not None else random_epoch(), hello=self._hello)
        self.faults = faults or Faults()
        self.heartbeat_s = heartbeat_s
        self.hub_silence_s = hub_silence_s
        self.hub_heard: float | None = None  # when an intact frame last came from the hub
        self.hub_losses = 0  # how often the hub was presumed gone
        self._hub_up = False
        self._hub_epoch: int | None = None  # the epoch of the hub's last HELLO
        self.terminals: dict[int, VirtualTerminal] = {}
        self._inbox: asyncio.Queue[bytes] = asyncio.Queue()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._reading: int | None = None
        self._started = self.clock()
        self._pending_out = bytearray()
        self._retry_write: asyncio.TimerHandle | None = None
        self.faults_to_hub = self.faults.stream(f"{serial} to hub")
        self.faults_from_hub = self.faults.stream(f"{serial} from hub")
        self._out_line = DelayLine(self._to_line)
        self._in_line = DelayLine(self._inbox.put_nowait)

    def _hello(self, address: int) -> Hello:
        """The HELLO that begins an epoch at ``address``: the station's own at 0, else its
        terminal's (the link sends it first, again after one given up, and again before a
        message the hub refused for its epoch, docs/protocol.md §3)."""
        terminal = self.terminals.get(address)
        if terminal is None:
            return Hello(int(DeviceKind.BASE_STATION), self.serial, "sim-1")
        return Hello(int(DeviceKind.TERMINAL), terminal.serial, "sim-1")

    def add_terminal(self, terminal: VirtualTerminal) -> None:
        terminal.station = self
        self.terminals[terminal.address] = terminal

    def send(self, address: int, message: Message) -> None:
        self.link.send(address, message)
        self.wake()

    def wake(self) -> None:
        self._wake.set()

    # -- the line ---------------------------------------------------------------------------
    def _attach(self) -> None:
        loop = asyncio.get_running_loop()
        if self.line.master is not None:
            self._reading = self.line.master
            loop.add_reader(self.line.master, self._readable)

    def _detach(self) -> None:
        if self._reading is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self._reading)
            self._reading = None

    def _readable(self) -> None:
        if self.line.master is None:
            return
        try:
            data = os.read(self.line.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: the hub side is not open (yet)
            return
        if data:
            for chunk, wait in self.faults_from_hub.apply(data):
                self._in_line.push(chunk, wait)
        else:  # a TCP peer closed: like an unplug, until the hub connects again
            self.unplug()

    def unplug(self) -> None:
        """The cable pulled: whatever was on it in either direction is lost."""
        self._detach()
        self.line.unplug()
        self._pending_out.clear()
        if self._retry_write is not None:
            self._retry_write.cancel()
            self._retry_write = None
        for faults in (self.faults_to_hub, self.faults_from_hub):
            faults.clear()
        for delayed in (self._out_line, self._in_line):
            delayed.clear()

    def replug(self) -> None:
        self.line.plug()
        self._attach()
        self.send(0, StationStatus(len(self.terminals), 11, self._uptime()))

    def _uptime(self) -> int:
        return int((self.clock() - self._started) * 1000) & 0xFFFFFFFF

    async def _write(self, data: bytes) -> None:
        """Put ``data`` on the line through the faults; a delayed frame is scheduled,
        never waited for here."""
        for chunk, wait in self.faults_to_hub.apply(data):
            self._out_line.push(chunk, wait)

    def _to_line(self, data: bytes) -> None:
        self._pending_out += data
        if self._retry_write is None:  # else the retry already due writes it
            self._flush_out()

    def _flush_out(self) -> None:
        self._retry_write = None
        while self._pending_out and self.line.master is not None:
            try:
                n = os.write(self.line.master, self._pending_out)
            except BlockingIOError:  # the line's buffer is full: again in a moment
                loop = asyncio.get_running_loop()
                self._retry_write = loop.call_later(0.002, self._flush_out)
                return
            except OSError:
                self._pending_out.clear()
                return
            del self._pending_out[:n]

    # -- running ----------------------------------------------------------------------------
    def start(self) -> None:
        if isinstance(self.line, SocketLine):
            self.line.on_connect = self._attach
            self.line.listen()
        self._attach()
        self.link.set_epoch(0, self.link.default_epoch)
        self.link.greet(0)  # the station's HELLO, sequence 1 of its epoch
        self.wake()
        for t in self.terminals.values():
            t.boot()  # the terminal's epoch first: every frame for its address carries it
            self.send(0, TerminalJoined(t.address, t.serial))  # the station's own sequence
            t.start()
        self._task = asyncio.get_running_loop().create_task(self._run(), name=self.serial)

    async def stop(self) -> None:
        for t in self.terminals.values():
            await t.stop()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._retry_write is not None:
            self._retry_write.cancel()
            self._retry_write = None
        for delayed in (self._out_line, self._in_line):
            delayed.clear()
        self._detach()

    async def _run(self) -> None:
        next_beat = self.clock() + self.heartbeat_s
        while True:
            if self.line.plugged:
                await self._write(self.link.data_to_send())
            else:
                self.link.data_to_send()  # nothing reaches a hub while unplugged
            due = self.link.next_deadline()
            wait = min(x for x in (due, next_beat) if x is not None) - self.clock()
            getter = asyncio.ensure_future(self._inbox.get())
            waker = asyncio.ensure_future(self._wake.wait())
            try:
                done, _ = await asyncio.wait(
                    {getter, waker}, timeout=max(0.0, wait), return_when=asyncio.FIRST_COMPLETED
                )
            except asyncio.CancelledError:  # stopped while waiting: leave nothing waiting
                getter.cancel()
                raise
            finally:
                waker.cancel()
            self._wake.clear()
            if getter in done:
                self.receive(getter.result())
            else:
                getter.cancel()
            self._dispatch(self.link.poll())
            self.hub_present()
            if self.clock() >= next_beat:
                self.link.send(0, Heartbeat(self._uptime()))
                next_beat = self.clock() + self.heartbeat_s

    def receive(self, data: bytes) -> None:
        """Bytes from the hub: every intact frame among them shows the hub is there."""
        frames = self.link.stats["frames_in"]
        self._dispatch(self.link.feed(data))
        if self.link.stats["frames_in"] > frames:
            self.hub_heard = self.clock()
            self.hub_present()

    def _hub_hello(self, epoch: int) -> None:
        """The hub's HELLO at address 0: in an epoch not seen before (a hub that started
        or restarted) the station announces its terminals again, so the hub greets each
        and they log on again (docs/protocol.md §3)."""
        if epoch == self._hub_epoch:
            return
        self._hub_epoch = epoch
        for t in self.terminals.values():
            self.send(0, TerminalJoined(t.address, t.serial))

    def hub_present(self) -> bool:
        """Whether the hub is there: an intact frame from it within ``hub_silence_s``
        (docs/protocol.md §3). A change is logged; each loss is counted."""
        up = self.hub_heard is not None and self.clock() - self.hub_heard < self.hub_silence_s
        if up != self._hub_up:
            self._hub_up = up
            if up:
                log.info("%s: the hub is there", self.serial)
            else:
                self.hub_losses += 1
                log.warning("%s: nothing from the hub for %g s", self.serial, self.hub_silence_s)
        return up

    def _dispatch(self, events: list) -> None:
        for ev in events:
            if isinstance(ev, Received) and ev.terminal == 0 and isinstance(ev.message, Hello):
                self._hub_hello(ev.epoch)
            if isinstance(ev, Received | Acked | Nacked | GaveUp):
                terminal = self.terminals.get(ev.terminal)
                if terminal is not None:
                    terminal.on_event(ev)
                elif isinstance(ev, Received) and ev.message.NEEDS_ACK:
                    self.link.ack(ev)  # messages for the station itself
