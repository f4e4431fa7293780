"""A USEBIO file's content as plain values, before it becomes XML.

``hub/export/usebio.py`` fills these from the store; ``hub/export/usebio_build.py`` turns
them into elements. Every field is already the text the file holds ("2NS", "A6040",
"45.83"), so the builders only place it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from hub.event.event_rules import Scoring


class EventType(Enum):
    """``EVENT_TYPE`` as Compscore3 writes it (``MP_PAIRS``, ``BUTLER_PAIRS``,
    ``CROSS_IMP``); teams as the NZ converter lists it (``TEAMS``): Compscore3 files of a
    teams event were not found."""

    MP_PAIRS = "MP_PAIRS"
    BUTLER_PAIRS = "BUTLER_PAIRS"
    CROSS_IMP = "CROSS_IMP"
    TEAMS = "TEAMS"

    @classmethod
    def of(cls, scoring: Scoring) -> EventType:
        return {
            Scoring.MP: cls.MP_PAIRS,
            Scoring.BUTLER: cls.BUTLER_PAIRS,
            Scoring.XIMP: cls.CROSS_IMP,
            Scoring.TEAMS: cls.TEAMS,
        }[scoring]

    @property
    def points(self) -> str | None:
        """The middle of the traveller line's ``NS_…``/``EW_…`` points elements (None for
        teams: the file has no element for a match's IMPs that we could confirm)."""
        return {
            EventType.MP_PAIRS: "MATCH_POINTS",
            EventType.BUTLER_PAIRS: "BUTLER_POINTS",
            EventType.CROSS_IMP: "CROSS_IMP_POINTS",
        }.get(self)

    @property
    def scoring_method(self) -> str | None:
        """``SCORING_METHOD``: Compscore3 writes ``IMPS`` at Butler and cross-IMPs, nothing
        at matchpoints."""
        return None if self is EventType.MP_PAIRS else "IMPS"


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    national_id: str | None = None


@dataclass(frozen=True, slots=True)
class Entrant:
    """A ``PAIR`` (or a ``TEAM``, with its ``name``): number as the file writes it ("2NS",
    "7"), direction ("NS", "EW" or "" where pairs move), place (None: not competing,
    decisions D16), totals."""

    number: str
    direction: str
    players: tuple[Player, ...]
    place: int | None
    total: str
    percentage: str | None = None
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Line:
    """A ``TRAVELLER_LINE``: empty fields are left out (an artificial score has no contract,
    declarer, lead or tricks)."""

    ns: str
    ew: str
    contract: str | None
    played_by: str | None
    lead: str | None
    tricks: int | None
    score: str
    ns_points: str | None = None
    ew_points: str | None = None


@dataclass(frozen=True, slots=True)
class Board:
    number: int
    lines: tuple[Line, ...]
    average: int | None = None  # BOARD_AVERAGE: the Butler datum


@dataclass(frozen=True, slots=True)
class MatchSegment:
    """One segment of a knockout match: its number (an extra set or sudden death goes on
    from the regular ones) and each team's IMPs in it."""

    number: int
    home_imps: str
    away_imps: str


@dataclass(frozen=True, slots=True)
class Match:
    """A knockout ``MATCH`` (our naming, issue [KNOCKOUT]): the bracket's match and round,
    the teams (home first; "" while unknown), the carry-over, the segments, the IMPs with
    the carry-over, the winner and how it was decided (``imps``, ``extra_set``,
    ``walk_over``, ``bye`` …; "" while undecided)."""

    identifier: str
    round: str
    home: str
    away: str
    home_carry_over: str | None
    away_carry_over: str | None
    segments: tuple[MatchSegment, ...]
    home_imps: str | None
    away_imps: str | None
    winner: str | None
    decided_by: str | None


@dataclass(frozen=True, slots=True)
class Section:
    letter: str
    entrants: tuple[Entrant, ...]
    boards: tuple[Board, ...]
    matches: tuple[Match, ...] = ()  # a knockout's


@dataclass(frozen=True, slots=True)
class Hand:
    """One seat's cards by suit, ranks high to low ("AQT86"); ``direction`` "North" …"""

    direction: str
    clubs: str
    diamonds: str
    hearts: str
    spades: str


@dataclass(frozen=True, slots=True)
class Event:
    """The whole file: the club, the event's header, its sections and the deals."""

    club_name: str
    event_type: EventType
    identifier: str
    description: str
    program_version: str
    winner_type: int
    title: str
    date: str
    venue: str
    session_count: int
    sections: tuple[Section, ...]
    hands: dict[int, tuple[Hand, ...]] = field(default_factory=dict)
