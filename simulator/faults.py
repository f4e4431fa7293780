"""Fault injection on a simulated line, as a noisy cable does it: whole BHWP/1 frames
corrupted (one bit flipped), dropped, duplicated or delayed, and single bytes flipped or
lost. Seeded, with one random stream per line and direction, so a failing run can be
replayed exactly.

Frames end with the zero delimiter (drivers/protocol/frame.py); bytes not yet followed by
one are held until their frame is complete. A delayed frame holds back what follows it on
that direction, as a serial line keeps order.
"""

from __future__ import annotations

import asyncio
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

FAULT_KINDS = ("corrupt", "drop", "duplicate", "delay", "bit_flip", "drop_byte")


def _no_counts() -> dict[str, int]:
    return dict.fromkeys(FAULT_KINDS, 0)


@dataclass
class Faults:
    """What a line does wrong. ``corrupt``, ``drop``, ``duplicate`` and ``delay`` are
    chances per frame (a delay is up to ``max_delay_s``); ``bit_flip`` and ``drop_byte``
    chances per byte. ``counts`` adds up what every stream made of it, per kind."""

    corrupt: float = 0.0
    drop: float = 0.0
    duplicate: float = 0.0
    delay: float = 0.0
    max_delay_s: float = 0.05
    bit_flip: float = 0.0
    drop_byte: float = 0.0
    seed: int = 1
    counts: dict[str, int] = field(default_factory=_no_counts)

    @property
    def active(self) -> bool:
        return any(
            (self.corrupt, self.drop, self.duplicate, self.delay, self.bit_flip, self.drop_byte)
        )

    def stream(self, label: str) -> FaultStream:
        """Faults for one direction of one line (``label`` names it, e.g. "BS-0001 out"):
        its own random stream, seeded from ``seed`` and ``label``, so that what one line
        does never changes what another does."""
        return FaultStream(self, random.Random(f"{self.seed}:{label}"))


class FaultStream:
    """One direction of one line: bytes in, (bytes, delay in seconds) out, in order."""

    def __init__(self, faults: Faults, rng: random.Random) -> None:
        self.faults = faults
        self.rng = rng
        self.counts = _no_counts()  # this direction's share of ``faults.counts``
        self._partial = bytearray()

    def apply(self, data: bytes) -> list[tuple[bytes, float]]:
        """What the line delivers of ``data``: whole frames (with their faults) and how long
        after now each may arrive. Without faults the bytes go through untouched."""
        if not self.faults.active:
            return [(data, 0.0)] if data else []
        self._partial += data
        out: list[tuple[bytes, float]] = []
        while (end := self._partial.find(0)) >= 0:
            frame = bytes(self._partial[: end + 1])
            del self._partial[: end + 1]
            delivered = self._frame(frame)
            if delivered is not None:
                out.append(delivered)
        return out

    def clear(self) -> None:
        """Forget a frame half received (the cable was pulled)."""
        self._partial.clear()

    def _count(self, kind: str) -> None:
        self.faults.counts[kind] += 1
        self.counts[kind] += 1

    def _frame(self, frame: bytes) -> tuple[bytes, float] | None:
        f, rng = self.faults, self.rng
        if len(frame) == 1:  # an idle delimiter: nothing to hurt
            return frame, 0.0
        if f.drop and rng.random() < f.drop:
            self._count("drop")
            return None
        body = bytearray(frame)
        if f.corrupt and rng.random() < f.corrupt:
            self._count("corrupt")
            body[rng.randrange(len(body) - 1)] ^= 1 << rng.randrange(8)
        if f.bit_flip or f.drop_byte:
            body = self._bytes(body)
        out = bytes(body)
        if f.duplicate and rng.random() < f.duplicate:
            self._count("duplicate")
            out += out
        wait = 0.0
        if f.delay and rng.random() < f.delay:
            self._count("delay")
            wait = rng.random() * f.max_delay_s
        return out, wait

    def _bytes(self, body: bytearray) -> bytearray:
        f, rng = self.faults, self.rng
        out = bytearray()
        for b in body:
            if f.drop_byte and rng.random() < f.drop_byte:
                self._count("drop_byte")
                continue
            if f.bit_flip and rng.random() < f.bit_flip:
                b ^= 1 << rng.randrange(8)
                self._count("bit_flip")
            out.append(b)
        return out


class DelayLine:
    """Delivers chunks in order, each no sooner than its own delay and than the chunk
    before it; schedules on the running asyncio loop, never sleeps. ``deliver`` is called
    on the loop."""

    def __init__(self, deliver: Callable[[bytes], None]) -> None:
        self.deliver = deliver
        self._queue: deque[tuple[float, bytes]] = deque()
        self._timer: asyncio.TimerHandle | None = None

    def push(self, data: bytes, wait: float = 0.0) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        at = now + wait
        if not self._queue and wait <= 0:
            self.deliver(data)
            return
        if self._queue:
            at = max(at, self._queue[-1][0])
        self._queue.append((at, data))
        self._arm(loop)

    @property
    def waiting(self) -> int:
        """Chunks not yet delivered."""
        return len(self._queue)

    def clear(self) -> None:
        """Drop what is in flight (the cable was pulled)."""
        self._queue.clear()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _arm(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._timer is None and self._queue:
            self._timer = loop.call_at(self._queue[0][0], self._release)

    def _release(self) -> None:
        self._timer = None
        loop = asyncio.get_running_loop()
        now = loop.time()
        while self._queue and self._queue[0][0] <= now:
            self.deliver(self._queue.popleft()[1])
        self._arm(loop)
