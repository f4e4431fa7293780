"""The room of the results tests (issue [TRUST]; decisions D9, D10, D12, D21): the whole hub
(``HubService``, a real SQLite store) behind a terminal port that records its answers, so
every answer is the one a terminal would get. ``EVENT``: a 3-table Howell, two boards a
round, no verification at the table; ``open_room`` starts the hub, ``Room`` speaks for the
tables and the director."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from event_text import one_section_event
from hub_stub import wait_until

from hub.live.port import terminal_port as tp
from hub.live.service.hub_service import HubService
from hub.store.store import Store

EVENT = one_section_event("Stuck", 'kind = "howell", tables = 3, boards_per_round = 2').replace(
    "[[sessions]]", '[rules.display]\nverification = "none"\n[[sessions]]'
)


class Port:
    """A terminal port that records the hub's answers (by request token), called on the
    hub's loop."""

    def __init__(self) -> None:
        self.name = "line"
        self.inbound: asyncio.Queue[tp.Inbound] = asyncio.Queue()
        self.answers: dict[int, tp.Verdict] = {}

    def tasks(self) -> dict[str, Callable[[], Awaitable[None]]]:
        return {}

    async def stop(self) -> None:
        return None

    def answer(self, request: tp.Request, verdict: tp.Verdict) -> None:
        assert isinstance(request.token, int)
        self.answers[request.token] = verdict

    def status(self) -> dict[str, Any]:
        return {}

    def __getattr__(self, name: str) -> Callable[..., None]:
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda *args: None  # views to the tables: not what these tests check


class Room:
    """The room as its terminals and the director see it, on the hub's loop: ``say`` is a
    terminal's request, answered; ``td`` a director's command."""

    def __init__(self, hub: HubService, port: Port) -> None:
        self.hub, self.port, self.token = hub, port, 0

    async def say(self, make: Callable[..., tp.Request], address: int, *rest: Any) -> tp.Verdict:
        self.token += 1
        token = self.token
        self.port.inbound.put_nowait(make(tp.TerminalRef("line", address), token, *rest))
        await wait_until(lambda: token in self.port.answers, 10, f"the answer to {token}")
        return self.port.answers[token]

    def row(self, table: int, rnd: int = 1):
        row = self.hub.sections["A"].movement.row("A", table, rnd)
        assert row is not None
        return row

    async def seat(self, table: int) -> None:
        verdict = await self.say(tp.LogonRequest, table, f"BM-{table}", "A", table)
        assert verdict.outcome is tp.Outcome.OK, verdict

    async def result(self, table: int, board: int, no_play: bool = False) -> tp.Verdict:
        row = self.row(table)
        contract, declarer, tricks = ("", None, None) if no_play else ("3NT", "S", 9)
        return await self.say(
            tp.ResultSubmission,
            table,
            "A",
            table,
            1,
            board,
            row.ns_pair,
            row.ew_pair,
            contract,
            declarer,
            "",
            tricks,
            1,
            no_play,
        )

    async def td(self, name: str, **args: Any) -> dict[str, Any]:
        return await self.hub.commands.dispatch(name, args, "TD Anna")

    def tables(self) -> dict[int, int]:
        return {t["table"]: t["done"] for t in self.hub.rounds.tables("A")}

    def events(self, name: str) -> list[dict[str, Any]]:
        return [e for e in self.hub.feed.since(0) or [] if e["event"] == name]


async def open_room(store: Store, eid: int, auto_advance: bool) -> Room:
    """The hub started on ``store``'s event (its clock injected), the port serving its
    requests."""
    now = [1_900_000_000.0]
    hub = HubService(store, eid, [], clock=lambda: now[0], auto_advance=auto_advance)
    port = Port()
    await hub.start()
    hub.gateway.ports[port.name] = port  # type: ignore[assignment]
    hub.supervisor.spawn("test port requests", partial(hub.requests.serve, port))  # type: ignore[arg-type]
    return Room(hub, port)
