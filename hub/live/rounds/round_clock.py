"""The round clock of a section: allowed time from the event's rules, warnings, the move,
pauses, adjustments, extensions and breaks; time is injected, so nothing sleeps.

The clock is a fold over its events (start, pause, resume, adjust, extend, break), which
the store keeps: after a restart the same events give the same clock (decisions D10).

Its time never runs backwards: an event stamped earlier than the one before it (the wall
clock stepped back, before a restart or during the evening) happened after it all the
same, so it counts at that one's time; and the clock is read no earlier than its last
event (it holds there until the wall clock catches up). Replayed in stored order, the
same events give the same clock again.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from drivers.clock.show import ClockShow, Phase
from hub.live.rounds.clock_events import LIMITS as LIMITS
from hub.live.rounds.clock_events import ClockAction, ClockEvent, RoundTiming, check

__all__ = ["LIMITS", "ClockAction", "ClockEvent", "RoundClock", "RoundTiming", "check"]


@dataclass
class _Round:
    number: int
    start: float
    allowed: float
    paused_total: float = 0.0
    paused_since: float | None = None
    adjust: float = 0.0


@dataclass
class _Folded:
    """The clock's state at a moment: the round, its break (start, end), a break waiting
    for the round's end (round, minutes)."""

    current: _Round | None = None
    brk: tuple[float, float] | None = None
    pending: tuple[int, float] | None = None

    def settle(self, t: float) -> None:
        """A break over by ``t`` ends by itself: the round clock runs on from its end."""
        r, brk = self.current, self.brk
        if r is not None and brk is not None and brk[1] <= t and r.paused_since is not None:
            r.paused_total += max(0.0, brk[1] - r.paused_since)
            r.paused_since = None
            self.brk = None


