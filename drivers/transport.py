"""Transports: one byte-stream interface (``drivers.line``), with a backend per kind of line.

``open_transport(url)`` takes any pyserial URL (``/dev/bridgehub/base-1``, a pty path,
``socket://host:port``) or a USB selector ``usb:VID:PID[:SERIAL]`` (decisions D8). The serial
backend lives here; the USB one in ``drivers.usb``, imported only when a USB line is opened.
``LineError`` and ``Transport`` are importable from here too.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import serial
import serial_asyncio_fast

from drivers.line import LineError, Transport

__all__ = ["LineError", "SerialTransport", "Transport", "open_transport"]

# What opening a line can raise; termios exists on POSIX only (Windows has none).
_OPEN_ERRORS: tuple[type[Exception], ...] = (serial.SerialException, OSError, ValueError)
with contextlib.suppress(ImportError):
    import termios

    _OPEN_ERRORS += (termios.error,)


# Opening a line can block, so it runs in a thread; its own threads, so a replugged station
# never waits for the hub's store work in the loop's default executor (issue 12: a line back
# within 2 s of its replug while a large room's sections finish).
_OPENER = ThreadPoolExecutor(max_workers=2, thread_name_prefix="line-open")


class _MendedSerialTransport(serial_asyncio_fast.SerialTransport):  # type: ignore[misc]
    """pyserial-asyncio-fast's transport, its write side mended: once a partial write's rest
    had gone out, it left its writer on the loop, and every turn of the loop then raised
    AssertionError ("Write buffer should not be empty") into the log until the next write:
    tens of thousands of tracebacks under load (home-assistant-libs/pyserial-asyncio-fast
    pull request 36, open). The writer comes off the loop when the buffer is empty."""

    def _write_ready(self) -> None:
        if self._write_buffer:
            super()._write_ready()
        if not self._write_buffer:
            self._remove_writer()

    def _fatal_error(self, exc: BaseException, message: str = "") -> None:
        """A line unplugged mid-write (EIO) is a line down, which the driver reports in one
        line; only what is not a port error goes to the loop's handler as a traceback."""
        if isinstance(exc, serial.SerialException | OSError):
            self._abort(exc)
        else:
            super()._fatal_error(exc, message or "Fatal error on serial transport")


class SerialTransport:
    """pyserial through pyserial-asyncio-fast: real ports, pseudo-terminals, socket://.
    Used on the asyncio loop that opened it."""

    def __init__(
        self, url: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        self.url = url
        self._reader = reader
        self._writer = writer

    @classmethod
    async def open(cls, url: str, baudrate: int = 115200, **settings: Any) -> SerialTransport:
        """``settings``: pyserial's bytesize, parity, stopbits (e.g. 7E1 for Alpha signs)."""
        if "://" in url:  # socket:// and pyserial's other URL handlers
            try:
                reader, writer = await serial_asyncio_fast.open_serial_connection(
                    url=url, baudrate=baudrate, **settings
                )
            except _OPEN_ERRORS as e:
                raise LineError(f"cannot open {url}: {e}") from None
            return cls(url, reader, writer)
        settings.setdefault("exclusive", True)  # a device: no other program may share it
        loop = asyncio.get_running_loop()
        opening = functools.partial(serial.serial_for_url, url, baudrate=baudrate, **settings)
        opened = loop.run_in_executor(_OPENER, opening)  # an open can block: off the loop
        try:
            port = await asyncio.shield(opened)
        except asyncio.CancelledError:  # stopped while opening: close the port once open,
            opened.add_done_callback(_close_opened)  # never leave it open and locked
            raise
        except _OPEN_ERRORS as e:
            raise LineError(f"cannot open {url}: {e}") from None
        try:  # what the asyncio transport sets first; a port that refuses it (a pty and 7E1)
            port.timeout = 0  # is closed here, not left open and locked until garbage
            port.write_timeout = 0  # collection, which would refuse the next open (EAGAIN)
        except _OPEN_ERRORS as e:
            with contextlib.suppress(Exception):
                port.close()
            raise LineError(f"cannot open {url}: {e}") from None
        reader = asyncio.StreamReader()
        protocol = asyncio.StreamReaderProtocol(reader)
        try:
            transport = _MendedSerialTransport(loop, protocol, port)
        except BaseException:
            with contextlib.suppress(Exception):
                port.close()
            raise
        return cls(url, reader, asyncio.StreamWriter(transport, protocol, reader, loop))

    async def read(self) -> bytes:
        try:
            data = await self._reader.read(4096)
        except (serial.SerialException, OSError) as e:
            raise LineError(f"{self.url}: {e}") from None
        if not data:
            raise LineError(f"{self.url}: the line closed")
        return data

    async def write(self, data: bytes) -> None:
        if self._writer.is_closing():
            raise LineError(f"{self.url}: the line closed")
        try:
            self._writer.write(data)
            await self._writer.drain()
        except (serial.SerialException, OSError, ConnectionError) as e:
            raise LineError(f"{self.url}: {e}") from None

    async def close(self) -> None:
        self._writer.close()
        with contextlib.suppress(serial.SerialException, OSError, ConnectionError):
            await self._writer.wait_closed()


def _close_opened(opened: asyncio.Future[Any]) -> None:
    """Close a port whose open finished after its opener was cancelled."""
    if not opened.cancelled() and opened.exception() is None:
        with contextlib.suppress(Exception):
            opened.result().close()


async def open_transport(url: str, baudrate: int = 115200, **settings: Any) -> Transport:
    """The line at ``url``, opened; raises LineError when it cannot be opened."""
    if url.startswith("usb:"):
        from drivers.usb import UsbTransport

        return await UsbTransport.open(url)
    return await SerialTransport.open(url, baudrate, **settings)
