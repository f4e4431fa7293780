"""The base-station driver: a line (serial or USB) plus the reliable link, run on the
asyncio loop. It hands the hub typed events and takes typed commands; it reconnects after
an unplug with backoff capped at half a second (``drivers.line.REOPEN_S``) and sends a
HEARTBEAT as soon as a line reopens, so a replugged station hears the hub well within 2 s
(issue 12: no line down for more than 2 s after its replug).

The hub's end of the link (docs/protocol.md §3): its epoch is the hub's boot counter
(``begin_epoch``), every address's sequence begins with the hub's HELLO, the station hears a
HEARTBEAT when the hub has sent nothing else for ``heartbeat_s``, and a station silent for
``silence_s`` is taken as gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version

from drivers.line import CLOSE_S, REOPEN_S, close_bounded
from drivers.open_problem import open_problem
from drivers.protocol.codec import MessageError
from drivers.protocol.link import Event, Link, Received, random_epoch
from drivers.protocol.messages import (
    DeviceKind,
    Heartbeat,
    Hello,
    Message,
    NakCode,
    Outcome,
    TerminalJoined,
)
from drivers.transport import LineError, Transport, open_transport

log = logging.getLogger(__name__)
HEARTBEAT_S = 5.0  # the hub's heartbeat when idle; a station presumes it gone after 3x


def hub_hello() -> Hello:
    """The HELLO the hub begins each address's sequence with."""
    try:
        firmware = version("bridgehub")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        firmware = ""
    return Hello(int(DeviceKind.HUB), "bridgehub", firmware)


@dataclass(frozen=True, slots=True)
class LineUp:
    url: str


@dataclass(frozen=True, slots=True)
class LineDown:
    url: str
    reason: str


StationEvent = Event | LineUp | LineDown
Opener = Callable[[str], Awaitable[Transport]]


