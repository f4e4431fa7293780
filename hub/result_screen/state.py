"""What the result screen knows, folded from the hub's feed (docs/api.md): each section's
last published standings (hidden in the event's last rounds, as at the terminals: TD trial
F13), its round, its clock (or "waiting for the director"), the end of the session (final
results) and, in a teams section, the current round's matches (hidden in those rounds
too). Pure: no I/O, the time is passed in."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from drivers.clock.show import ClockShow, Phase
from hub.api.match_news import next_round, take_matches
from hub.result_screen.bracket_text import bracket_of


@dataclass(frozen=True, slots=True)
class ClockReading:
    """The round clock as the hub last sent it, and when (the screen's own time), so the
    screen can count down between the hub's once-a-second ticks."""

    round: int
    phase: Phase
    seconds_left: float
    at: float

    def show(self, now: float) -> ClockShow:
        """The clock at ``now``: a paused clock stands still, any other counts down."""
        left = self.seconds_left
        if self.phase is not Phase.PAUSED:
            left -= max(0.0, now - self.at)
        # whole seconds as the hub's clock shows them: up while time is left, down after
        seconds = math.ceil(left) if left > 0 else math.floor(left)
        return ClockShow(self.round, self.phase, seconds)


def reading(clock: dict[str, Any] | None, rnd: int, at: float) -> ClockReading | None:
    """A clock of the feed (``{"phase": "last_board", "seconds_left": 300}``) as a reading."""
    if not clock or clock.get("phase", "").upper() not in Phase.__members__:
        return None  # none yet, or "waiting" for the director's start (``SectionFeed``)
    return ClockReading(rnd, Phase[clock["phase"].upper()], float(clock["seconds_left"]), at)


@dataclass(slots=True)
class SectionFeed:
    """One section as the feed tells it: the published standings, not the live ones."""

    letter: str
    round: int
    rounds: int
    unit: str  # "%", "IMPs" or "VP"
    kind: str  # "pairs" or "teams"
    published_round: int = 0  # 0: no standings published yet
    provisional: tuple[int, ...] = ()  # boards released with open questions (D12)
    rows: list[dict[str, Any]] = field(default_factory=list)  # rows with "previous_rank"
    clock: ClockReading | None = None
    hidden: bool = False  # the published standings are of a round the event hides
    final: bool = False  # the session is over: the standings are the final results
    waiting: bool = False  # the round's clock waits for the director's start
    # a teams section's matches of the current round (hub/live/teams/team_matches.py), and
    # whether the event hides them (a round whose rankings it hides: TD trial F13)
    matches: list[dict[str, Any]] = field(default_factory=list)
    matches_hidden: bool = False
    knockout: dict[str, Any] | None = None  # a knockout section's bracket (docs/api.md)


@dataclass(slots=True)
class ScreenState:
    """The screen's picture of the event. Owned by the screen app's asyncio loop: the
    feed's messages are applied there, one at a time, and the widgets only read it."""

    event: str = ""
    sections: dict[str, SectionFeed] = field(default_factory=dict)
    linked: bool = False  # a snapshot or an event since the last lost link

    def apply(self, msg: dict[str, Any], now: float) -> str | None:
        """Take one message from the feed; says what changed: ``"standings"`` (redraw the
        pages), ``"clock"`` or None."""
        kind = msg.get("type")
        if kind == "snapshot":
            self._snapshot(msg["state"], now)
            return "standings"
        if kind == "link":
            self.linked = False
            return "standings"
        if kind != "event":
            return None
        relinked = not self.linked
        self.linked = True
        sec = self.sections.get(msg.get("section", ""))
        name = msg["event"]
        if sec is None:
            return "standings" if relinked else None
        if name == "standings":
            sec.published_round = msg["round"]
            sec.provisional = tuple(msg.get("provisional") or ())
            sec.rows = list(msg["rows"])
            sec.hidden, sec.final = bool(msg.get("hidden")), sec.final or bool(msg.get("final"))
            return "standings"
        if name == "session_complete":
            sec.final, sec.clock = True, None
            return "standings"
        if name == "clock":
            if sec.final:
                return None  # the session is over: no clock on the screen
            sec.clock, sec.waiting = reading(msg, msg["round"], now), False
            return "standings" if relinked else "clock"
        if name == "round_started":
            sec.round = msg["round"]
            sec.matches = next_round(sec.matches, msg["round"], msg.get("tables") or [])
            return "standings"
        if name in ("matches", "match"):
            sec.matches = take_matches(sec.matches, msg)
            sec.matches_hidden = bool(msg.get("hidden"))
            return "standings"
        if name == "knockout":
            sec.knockout = bracket_of(msg)
            return "standings"
        return "standings" if relinked else None

    def _snapshot(self, state: dict[str, Any], now: float) -> None:
        self.event = state.get("event", "")
        self.linked = True
        self.sections = {}
        for letter, s in state.get("sections", {}).items():
            published = s.get("published") or {}
            self.sections[letter] = SectionFeed(
                letter,
                s["round"],
                s["rounds"],
                s["unit"],
                s["kind"],
                published.get("round") or 0,
                tuple(published.get("provisional") or ()),
                list(published.get("rows") or []),
                reading(s.get("clock"), s["round"], now),
                bool(published.get("hidden")),
                bool(s.get("final")),
                (s.get("clock") or {}).get("phase") == "waiting",
                list(s.get("matches") or []),
                bool(s.get("matches_hidden", published.get("hidden"))),
                s.get("knockout"),
            )
