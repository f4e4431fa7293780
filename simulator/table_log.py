"""What a simulated table kept and showed, for tests and the simulator's report: the log of a
hardware terminal (``TerminalLog``) and of a browser terminal (``WebLog``), and the words
both show when a pair is told where it plays next (docs/protocol.md §4)."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from drivers.protocol.messages import Message, NakCode, Result

Json = dict[str, Any]
FRAMES_KEPT = 8


@dataclass
class TerminalLog:
    """What happened at a hardware terminal's table."""

    shown: list[str] = field(default_factory=list)
    accepted: list[Result] = field(default_factory=list)
    held: list[Result] = field(default_factory=list)
    refused: list[tuple[Message, NakCode | int, str]] = field(default_factory=list)
    received: list[Message] = field(default_factory=list)
    gave_up: int = 0
    reboots: int = 0
    last_ack: float | None = None  # station clock time of the latest ACK of a result
    # results acknowledged, by the epoch of the hub's last HELLO then (a hub restarted has a
    # new one: an ACK under it came from the new hub, not one left on the line by the old)
    acks_by_hub_epoch: dict[int | None, int] = field(default_factory=dict)
    ack_s: list[float] = field(default_factory=list)  # result sent → ACK
    view_s: list[float] = field(default_factory=list)  # result sent → rescored traveller
    # the last messages both ways, for a table that stalls ([LIVENESS]): "HH:MM:SS → …"
    frames: deque[str] = field(default_factory=lambda: deque(maxlen=FRAMES_KEPT))

    def frame(self, direction: str, what: object) -> None:
        """One message sent (``→``) or answered and received (``←``), with the time."""
        self.frames.append(f"{time.strftime('%H:%M:%S')} {direction} {what}")


@dataclass
class WebLog:
    """What happened at a browser terminal's table, as ``TerminalLog`` keeps it: the
    results the hub stored (as sent, the JSON ``result``), those held for the director,
    every refusal (request, reason, text) and every text the page showed."""

    shown: list[str] = field(default_factory=list)
    accepted: list[Json] = field(default_factory=list)
    held: list[Json] = field(default_factory=list)
    refused: list[tuple[Json, str, str]] = field(default_factory=list)
    received: list[Json] = field(default_factory=list)
    duplicates: int = 0  # results answered "duplicate" (sent again after a reconnect)
    busy: int = 0  # "busy" answers (each followed by a resend)
    connections: int = 0  # WebSocket connections that got a welcome
    resent: int = 0  # requests kept (unanswered, or entered offline) sent on a log-on


def seating_text(
    pair: object, rnd: int, table: int, ns: bool, opponents: object, rounds: int | None
) -> str:
    """Where a pair goes: table 0 after the last round ends the session; table 0 before
    it, the pair sits out."""
    if table == 0 and rounds is not None and rnd > rounds:
        return f"pair {pair}: the session is over"
    if table == 0:
        return f"pair {pair}: sits out round {rnd}"
    return f"pair {pair}: round {rnd} at table {table} {'NS' if ns else 'EW'} against {opponents}"
