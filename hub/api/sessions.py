"""The director's log-in to the hub API (decisions D20): the PIN, its attempt limits, the
sessions it opens, and which peers get the feed without one.

- ``new_pin``: the default PIN, 8 random characters a TD can read aloud and type (digits
  and capitals without 0/O, 1/I); ``pin_problem`` refuses an empty PIN (``run`` a short
  one, ``hub/cli/director_pin.py``).
- ``LoginGuard``: wrong PINs limited per peer (its address) and overall. The first wrong
  PIN from a peer costs nothing (a typing slip); after that it waits ``BASE_S``, doubled
  with every further failure, and at ``PEER_LIMIT`` failures it is locked out for
  ``LOCK_S`` (doubled again per failure, up to ``CAP_S``). ``ROOM_LIMIT`` failures from all
  remote peers lock every remote log-in the same way; loopback peers (the TD's own machine)
  are never locked by other peers' failures, nor locked out by their own: their wait stops
  doubling at ``LOOPBACK_CAP_S`` (a console and screens restarted with the PIN of an earlier
  run must not lock the TD out of his own hub for 15 minutes). An attempt during a wait is
  refused without comparing the PIN. Counted by the hub's one attempt limit
  (``hub/api/attempt_limit.py``), under the three policies of ``WAITS``.
- ``Sessions``: a token belongs to the connection that logged in, ends when that
  connection closes or the hub stops, and expires after ``IDLE_S`` without use.

Both classes are sans-I/O (an injected clock); the API server uses them on the hub's
asyncio loop.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from enum import Enum

from hub.api.attempt_limit import AttemptLimit, AttemptPolicy, Key

PIN_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I: read aloud, typed right
PIN_LENGTH = 8  # 32**8 = 2**40 PINs
SHORT_PIN = 8  # a PIN the TD sets shorter than this: refused by run without --short-pin-ok

FREE_FAILURES = 1  # wrong PINs from a peer before it waits at all (a typing slip)
BASE_S = 1.0  # the first wait; doubled with every further failure
PEER_LIMIT = 5  # wrong PINs from one peer before it is locked out
ROOM_LIMIT = 20  # wrong PINs from all remote peers before every remote log-in is locked out
LOCK_S = 15 * 60.0  # the lockout; doubled with every further failure
CAP_S = 60 * 60.0  # the longest wait
LOOPBACK_CAP_S = 8.0  # the longest wait of the hub's own machine (no lockout: it is trusted)
FORGET_S = 60 * 60.0  # failures of a peer quiet this long (and not waiting) are forgotten
IDLE_S = 12 * 60 * 60.0  # a session unused this long has expired


def new_pin(length: int = PIN_LENGTH) -> str:
    """A fresh random director's PIN (``secrets``)."""
    return "".join(secrets.choice(PIN_ALPHABET) for _ in range(length))


def pin_problem(pin: str) -> str | None:
    """Why a PIN cannot be used (``None``: it can). Only an empty PIN is refused here;
    ``run`` refuses a short one too, unless told otherwise (``hub/cli/director_pin.py``)."""
    if not pin:
        return (
            "the director's PIN is empty: give one (--td-pin or BRIDGEHUB_TD_PIN), "
            "or leave it out and the hub makes one"
        )
    return None


def is_loopback(host: str | None) -> bool:
    """Whether a peer's address is this machine (127.0.0.0/8, ::1, or an IPv4-mapped
    loopback). A peer without an address (a Unix socket) is on this machine too."""
    if not host:
        return True
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def peer_of(host: str | None, forwarded_for: str | None) -> str:
    """The peer a connection speaks for: its address, or, when it comes from this machine
    with an ``X-Forwarded-For`` header (a reverse proxy terminating TLS, docs/api.md), the
    address the proxy appended last. Only a loopback connection is believed: a process on
    this machine is trusted anyway, and claiming a remote address only costs it the
    loopback's privileges."""
    direct = host or ""
    if forwarded_for and is_loopback(direct):
        last = forwarded_for.rsplit(",", 1)[-1].strip()
        if last:
            return last
    return direct


class LoginVerdict(Enum):
    OK = "ok"
    WRONG = "wrong"
    WAIT = "wait"  # too many wrong PINs: refused without comparing


@dataclass(frozen=True, slots=True)
class LoginCheck:
    verdict: LoginVerdict
    peer: str
    failures: int = 0  # the most failures counted against this peer or the room
    wait_s: float = 0.0  # until the next attempt is compared
    room: bool = False  # the wait is the room's (every remote peer), not this peer's
    lockout: str = ""  # this failure began a lock-out: "peer" (this one), "room" (every remote)

    @property
    def ok(self) -> bool:
        return self.verdict is LoginVerdict.OK

    def text(self) -> str:
        """What the client is told."""
        if self.verdict is LoginVerdict.WRONG:
            return "wrong PIN" if self.wait_s <= 0 else f"wrong PIN; wait {self.wait_s:.0f} s"
        if self.verdict is LoginVerdict.WAIT:
            who = "from the venue network" if self.room else f"from {self.peer}"
            return f"too many wrong PINs {who}: try again in {self.wait_s:.0f} s"
        return ""

    def lockout_text(self) -> str:
        """The director's alert when this failure began a lock-out (decisions D20)."""
        minutes = f"{self.wait_s / 60:.0f} min"
        if self.lockout == "room":
            return (
                f"{self.failures} wrong director's PINs from the venue network, the last from "
                f"{self.peer}: every remote API log-in is locked out for {minutes} (the hub's "
                "own machine still logs in); if this is not one of yours, someone is guessing"
            )
        return (
            f"wrong director's PINs again and again from {self.peer}: its API log-ins are "
            f"locked out for {minutes}"
        )


