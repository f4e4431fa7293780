"""The campaign's faults fired as the room gets to them: each planned fault when its share of
the results is confirmed, a crash point armed in the hub for the next start (and armed again
when the hub does not reach it), a reboot aimed at a terminal whose players are keying."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from campaign.plan import KILLS, Action, Kind, Plan

if TYPE_CHECKING:
    from campaign.run import Campaign

RESULTS_PER_GROUP_COMMIT = 8  # a guess on the low side: a crash point armed early fires early
REARM_AFTER = 0.08  # share of the run past its moment before a crash point is re-armed


class FaultFiring:
    """The plan's faults not yet done, and the crash point the running hub was armed with."""

    def __init__(self, run: Campaign, plan: Plan) -> None:
        self.run = run
        self.plan = plan
        self.pending: list[Action] = list(plan.actions)
        self.crashes: list[Action] = [a for a in plan.actions if a.kind in KILLS[1:]]
        self.armed: Action | None = None
        self.rearmed: set[Action] = set()
        self.done = 0

    def done_with(self, action: Action) -> None:
        if action in self.pending:
            self.pending.remove(action)
        self.done += 1

    def arm(self) -> str | None:
        """The crash point for the next start: the earliest crash still due, its count
        worked out so that it comes near its planned share of the run."""
        left = [a for a in self.crashes if a in self.pending]
        self.armed = left[0] if left else None
        if self.armed is None:
            return None
        share = max(0.0, self.armed.at - self.run.room.acks() / self.run.size.results)
        if self.armed.kind is Kind.CRASH_ROUND_CHANGE:
            return f"round_change:{max(1, round(share * self.run.size.round_changes))}"
        n = round(share * self.run.size.results / RESULTS_PER_GROUP_COMMIT)
        return f"group_commit:{max(2, n)}"

    async def fire_due(self) -> None:
        """Every fault whose moment has come; crash points are the hub's to fire."""
        share = self.run.room.acks() / self.run.size.results
        loop = asyncio.get_running_loop()
        for action in [a for a in self.pending if a.at <= share]:
            if action.kind in KILLS[1:]:
                await self._rearm(action, share)
                continue  # the hub fires these itself
            self.done_with(action)
            if action.kind is Kind.UNPLUG:
                self.run.room.unplug(action.target)
                self.run.fig.unplugs += 1
                loop.call_later(action.seconds, self.run.room.replug, action.target)
            elif action.kind is Kind.REBOOT:
                chosen = self.run.room.terminal(self._mid_entry(action.target))
                if chosen.keying is not None:
                    self.run.fig.reboots_keying += 1
                elif chosen.unacked:
                    self.run.fig.reboots_unacked += 1
                self.run.room.reboot(chosen.serial)
                self.run.fig.reboots += 1
            elif action.kind is Kind.CLOCK_UNPLUG:
                self.run.room.unplug_clock()
                self.run.fig.clock_unplugs += 1
                loop.call_later(action.seconds, self.run.room.replug_clock)
            elif action.kind is Kind.PG_RESTART and self.run.cluster is not None:
                began = time.monotonic()
                await asyncio.to_thread(self.run.cluster.restart, "fast")
                self.run.fig.pg_restarts += 1
                self.run.pg_watch = (
                    time.monotonic(),
                    self.run.room.acks(),
                    time.monotonic() - began,
                )
            elif action.kind is Kind.KILL and self.run.hub is not None and self.run.hub.alive():
                gone = self.run.hub.kill()
                await self.run.hub_down(gone.cause)

    async def _rearm(self, action: Action, share: float) -> None:
        """A crash point armed but not reached well after its planned moment (fewer group
        commits than guessed): stop the hub (SIGTERM) and start it again armed for the next
        one; the restart's resend burst makes that come soon."""
        if action is not self.armed or share < action.at + REARM_AFTER or action in self.rearmed:
            return
        self.rearmed.add(action)
        assert self.run.hub is not None
        if not self.run.hub.alive():
            return
        await asyncio.to_thread(self.run.hub.stop)
        self.run.fig.graceful_restarts += 1
        point = "round_change:1" if action.kind is Kind.CRASH_ROUND_CHANGE else "group_commit:2"
        self.run.hub.start(point)
        self.run.epochs_at_start = self.run.room.hub_epochs()
        self.armed = action

    def _mid_entry(self, serial: str) -> str:
        """A reboot mid-entry: the planned terminal, or if it is not in the middle of an
        entry the next one (in terminal order, from it) whose players are keying a result,
        else one that holds a result not yet acknowledged."""
        terms = self.run.room.terminals
        start = next(k for k, t in enumerate(terms) if t.serial == serial)
        ring = terms[start:] + terms[:start]
        for busy in (lambda t: t.keying is not None, lambda t: bool(t.unacked)):
            for t in ring:
                if busy(t):
                    return t.serial
        return serial
