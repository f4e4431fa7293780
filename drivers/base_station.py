"""The base-station driver: a line (serial or USB) plus the reliable link, run on the
asyncio loop. It hands the hub typed events and takes typed commands; it reconnects after
an unplug with backoff."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from drivers.protocol.link import Event, Link, Received
from drivers.protocol.messages import Message, NakCode, Outcome
from drivers.transport import LineError, Transport, open_transport

log = logging.getLogger(__name__)
CLOSE_S = 2.0


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
    """One base station line. Events go to ``events``; ``send``/``ack``/``nak`` answer.
    Runs on the asyncio loop that started it."""

    def __init__(
        self,
        url: str,
        *,
        epoch: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        opener: Opener = open_transport,
        backoff: tuple[float, float] = (0.05, 2.0),
        silence_s: float = 15.0,
    ) -> None:
        self.url = url
        self.clock = clock
        self.link = Link(clock, epoch if epoch is not None else int(time.time()))
        self.events: asyncio.Queue[StationEvent] = asyncio.Queue()
        self._opener = opener
        self._backoff = backoff
        self._transport: Transport | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.connected = asyncio.Event()
        self.reconnects = 0
        self.silence_s = silence_s  # a station heartbeats every 5 s (docs/protocol.md §3)

    # -- commands ---------------------------------------------------------------------------
    def send(self, terminal: int, message: Message) -> None:
        self.link.send(terminal, message)
        self._wake.set()

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
        try:  # bounded: a line whose other end is gone may never confirm the close
            await asyncio.wait_for(asyncio.shield(transport.close()), CLOSE_S)  # finishes
        except TimeoutError:
            log.warning("closing %s: no answer in %.0f s; left to the system", self.url, CLOSE_S)
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
                log.debug("open failed: %s", e)
                await asyncio.sleep(delay)
                delay = min(delay * 2, self._backoff[1])
                continue
            delay = self._backoff[0]
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

    async def _serve(self, transport: Transport) -> None:
        reader = asyncio.ensure_future(transport.read())
        last_heard = self.clock()
        try:
            while True:
                await self._flush(transport)
                silent_until = last_heard + self.silence_s
                if self.clock() >= silent_until:
                    raise LineError(f"{self.url}: nothing heard for {self.silence_s:g} s")
                due = self.link.next_deadline()
                timeout = (
                    silent_until - self.clock()
                    if due is None
                    else max(0.0, min(due, silent_until) - self.clock())
                )
                waker = asyncio.ensure_future(self._wake.wait())
                done, _ = await asyncio.wait(
                    {reader, waker}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
                )
                waker.cancel()
                self._wake.clear()
                if reader in done:
                    data = reader.result()  # raises LineError when the line is gone
                    last_heard = self.clock()
                    for ev in self.link.feed(data):
                        await self.events.put(ev)
                    reader = asyncio.ensure_future(transport.read())
                for ev in self.link.poll():
                    await self.events.put(ev)
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, LineError):
                await reader

    async def _flush(self, transport: Transport) -> None:
        data = self.link.data_to_send()
        if data:
            await transport.write(data)
