"""The round clock shown everywhere: once a tick to every clock display and the feed; to the
terminals when the phase changes and every ``sync_s`` (they count down themselves, so not
200 frames a second); and every ``pace_s`` the tables' minutes behind or ahead.

``ClockTicker`` belongs to the hub's asyncio loop; ``run`` is a supervised task.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from drivers.clock.driver import ClockDriver
from hub.api.feed import Feed
from hub.live.port.gateway import TerminalGateway
from hub.live.port.terminal_port import ClockView
from hub.live.rounds import round_controller as rc
from hub.live.rounds.section_rounds import Rounds

log = logging.getLogger(__name__)


class ClockTicker:
    """Shows the round clock every tick; a supervised task on the hub's asyncio loop."""

    def __init__(
        self,
        rounds: Rounds,
        gateway: TerminalGateway,
        displays: list[ClockDriver],
        feed: Feed,
        clock: Callable[[], float],
        tick_s: float = 1.0,
        sync_s: float = 30.0,
        pace_s: float = 10.0,
    ) -> None:
        self.rounds = rounds
        self.gateway = gateway
        self.displays = displays
        self.feed = feed
        self.clock = clock
        self.tick_s, self.sync_s, self.pace_s = tick_s, sync_s, pace_s
        self._told: dict[str, tuple[int, object]] = {}
        self._next_sync: dict[str, float] = {}
        self._next_pace = 0.0
        self._stepped: set[str] = set()  # sections whose clock step back was reported

    async def run(self) -> None:
        self.report_refused()
        while True:
            await self.tick()
            await asyncio.sleep(self.tick_s)

    def report_refused(self) -> None:
        """Stored clock events the replay skipped (an older hub stored them unchecked, such
        as a NaN adjustment), and a wall clock behind the last stored clock event (set back
        before this start: the round clock holds until it catches up): logged and told to
        the director once, in an alert."""
        now = self.clock()
        for letter, state in self.rounds.sections.items():
            texts, state.clock.refused = list(state.clock.refused), []
            last = state.clock.last_event_at()
            if last is not None and last > now and letter not in self._stepped:
                self._stepped.add(letter)
                texts.append(
                    f"the computer's clock is {last - now:.0f} s behind the round clock's last "
                    "stored event (was it set back?); the round clock holds until it catches up"
                )
            for text in texts:
                log.warning("section %s: %s", letter, text)
                self.rounds.alerts.raise_(f"Section {letter}: {text}", section=letter)

    async def tick(self) -> None:
        now = self.clock()
        for letter, state in self.rounds.sections.items():
            show = state.clock.show(now)
            if show is None or letter in self.rounds.final:  # waiting, or the session is over
                continue
            for display in self.displays:
                display.show(show)
            phase = show.phase.name.lower()
            self.feed.publish(
                "clock",
                section=letter,
                round=show.round,
                phase=phase,
                seconds_left=show.seconds_left,
            )
            key = (show.round, show.phase)
            if key != self._told.get(letter) or now >= self._next_sync.get(letter, 0):
                self._told[letter] = key
                self._next_sync[letter] = now + self.sync_s
                view = ClockView(letter, show.round, show.phase.name.lower(), show.seconds_left)
                self.gateway.clock_to_section(view)
        if now >= self._next_pace:
            self._next_pace = now + self.pace_s
            for letter, state in self.rounds.sections.items():
                start = state.clock.official_start(state.round)
                per_board = state.clock.timing.minutes_per_board * 60
                room = state.clock.room_time(state.round)  # F20: the clock the room sees
                await self.rounds.handle(letter, rc.Tick(now, start, per_board, room))
