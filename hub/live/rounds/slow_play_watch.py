"""Slow-play penalties as tables finish their rounds (decisions D10): a table that ends late
against its round's official start and allowed time, on the clock the room sees (its
pauses, breaks and the director's adjustments included: TD trial F20), gets the event's
penalty proposed; the director confirms it, saying who pays, or waives it.

``SlowPlayWatch`` belongs to the hub's asyncio loop; the store is read and written in worker
threads.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from hub.api.feed import Feed
from hub.live.rounds.round_clock import RoundClock
from hub.live.rounds.slow_play import Proposal, TableRound, lateness_minutes, propose
from hub.store.store import Store
from scoring.penalties import PenaltyScale


async def proposed(store: Store, event_id: int, feed: Feed, proposal: Proposal) -> int:
    """A proposed penalty (slow play, a late start) stored for the director, in a worker
    thread, and told to the feed (``penalty_proposed``); its id."""
    pid = await asyncio.to_thread(
        store.propose_penalty,
        event_id,
        proposal.section,
        proposal.ns_pair,
        str(proposal.penalty.amount),
        proposal.penalty.unit.value,
        proposal.text,
        proposal.table,
        proposal.round,
        proposal.ew_pair,
    )
    feed.publish(
        "penalty_proposed",
        id=pid,
        section=proposal.section,
        table=proposal.table,
        round=proposal.round,
        text=proposal.text,
    )
    return pid


class SlowPlayWatch:
    """Proposes slow-play penalties as tables finish; on the hub's loop, store work in worker
    threads."""

    def __init__(
        self,
        store: Store,
        event_id: int,
        scale: PenaltyScale | None,
        clocks: Callable[[str], RoundClock],
        feed: Feed,
    ) -> None:
        self.store = store
        self.event_id = event_id
        self.scale = scale
        self.clocks = clocks
        self.feed = feed
        self._proposed: set[tuple[str, int, int]] = set()  # section, table, round

    async def table_finished(self, section: str, tr: TableRound) -> None:
        """The table finished its round: propose the scale's penalty if it was late."""
        key = (section, tr.table, tr.round)
        if key in self._proposed:
            return
        self._proposed.add(key)
        clock = self.clocks(section)
        start = clock.official_start(tr.round)
        if self.scale is None or start is None:
            return
        allowed = clock.full_seconds(tr.round)
        late = lateness_minutes(tr, start, allowed, clock.room_time(tr.round))
        if late is None or late <= 0:
            return
        earlier = await asyncio.to_thread(self._offences, {tr.ns_pair, tr.ew_pair})
        proposal = propose(tr, self.scale, late, earlier + 1)
        if proposal is None:
            return
        await proposed(self.store, self.event_id, self.feed, proposal)

    def _offences(self, pairs: set[int]) -> int:
        """Confirmed penalties (not warnings) the pairs already had."""
        return sum(
            1
            for p in self.store.penalties(self.event_id)
            if p["status"] == "confirmed"
            and p["unit"] != "warning"
            and set(p["contestants"]) & pairs
        )
