"""The director's PIN in a terminal's LOGON (docs/protocol.md §3, decisions D20): a terminal
takes over a table held by another one when its LOGON carries the hub's TD PIN. The PIN
travels in clear over the radio, so wrong PINs are limited: after ``LIMIT`` failures from a
terminal serial or from a link (station and address), its attempts are refused for a time
that doubles with every further failure (``BASE_S``, up to ``CAP_S``); ``ROOM_LIMIT``
failures from the whole room lock every takeover by PIN the same way. The TD's own
``allow_takeover`` command is never locked.

``TakeoverPins`` is sans-I/O (an injected clock); the hub uses it on its asyncio loop.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from hub.live.terminal_port import TerminalRef

LIMIT = 3  # wrong PINs from one terminal serial or link before it waits
ROOM_LIMIT = 10  # wrong PINs from the whole room before every takeover by PIN waits
BASE_S = 30.0  # the first wait; doubled for every further failure
CAP_S = 15 * 60.0  # the longest wait; failures older than this are forgotten


class PinVerdict(Enum):
    OK = "ok"
    WRONG = "wrong"
    LOCKED = "locked"  # too many wrong PINs: not even compared
    OFF = "off"  # the hub has no TD PIN: takeover only by the director's command


@dataclass(frozen=True, slots=True)
class PinCheck:
    verdict: PinVerdict
    failures: int = 0  # the most failures counted against this terminal, its link or the room
    wait_s: float = 0.0  # how long until the next attempt is compared
    lockout: str = ""  # this failure began a lock: "terminal" (its serial or link), "room"

    @property
    def ok(self) -> bool:
        return self.verdict is PinVerdict.OK

    def text(self) -> str:
        """What the players are told."""
        if self.verdict is PinVerdict.OFF:
            return "takeover by PIN is off at this hub: ask the director"
        if self.verdict is PinVerdict.LOCKED:
            return f"too many wrong PINs: ask the director, or try again in {self.wait_s:.0f} s"
        if self.verdict is PinVerdict.WRONG:
            return "wrong director's PIN: ask the director"
        return ""

    def lockout_text(self, serial: str, where: str) -> str:
        """The director's alert when this failure began a lock ([MENDS] #25): who, where,
        for how long, and that the director's own ``allow_takeover`` still works."""
        wait = f"{self.wait_s:.0f} s" if self.wait_s < 120 else f"{self.wait_s / 60:.0f} min"
        if self.lockout == "room":
            return (
                f"{self.failures} wrong director's PINs from the room's terminals, the last from "
                f"{serial} at table {where}: every takeover by PIN is locked for {wait} "
                "(allow_takeover still works); if no one of yours typed them, someone is "
                "guessing the PIN"
            )
        return (
            f"{self.failures} wrong director's PINs from {serial} at table {where}: its "
            f"takeovers by PIN are locked for {wait}"
        )


@dataclass
class _Count:
    failures: int = 0
    last: float = 0.0
    until: float = 0.0


class TakeoverPins:
    """The TD PIN compared in constant time, with failures limited per terminal serial, per
    link and for the room; sans-I/O, on the hub's loop."""

    def __init__(self, td_pin: str, clock: Callable[[], float]) -> None:
        self._pin = td_pin.encode("utf-8")
        self.clock = clock
        self._counts: dict[tuple[str, ...], _Count] = {}

    def check(self, serial: str, ref: TerminalRef, pin: str) -> PinCheck:
        """One attempt at the PIN by ``serial`` over ``ref``."""
        if not self._pin:
            return PinCheck(PinVerdict.OFF)
        now = self.clock()
        keys = [("serial", serial), ("link", ref.port, str(ref.address)), ("room",)]
        counts = [self._count(k, now) for k in keys]
        wait = max(c.until - now for c in counts)
        if wait > 0:
            return PinCheck(PinVerdict.LOCKED, max(c.failures for c in counts), wait)
        if hmac.compare_digest(pin.encode("utf-8"), self._pin):
            for key in keys[:2]:
                self._counts.pop(key, None)
            return PinCheck(PinVerdict.OK)
        self._forget(now)
        lockout = ""
        for key, count in zip(keys, counts, strict=True):
            self._counts[key] = count  # kept only once it failed
            count.failures += 1
            count.last = now
            limit = ROOM_LIMIT if key == ("room",) else LIMIT
            if count.failures >= limit:
                count.until = now + min(CAP_S, BASE_S * 2 ** (count.failures - limit))
                lockout = "room" if key == ("room",) else "terminal"  # the room's says more
        wait = max(0.0, max(c.until - now for c in counts))
        return PinCheck(PinVerdict.WRONG, max(c.failures for c in counts), wait, lockout)

    def _count(self, key: tuple[str, ...], now: float) -> _Count:
        """The key's failures (a fresh count, not yet kept, when it has none or they are
        forgotten): a LOGON refused while locked must not add an entry for every serial a
        stranger makes up."""
        count = self._counts.get(key)
        if count is None or _forgotten(count, now):
            return _Count()
        return count

    def _forget(self, now: float) -> None:
        """Drop the counts quiet long enough to be forgotten (memory stays bounded)."""
        for key in [k for k, c in self._counts.items() if _forgotten(c, now)]:
            del self._counts[key]


def _forgotten(count: _Count, now: float) -> bool:
    return now - count.last > CAP_S and now >= count.until