@dataclass
class RoundClock:
    """A section's clock, a fold over its events. Sans-I/O (times come in as arguments); its
    state belongs to the hub's loop."""

    timing: RoundTiming
    boards_per_round: dict[int, int]
    events: list[ClockEvent] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # stored events replay skipped
    # a round's own time where the event gives one (a knockout's extra set: seed 003
    # §12.8, 35 minutes for 4 boards), else the boards' time
    round_seconds: dict[int, float] = field(default_factory=dict)

    def full_seconds(self, rnd: int) -> float:
        """Round ``rnd``'s allowed time before any adjustment."""
        if rnd in self.round_seconds:
            return self.round_seconds[rnd]
        return self.timing.allowed_seconds(self.boards_per_round.get(rnd, 0))

    # -- events -------------------------------------------------------------------------------
    def apply(self, event: ClockEvent) -> None:
        check(event)
        if self.events and event.at < self.events[-1].at:  # the wall clock stepped back
            event = replace(event, at=self.events[-1].at)
        if event.action is ClockAction.START:
            if event.round not in self.boards_per_round:
                raise ValueError(f"round {event.round} is not in the movement")
        elif (current := self._current()) is None:
            raise ValueError(f"{event.action.value}: no round has started")
        elif event.action is ClockAction.BREAK_AFTER and event.round is None:
            event = replace(event, round=current.number)
        self.events.append(event)

    def replay(self, records: list[dict[str, Any]]) -> list[str]:
        """Apply the clock events the hub stored (``Store.clock_events``), in order. A
        record the clock refuses (a value an older hub stored unchecked, such as NaN) is
        skipped, and said in the list returned and kept in ``refused`` for the director:
        the hub starts without it."""
        kinds = {"start_break": ClockAction.BREAK} | {a.value: a for a in ClockAction}
        refused = []
        for r in records:
            action = kinds.get(r.get("kind", ""))
            if action is None:
                continue
            try:
                value = (r.get("detail") or {}).get("value")
                value = 0.0 if value is None else value
                self.apply(ClockEvent(action, r["at"].timestamp(), r.get("round"), value))
            except (ValueError, TypeError, KeyError, AttributeError) as e:
                at = r.get("at")
                when = at.strftime("%H:%M:%S") if isinstance(at, dt.datetime) else repr(at)
                refused.append(
                    f"the stored clock event {r.get('kind')!r} of {when} is ignored: {e}"
                )
        self.refused += refused
        return refused

    def start_round(self, rnd: int, at: float) -> None:
        self.apply(ClockEvent(ClockAction.START, at, rnd))

    def pause(self, at: float) -> None:
        self.apply(ClockEvent(ClockAction.PAUSE, at))

    def resume(self, at: float) -> None:
        self.apply(ClockEvent(ClockAction.RESUME, at))

    def adjust(self, seconds: float, at: float) -> None:
        self.apply(ClockEvent(ClockAction.ADJUST, at, value=seconds))

    def extend(self, minutes: float, at: float) -> None:
        self.apply(ClockEvent(ClockAction.EXTEND, at, value=minutes))

    def start_break(self, minutes: float, at: float) -> None:
        self.apply(ClockEvent(ClockAction.BREAK, at, value=minutes))

    def break_after_round(self, minutes: float, at: float) -> None:
        """A break of ``minutes`` when the current round ends: the next round's clock
        waits for it (BCS-like); asked again, the last one counts."""
        self.apply(ClockEvent(ClockAction.BREAK_AFTER, at, value=minutes))

    def scheduled_break(self) -> tuple[int, float] | None:
        """(round, minutes) of a break waiting for that round's end, if any."""
        return self._fold(math.inf).pending

    # -- state --------------------------------------------------------------------------------
    def last_event_at(self) -> float | None:
        """When the clock's last event happened (None: no event yet)."""
        return self.events[-1].at if self.events else None

    def _read_at(self, at: float) -> float:
        """``at``, or the last event's time when the wall clock is behind it."""
        return max(at, self.events[-1].at) if self.events else at

    def _fold(self, until: float, events: list[ClockEvent] | None = None) -> _Folded:
        st = _Folded()
        for ev in self.events if events is None else events:
            if ev.at > until:
                break
            st.settle(ev.at)
            if ev.action is ClockAction.START:
                assert ev.round is not None
                st.current = _Round(ev.round, ev.at, self.full_seconds(ev.round))
                st.brk = None
                if st.pending is not None and ev.round > st.pending[0]:  # the break asked for
                    st.brk = (ev.at, ev.at + st.pending[1] * 60)
                    st.current.paused_since = ev.at
                    st.pending = None
                continue
            current = st.current
            assert current is not None
            if ev.action is ClockAction.PAUSE and current.paused_since is None:
                current.paused_since = ev.at
            elif ev.action is ClockAction.RESUME and current.paused_since is not None:
                current.paused_total += ev.at - current.paused_since
                current.paused_since = None
                st.brk = None
            elif ev.action is ClockAction.ADJUST:
                current.adjust += ev.value
            elif ev.action is ClockAction.EXTEND:
                current.allowed += ev.value * 60
            elif ev.action is ClockAction.BREAK:
                st.brk = (ev.at, ev.at + ev.value * 60)
                if current.paused_since is None:
                    current.paused_since = ev.at
            elif ev.action is ClockAction.BREAK_AFTER:
                st.pending = (ev.round or current.number, ev.value)
        st.settle(until)
        return st

    def _current(self) -> _Round | None:
        return self._fold(math.inf).current

    def official_start(self, rnd: int) -> float | None:
        """When the TD started the round (its allowed time runs from here: seed 002); a
        round started again (the director's clock start) counts from the last start."""
        starts = [ev.at for ev in self.events if ev.action is ClockAction.START and ev.round == rnd]
        return starts[-1] if starts else None

    def allowed_seconds(self, rnd: int) -> float:
        total = self.full_seconds(rnd)
        active = False
        for ev in self.events:
            if ev.action is ClockAction.START:
                active = ev.round == rnd
            elif active and ev.action is ClockAction.EXTEND:
                total += ev.value * 60
        return total

    def play_seconds(self, at: float) -> float:
        """Playing time used in the current round (pauses and breaks excluded)."""
        at = self._read_at(at)
        r = self._fold(at).current
        if r is None:
            return 0.0
        paused = r.paused_total + ((at - r.paused_since) if r.paused_since is not None else 0)
        return at - r.start - paused

    def seconds_left(self, at: float) -> float:
        at = self._read_at(at)
        r = self._fold(at).current
        if r is None:
            return 0.0
        return r.allowed + r.adjust - self.play_seconds(at)

    def show(self, at: float) -> ClockShow | None:
        """What the displays and terminals show at ``at``."""
        at = self._read_at(at)
        st = self._fold(at)
        r, brk = st.current, st.brk
        if r is None:
            return None
        if brk is not None and r.paused_since is not None:
            return ClockShow(r.number, Phase.BREAK, math.ceil(brk[1] - at))
        left = self.seconds_left(at)
        board = self.timing.minutes_per_board * 60
        if r.paused_since is not None:
            phase = Phase.PAUSED
        elif left <= 0:
            move_left = left + self.timing.move_minutes * 60
            if move_left > 0:
                return ClockShow(r.number, Phase.MOVE, math.ceil(move_left))
            phase = Phase.NO_NEW_BOARD
        elif left <= board / 2:
            phase = Phase.NO_NEW_BOARD
        elif left <= board:
            phase = Phase.LAST_BOARD
        else:
            phase = Phase.PLAY
        return ClockShow(r.number, phase, math.ceil(left) if left > 0 else math.floor(left))

    def predicted_finish(self, at: float, last_round: int) -> float | None:
        """When the session ends if every later round runs to time with its move (and the
        breaks: the one on now, the one waiting for the round's end)."""
        at = self._read_at(at)
        st = self._fold(at)
        r = st.current
        if r is None:
            return None
        move = self.timing.move_minutes * 60
        end = at + max(0.0, self.seconds_left(at))
        end += max(0.0, st.brk[1] - at) if st.brk is not None else 0.0
        end += st.pending[1] * 60 if st.pending is not None and r.number < last_round else 0.0
        for later in range(r.number + 1, last_round + 1):
            if later in self.boards_per_round:
                end += move + self.full_seconds(later)
        return end

    # -- the room's clock, for lateness (decisions D10) -------------------------------------------
    def room_time(self, rnd: int) -> Callable[[float], float] | None:
        """``room_elapsed`` of round ``rnd`` as a function of the time (None: never started)."""
        if self.official_start(rnd) is None:
            return None
        return lambda at: self.room_elapsed(rnd, at) or 0.0

    def room_elapsed(self, rnd: int, at: float) -> float | None:
        """Seconds of round ``rnd`` used at ``at`` on the clock the room sees: the allowed
        time less what the clock shows left, so its pauses and breaks do not count and its
        adjustments do (time taken off counts as played, an extension as not). After the
        round's clock gave way to the next round it runs on as it stood. None: the round's
        clock never started."""
        starts = [k for k, ev in enumerate(self.events) if ev.action is ClockAction.START]
        mine = [k for k in starts if self.events[k].round == rnd]
        if not mine:
            return None
        first = mine[-1]
        later = [k for k in starts if k > first]
        upto = self.events[: later[0] if later else len(self.events)]  # a break it waits for
        ends = self.events[later[0]].at if later else None
        at = max(at, self.events[first].at)
        st = self._fold(at, upto)
        r = st.current
        assert r is not None
        paused = r.paused_total
        if r.paused_since is not None:  # a pause still on at ``at`` (or at the next start)
            paused += (min(at, ends) if ends is not None else at) - r.paused_since
        left = r.allowed + r.adjust - (at - r.start - paused)
        return self.full_seconds(rnd) - left
