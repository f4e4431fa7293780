"""The double dummy of the hand records, on one dedicated worker (issue 25 [MENDS]): after
the lines are open, the boards whose file carries ``DoubleDummyTricks`` take the file's
tricks (their par alone is worked out), then the others are solved one at a time, DDS on
one thread, a board some table has already played before the rest. The hub's loop, its
store reads (the default executor) and the first answers on the lines never wait for a
solution (the first ACK took 3.4-7.8 s with DDS on both cores at start-up).

``HandRecordSolver`` belongs to the hub's asyncio loop; its solutions run in its thread.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from hub.event.double_dummy import DoubleDummy, dds_one_thread, double_dummy, from_tricks
from hub.event.hand_records import HandRecordError
from hub.live.results.table_hands import TableHands

log = logging.getLogger(__name__)
T = TypeVar("T")
Key = tuple[str, int]  # section, board
LINES_WAIT_S = 10.0  # a line that cannot open (the director's alert) delays no solution more


async def lines_open(opened: Iterable[asyncio.Event], wait_s: float = LINES_WAIT_S) -> None:
    """Until every base station's line is open, at most ``wait_s``."""
    events = list(opened)
    if not events:
        return
    try:
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), wait_s)
    except TimeoutError:
        log.info("double dummy starts with a line still closed")


class HandRecordSolver:
    """Each board's double dummy once, in its own thread; ``on_known`` on the loop."""

    def __init__(self, hands: TableHands, on_known: Callable[[str, DoubleDummy], None]) -> None:
        self.hands = hands
        self.on_known = on_known
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="double-dummy")
        self._one_thread = False

    async def _call(self, job: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._worker, job, *args)

    async def solve(
        self,
        deals: dict[Key, str],
        tricks: dict[Key, str],
        current: Callable[[str], bool] = lambda _section: True,
    ) -> None:
        """``deals`` by (section, board), each with the file's ``tricks`` where it has
        them; a section's boards are left once ``current(section)`` turns false (the
        director loaded other hand records for it: those are solved in their own turn),
        the other sections' go on."""
        if not self._one_thread:
            try:
                await self._call(dds_one_thread)
            except HandRecordError as e:  # no endplay: every board would fail the same way
                log.warning("%s: no hand record reaches the tables", e)
                return
            self._one_thread = True
        pending = sorted(deals)
        for key in [k for k in pending if k in tricks]:
            try:
                dd = await self._call(from_tricks, deals[key], key[1], tricks[key])
            except Exception:  # the file's tricks do not do: the deal is solved
                log.exception("board %d's double dummy from its file; it is solved", key[1])
                continue
            pending.remove(key)
            if current(key[0]):
                self.on_known(key[0], dd)
        while pending:  # a board a table has played (and waits for) first
            key = next((k for k in pending if k in self.hands.owed), pending[0])
            pending.remove(key)
            if not current(key[0]):
                continue
            try:
                dd = await self._call(double_dummy, deals[key], key[1])
            except Exception:
                log.exception("double dummy of board %d failed; its check is skipped", key[1])
                continue
            if current(key[0]):
                self.on_known(key[0], dd)

    async def solution(self, deal: str, board: int) -> DoubleDummy:
        """One deal's double dummy on the same worker (a director's traveller read): the
        file's or an earlier solution when there is one (``double_dummy`` keeps both)."""
        return await self._call(double_dummy, deal, board)

    def close(self) -> None:
        """The hub stops: no further solution starts (one running ends in its thread)."""
        self._worker.shutdown(wait=False, cancel_futures=True)
