"""A running hub for the table tests (issue [TRUST], "Tables"): the whole hub
(``HubService``, a real SQLite store) behind a recording terminal port, so every answer is
the one a terminal would get; the hub's clock injected.

``EVENT``: a 3-table Howell, two boards a round, no verification at the table; ``PIN``: the
director's PIN; ``run_room`` plays a scenario in the room (``Room``)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from event_text import one_section_event
from hub_stub import wait_until

from hub.live.port import terminal_port as tp
from hub.live.service.hub_service import HubService
from hub.store.store import Store

PIN = "td-pin-8chars"
EVENT = one_section_event("Trust", 'kind = "howell", tables = 3, boards_per_round = 2').replace(
    "[[sessions]]", '[rules.display]\nverification = "none"\n[[sessions]]'
)


class RecordingPort:
    """A terminal port that records what the hub answers and sends (one per test), called
    on the hub's loop."""

    def __init__(self, name: str = "line") -> None:
        self.name = name
        self.inbound: asyncio.Queue[tp.Inbound] = asyncio.Queue()
        self.answers: dict[int, tp.Verdict] = {}
        self.sent: list[tuple[int, str, Any]] = []
        self.driver = SimpleNamespace(begin_epoch=lambda epoch: None)  # as a station has

    def tasks(self) -> dict[str, Callable[[], Awaitable[None]]]:
        return {}

    async def stop(self) -> None:
        return None

    def answer(self, request: tp.Request, verdict: tp.Verdict) -> None:
        assert isinstance(request.token, int)
        self.answers[request.token] = verdict

    def assign(self, address: int, assignment: tp.TableAssignment) -> None:
        self.sent.append((address, "assignment", assignment))

    def show_result(self, address: int, view: Any) -> None:
        self.sent.append((address, "result_view", view))

    def show_hand(self, address: int, view: tp.HandView) -> None:
        self.sent.append((address, "hand", view))

    def message(self, address: int, text: str, beep: bool) -> None:
        self.sent.append((address, "message", text))

    def ranking(self, address: int, page: tp.RankingView) -> None:
        self.sent.append((address, "ranking", page))

    def clock(self, address: int, clock: tp.ClockView) -> None:
        pass

    def player_name(self, address: int, view: tp.PlayerNameView) -> None:
        self.sent.append((address, "player_name", view))

    def status(self) -> dict[str, Any]:
        return {}

    def __getattr__(self, name: str) -> Callable[..., None]:
        """Any other view the port carries (added by other parts): recorded by name."""
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda address, *view: self.sent.append((address, name, view))

    def assignments(self, address: int) -> int:
        return sum(1 for a, what, _ in self.sent if a == address and what == "assignment")


class Room:
    """The hub and a recording port; ``say`` is a terminal's request, answered (on the
    hub's loop). ``now``: the hub's clock, a test moves it."""

    def __init__(self, hub: HubService, port: RecordingPort, clock: list[float]) -> None:
        self.hub, self.port, self.now = hub, port, clock
        self._token = 0

    async def say(self, make: Callable[..., tp.Request], *args: Any, **kw: Any) -> tp.Verdict:
        self._token += 1
        token = self._token
        address, session, *rest = args
        req = make(tp.TerminalRef("line", address), token, *rest, session=session, **kw)
        self.port.inbound.put_nowait(req)
        await wait_until(lambda: token in self.port.answers, 10, f"the answer to {req}")
        return self.port.answers[token]

    async def logon(self, address: int, serial: str, table: int, pin: str = "", session=1):
        return await self.say(tp.LogonRequest, address, session, serial, "A", table, pin)

    async def result(self, address: int, table: int, board: int, revision: int = 1, session=1):
        row = self.row(table)
        return await self.say(
            tp.ResultSubmission,
            address,
            session,
            "A",
            table,
            1,
            board,
            row.ns_pair,
            row.ew_pair,
            "4S",
            "N",
            "",
            10 if revision == 1 else 9,
            revision,
        )

    async def erase(self, address: int, table: int, board: int, rnd: int = 1, revision: int = 0):
        return await self.say(tp.EraseRequest, address, 1, "A", table, rnd, board, revision)

    def row(self, table: int, rnd: int = 1):
        return self.hub.sections["A"].movement.row("A", table, rnd)

    async def audit(self, action: str) -> list[dict[str, Any]]:
        """The audit rows written so far (what the audit trail queued is written first;
        tallied minutes still counting are not)."""
        await self.hub.audit.flush(final=False)
        return self.hub.store.audit_log(self.hub.event_id, action)

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.hub.feed.since(0) or [] if e["event"] == kind]


def run_room(
    tmp_path: Path, scenario: Callable[[Room], Awaitable[None]], event: str = EVENT
) -> None:
    """``scenario`` played in a hub on a new SQLite store of ``event`` (the director's PIN
    ``PIN``); the hub stopped and the store closed after it, whatever happened."""

    async def main() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(event)
        now = [1_000_000.0]
        hub = HubService(store, eid, [], clock=lambda: now[0], td_pin=PIN)
        port = RecordingPort()
        hub.ports = [port]  # type: ignore[list-item]
        await hub.start()
        try:
            await scenario(Room(hub, port, now))
        finally:
            await hub.stop()
            store.close()

    asyncio.run(main())
