"""The report model: the final results of an event as plain values, ready to print.

``hub/report/build.py`` makes it from the store; ``hub/report/render.py`` turns it into HTML
and PDF. Every cell is already the text a TD reads (in the event's language), so the same
model serves the printed sheet, the web page and the static export alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from hub.report.hands import Hands
from hub.report.team_model import ByeLine, CrossTable, MatchLine, TeamCard


@dataclass(frozen=True, slots=True)
class RankingRow:
    """One line of the ranking: place ("3=" when shared), the pair's label and names, its
    total (percent at MP, IMPs or VPs) and its points out of the top ("7.5 / 12");
    ``section``, in a ranking of every section (the web pages' overall one), the row's
    section letter, so its label links to the right card."""

    rank: str
    pair: int
    label: str
    names: str
    total: str
    points: str
    boards: int
    section: str = ""


@dataclass(frozen=True, slots=True)
class RankingGroup:
    """The ranking of one field: a direction's in a two-winner Mitchell (NS first), or all."""

    title: str
    rows: tuple[RankingRow, ...]


@dataclass(frozen=True, slots=True)
class TravellerRow:
    """One table's result on a board as the traveller shows it."""

    table: int
    round: int
    ns: str
    ew: str
    contract: str
    by: str
    result: str
    lead: str
    ns_score: str
    ew_score: str
    ns_points: str
    ew_points: str


@dataclass(frozen=True, slots=True)
class BoardTraveller:
    """Every result of one board, with its dealer and vulnerability; the deal (``hands``),
    the makeable contracts and par when the event has hand records (the web pages show
    them; the printed report does not)."""

    board: int
    dealer: str
    vulnerable: str
    rows: tuple[TravellerRow, ...]
    hands: Hands | None = None
    makeable: tuple[str, ...] = ()
    par: str = ""


@dataclass(frozen=True, slots=True)
class CardRow:
    """One board on a pair's score card, from that pair's side of the table."""

    round: int
    board: int
    opponents: str
    direction: str
    contract: str
    by: str
    result: str
    score: str
    points: str
    percent: str


@dataclass(frozen=True, slots=True)
class ScoreCard:
    """A pair's personal score card: every board it played, and its totals."""

    pair: int
    label: str
    names: str
    rank: str
    rows: tuple[CardRow, ...]
    points: str
    total: str


@dataclass(frozen=True, slots=True)
class SectionReport:
    """One section: its ranking, its travellers and its pairs' score cards; a teams
    section also its matches round by round, its byes, its team cards and its cross-table
    (``hub/report/team_model.py``)."""

    letter: str
    movement: str
    rankings: tuple[RankingGroup, ...]
    travellers: tuple[BoardTraveller, ...]
    cards: tuple[ScoreCard, ...]
    matches: tuple[MatchLine, ...] = ()
    byes: tuple[ByeLine, ...] = ()
    team_cards: tuple[TeamCard, ...] = ()
    cross_table: CrossTable | None = None


@dataclass(frozen=True, slots=True)
class ReportModel:
    """The whole report: the event's title lines, the language and its words, the sections.
    ``imps`` says the totals are IMPs (else percentages); ``teams`` that they are VPs."""

    title: str
    subtitle: str
    language: str
    words: Mapping[str, str]
    imps: bool
    teams: bool
    sections: tuple[SectionReport, ...] = field(default_factory=tuple)
