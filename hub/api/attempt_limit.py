"""The hub's one limit on failed attempts (decisions D20: failed log-ins are rate-limited per
peer and overall): wrong director's PINs at the API (``hub/api/sessions.py``), wrong takeover
PINs from terminals (``hub/live/tables/takeover_pin.py``) and wrong table codes from phones
(``hub/web_terminal/wrong_codes.py``) are all counted here, each under its own policies.

Failures are counted per key, a tuple whose first item names its scope ("peer", "room",
"device"…) and so its ``AttemptPolicy``. After the failure that reaches ``lockout_at`` the
key's next attempt waits ``lockout_s``, doubled with every further failure up to ``cap_s``;
before that, from ``backoff_at`` on, it waits ``backoff_s``, doubled the same way. A count
quiet for ``forget_s`` and not waiting is forgotten: it reads as none, and ``forget`` drops
it (memory stays bounded). The waits count from the last failure, so a count that is
forgiven in part (``forgive``: a right table code forgives that table's typos) waits as its
remaining failures would. The limit never compares anything itself: its users decide what a
failure is and what they answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

Key = tuple[str, ...]  # (scope, who…): ("peer", "192.0.2.7"), ("room",)


@dataclass(frozen=True, slots=True)
class AttemptPolicy:
    """How one scope's failures make it wait (a value; ``None`` stage: there is none)."""

    cap_s: float  # the longest wait
    forget_s: float  # a count quiet this long, and not waiting, is forgotten
    lockout_at: int | None = None  # the failure that locks out: its next attempt waits lockout_s
    lockout_s: float = 0.0  # doubled with every further failure, up to cap_s
    backoff_at: int | None = None  # before the lockout: the failure whose next waits backoff_s
    backoff_s: float = 0.0  # doubled with every further failure, up to cap_s

    def __post_init__(self) -> None:
        for at, first in ((self.lockout_at, self.lockout_s), (self.backoff_at, self.backoff_s)):
            if at is not None and (at < 1 or first <= 0):
                raise ValueError("a wait begins at the 1st failure or later and lasts a while")

    def wait_s(self, failures: int) -> float:
        """How long the attempt after the ``failures``-th failure waits (0: not at all)."""
        if self.lockout_at is not None and failures >= self.lockout_at:
            return _doubled(self.lockout_s, failures - self.lockout_at, self.cap_s)
        if self.backoff_at is not None and failures >= self.backoff_at:
            return _doubled(self.backoff_s, failures - self.backoff_at, self.cap_s)
        return 0.0

    def locks_out(self, failures: int) -> bool:
        """Whether ``failures`` failures have reached the lockout."""
        return self.lockout_at is not None and failures >= self.lockout_at


def _doubled(first_s: float, times: int, cap_s: float) -> float:
    """``first_s`` doubled ``times`` times, at most ``cap_s`` (no more doubling once at the
    cap, so however long a count grows its wait never overflows a float)."""
    wait = first_s
    for _ in range(times):
        if wait >= cap_s:
            break
        wait *= 2
    return min(cap_s, wait)


@dataclass
class _Count:
    failures: int
    last: float  # the time of the last failure: the wait counts from here


class AttemptLimit:
    """Failed attempts counted per key under its scope's policy; sans-I/O (every call is
    given the time ``now``, from a clock that never goes back), used on its owner's loop."""

    def __init__(self, policies: Mapping[str, AttemptPolicy]) -> None:
        self.policies = dict(policies)
        self._counts: dict[Key, _Count] = {}

    def __len__(self) -> int:
        """How many counts are kept (forgotten ones too until ``forget`` drops them)."""
        return len(self._counts)

    def failures(self, key: Key, now: float) -> int:
        """The key's failures counted now (0: none, or forgotten)."""
        count = self._kept(key, now)
        return count.failures if count is not None else 0

    def wait_s(self, key: Key, now: float) -> float:
        """How long until the key's next attempt may be tried (0: now)."""
        count = self._kept(key, now)
        return 0.0 if count is None else self._left(key, count, now)

    def locked_out(self, key: Key, now: float) -> bool:
        """Whether the key's failures have reached its policy's lockout."""
        return self.policies[key[0]].locks_out(self.failures(key, now))

    def failed(self, key: Key, now: float) -> int:
        """One more failure for ``key`` (a forgotten count starts again); its failures now.
        Only a failure keeps anything: asking about a key never adds one."""
        count = self._kept(key, now)
        if count is None:
            count = self._counts[key] = _Count(0, now)
        count.failures += 1
        count.last = now
        return count.failures

    def clear(self, key: Key) -> None:
        """The key's failures are over (a right PIN)."""
        self._counts.pop(key, None)

    def forgive(self, key: Key, failures: int) -> None:
        """``failures`` of the key's failures no longer count (its wait stays counted from
        its last failure); a count forgiven to nothing is dropped."""
        count = self._counts.get(key)
        if count is None:
            return
        count.failures = max(0, count.failures - failures)
        if not count.failures:
            del self._counts[key]

    def forget(self, now: float) -> list[Key]:
        """Drop the counts quiet for their ``forget_s`` and not waiting; their keys."""
        quiet = [k for k, c in self._counts.items() if self._forgotten(k, c, now)]
        for key in quiet:
            del self._counts[key]
        return quiet

    def _kept(self, key: Key, now: float) -> _Count | None:
        count = self._counts.get(key)
        return None if count is None or self._forgotten(key, count, now) else count

    def _left(self, key: Key, count: _Count, now: float) -> float:
        wait = self.policies[key[0]].wait_s(count.failures)
        return 0.0 if wait <= 0 else max(0.0, count.last + wait - now)

    def _forgotten(self, key: Key, count: _Count, now: float) -> bool:
        policy = self.policies[key[0]]
        return now - count.last > policy.forget_s and self._left(key, count, now) <= 0
