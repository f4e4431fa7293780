"""What a clock display shows: a label, the round, the phase and the time left."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Phase(IntEnum):
    """Same numbers as the CLOCK message of BHWP/1."""

    PLAY = 0
    LAST_BOARD = 1
    NO_NEW_BOARD = 2
    MOVE = 3
    PAUSED = 4
    BREAK = 5


class Colour(IntEnum):
    GREEN = 0
    AMBER = 1
    RED = 2


@dataclass(frozen=True, slots=True)
class ClockShow:
    round: int
    phase: Phase
    seconds_left: int
    label: str = ""

    @property
    def time_text(self) -> str:
        """``mm:ss``, with a minus sign when over time."""
        s = abs(self.seconds_left)
        sign = "-" if self.seconds_left < 0 else ""
        return f"{sign}{s // 60:02d}:{s % 60:02d}"

    @property
    def colour(self) -> Colour:
        if self.seconds_left < 0 or self.phase is Phase.NO_NEW_BOARD:
            return Colour.RED
        if self.phase in (Phase.LAST_BOARD, Phase.MOVE, Phase.PAUSED):
            return Colour.AMBER
        return Colour.GREEN

    @property
    def title(self) -> str:
        if self.label:
            return self.label
        words = {
            Phase.PLAY: "play",
            Phase.LAST_BOARD: "last board",
            Phase.NO_NEW_BOARD: "no new board",
            Phase.MOVE: "move",
            Phase.PAUSED: "paused",
            Phase.BREAK: "break",
        }[self.phase]
        return f"Round {self.round} - {words}"
