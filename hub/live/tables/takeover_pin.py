"""The director's PIN in a terminal's LOGON (docs/protocol.md §3, decisions D20): a terminal
takes over a table held by another one when its LOGON carries the hub's TD PIN. The PIN
travels in clear over the radio, so wrong PINs are limited: after ``LIMIT`` failures from a
terminal serial or from a link (station and address), its attempts are refused for a time
that doubles with every further failure (``BASE_S``, up to ``CAP_S``); ``ROOM_LIMIT``
failures from the whole room lock every takeover by PIN the same way (the hub's one attempt
limit, ``hub/api/attempt_limit.py``, under the policies of ``WAITS``). The TD's own
``allow_takeover`` command is never locked.

``TakeoverPins`` is sans-I/O (an injected clock); the hub uses it on its asyncio loop.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from hub.api.attempt_limit import AttemptLimit, AttemptPolicy, Key
from hub.live.port.terminal_port import TerminalRef

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


ROOM: Key = ("room",)  # every terminal's failures together
WAITS = {  # waits from the limit on, doubling; forgotten once quiet for the longest wait
    "serial": AttemptPolicy(CAP_S, CAP_S, LIMIT, BASE_S),
    "link": AttemptPolicy(CAP_S, CAP_S, LIMIT, BASE_S),
    "room": AttemptPolicy(CAP_S, CAP_S, ROOM_LIMIT, BASE_S),
}


class TakeoverPins:
    """The TD PIN compared in constant time, with failures limited per terminal serial, per
    link and for the room (``hub/api/attempt_limit.py``); sans-I/O, on the hub's loop."""

    def __init__(self, td_pin: str, clock: Callable[[], float]) -> None:
        self._pin = td_pin.encode("utf-8")
        self.clock = clock
        self._counts = AttemptLimit(WAITS)

    def check(self, serial: str, ref: TerminalRef, pin: str) -> PinCheck:
        """One attempt at the PIN by ``serial`` over ``ref``. A LOGON refused while locked
        keeps nothing: not an entry for every serial a stranger makes up."""
        if not self._pin:
            return PinCheck(PinVerdict.OFF)
        now = self.clock()
        keys: list[Key] = [("serial", serial), ("link", ref.port, str(ref.address)), ROOM]
        wait = max(self._counts.wait_s(k, now) for k in keys)
        if wait > 0:
            failures = max(self._counts.failures(k, now) for k in keys)
            return PinCheck(PinVerdict.LOCKED, failures, wait)
        if hmac.compare_digest(pin.encode("utf-8"), self._pin):
            for key in keys[:2]:
                self._counts.clear(key)
            return PinCheck(PinVerdict.OK)
        self._counts.forget(now)  # counts quiet long enough: memory stays bounded
        lockout = ""
        for key in keys:
            self._counts.failed(key, now)  # kept only once it failed
            if self._counts.locked_out(key, now):
                lockout = "room" if key == ROOM else "terminal"  # the room's says more
        wait = max(self._counts.wait_s(k, now) for k in keys)
        failures = max(self._counts.failures(k, now) for k in keys)
        return PinCheck(PinVerdict.WRONG, failures, wait, lockout)
