"""Transports: one byte-stream interface (``drivers.line``), with a backend per kind of line.

``open_transport(url)`` takes any pyserial URL (``/dev/bridgehub/base-1``, a pty path,
``socket://host:port``) or a USB selector ``usb:VID:PID[:SERIAL]`` (decisions D8). The serial
backend lives here; the USB one in ``drivers.usb``, imported only when a USB line is opened.
``LineError`` and ``Transport`` are importable from here too.
"""

from __future__ import annotations

import asyncio
import contextlib
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
        if "://" not in url:  # a device: no other program may share the open port
            settings.setdefault("exclusive", True)
        try:
            reader, writer = await serial_asyncio_fast.open_serial_connection(
                url=url, baudrate=baudrate, **settings
            )
        except _OPEN_ERRORS as e:
            raise LineError(f"cannot open {url}: {e}") from None
        return cls(url, reader, writer)

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


async def open_transport(url: str, baudrate: int = 115200, **settings: Any) -> Transport:
    """The line at ``url``, opened; raises LineError when it cannot be opened."""
    if url.startswith("usb:"):
        from drivers.usb import UsbTransport

        return await UsbTransport.open(url)
    return await SerialTransport.open(url, baudrate, **settings)
