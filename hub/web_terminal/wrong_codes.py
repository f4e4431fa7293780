"""Wrong table codes, limited (decisions D20: failed log-ins are rate-limited; [MENDS] #25
item 3, code review turn 3 N3). Counted per device (its serial) and per network address:

- a device that sent ``DEVICE_LIMIT`` wrong codes waits ``BASE_S`` before its next log-on
  with a code, doubling with every further wrong one up to ``CAP_S``;
- a network address waits the same way after ``address_limit`` wrong codes from all its
  devices: phones behind one NAT'd Wi-Fi or a hotspot share an address, so one phone's
  typos make only that phone wait, and the address limit (at least ``ADDRESS_LIMIT``, 2 a
  table) stops a script that makes up a device per guess;
- a right code forgives the device's wrong ones for that table (typos of the code on the
  card), at the device and at its address; wrong codes for other tables stay counted;
- a count quiet for ``FORGET_S`` (and not waiting) is forgotten, so memory stays bounded.

Counted by the hub's one attempt limit (``hub/api/attempt_limit.py``): ``DEVICE_WAITS`` for a
device, the same with ``address_limit`` for an address.

Only a code given that is not the table's counts: no code at all, a code used by another
device, a table without a code yet, and log-ons refused while waiting do not.
``WrongCodes`` is sans-I/O (an injected clock), on the hub's asyncio loop.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import time
from collections.abc import Callable

from hub.api.attempt_limit import AttemptLimit, AttemptPolicy, Key

log = logging.getLogger(__name__)

DEVICE_LIMIT = 5  # wrong codes from one device before it waits
ADDRESS_LIMIT = 20  # wrong codes from one network address before all of it waits, at least
BASE_S = 2.0  # the first wait; doubled with every further wrong code
CAP_S = 60.0  # the longest wait
FORGET_S = 15 * 60.0  # a count quiet this long (and not waiting) is forgotten
DEVICE_WAITS = AttemptPolicy(CAP_S, FORGET_S, DEVICE_LIMIT, BASE_S)  # from the limit on, doubling


class WrongCodes:
    """Wrong table codes per device and per network address (``hub/api/attempt_limit.py``);
    sans-I/O, on the hub's asyncio loop."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, tables: int = 0) -> None:
        self.clock = clock
        self.address_limit = max(ADDRESS_LIMIT, 2 * tables)
        address = dataclasses.replace(DEVICE_WAITS, lockout_at=self.address_limit)
        self._counts = AttemptLimit({"device": DEVICE_WAITS, "address": address})
        self._tables: dict[tuple[str, str], int] = {}  # (serial, table) -> its wrong codes

    def wait(self, peer: str, serial: str = "") -> str:
        """What the device ``serial`` at ``peer`` is told while it must wait, or "" to
        check its code."""
        now = self.clock()
        self._forget(now)
        left_device = self._counts.wait_s(("device", serial), now) if serial else 0.0
        left_address = self._counts.wait_s(("address", peer), now)
        if max(left_device, left_address) <= 0:
            return ""
        who = "this device" if left_device >= left_address else "this network"
        return (
            f"too many wrong table codes from {who}: try again in "
            f"{math.ceil(max(left_device, left_address))} s, or ask the director"
        )

    def failed(self, peer: str, serial: str = "", table: str = "") -> None:
        """A wrong code from the device ``serial`` at ``peer`` for ``table`` ("A3")."""
        now = self.clock()
        self._forget(now)  # as ``wait`` did just before (the port asks it first)
        keys: list[Key] = [("device", serial)] if serial else []  # no serial: its address
        for key in [*keys, ("address", peer)]:
            self._counts.failed(key, now)
        self._tables[(serial, table)] = self._tables.get((serial, table), 0) + 1
        device = self._counts.failures(("device", serial), now)
        address = self._counts.failures(("address", peer), now)
        if device >= DEVICE_LIMIT or address >= self.address_limit:
            log.warning(
                "browser terminals: %d wrong table codes from %s, %d from its address %s",
                device,
                serial or "a device",
                address,
                peer,
            )

    def right(self, peer: str, serial: str, table: str) -> None:
        """The device gave ``table``'s right code (or holds the table): its wrong codes
        for that table were typos, forgiven at the device and at its address."""
        forgiven = self._tables.pop((serial, table), 0)
        if not forgiven:
            return
        for key in (("device", serial), ("address", peer)):
            self._counts.forgive(key, forgiven)

    def _forget(self, now: float) -> None:
        """Drop the counts quiet for FORGET_S and not waiting (and their devices' tables)."""
        for key in self._counts.forget(now):
            if key[0] == "device":
                for table_key in [k for k in self._tables if k[0] == key[1]]:
                    del self._tables[table_key]
