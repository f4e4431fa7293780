"""Stand-ins for the hub. ``HubStub``: the hub's intake, used by the wire tests (issue
[HUB]): it answers log-ons with an assignment and stores each result once, keyed like the
store's submission key (terminal serial, section, table, round, board, revision); the
line, the driver and the devices are real. ``ScriptedHub``: the hub's API (docs/api.md)
with a scripted room, for the console and result-screen clients; the server and its feed
are real."""

from __future__ import annotations

import asyncio
import contextlib
import copy
from fractions import Fraction
from typing import Any

from drivers.base_station import BaseStationDriver, LineDown, LineUp
from drivers.protocol.link import Received
from drivers.protocol.messages import (
    Assignment,
    Hello,
    Logon,
    Outcome,
    Result,
    TerminalJoined,
)
from hub.api.feed import Feed
from hub.api.server import ApiServer
from scoring.numbers import display


class HubStub:
    def __init__(self, driver: BaseStationDriver, boards: tuple[int, ...] = (1, 2, 3)) -> None:
        self.driver = driver
        self.boards = boards
        self.serials: dict[int, str] = {}
        self.results: dict[tuple, Result] = {}
        self.duplicates = 0
        self.line_events: list[LineUp | LineDown] = []
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.serve())

    async def stop(self) -> None:
        if self.task:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def serve(self) -> None:
        while True:
            ev = await self.driver.events.get()
            if isinstance(ev, LineUp | LineDown):
                self.line_events.append(ev)
                continue
            if not isinstance(ev, Received):
                continue
            m = ev.message
            if isinstance(m, Hello):
                self.serials[ev.terminal] = m.serial
            if isinstance(m, TerminalJoined):  # the station's message names the address
                self.serials[m.address] = m.serial
            if isinstance(m, Logon):
                self.driver.ack(ev)
                self.driver.send(
                    ev.terminal,
                    Assignment(m.section, m.table, 1, m.table, m.table + 100, self.boards),
                )
                continue
            if isinstance(m, Result):
                key = (
                    self.serials.get(ev.terminal),
                    m.section,
                    m.table,
                    m.round,
                    m.board,
                    m.revision,
                )
                if key in self.results:
                    self.duplicates += 1
                    self.driver.ack(ev, Outcome.DUPLICATE)
                else:
                    self.results[key] = m
                    self.driver.ack(ev, Outcome.ACCEPTED)
                continue
            if m.NEEDS_ACK:
                self.driver.ack(ev)


async def wait_until(condition, timeout: float, what: str, step: float = 0.01) -> None:
    """A bounded wait with a clear failure message (no timing luck)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        if loop.time() > end:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(step)


# --- A scripted hub API (docs/api.md) for the console and result-screen tests ----------


def pairs_row(
    pair: int,
    rank: str,
    total: Fraction,
    *,
    boards: int,
    points: Fraction | None = None,
    top: int | None = None,
    imps: bool = False,
    direction: str | None = None,
    name: str = "",
    previous_rank: str | None = None,
) -> dict[str, Any]:
    """A pairs standings row as the hub sends it: ``total`` exact (percent at MP, IMPs
    with ``imps``), ``text`` its display (two decimals, signed at IMPs); at MP ``points``
    default to ``total`` percent of ``top`` (default two matchpoints a board)."""
    if imps:
        top, points = None, total if points is None else points
    else:
        top = 2 * boards if top is None else top
        points = total * top / 100 if points is None else points
    text = display(total, 2)
    return {
        "pair": pair,
        "direction": direction,
        "name": name,
        "rank": rank,
        "boards": boards,
        "total": str(total),
        "text": f"+{text}" if imps and total >= 0 else text,
        "points": str(points),
        "top": top,
        "previous_rank": previous_rank,
    }


def teams_row(
    team: int,
    rank: str,
    vp: Fraction,
    *,
    matches: int,
    boards: int,
    imps: Fraction,
    name: str = "",
    previous_rank: str | None = None,
) -> dict[str, Any]:
    """A teams standings row as the hub sends it (VP exact, net IMPs exact)."""
    return {
        "team": team,
        "pair": team,
        "direction": None,
        "name": name,
        "rank": rank,
        "matches": matches,
        "boards": boards,
        "total": str(vp),
        "text": display(vp, 2),
        "imps": str(imps),
        "previous_rank": previous_rank,
    }


def section_state(
    round_: int,
    rounds: int,
    *,
    unit: str = "%",
    kind: str = "pairs",
    clock: dict[str, Any] | None = None,
    tables: list[dict[str, Any]] | None = None,
    standings: list[dict[str, Any]] | None = None,
    published_round: int = 0,
    published_rows: list[dict[str, Any]] | None = None,
    provisional: list[int] | None = None,
    released_by: str | None = None,
) -> dict[str, Any]:
    """One section of the hub's snapshot: live ``standings`` and, apart, what was last
    ``published`` (round 0: nothing yet)."""
    return {
        "round": round_,
        "rounds": rounds,
        "predicted_finish": None,
        "clock": clock,
        "tables": tables or [],
        "standings": standings or [],
        "unit": unit,
        "kind": kind,
        "published": {
            "round": published_round,
            "provisional": provisional or [],
            "released_by": released_by,
            "rows": published_rows or [],
        },
    }


class ScriptedHub:
    """The hub's API with a scripted room: the real ``ApiServer`` and ``Feed`` (hello,
    snapshot, numbered events, resume), serving ``state`` as the snapshot. The test plays
    the hub: it publishes events (which also update ``state``, so a fresh snapshot agrees)
    and can restart the server to drop every client. Runs on the test's asyncio loop."""

    def __init__(self, state: dict[str, Any], pin: str = "scripted-pin") -> None:
        self.state = state
        self.feed = Feed()
        self.snapshots = 0  # how many snapshots clients were sent
        self.commands: list[tuple[str, dict[str, Any]]] = []
        self.server = ApiServer(self.feed, self._snapshot, self._dispatch, pin, port=0)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.server.port}/v1"

    async def start(self) -> None:
        await self.server.start()

    async def stop(self) -> None:
        await self.server.stop()

    async def _snapshot(self) -> dict[str, Any]:
        self.snapshots += 1
        return copy.deepcopy(self.state)

    async def _dispatch(self, name: str, args: dict[str, Any], actor: str) -> dict[str, Any]:
        self.commands.append((name, args))
        return {}

    def publish_standings(
        self,
        section: str,
        rnd: int,
        rows: list[dict[str, Any]],
        provisional: list[int] | None = None,
        released_by: str | None = None,
    ) -> None:
        """A round's standings published (decisions D12)."""
        pub = {
            "round": rnd,
            "provisional": provisional or [],
            "released_by": released_by,
            "rows": rows,
        }
        self.state["sections"][section]["published"] = copy.deepcopy(pub)
        self.feed.publish("standings", section=section, **pub)

    def tick(self, section: str, rnd: int, phase: str, seconds_left: float) -> None:
        """The round clock, as the hub sends it about once a second."""
        self.state["sections"][section]["clock"] = {"phase": phase, "seconds_left": seconds_left}
        self.feed.publish(
            "clock", section=section, round=rnd, phase=phase, seconds_left=seconds_left
        )