ROOM: Key = ("room",)  # every remote peer's failures together
WAITS = {
    "peer": AttemptPolicy(  # a remote peer: a slip, BASE_S doubling, then the lockout
        CAP_S, FORGET_S, PEER_LIMIT, LOCK_S, backoff_at=FREE_FAILURES + 1, backoff_s=BASE_S
    ),
    "loopback": AttemptPolicy(  # the hub's own machine: never locked out
        LOOPBACK_CAP_S, FORGET_S, backoff_at=FREE_FAILURES + 1, backoff_s=BASE_S
    ),
    "room": AttemptPolicy(CAP_S, FORGET_S, ROOM_LIMIT, LOCK_S),  # nothing until the lockout
}


class LoginGuard:
    """The director's PIN compared in constant time, with wrong PINs limited per peer and
    for the room (remote peers, ``hub/api/attempt_limit.py``); sans-I/O, on the hub's
    loop."""

    def __init__(self, pin: str, clock: Callable[[], float]) -> None:
        problem = pin_problem(pin)
        if problem is not None:
            raise ValueError(problem)
        self._pin = pin.encode("utf-8")
        self.clock = clock
        self._counts = AttemptLimit(WAITS)

    def attempt(self, peer: str, pin: str) -> LoginCheck:
        """One log-in by ``peer`` with ``pin``."""
        now = self.clock()
        keys: list[Key] = [("loopback", peer)] if is_loopback(peer) else [("peer", peer), ROOM]
        waits = [self._counts.wait_s(k, now) for k in keys]
        if max(waits) > 0:
            room = len(waits) > 1 and waits[1] >= waits[0]
            failures = max(self._counts.failures(k, now) for k in keys)
            return LoginCheck(LoginVerdict.WAIT, peer, failures, max(waits), room)
        if hmac.compare_digest(pin.encode("utf-8"), self._pin):
            self._counts.clear(keys[0])
            return LoginCheck(LoginVerdict.OK, peer)
        self._counts.forget(now)  # kept only now: a refused flood adds no entries
        lockout = ""
        for key in keys:
            self._counts.failed(key, now)
            if self._counts.locked_out(key, now):
                lockout = "room" if key == ROOM else lockout or "peer"  # the room's says more
        wait = max(self._counts.wait_s(k, now) for k in keys)
        failures = max(self._counts.failures(k, now) for k in keys)
        return LoginCheck(LoginVerdict.WRONG, peer, failures, wait, lockout == "room", lockout)


class SessionRefused(Exception):
    """A command's token does not open a session here; the text says what to do."""


@dataclass
class _Session:
    actor: str
    connection: Hashable
    last: float


class Sessions:
    """The director's sessions: token → who, bound to the connection that logged in;
    sans-I/O, on the hub's loop."""

    def __init__(self, clock: Callable[[], float], idle_s: float = IDLE_S) -> None:
        self.clock = clock
        self.idle_s = idle_s
        self._by_token: dict[str, _Session] = {}

    def __len__(self) -> int:
        return len(self._by_token)

    def open(self, actor: str, connection: Hashable) -> str:
        """A new session for ``connection`` (its earlier one, if any, ends)."""
        self.end(connection)
        token = secrets.token_hex(16)
        self._by_token[token] = _Session(actor, connection, self.clock())
        return token

    def actor(self, token: object, connection: Hashable) -> str:
        """Who the session of ``token`` is, used now from ``connection``."""
        session = self._by_token.get(token) if isinstance(token, str) else None
        if session is None:
            raise SessionRefused("log in with the director's PIN first")
        now = self.clock()
        if now - session.last > self.idle_s:
            del self._by_token[str(token)]
            hours = self.idle_s / 3600
            raise SessionRefused(f"the session expired ({hours:g} h unused): log in again")
        if session.connection is not connection:
            raise SessionRefused("this session belongs to another connection: log in on this one")
        session.last = now
        return session.actor

    def end(self, connection: Hashable) -> int:
        """End the sessions of a closed connection; how many there were."""
        gone = [k for k, s in self._by_token.items() if s.connection is connection]
        for token in gone:
            del self._by_token[token]
        return len(gone)

    def clear(self) -> None:
        """Every session ends (the hub stops)."""
        self._by_token.clear()
