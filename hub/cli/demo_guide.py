"""What ``bridgehub demo`` tells the TD (TD trial G13, issue [MENDS] #25): how long it runs,
its guide where the TD looks (the console's log and a notice over its first screen), a
question before ``q`` ends everything, and a closing message that says "final" only when
the session is final (it asks the hub)."""

from __future__ import annotations

import asyncio
import json
import math
import sys
from dataclasses import dataclass

import click
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

# the demo's guide: what the simulated room does wrong now and then, and the console key
# that settles it
KEYS = (
    "round 1's clock waits for the director: press g to start it (the room is seated)",
    "TD call: press c, then Enter on the call (in progress, then resolved)",
    "held result (a board number keyed wrong): press c, then Enter on it to accept or re-key",
    "suspicious score (declarer keyed on the wrong side): press c, then Enter on it",
    "slow table: press w (minutes behind, proposed penalties: Enter confirms or waives)",
)

# the simulated players' pace, minutes a board (simulator/cli.py): a slow table plays
# 9.5, the others 7; the room moves on when its slowest table is done
PACE_MINUTES = 7.0
SLOW_PACE_MINUTES = 9.5


def demo_minutes(rounds: int, boards_per_round: int, speed: float, slow_table: bool) -> float:
    """How long the demo's session runs, in minutes: every round at the slowest table's
    pace, ``speed`` times faster than a real room."""
    pace = SLOW_PACE_MINUTES if slow_table else PACE_MINUTES
    return rounds * boards_per_round * pace / speed


def duration_text(minutes: float) -> str:
    """``about 41 minutes``, ``about 2 hours 5 minutes``, ``under a minute``."""
    if minutes < 1:
        return "under a minute"
    whole = math.ceil(minutes)
    if whole < 60:
        return f"about {whole} minute{'s' * (whole != 1)}"
    hours, rest = divmod(whole, 60)
    return f"about {hours} hour{'s' * (hours != 1)}" + (f" {rest} minutes" if rest else "")


@dataclass(frozen=True, slots=True)
class SessionState:
    """How far the demo's session got, as the hub's snapshot says."""

    final: bool
    published_round: int  # the last round whose standings were published (0: none)
    rounds: int


async def session_state(url: str, timeout: float = 5.0) -> SessionState | None:
    """The hub's first snapshot, read (no PIN: the feed on the hub's machine); None when
    the hub cannot be reached or sends none in ``timeout`` seconds."""
    try:
        async with asyncio.timeout(timeout), connect(url) as ws:
            await ws.send(json.dumps({"type": "hello", "version": 1}))
            async for raw in ws:
                msg = json.loads(raw)
                if msg.get("type") != "snapshot":
                    continue
                sections = (msg.get("state") or {}).get("sections") or {}
                if not sections:
                    return None
                return SessionState(
                    all(bool(s.get("final")) for s in sections.values()),
                    min(
                        int((s.get("published") or {}).get("round") or 0) for s in sections.values()
                    ),
                    max(int(s.get("rounds") or 0) for s in sections.values()),
                )
    except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake, InvalidURI, ValueError):
        return None
    return None


def closing_text(state: SessionState | None, standings: str, folder: str) -> str:
    """The demo's last words: "final" only for a final session; else how far it got and
    how to go on."""
    if state is not None and state.final:
        return f"session complete: final standings stored in the database ({standings})"
    go_on = f"to play on, run the demo again with --dir {folder}"
    if state is None:
        return (
            "the hub did not say how far the session got, so it may not be final: the "
            f"standings so far are in the database ({standings}); {go_on}"
        )
    got = (
        f"after round {state.published_round} of {state.rounds}"
        if state.published_round
        else "before any round's standings"
    )
    return (
        f"the demo was ended {got}: the session is not final. The standings so far are in "
        f"the database ({standings}); {go_on}"
    )


def interactive() -> bool:
    """Is there a TD at a terminal to ask?"""
    return sys.stdin.isatty()


def reopen_console() -> bool:
    """After the console closes (its `q`), ask before the demo ends: True when the TD wants
    the console again, False to end (the hub and the room stop).
    Without a terminal to ask on, the demo ends."""
    if not interactive():
        return False
    try:
        end = click.confirm(
            "End the demo? The hub and the simulated room stop (n opens the console again)",
            default=True,
        )
    except click.Abort:
        return False
    return not end
