"""A running hub with four team tables for the tests (issue 16 [TEAMS] "Team matches in the
running hub"): the whole hub behind a recording terminal port (as in
tests/trust_room.py), each table's terminal entering its own results.

Four teams, two boards a round; round 1: team 1 (Lions) v team 4 (Foxes) at tables 1
(open room, Lions NS) and 2 (closed room, Lions EW); team 2 (Bears) v team 3 (Owls) at
tables 3 and 4. ``LIONS_FOXES`` and ``BEARS_OWLS``: round 1's results, worked by hand."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from hub_stub import wait_until

from hub.live.port import terminal_port as tp
from hub.live.service.hub_service import HubService
from hub.store.store import Store

NAMES = {1: "Lions", 2: "Bears", 3: "Owls", 4: "Foxes"}


def event(display: str = "") -> str:
    """The four teams' event, no verification at the table; ``display`` more lines of
    ``[rules.display]`` (hidden travellers, hidden rankings...)."""
    teams = ", ".join(f'{{ number = {n}, name = "{name}" }}' for n, name in NAMES.items())
    return f"""schema_version = 1
[event]
name = "Four teams"
[rules]
scoring = "teams"
[rules.display]
verification = "none"
{display}
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = {{ kind = "teams", teams = 4, boards_per_round = 2 }}
teams = [{teams}]
"""


# (table, board, contract, declarer, tricks): board 1 nobody vulnerable, board 2 NS
LIONS_FOXES = [
    (1, 1, "4S", "N", 10),  # open room, Lions NS: +420
    (2, 1, "4S", "N", 9),  # closed room, Foxes NS: -50; Lions +470: 10 IMPs (430-490)
    (1, 2, "3NT", "S", 9),  # +600 vulnerable
    (2, 2, "3NT", "S", 9),  # +600: a push; Lions win 10-0 over 2 boards
]
BEARS_OWLS = [
    (3, 1, "1NT", "N", 8),  # open room, Bears NS: +120
    (4, 1, "2H", "E", 8),  # closed room, Owls EW: NS -110; Bears +230: 6 IMPs (220-260)
    (3, 2, "4H", "N", 10),  # +620 vulnerable
    (4, 2, "4H", "N", 10),  # a push; Bears win 6-0 over 2 boards
]


class RecordingPort:
    """A terminal port that records what the hub answers and sends, MATCH_SCORE too."""

    name = "line"

    def __init__(self) -> None:
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

    def show_result(self, address: int, view: Any) -> None:
        self.sent.append((address, "result_view", view))

    def match_score(self, address: int, view: tp.MatchScoreView) -> None:
        self.sent.append((address, "match_score", view))

    def ranking(self, address: int, page: tp.RankingView) -> None:
        self.sent.append((address, "ranking", page))

    def status(self) -> dict[str, Any]:
        return {}

    def __getattr__(self, name: str) -> Callable[..., None]:
        """Every other view (assignment, clock, settings...): recorded by name."""
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda address, *view: self.sent.append((address, name, view))

    def got(self, address: int, what: str) -> list[Any]:
        return [v for a, w, v in self.sent if a == address and w == what]


class Room:
    """The room as its terminals see it, on the hub's loop: each says what a table's
    terminal sends and waits for the hub's answer."""

    def __init__(self, hub: HubService, port: RecordingPort) -> None:
        self.hub, self.port = hub, port
        self._token = 0

    async def say(self, make: Callable[..., tp.Request], address: int, *rest: Any) -> tp.Verdict:
        self._token += 1
        token = self._token
        self.port.inbound.put_nowait(make(tp.TerminalRef("line", address), token, *rest, session=1))
        await wait_until(lambda: token in self.port.answers, 10, f"the answer to {token}")
        return self.port.answers[token]

    async def seat_all(self) -> None:
        for table in (1, 2, 3, 4):  # the terminal at address N sits at table N
            verdict = await self.say(tp.LogonRequest, table, f"T{table}", "A", table, "")
            assert verdict.outcome is tp.Outcome.OK, verdict

    async def play(self, table: int, board: int, contract: str, declarer: str, tricks: int):
        row = self.hub.sections["A"].movement.row("A", table, 1)
        assert row is not None
        verdict = await self.say(
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
        )
        assert verdict.outcome is tp.Outcome.ACCEPTED, verdict
        await asyncio.sleep(0.05)  # what follows the answer on the loop

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.hub.feed.since(0) or [] if e["event"] == kind]


def run_room(
    tmp_path: Path, scenario: Callable[[Room], Awaitable[None]], display: str = ""
) -> None:
    """``scenario`` played in a hub on a new SQLite store of ``event(display)``, every table
    seated; the hub stopped and the store closed after it, whatever happened."""

    async def main() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(event(display))
        hub = HubService(store, eid, [], clock=lambda: 1_000_000.0)
        port = RecordingPort()
        hub.ports = [port]  # type: ignore[list-item]
        await hub.start()
        try:
            room = Room(hub, port)
            await room.seat_all()
            await scenario(room)
        finally:
            await hub.stop()
            store.close()

    asyncio.run(main())
