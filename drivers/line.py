"""What every transport is and what it raises when its line goes: the pieces that the
transport backends (``drivers.transport``'s serial, ``drivers.usb``) and their callers share.

A module of its own so that a backend never imports the module that chooses backends
(``open_transport``), the way python-can keeps ``BusABC`` and its errors apart from
``can.interface``."""

from __future__ import annotations

from typing import Protocol


class LineError(ConnectionError):
    """The line is gone (unplugged, closed, refused); the caller reconnects."""


class Transport(Protocol):
    """A byte stream to one device, used on the asyncio loop that opened it."""

    url: str

    async def read(self) -> bytes:
        """Some bytes (at least one); raises LineError when the line is gone."""
        ...

    async def write(self, data: bytes) -> None: ...

    async def close(self) -> None: ...
