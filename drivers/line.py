"""What every transport is and what it raises when its line goes: the pieces that the
transport backends (``drivers.transport``'s serial, ``drivers.usb``) and their callers share.

A module of its own so that a backend never imports the module that chooses backends
(``open_transport``), the way python-can keeps ``BusABC`` and its errors apart from
``can.interface``."""

from __future__ import annotations

import asyncio
from typing import Protocol

CLOSE_S = 2.0
# A line's reopen tries after an unplug: the first after 0.05 s, doubling up to 0.5 s, so a
# device plugged back in after a long unplug is open again within half a second (issue 12:
# no line down for more than 2 s after its replug). An absent device fails its open in
# microseconds (no such file), so two tries a second cost nothing.
REOPEN_S = (0.05, 0.5)


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


async def close_bounded(transport: Transport, seconds: float = CLOSE_S) -> bool:
    """Close ``transport``, waiting at most ``seconds`` (a line whose other end is gone may
    never confirm the close); False when it did not confirm in time. A stop that arrives
    just as the close finishes is raised, never lost: Python 3.11's ``wait_for`` returns
    the result instead when both happen in the same turn of the loop, and the line's task
    would then run on after its stop."""
    try:
        await asyncio.wait_for(asyncio.shield(transport.close()), seconds)
        confirmed = True
    except TimeoutError:
        confirmed = False
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError
    return confirmed
