"""The team results of a section as the report prints them (issue [MENDS] #25): the match
list round by round ("Round 3: 8 Hawks 39 – 11 3 Foxes, 18.73 – 1.27"), each match's
boards with their IMPs, each team's card (every round's opponent, IMPs and VPs) and the
cross-table. Text cells, as in ``hub/report/model.py``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MatchBoardRow:
    """One board of a match: the NS score in the room where the home team sits NS and in
    the one where it sits EW, and each team's IMPs on it."""

    board: int
    home_ns_score: str
    home_ew_score: str
    home_imps: str
    away_imps: str


@dataclass(frozen=True, slots=True)
class MatchLine:
    """One match of a round: the teams ("8 Hawks"), the IMPs and VPs each won, where the
    rooms played (``rooms``: "open 1: 8 NS – 3 EW · closed 2: 3 NS – 8 EW", the line-up of
    the teams by table as the store knows it), and its boards."""

    round: int
    match: int
    home: int
    home_label: str
    away: int
    away_label: str
    home_imps: str
    away_imps: str
    home_vp: str
    away_vp: str
    rooms: str
    boards: tuple[MatchBoardRow, ...]
    home_vp_exact: str = ""  # str(Fraction): the cross-table adds them up exactly (D4)
    away_vp_exact: str = ""
    open_table: int = 0  # the first segment's tables: home NS, home EW
    closed_table: int = 0


@dataclass(frozen=True, slots=True)
class ByeLine:
    """A team's bye in a round, and the VPs it scores."""

    round: int
    team: int
    label: str
    vp: str


@dataclass(frozen=True, slots=True)
class TeamCardRow:
    """One round on a team's card: the opponent (or the bye), where the team sat, the IMPs
    won and lost, the VPs and the running total."""

    round: int
    opponent: str
    seats: str
    imps_for: str
    imps_against: str
    vp: str
    running: str


@dataclass(frozen=True, slots=True)
class TeamCard:
    """A team's card: its players, its place and total, one row a round (and the VPs it
    has beyond its matches and byes: carried over, late joiner's, penalties)."""

    team: int
    label: str
    name: str
    players: str
    rank: str
    total: str
    imps: str
    rows: tuple[TeamCardRow, ...]
    other_vp: str = ""


@dataclass(frozen=True, slots=True)
class CrossRow:
    """One team's line of the cross-table: its VPs against each team of the header (""
    where they did not meet, "–" against itself), and its VPs from those matches."""

    team: int
    label: str
    name: str
    cells: tuple[str, ...]
    total: str


@dataclass(frozen=True, slots=True)
class CrossTable:
    """VPs of every team (rows) against every other (columns), in the ranking's order."""

    teams: tuple[int, ...]
    rows: tuple[CrossRow, ...]
