"""Crash points for fault campaigns (issue 12 [FAULTS]): ``BRIDGEHUB_CRASH_AT`` names a
moment at which the hub kills itself with SIGKILL — a real ``kill -9``: no cleanup, no
flush, no ``finally`` — so a campaign can prove that a kill at the worst moment loses
nothing (decisions D11, D21).

Spelling: ``KIND:N``, the N-th time (counting from 1) the hub reaches that kind of moment:

- ``group_commit:N``: the N-th group commit of at least 2 results, after its rows are
  written in the transaction and before COMMIT (nothing of it is durable; no terminal was
  answered: each resends, and the restarted hub stores each once);
- ``after_commit:N``: the N-th group commit of at least 2 results, after COMMIT and before
  any of its terminals is answered (everything is durable, nobody knows: each terminal
  resends and must be answered "already stored", never stored twice);
- ``round_change:N``: the N-th round change of any section (a round started by the round
  controller, not resumed after a restart), after the tables were told the new round and
  before its start is recorded in the store (state half done).

The variable is read once, when this module is first imported (the hub's start); unset,
each point costs the hub one attribute check (``PLAN is None``). A value that does not
parse is refused with a warning on stderr and the hub runs without crash points.
"""

from __future__ import annotations

import enum
import logging
import os
import signal
import sys
import threading
from dataclasses import dataclass, field

log = logging.getLogger(__name__)
ENV = "BRIDGEHUB_CRASH_AT"


class CrashKind(enum.Enum):
    """The moments a hub can be told to die at."""

    GROUP_COMMIT = "group_commit"
    AFTER_COMMIT = "after_commit"
    ROUND_CHANGE = "round_change"


@dataclass
class CrashPlan:
    """Where to die and how often that moment has been reached; any thread (the commits
    run in worker threads, round changes on the loop), so the count takes a lock."""

    kind: CrashKind
    at: int
    seen: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def reached(self, kind: CrashKind) -> None:
        """Count this moment; at the planned one, say so on stderr and die by SIGKILL."""
        if kind is not self.kind:
            return
        with self._lock:
            self.seen += 1
            if self.seen != self.at:
                return
        die(kind)


def parse(spec: str) -> CrashPlan:
    """``group_commit:3`` → the plan; raises ValueError naming what is wrong."""
    name, _, count = spec.strip().partition(":")
    kinds = ", ".join(f"{k.value}:N" for k in CrashKind)
    try:
        kind = CrashKind(name)
    except ValueError:
        raise ValueError(f"{ENV}={spec!r}: unknown crash point {name!r}; write {kinds}") from None
    if not count.isdigit() or int(count) < 1:
        raise ValueError(f"{ENV}={spec!r}: N must be a whole number from 1 on, e.g. {name}:1")
    return CrashPlan(kind, int(count))


def die(kind: CrashKind) -> None:
    """One line on stderr, flushed, then SIGKILL to this process: no cleanup at all."""
    sys.stderr.write(f"crash point {kind.value} reached ({ENV}): kill -9\n")
    sys.stderr.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def from_environment() -> CrashPlan | None:
    """The plan the environment names; None when unset, empty or unreadable (warned)."""
    spec = os.environ.get(ENV, "")
    if not spec.strip():
        return None
    try:
        return parse(spec)
    except ValueError as e:
        log.warning("%s; running without a crash point", e)
        sys.stderr.write(f"warning: {e}; running without a crash point\n")
        return None


PLAN: CrashPlan | None = from_environment()


def arm(spec: str | None) -> CrashPlan | None:
    """Set (or with None clear) the plan of this process: for tests that run a hub in
    their own process. The hub itself reads the environment once."""
    global PLAN
    PLAN = parse(spec) if spec else None
    return PLAN
