"""What the hub shows at the tables through a terminal port (decisions D18): the views a
port's adapter turns into its own messages. Value types only (any thread).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TableAssignment:
    section: str
    table: int
    round: int
    ns_pair: int
    ew_pair: int
    boards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ClockView:
    section: str
    round: int
    phase: str  # "play", "last_board", "no_new_board", "move", "paused", "break"
    seconds_left: int


@dataclass(frozen=True, slots=True)
class RankingLine:
    rank: str
    entrant: int
    total_hundredths: int
    names: str


@dataclass(frozen=True, slots=True)
class RankingView:
    section: str
    round: int
    page: int
    pages: int
    lines: tuple[RankingLine, ...]


@dataclass(frozen=True, slots=True)
class PlayerNameView:
    section: str
    table: int
    round: int
    seat: int
    number: str
    name: str


@dataclass(frozen=True, slots=True)
class NextSeatingView:
    """Where one pair of a table plays ``round`` (told when the table has finished the
    round before): at ``table``, NS or EW, against ``opponents``, on ``boards``. ``table``
    0: no table that round (a sit-out; after the last round: the session is over)."""

    section: str
    round: int
    pair: int
    table: int
    ns: bool
    opponents: int
    boards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SessionView:
    """What a terminal is told of its section's session with each assignment: ``waiting``,
    the round's clock waits for the director's start (play may begin all the same);
    ``final``, the session is over and the ranking pages are the final results."""

    section: str
    rounds: int
    waiting: bool = False
    final: bool = False
