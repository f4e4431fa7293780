"""Late starts proposed from the clock (issue 29, [RULINGS]; seed 000 §9 "Late Start",
seed 002 "Sen ankomst"): a table whose first action of the round (a board started, a result
entered) comes after the round's official start, on the clock the room sees (pauses and
breaks do not count, the director's adjustments do: as slow play, TD trial F20), gets the
event's ``[rules.late_arrival]`` penalty proposed, once a table and round; the director
confirms it, saying who pays, or waives it. A table that has not acted at all once the
scale's last band has passed is proposed the scale's ``beyond`` (forfeit, TD decides).

The offence (a first one may be only a warning; a repeat has the scale's minimum) is the
side's: 1 + the late arrivals it was already confirmed to pay in the event (warnings too).

``LateStartWatch`` belongs to the hub's asyncio loop; the store is read and written in
worker threads.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

from hub.api.feed import Feed
from hub.live.rounds import round_controller as rc
from hub.live.rounds.section_rounds import SectionRounds
from hub.live.rounds.slow_play import Proposal, TableRound, propose
from hub.live.rounds.slow_play_watch import proposed
from hub.store.store import Store
from scoring.penalties import PenaltyScale

KIND = "late_arrival"
MARK = "(late arrival)"  # how a stored proposal's reason names its kind (``Proposal.text``)


def table_action(event: rc.Event) -> tuple[int, int, float] | None:
    """(table, round, time) of an event that is the table's own doing: a board started, a
    result entered (accepted, or held for the director); None for anything else."""
    match event:
        case rc.FirstAction(table, rnd, at):
            return table, rnd, at
        case rc.ResultAccepted(table, rnd, _, at) | rc.ResultHeld(table, rnd, _, at):
            return table, rnd, at
    return None


def no_show_after(scale: PenaltyScale) -> Fraction | None:
    """Minutes after which a table that has not started is beyond the scale (None: the last
    band is open-ended, so it never is)."""
    return scale.steps[-1].up_to_minutes


def late_start(
    tr: TableRound, scale: PenaltyScale, minutes: float, offence: int
) -> Proposal | None:
    """The scale's proposal for a table starting ``minutes`` late at its sides' ``offence``-th
    late arrival (None when not late)."""
    return propose(tr, scale, minutes, offence, KIND)


def offence(rows: Iterable[Mapping[str, Any]], section: str, ns: int, ew: int) -> int:
    """This late arrival's number for the table's sides: 1 + the confirmed late arrivals the
    side with most of them paid in the section (a confirmed warning counts: it was the
    first offence)."""
    paid = {ns: 0, ew: 0}
    for p in rows:
        if p["status"] != "confirmed" or p["section"] != section or MARK not in p["reason"]:
            continue
        side, other = p["contestants"]
        payers = {"NS": (side,), "EW": (other,)}.get(p["payer"] or "", (side, other))
        for pair in payers:
            if pair in paid:
                paid[pair] += 1
    return 1 + max(paid.values())


class LateStartWatch:
    """Proposes late-start penalties from the tables' first actions and the clock's ticks;
    on the hub's loop, store work in worker threads."""

    def __init__(
        self,
        store: Store,
        event_id: int,
        scale: PenaltyScale | None,
        sections: Callable[[str], SectionRounds],
        feed: Feed,
    ) -> None:
        self.store = store
        self.event_id = event_id
        self.scale = scale
        self.sections = sections
        self.feed = feed
        # (section, table, round) that acted, or were proposed: once a table and round
        self._settled: set[tuple[str, int, int]] = set()

    async def event(self, section: str, event: rc.Event) -> None:
        """A section's event, after its controller had it: a table's first action in the
        current round is measured; a tick looks for tables beyond the scale; a restart
        leaves the round it finds running alone (who acted before it is not stored)."""
        if self.scale is None:
            return
        state = self.sections(section)
        if isinstance(event, rc.Resume):
            if event.started_round is not None:
                rnd = event.started_round
                playing = state.controller.playing(rnd)
                self._settled.update((section, tr.table, rnd) for tr in playing)
            return
        if isinstance(event, rc.Tick):
            await self._no_shows(section, state, event.at)
            return
        acted = table_action(event)
        if acted is None or acted[1] != state.round:
            return
        table, rnd, at = acted
        if (section, table, rnd) in self._settled:
            return
        self._settled.add((section, table, rnd))
        minutes = self._minutes(state, rnd, at)
        tr = state.controller.table_round(table, rnd)
        if minutes is not None and minutes > 0 and tr is not None:
            await self._propose(section, tr, minutes)

    async def _no_shows(self, section: str, state: SectionRounds, at: float) -> None:
        """Tables of the round in progress that have not acted once its last band passed."""
        assert self.scale is not None
        rnd, after = state.round, no_show_after(self.scale)
        minutes = self._minutes(state, rnd, at)
        if after is None or minutes is None or minutes <= after:
            return
        if state.controller.is_complete(rnd):
            return
        for tr in state.controller.playing(rnd):
            key = (section, tr.table, rnd)
            if key in self._settled or tr.first_action_at is not None or tr.finished_at:
                continue
            self._settled.add(key)
            await self._propose(section, tr, minutes)

    @staticmethod
    def _minutes(state: SectionRounds, rnd: int, at: float) -> float | None:
        """Minutes of the round used at ``at`` on the room's clock (None: not started)."""
        room = state.clock.room_time(rnd)
        return None if room is None or state.waiting else room(at) / 60

    async def _propose(self, section: str, tr: TableRound, minutes: float) -> None:
        assert self.scale is not None
        rows = await asyncio.to_thread(self.store.penalties, self.event_id)
        if any(
            p["section"] == section
            and (p["table"], p["round"]) == (tr.table, tr.round)
            and MARK in p["reason"]
            for p in rows
        ):
            return  # proposed before a restart
        proposal = late_start(
            tr, self.scale, minutes, offence(rows, section, tr.ns_pair, tr.ew_pair)
        )
        if proposal is None:
            return
        await proposed(self.store, self.event_id, self.feed, proposal)
