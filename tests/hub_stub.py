"""A stand-in for the hub's intake, used by the wire tests until the live hub exists
(issue [HUB]): it answers log-ons with an assignment and stores each result once, keyed
like the store's submission key (terminal serial, section, table, round, board, revision).
This is a test double of the *hub*; the line, the driver and the devices are real."""

from __future__ import annotations

import asyncio
import contextlib

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
            if isinstance(m, Hello | TerminalJoined):
                self.serials[ev.terminal] = m.serial
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
