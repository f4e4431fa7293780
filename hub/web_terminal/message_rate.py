"""How fast a browser terminal may send (decisions D20; [MENDS] #25 item 2, code review
turn 3 N2). Every frame costs the hub's loop a parse and an answer, the room's hardware
lines included: four pages flooding garbage raised a phone's result answer from 0.04 s to
0.66 s. So each connection, and each device over all its connections, has a token bucket:
``CONNECTION_RATE`` messages a second with bursts of ``CONNECTION_BURST`` (a page sends a
few a minute, and after a reconnect the few dozen still unanswered at once), and a device
``DEVICE_RATE``/``DEVICE_BURST``. A connection past its bucket, or its device's, is closed
(1008, the page reconnects after its pause) and the hub is told once, for the audit trail:
the flooder pays, the room does not.

Sans-I/O (an injected clock); on the hub's asyncio loop.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

CONNECTION_RATE = 20.0  # messages a second, sustained, on one connection
CONNECTION_BURST = 60.0  # messages at once on one connection
DEVICE_RATE = 30.0  # messages a second over all of a device's connections
DEVICE_BURST = 120.0
FORGET_S = 10 * 60.0  # a device's bucket unused this long (and full again) is dropped
TOO_FAST = "too many messages, too fast: reload the page, or ask the director"


@dataclass
class TokenBucket:
    """``rate`` tokens a second up to ``burst``; a message takes one. Sans-I/O: the time
    comes with each message."""

    rate: float
    burst: float
    tokens: float
    at: float

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class MessageRate:
    """The buckets of the browser terminals' connections and devices; sans-I/O (an
    injected clock), on the hub's asyncio loop."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        connection: tuple[float, float] = (CONNECTION_RATE, CONNECTION_BURST),
        device: tuple[float, float] = (DEVICE_RATE, DEVICE_BURST),
    ) -> None:
        self.clock = clock
        self.connection, self.device = connection, device
        self._devices: dict[str, TokenBucket] = {}
        self._swept = clock()

    def bucket(self) -> TokenBucket:
        """A new connection's bucket, full."""
        rate, burst = self.connection
        return TokenBucket(rate, burst, burst, self.clock())

    def take(self, connection: TokenBucket, serial: str) -> bool:
        """One message on ``connection`` of the device ``serial`` ("" before its hello):
        False when it is over its connection's rate or its device's."""
        now = self.clock()
        if not connection.take(now):
            return False
        if not serial:
            return True
        device = self._devices.get(serial)
        if device is None:
            self._sweep(now)
            rate, burst = self.device
            device = self._devices[serial] = TokenBucket(rate, burst, burst, now)
        return device.take(now)

    def _sweep(self, now: float) -> None:
        """Drop the buckets of devices quiet long enough to be full again (memory stays
        bounded by the devices active in the last minutes); at most once a minute."""
        if now - self._swept < 60:
            return
        self._swept = now
        for serial in [s for s, b in self._devices.items() if now - b.at > FORGET_S]:
            del self._devices[serial]