class BaseStationDriver:
    """One base station line. Runs on the asyncio loop that started it.

    ``events`` carries ``LineUp``/``LineDown`` and the link's events: ``Received`` (answer
    it with ``ack``/``nak``); for every message ``send`` queued that needs an answer,
    exactly one of ``Acked``, ``Nacked`` (refused: ``code``, ``text``) or ``GaveUp`` (no
    answer after every try), each carrying the terminal's address and the message (the
    hub's own HELLOs among them); ``Refused``, ``Garbage`` and ``PeerRestarted``."""

    def __init__(
        self,
        url: str,
        *,
        epoch: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        opener: Opener = open_transport,
        backoff: tuple[float, float] = REOPEN_S,
        silence_s: float = 15.0,
        heartbeat_s: float = HEARTBEAT_S,
    ) -> None:
        self.url = url
        self.clock = clock
        self.link = self._new_link(epoch if epoch is not None else random_epoch())
        self.events: asyncio.Queue[StationEvent] = asyncio.Queue()
        self._opener = opener
        self._backoff = backoff
        self._transport: Transport | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.connected = asyncio.Event()
        self.reconnects = 0
        self.silence_s = silence_s  # a station heartbeats every 5 s (docs/protocol.md §3)
        self.heartbeat_s = heartbeat_s
        self._started = self._last_sent = clock()
        self.problem: str | None = None  # why the line cannot be opened, while it cannot
        self.on_problem: Callable[[str], object] | None = None  # told once per change (F10)

    def _new_link(self, epoch: int) -> Link:
        hello = hub_hello()
        return Link(self.clock, epoch, hello=lambda _address: hello)

    def begin_epoch(self, epoch: int) -> None:
        """The hub's epoch on this line from now on: its boot counter (docs/protocol.md
        §3). Called before ``run``; anything queued before is forgotten, as at a restart."""
        self.link = self._new_link(epoch)

    # -- commands ---------------------------------------------------------------------------
    def send(self, terminal: int, message: Message) -> MessageError | None:
        """Queue ``message`` for ``terminal``. One that cannot be encoded (a number out of
        range, an identifier too long; display text is cut to fit instead) is not sent: the
        error is logged and returned, and the line carries on."""
        try:
            self.link.send(terminal, message)
        except MessageError as e:
            log.error(
                "%s: not sent to terminal %d, %s cannot be encoded: %s",
                self.url,
                terminal,
                type(message).__name__,
                e,
            )
            return e
        self._wake.set()
        return None

    def ack(self, rx: Received, outcome: Outcome = Outcome.OK, text: str = "") -> None:
        self.link.ack(rx, outcome, text)
        self._wake.set()

    def nak(self, rx: Received, code: NakCode, text: str = "") -> None:
        self.link.nak(rx, code, text)
        self._wake.set()

    # -- running ----------------------------------------------------------------------------
    def start(self) -> None:
        """Run the line in a task of its own (a caller that supervises its tasks awaits
        ``run`` instead)."""
        self._task = asyncio.get_running_loop().create_task(self.run(), name=f"station {self.url}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._close()

    async def _close(self) -> None:
        """Close the line once, whoever asks first; a close cut short by a cancellation
        elsewhere (the line's own task stopped mid-close) is not the caller's error."""
        transport, self._transport = self._transport, None
        if transport is None:
            return
        try:
            if not await close_bounded(transport):
                log.warning(
                    "closing %s: no answer in %.0f s; left to the system", self.url, CLOSE_S
                )
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise
        except (LineError, OSError) as e:
            log.debug("closing %s: %s", self.url, e)

    async def run(self) -> None:
        """Open the line, serve it, reopen it after an unplug, for ever. An unexpected error
        (a bug, not a line fault) closes the line and is raised to the caller."""
        delay = self._backoff[0]
        while True:
            try:
                self._transport = await self._opener(self.url)
            except LineError as e:
                self._report(open_problem(self.url, e))
                await asyncio.sleep(delay)
                delay = min(delay * 2, self._backoff[1])
                continue
            delay = self._backoff[0]
            if self.problem is not None:
                self._report(None)
            self.connected.set()
            await self.events.put(LineUp(self.url))
            try:
                await self._serve(self._transport)
            except LineError as e:
                reason = str(e)
            except asyncio.CancelledError:
                self.connected.clear()
                raise  # stopping: ``stop`` closes the line
            except Exception as e:
                self.connected.clear()
                await self._close()
                await self.events.put(LineDown(self.url, f"{type(e).__name__}: {e}"))
                raise
            else:  # pragma: no cover - _serve only ends by an error
                reason = "closed"
            self.connected.clear()
            self.reconnects += 1
            await self._close()
            log.warning("base station %s down: %s", self.url, reason)
            await self.events.put(LineDown(self.url, reason))

    def _report(self, problem: str | None) -> None:
        """Why the line cannot be opened, in plain words (TD trial F10): a WARNING in the
        hub's output and ``on_problem`` (the director's alert) once per change, not at
        every retry; and once when it opens again."""
        if problem == self.problem:
            return
        was, self.problem = self.problem, problem
        text = problem if problem is not None else f"base station {self.url} is open again"
        if problem is None and was is None:
            return
        log.warning("%s", text)
        if self.on_problem is not None:
            try:
                self.on_problem(text)
            except Exception:  # the director's alert must never stop the line
                log.exception("telling the director: %s", text)

    async def _serve(self, transport: Transport) -> None:
        reader = asyncio.ensure_future(transport.read())
        last_heard = self._last_sent = self.clock()
        self.link.greet(0)  # the hub's HELLO to the station (docs/protocol.md §3)
        if self.reconnects:  # reopened (same epoch, HELLO long sent): a frame at once, so
            self.link.send(0, Heartbeat(self._uptime_ms()))  # the station hears the hub now
        try:
            while True:
                if self.clock() >= self._last_sent + self.heartbeat_s:
                    self.link.send(0, Heartbeat(self._uptime_ms()))
                await self._flush(transport)
                silent_until = last_heard + self.silence_s
                if self.clock() >= silent_until:
                    raise LineError(f"{self.url}: nothing heard for {self.silence_s:g} s")
                deadlines = [silent_until, self._last_sent + self.heartbeat_s]
                due = self.link.next_deadline()
                if due is not None:
                    deadlines.append(due)
                timeout = max(0.0, min(deadlines) - self.clock())
                waker = asyncio.ensure_future(self._wake.wait())
                try:
                    done, _ = await asyncio.wait(
                        {reader, waker}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
                    )
                finally:  # a stop while waiting leaves no waiting task behind
                    waker.cancel()
                self._wake.clear()
                if reader in done:
                    data = reader.result()  # raises LineError when the line is gone
                    last_heard = self.clock()
                    for ev in self.link.feed(data):
                        self._greet(ev)
                        await self.events.put(ev)
                    reader = asyncio.ensure_future(transport.read())
                for ev in self.link.poll():
                    await self.events.put(ev)
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, LineError):
                await reader

    def _greet(self, ev: Event) -> None:
        """Begin the hub's epoch toward a terminal as soon as the hub hears of it (a frame
        from its address, or the station's TERMINAL_JOINED): its HELLO tells a terminal
        that a restarted hub does not know it yet, so it logs on again (docs/protocol.md
        §3) even when it has nothing else to say."""
        if not isinstance(ev, Received):
            return
        if ev.terminal:
            self.link.greet(ev.terminal)
        elif isinstance(ev.message, TerminalJoined) and ev.message.address:
            self.link.greet(ev.message.address)

    async def _flush(self, transport: Transport) -> None:
        data = self.link.data_to_send()
        if data:
            await transport.write(data)
            self._last_sent = self.clock()

    def _uptime_ms(self) -> int:
        return int((self.clock() - self._started) * 1000) & 0xFFFFFFFF
