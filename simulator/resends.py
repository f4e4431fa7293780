"""A simulated terminal's resends: what it sends again later, and after which pause. A
message the hub could not take now (BUSY), refused for its epoch or as a replay, or one a
"log on first" sent back, goes again after the retransmission pause, doubling per message
up to its cap (docs/protocol.md §3); a reboot forgets every plan.

``Resends`` belongs to the simulator's asyncio loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from drivers.protocol.link import MAX_RTO, RTO
from drivers.protocol.messages import Message


class Resends:
    """The resends one terminal has planned, with the refusals of each message so far."""

    def __init__(self, send: Callable[[Message], None]) -> None:
        self.send = send
        self._tries: dict[Message, int] = {}  # refusals so far, per message
        self._planned: set[asyncio.TimerHandle] = set()

    def later(self, delay: float, message: Message) -> None:
        """Send ``message`` after ``delay`` seconds, unless the terminal reboots first."""

        def fire() -> None:
            self._planned.discard(handle)
            self.send(message)

        handle = asyncio.get_running_loop().call_later(delay, fire)
        self._planned.add(handle)

    def backoff(self, message: Message) -> None:
        """Send ``message`` again after the pause its refusals so far call for: 250 ms,
        doubling with each, up to 2 s."""
        tries = self._tries[message] = self._tries.get(message, 0) + 1
        self.later(min(RTO * 2 ** (tries - 1), MAX_RTO), message)

    def taken(self, message: Message) -> None:
        """The hub answered ``message``: its count starts again."""
        self._tries.pop(message, None)

    def forget(self) -> None:
        """A reboot or a stop: nothing planned goes, the counts start again."""
        for handle in self._planned:
            handle.cancel()
        self._planned.clear()
        self._tries.clear()
