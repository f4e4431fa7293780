"""A whole hub (``HubService``, real SQLite store) behind a recording terminal port, for the
director's desk tests (issue [EVENING]): terminals' requests go in as a base station would
hand them over, the director's commands go through the API's dispatcher, and everything the
hub sends to a terminal is recorded."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import Any

from event_text import one_section_event
from hub_stub import wait_until

from hub.live.port import terminal_port as tp
from hub.live.service.hub_service import HubService
from hub.store.store import Store

# Howell, 3 tables, 2 boards a round: round 1 is T1 6 v 1, T2 5 v 2, T3 4 v 3 on boards 1-2
EVENT = one_section_event("Desk", 'kind = "howell", tables = 3, boards_per_round = 2').replace(
    "[[sessions]]", '[rules.display]\nverification = "none"\n[[sessions]]'
)
TD = "TD console"


class RecordingPort:
    """A terminal port that records what the hub answers and sends."""

    def __init__(self, name: str = "line") -> None:
        self.name = name
        self.inbound: asyncio.Queue[tp.Inbound] = asyncio.Queue()
        self.answers: dict[int, tp.Verdict] = {}
        self.sent: list[tuple[int, str, Any]] = []
        self.driver = SimpleNamespace(begin_epoch=lambda epoch: None)

    def tasks(self) -> dict[str, Callable[[], Awaitable[None]]]:
        return {}

    async def stop(self) -> None:
        return None

    def answer(self, request: tp.Request, verdict: tp.Verdict) -> None:
        assert isinstance(request.token, int)
        self.answers[request.token] = verdict

    def message(self, address: int, text: str, beep: bool) -> None:
        self.sent.append((address, "message", text))

    def status(self) -> dict[str, Any]:
        return {}

    def __getattr__(self, name: str) -> Callable[..., None]:
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda address, *view: self.sent.append((address, name, view))

    def messages(self, address: int) -> list[str]:
        return [text for a, what, text in self.sent if a == address and what == "message"]


class DeskRoom:
    """The hub, a recording port, and the director at the desk."""

    def __init__(self, hub: HubService, port: RecordingPort) -> None:
        self.hub, self.port = hub, port
        self._token = 0

    async def say(self, make: Callable[..., tp.Request], address: int, *rest: Any) -> tp.Verdict:
        self._token += 1
        token = self._token
        req = make(tp.TerminalRef("line", address), token, *rest, session=1)
        self.port.inbound.put_nowait(req)
        await wait_until(lambda: token in self.port.answers, 10, f"the answer to {req}")
        return self.port.answers[token]

    async def logon(self, address: int, serial: str, table: int) -> tp.Verdict:
        return await self.say(tp.LogonRequest, address, serial, "A", table, "")

    async def send(
        self,
        address: int,
        table: int,
        board: int,
        contract: str,
        declarer: str,
        tricks: int,
        lead: str = "",
        revision: int = 1,
        rnd: int = 1,
        pairs: tuple[int, int] | None = None,
    ) -> tp.Verdict:
        """A terminal's result (the movement's pairs unless ``pairs`` says otherwise)."""
        row = self.hub.sections["A"].movement.row("A", table, rnd)
        assert row is not None
        ns, ew = pairs or (row.ns_pair, row.ew_pair)
        return await self.say(
            tp.ResultSubmission,
            address,
            "A",
            table,
            rnd,
            board,
            ns,
            ew,
            contract,
            declarer,
            lead,
            tricks,
            revision,
        )

    async def td(self, name: str, **args: Any) -> dict[str, Any]:
        return await self.hub.commands.dispatch(name, args, TD)

    async def snapshot(self) -> dict[str, Any]:
        return await self.hub.snapshots.build()


def run_desk(tmp_path: Any, scenario: Callable[[DeskRoom], Awaitable[None]]) -> None:
    async def main() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        now = [1_000_000.0]
        hub = HubService(store, eid, [], clock=lambda: now[0], auto_advance=False)
        port = RecordingPort()
        hub.ports = [port]  # type: ignore[list-item]
        await hub.start()
        try:
            await scenario(DeskRoom(hub, port))
        finally:
            await hub.stop()
            store.close()

    asyncio.run(main())
