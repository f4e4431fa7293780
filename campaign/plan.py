"""The campaign's seeded schedule of faults (issue 12 [FAULTS]): which station is unplugged
when and for how long, which terminals reboot, when the hub is killed and how, when the
database and the clock display go away. The same seed gives the same schedule."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import Enum


class Kind(Enum):
    """One kind of scheduled fault."""

    UNPLUG = "unplug"  # a base station's cable out for ``seconds``, then back
    REBOOT = "reboot"  # a terminal powered off and on (mid-entry when it has one pending)
    KILL = "kill"  # the campaign kills the hub with SIGKILL at a random moment
    CRASH_GROUP_COMMIT = "crash at group commit"  # the hub kills itself during a group commit
    CRASH_ROUND_CHANGE = "crash at round change"  # the hub kills itself during a round change
    PG_RESTART = "pg restart"  # the PostgreSQL server restarted
    CLOCK_UNPLUG = "clock unplug"  # the clock display's cable out for ``seconds``


KILLS = (Kind.KILL, Kind.CRASH_GROUP_COMMIT, Kind.CRASH_ROUND_CHANGE)


@dataclass(frozen=True)
class Action:
    """A fault due once ``at`` (a share of the target results, 0..1) are confirmed."""

    at: float
    kind: Kind
    target: str = ""  # a station's serial, a terminal's serial, or nothing
    seconds: float = 0.0  # how long an unplug lasts

    def describe(self) -> str:
        what = f" {self.target}" if self.target else ""
        span = f" for {self.seconds:.1f} s" if self.seconds else ""
        return f"{self.at * 100:5.1f} %: {self.kind.value}{what}{span}"


@dataclass(frozen=True)
class Counts:
    """How many faults of each scheduled kind a run gets."""

    unplugs: int = 10
    reboots: int = 30
    kills: int = 3  # one campaign SIGKILL, one at a group commit, one at a round change
    pg_restarts: int = 0
    clock_unplugs: int = 1
    unplug_s: tuple[float, float] = (2.0, 5.0)  # each unplug lasts between these


@dataclass(frozen=True)
class Plan:
    """The schedule, in order of ``at``."""

    seed: int
    actions: tuple[Action, ...] = field(default_factory=tuple)

    def of(self, kind: Kind) -> list[Action]:
        return [a for a in self.actions if a.kind is kind]

    def lines(self) -> list[str]:
        return [a.describe() for a in self.actions]


def make_plan(seed: int, stations: list[str], terminals: list[str], counts: Counts) -> Plan:
    """Spread the faults over 5-90 % of the run (none before the room is going, none at
    the very end where a fault would only test the wait). Every station is unplugged at
    least once when there are as many unplugs as stations (the USB one included); the kills
    come in the order round change, group commit, campaign kill, well apart, so each
    restarted hub runs for a while before the next one dies."""
    rng = random.Random(seed)
    actions: list[Action] = []
    order = list(stations)
    rng.shuffle(order)
    for k in range(counts.unplugs):
        target = order[k % len(order)] if order else ""
        actions.append(
            Action(rng.uniform(0.05, 0.9), Kind.UNPLUG, target, rng.uniform(*counts.unplug_s))
        )
    for _ in range(counts.reboots):
        actions.append(Action(rng.uniform(0.05, 0.9), Kind.REBOOT, rng.choice(terminals)))
    kinds = [Kind.CRASH_ROUND_CHANGE, Kind.CRASH_GROUP_COMMIT, Kind.KILL]
    n = counts.kills
    for k in range(n):
        kind = kinds[k % len(kinds)]
        # the k-th kill in its own slice of 10-85 %, jittered within the slice
        lo, hi = 0.1 + 0.75 * k / n, 0.1 + 0.75 * (k + 1) / n
        at = rng.uniform(lo + (hi - lo) * 0.2, hi - (hi - lo) * 0.2)
        actions.append(Action(at, kind))
    for _ in range(counts.pg_restarts):
        actions.append(Action(rng.uniform(0.15, 0.85), Kind.PG_RESTART))
    for _ in range(counts.clock_unplugs):
        actions.append(
            Action(
                rng.uniform(0.05, 0.9), Kind.CLOCK_UNPLUG, "clock", rng.uniform(*counts.unplug_s)
            )
        )
    actions.sort(key=lambda a: (a.at, a.kind.value, a.target))
    return Plan(seed, tuple(actions))
