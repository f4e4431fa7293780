"""A room that stopped (issue [LIVENESS]): no result confirmed for a minute while tables
still have boards to play. The campaign says so at once instead of waiting for its hour:
each waiting table with its last messages both ways (as the simulated terminal kept them)
and what the hub thinks of it (its snapshot's table and its devices read's terminal), then
it ends, the tables counted under the "stuck" invariant."""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass
from typing import Any

from simulator.terminal import VirtualTerminal

STALL_S = 60.0  # no result confirmed for this long, boards still to play: the room stalled
ASK_S = 10.0  # how long the hub may take to say what it thinks


@dataclass
class StallWatch:
    """When the last result was confirmed; ``stalled`` once nothing came for ``after_s``."""

    after_s: float = STALL_S
    confirmed: int = 0
    since: float = 0.0

    def stalled(self, confirmed: int, target: int, now: float) -> bool:
        if confirmed != self.confirmed or confirmed >= target:
            self.confirmed, self.since = confirmed, now
            return False
        return now - self.since >= self.after_s


def waiting(terminals: list[VirtualTerminal], rounds: int, boards: int) -> list[VirtualTerminal]:
    """The terminals whose tables still have boards to play."""
    return [
        t
        for t in terminals
        if len({(r.round, r.board) for r in (*t.log.accepted, *t.log.held)}) < rounds * boards
    ]


async def hub_view(api_url: str, pin: str) -> dict[str, Any]:
    """The hub's snapshot and devices read, over its API (one connection, logged in);
    empty parts when the hub does not answer within ``ASK_S``."""
    from websockets.asyncio.client import connect

    view: dict[str, Any] = {"snapshot": {}, "devices": {}}
    with contextlib.suppress(Exception):
        async with asyncio.timeout(ASK_S), connect(api_url, max_size=2**26) as ws:
            await ws.send(json.dumps({"type": "hello", "version": 1}))
            await ws.send(json.dumps({"type": "login", "pin": pin, "name": "campaign", "id": "in"}))
            async for raw in ws:
                msg = json.loads(raw)
                if msg.get("type") == "snapshot":
                    view["snapshot"] = msg.get("state") or {}
                elif msg.get("type") == "session":
                    ask = {"name": "devices", "args": {}, "token": msg["token"]}
                    await ws.send(json.dumps({"type": "command", "id": "devices", **ask}))
                elif msg.get("type") == "reply" and msg.get("id") == "devices":
                    view["devices"] = msg
                if view["snapshot"] and view["devices"]:
                    break
    return view


def describe(t: VirtualTerminal, view: dict[str, Any], boards: int) -> list[str]:
    """A waiting table: what the terminal holds, its last messages, what the hub thinks."""
    a = t.assignment
    rnd = a.round if a is not None else 0
    done = {(r.round, r.board) for r in (*t.log.accepted, *t.log.held)}
    now = sum(1 for r, _ in done if r == rnd)
    lines = [
        f"{t.section}{t.table} ({t.serial}): round {rnd}, {now}/{boards} boards of the round "
        f"confirmed, {len(t.unacked)} unacknowledged, {len(t.unverified)} verifications "
        f"unanswered, {t.log.reboots} reboots, {t.log.gave_up} given up"
    ]
    lines += [f"    {f}" for f in t.log.frames]
    section = (view.get("snapshot", {}).get("sections") or {}).get(t.section) or {}
    table = next((x for x in section.get("tables") or [] if x.get("table") == t.table), None)
    if table is None:
        lines.append(f"    hub: section round {section.get('round')}, the table not in it")
    else:
        lines.append(
            f"    hub: round {section.get('round')}, done {table.get('done')}/"
            f"{len(table.get('boards') or [])}, unverified {table.get('unverified')}, online "
            f"{table.get('online')}, waiting for {table.get('silent') or 'nothing said'}"
        )
    seats = [
        d
        for d in view.get("devices", {}).get("terminals") or []
        if d.get("serial") == t.serial or (d.get("section"), d.get("table")) == (t.section, t.table)
    ]
    for d in seats:
        lines.append(
            f"    hub's terminal: station {d.get('station')} address {d.get('address')} "
            f"{d.get('serial')} at {d.get('section')}{d.get('table')}, online "
            f"{d.get('online')}, last heard {d.get('seconds_ago')} s ago"
        )
    return lines
