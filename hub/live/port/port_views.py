"""What the hub shows at the tables through a terminal port (decisions D18): the views a
port's adapter turns into its own messages. Value types only (any thread).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from hub.event.double_dummy import SEATS, STRAINS, DoubleDummy, makeable, par_text


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


@dataclass(frozen=True, slots=True)
class HandView:
    """A board's hand record for a table that has played it (issue 14): the deal (PBN,
    ``N:…``), the double-dummy tricks (NT, ♠, ♥, ♦, ♣, each by N, S, E, W), the par score
    to NS and the par and makeable contracts as a hand-record sheet prints them."""

    section: str
    board: int
    deal: str
    tricks: tuple[int, ...]
    par_score: int
    par: str
    makeable: str

    @classmethod
    def of(cls, section: str, dd: DoubleDummy) -> HandView:
        tricks = tuple(dd.tricks[(seat, strain)] for strain in STRAINS for seat in SEATS)
        return cls(
            section, dd.board, dd.deal, tricks, dd.par_score, par_text(dd), ", ".join(makeable(dd))
        )


@dataclass(frozen=True, slots=True)
class MatchScoreView:
    """The running score of a table's team match (issue 16 [TEAMS]), told at the end of
    the table's segment: the home team (NS in the open room, EW in the closed room) and
    the away team, IMPs won by each and VPs on the event's scale over the ``scored``
    boards played in both rooms; ``out`` boards of the round still to compare."""

    section: str
    round: int
    home: int
    away: int
    home_name: str
    away_name: str
    home_imps: Fraction
    away_imps: Fraction
    home_vp: Fraction
    away_vp: Fraction
    scored: int
    out: int
