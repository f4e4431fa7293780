"""A clock display on its own serial line: Alpha sign or bridgehub panel, reconnecting
after an unplug.

A replugged display is back within a second (issue 12 [FAULTS]: no line down for more than
2 s after its replug): a missing device is tried again every half second at most
(``drivers.line.REOPEN_S``; a failed open of an absent device costs microseconds, so this
never spins the CPU), and the display gets the last state in full as soon as its line opens,
not at the next tick."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from drivers.clock.alpha import BAUDRATE, SERIAL_SETTINGS, AlphaClock
from drivers.clock.panel import PanelClock
from drivers.clock.show import ClockShow
from drivers.line import REOPEN_S, close_bounded
from drivers.transport import LineError, Transport, open_transport

log = logging.getLogger(__name__)


class ClockDriver:
    """One clock display's line (Alpha sign or panel), reopened after an unplug. Runs on the
    asyncio loop that started it."""

    def __init__(
        self,
        url: str,
        protocol: str = "alpha",
        *,
        clock: Callable[[], float] = time.monotonic,
        backoff: tuple[float, float] = REOPEN_S,
    ) -> None:
        if protocol not in ("alpha", "panel"):
            raise ValueError(f"clock protocol {protocol!r}: use alpha or panel")
        self.url = url
        self.protocol = protocol
        self.clock = clock
        self.alpha = AlphaClock()
        self.panel = PanelClock(clock)
        self._pending = b""
        self._shown: ClockShow | None = None  # the last state, shown again after a replug
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._backoff = backoff
        self._alpha_8n1 = False  # the line refused 7E1 once (a pty): 8N1 from then on
        self.connected = asyncio.Event()
        self.reconnects = 0

    def show(self, state: ClockShow) -> None:
        """Show ``state``; while the line is down it is kept and shown in full on reopening
        (nothing queues up for a display that is not there)."""
        self._shown = state
        if self.connected.is_set():
            self._render(state)

    def _render(self, state: ClockShow) -> None:
        if self.protocol == "alpha":
            self._pending += self.alpha.update(state)
        else:
            self.panel.update(state)
        self._wake.set()

    def start(self) -> None:
        """Run the display's line in a task of its own (a caller that supervises its tasks
        awaits ``run`` instead)."""
        self._task = asyncio.get_running_loop().create_task(self.run(), name=f"clock {self.url}")

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _open(self) -> Transport:
        if self.protocol == "alpha":
            if self._alpha_8n1:
                return await open_transport(self.url, BAUDRATE)
            try:
                return await open_transport(self.url, BAUDRATE, **SERIAL_SETTINGS)
            except LineError as e:
                if "Invalid argument" not in str(e):
                    raise
                # A virtual line (a pty) cannot take 7E1; the bytes are 7-bit ASCII anyway.
                log.warning("%s does not take 7E1 framing; using 8N1", self.url)
                transport = await open_transport(self.url, BAUDRATE)
                self._alpha_8n1 = True  # and at every reopen, without trying 7E1 again
                return transport
        return await open_transport(self.url)

    async def run(self) -> None:
        """Open the display's line, keep it showing the clock, reopen it after an unplug."""
        delay = self._backoff[0]
        while True:
            try:
                transport = await self._open()
            except LineError:
                await asyncio.sleep(delay)
                delay = min(2 * delay, self._backoff[1])
                continue
            delay = self._backoff[0]
            self.alpha.reset()  # a display that was unplugged may have lost power: all again
            self.panel = PanelClock(self.clock)
            self._pending = b""
            self.connected.set()
            if self._shown is not None:
                self._render(self._shown)
            try:
                with contextlib.suppress(LineError):
                    await self._serve(transport)
            finally:  # an unplug, or an error the caller's supervisor reports
                self.connected.clear()
                self.reconnects += 1
                with contextlib.suppress(Exception):  # bounded: a dead line may never confirm
                    await close_bounded(transport)

    async def _serve(self, transport: Transport) -> None:
        reader = asyncio.ensure_future(transport.read())
        try:
            while True:
                out = self._pending + (
                    self.panel.data_to_send() if self.protocol == "panel" else b""
                )
                self._pending = b""
                if out:
                    await transport.write(out)
                waker = asyncio.ensure_future(self._wake.wait())
                try:
                    done, _ = await asyncio.wait(
                        {reader, waker}, timeout=0.25, return_when=asyncio.FIRST_COMPLETED
                    )
                finally:  # a stop while waiting leaves no waiting task behind
                    waker.cancel()
                self._wake.clear()
                if reader in done:
                    data = reader.result()
                    if self.protocol == "panel":
                        self.panel.feed(data)
                    reader = asyncio.ensure_future(transport.read())
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, LineError):
                await reader
