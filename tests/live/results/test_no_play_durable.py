"""A terminal's NO PLAY (a board not played at the table) is durable (issue [TRUST]):
decisions D11 (the terminal is answered only after the commit that holds what it said) and
D21 (nothing a terminal was told is stored is ever discarded). The store holds the NO PLAY
at the moment of the answer; the terminal's resend is not recorded twice; a hub started
again on the same store raises the director's alert again, and the board still finishes
once the director assigns a score (a NO PLAY never finishes a board by itself). Once the
board has its score, a further restart raises no alert for it.

The hub runs whole (``HubService``, real SQLite store) behind a terminal port that records
its answers; what the store holds is read through a store opened afresh (its own engine),
as another process would see it. The hub's clock is injected."""

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

EVENT = one_section_event("NoPlay", 'kind = "howell", tables = 3, boards_per_round = 2').replace(
    "[[sessions]]", '[rules.display]\nverification = "none"\n[[sessions]]'
)
NOW = 1_900_000_000.0


def no_plays_on_disk(url: str, eid: int) -> list[tuple[str, int, int, int]]:
    """The NO PLAYs a fresh store (its own engine) reads: (section, table, round, board)."""
    store = Store.open(url)
    try:
        rows = store.audit_log(eid, "no_play")
    finally:
        store.close()
    return [
        (d.get("section"), d.get("table"), d.get("round"), d.get("board"))
        for d in (r["detail"] for r in rows)
    ]


class Port:
    """A terminal port that records the hub's answers and, for a NO PLAY, what the store
    holds at the very moment the answer goes out (the hub's loop runs it)."""

    def __init__(self, url: str, eid: int) -> None:
        self.name = "line"
        self.url, self.eid = url, eid
        self.inbound: asyncio.Queue[tp.Inbound] = asyncio.Queue()
        self.answers: dict[int, tp.Verdict] = {}
        self.on_disk: dict[int, list[tuple[str, int, int, int]]] = {}

    def tasks(self) -> dict[str, Callable[[], Awaitable[None]]]:
        return {}

    async def stop(self) -> None:
        return None

    def answer(self, request: tp.Request, verdict: tp.Verdict) -> None:
        assert isinstance(request.token, int)
        if isinstance(request, tp.ResultSubmission) and request.no_play:
            self.on_disk[request.token] = no_plays_on_disk(self.url, self.eid)
        self.answers[request.token] = verdict

    def status(self) -> dict[str, Any]:
        return {}

    def __getattr__(self, name: str) -> Callable[..., None]:
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda *args: None  # views to the tables: not what these tests check


class Room:
    """One hub on the store at ``url``, driven as its terminals and its director would."""

    def __init__(self, url: str, eid: int) -> None:
        self.store = Store.open(url)
        self.hub = HubService(self.store, eid, [], clock=lambda: NOW, auto_advance=True)
        self.port = Port(url, eid)
        self.token = 0

    async def start(self) -> None:
        await self.hub.start()
        self.hub.gateway.ports[self.port.name] = self.port  # type: ignore[assignment]
        serve = partial(self.hub.requests.serve, self.port)  # type: ignore[arg-type]
        self.hub.supervisor.spawn("test port requests", serve)

    async def stop(self) -> None:
        await self.hub.stop()
        self.store.close()

    async def say(self, make: Callable[..., tp.Request], address: int, *rest: Any) -> int:
        self.token += 1
        token = self.token
        self.port.inbound.put_nowait(make(tp.TerminalRef("line", address), token, *rest))
        await wait_until(lambda: token in self.port.answers, 10, f"the answer to {token}")
        return token

    def row(self, table: int) -> Any:
        row = self.hub.sections["A"].movement.row("A", table, 1)
        assert row is not None
        return row

    async def seat(self, table: int) -> None:
        token = await self.say(tp.LogonRequest, table, f"BM-{table}", "A", table)
        assert self.port.answers[token].outcome is tp.Outcome.OK

    async def result(self, table: int, board: int, no_play: bool = False) -> int:
        """A board of round 1 from the table's terminal (3NT by South, 9 tricks, or NO
        PLAY); the request's token."""
        row = self.row(table)
        contract, declarer, tricks = ("", None, None) if no_play else ("3NT", "S", 9)
        return await self.say(
            tp.ResultSubmission,
            table,
            *("A", table, 1, board, row.ns_pair, row.ew_pair),
            *(contract, declarer, "", tricks, 1, no_play),
        )

    def alerts(self, text: str) -> list[dict[str, Any]]:
        events = self.hub.feed.since(0) or []
        return [e for e in events if e["event"] == "alert" and text in e["text"]]


def test_a_no_play_is_stored_before_its_answer_and_outlives_a_restart_d11_d21(tmp_path):
    """Table 1 says board X was not played: at the moment of its "accepted" the store holds
    the NO PLAY; its resend is answered "duplicate" and not recorded again. The hub stops
    and another starts on the store: the director is alerted again. Every other board is
    played; the round waits for board X until the director assigns 60/40, then completes
    with nothing unplayed. A third start raises no alert for board X."""
    url = f"sqlite:///{tmp_path / 'e.db'}"
    setup = Store.open(url)
    eid = setup.create_event(EVENT)
    setup.close()

    async def scenario() -> None:
        first = Room(url, eid)
        await first.start()
        try:
            await first.seat(1)
            played, unplayed = first.row(1).boards
            told = await first.result(1, unplayed, no_play=True)
            assert first.port.answers[told].outcome is tp.Outcome.ACCEPTED
            assert first.port.on_disk[told] == [("A", 1, 1, unplayed)], "stored before answer"
            again = await first.result(1, unplayed, no_play=True)  # the terminal's resend
            assert first.port.answers[again].outcome is tp.Outcome.DUPLICATE
            assert first.port.on_disk[again] == [("A", 1, 1, unplayed)], "recorded once"
            wanted = f"board {unplayed} not played at table A1 in round 1"
            assert len(first.alerts(wanted)) == 1
        finally:
            await first.stop()

        second = Room(url, eid)
        await second.start()
        try:
            assert len(second.alerts(wanted)) == 1, "the restarted hub forgot the NO PLAY"
            assert wanted in (await second.hub.snapshot())["alerts"]
            for t in (1, 2, 3):
                await second.seat(t)
            others = [(t, b) for t in (2, 3) for b in second.row(t).boards]
            for table, board in [(1, played), *others]:
                token = await second.result(table, board)
                assert second.port.answers[token].outcome is tp.Outcome.ACCEPTED
            controller = second.hub.rounds.controller("A")
            assert controller.finished_at(1, 1, unplayed) is None  # waits for the director
            assert second.hub.rounds.current("A") == 1
            row = second.row(1)
            await second.hub.commands.dispatch(
                "enter_result",
                {
                    "section": "A",
                    "table": 1,
                    "round": 1,
                    "board": unplayed,
                    "ns_pair": row.ns_pair,
                    "ew_pair": row.ew_pair,
                    "adjusted": "60/40",
                },
                "TD Anna",
            )
            assert controller.finished_at(1, 1, unplayed) is not None
            assert second.hub.rounds.current("A") == 2
            events = second.hub.feed.since(0) or []
            (complete,) = [e for e in events if e["event"] == "round_complete"]
            assert complete["round"] == 1 and complete["unplayed"] == []
        finally:
            await second.stop()

        third = Room(url, eid)
        await third.start()
        try:
            assert third.alerts(wanted) == [], "a board with its score is not alerted again"
        finally:
            await third.stop()

    asyncio.run(scenario())
