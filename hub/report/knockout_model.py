"""A knockout section in the report and the exports (issue [KNOCKOUT]): the bracket's matches
as they were played (teams, carry-over, each segment's IMPs, the total, the winner and how
the match was decided) and the final places, never a VP ranking: a knockout match is won
in IMPs over its segments plus the carry-over (seed 003 §12.3).

``KoMatchResult`` and ``KnockoutResults`` hold exact values, for the exports;
``KnockoutReport`` the text cells the report prints (``hub/report/knockout_build.py``
makes both). ``KO_WORDS``: the report's words for them, by language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from hub.report.model import SectionReport
from scoring.knockout.ko_match import KoSegment
from scoring.knockout.places import PlaceRow


@dataclass(frozen=True, slots=True)
class KoMatchResult:
    """One bracket match: its teams in slot order (None while unknown; a three-way has
    three), the tables of its first segment, the carry-over of each team, the segments
    played (``regular`` of them are the match, any later an extra set or sudden death),
    the IMPs with the carry-over (None before a board is in), the winner, and
    ``decided_by``: a ``scoring.knockout.ko_match.Decider`` value, ``"bye"``, or ``""``
    while undecided (``next`` then says what must be played: ``"extra_set"`` …)."""

    match: str
    round: str
    teams: tuple[int | None, ...]
    tables: tuple[int, int] | None
    carry: tuple[Fraction, ...]
    segments: tuple[KoSegment, ...]
    regular: int
    totals: tuple[Fraction, Fraction] | None
    winner: int | None
    decided_by: str
    next: str = ""
    feeds: tuple[tuple[str, int] | None, ...] = ()  # per slot: (match, place) it comes from
    boards: int = 0  # of the regular segments

    @property
    def walk_over(self) -> bool:
        return self.decided_by == "walk_over"


@dataclass(frozen=True, slots=True)
class KnockoutResults:
    """A knockout section: its bracket's name and rounds, every match in bracket order,
    the places so far (best first) and whether every team has its place."""

    section: str
    name: str
    rounds: tuple[str, ...]
    matches: tuple[KoMatchResult, ...]
    places: tuple[PlaceRow, ...]
    finished: bool


@dataclass(frozen=True, slots=True)
class KoSegmentCell:
    """One segment's IMPs: ``label`` "1", "2" … or the extension's word ("extra set")."""

    label: str
    home: str
    away: str


@dataclass(frozen=True, slots=True)
class KoMatchLine:
    """A match as the report prints it: "QF-2 · 4 Team 4 0 – 10 5 Team 5", its
    carry-over, segments, winner and how it was decided ("after an extra set")."""

    match: str
    round: str
    home: int
    home_label: str
    away: int
    away_label: str
    tables: str
    home_carry: str
    away_carry: str
    segments: tuple[KoSegmentCell, ...]
    home_imps: str
    away_imps: str
    winner: int
    winner_label: str
    decided: str


@dataclass(frozen=True, slots=True)
class KoPlaceLine:
    """A team's final place ("1", or a shared range "5-8")."""

    place: str
    team: int
    label: str
    name: str


@dataclass(frozen=True, slots=True)
class KnockoutReport:
    """What the report prints of a knockout section: the places, the matches round by
    round (``rounds`` in playing order), the bracket's picture (an SVG whose every text
    is escaped, or "") and the knockout's words in the report's language (``KO_WORDS``)."""

    name: str
    rounds: tuple[str, ...]
    places: tuple[KoPlaceLine, ...]
    matches: tuple[KoMatchLine, ...]
    picture: str
    words: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class KnockoutSectionReport(SectionReport):
    """A teams section that is a knockout: the section's report with its ``knockout``
    (its VP ranking, match list, team cards and cross-table left empty)."""

    knockout: KnockoutReport | None = None


_EN = {
    "knockout": "Knockout",
    "places": "Final places",
    "carry_over": "Carry-over",
    "segment": "Segment",
    "total": "Total",
    "winner": "Winner",
    "decided": "Decided",
    "extra_set": "extra set",
    "sudden_death": "sudden death",
    "by_imps": "on IMPs",
    "by_walk_over": "walk-over",
    "by_extra_set": "after an extra set",
    "by_sudden_death": "after sudden death",
    "by_total_points": "on total points",
    "by_boards_won": "on boards won",
    "by_lot": "by lot",
    "by_higher_placed": "higher placed",
    "by_bye": "bye",
    "not_played": "not played yet",
}
_CS = {  # seed 003's words: utkání, vítěz, nenastoupil (§15), prodloužení (§12.5)
    "knockout": "Vyřazovací část",
    "places": "Konečné pořadí",
    "carry_over": "Přenos",
    "segment": "Segment",
    "total": "Celkem",
    "winner": "Vítěz",
    "decided": "Rozhodnuto",
    "extra_set": "prodloužení",
    "sudden_death": "náhlá smrt",
    "by_imps": "na IMP",
    "by_walk_over": "soupeř nenastoupil",
    "by_extra_set": "po prodloužení",
    "by_sudden_death": "po náhlé smrti",
    "by_total_points": "na body",
    "by_boards_won": "na vyhraná rozdání",
    "by_lot": "losem",
    "by_higher_placed": "lépe umístěné družstvo",
    "by_bye": "volno",
    "not_played": "dosud nehráno",
}
_SV = {
    "knockout": "Utslagning",
    "places": "Slutplacering",
    "carry_over": "Överfört",
    "segment": "Omgång",
    "total": "Totalt",
    "winner": "Vinnare",
    "decided": "Avgjort",
    "extra_set": "extra omgång",
    "sudden_death": "sudden death",
    "by_imps": "på IMP",
    "by_walk_over": "walk over",
    "by_extra_set": "efter extra omgång",
    "by_sudden_death": "efter sudden death",
    "by_total_points": "på totalpoäng",
    "by_boards_won": "på vunna brickor",
    "by_lot": "genom lottning",
    "by_higher_placed": "högre placerat",
    "by_bye": "fri",
    "not_played": "ej spelad",
}
_PL = {
    "knockout": "Puchar (KO)",
    "places": "Końcowa klasyfikacja",
    "carry_over": "Carry-over",
    "segment": "Segment",
    "total": "Razem",
    "winner": "Zwycięzca",
    "decided": "Rozstrzygnięcie",
    "extra_set": "dogrywka",
    "sudden_death": "nagła śmierć",
    "by_imps": "na IMP",
    "by_walk_over": "walkower",
    "by_extra_set": "po dogrywce",
    "by_sudden_death": "po nagłej śmierci",
    "by_total_points": "na punkty",
    "by_boards_won": "na wygrane rozdania",
    "by_lot": "losowanie",
    "by_higher_placed": "wyżej rozstawiony",
    "by_bye": "wolny los",
    "not_played": "jeszcze nie grany",
}
KO_WORDS: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {"en": _EN, "cs": _CS, "sv": _SV, "pl": _PL}
)


def ko_words(language: str) -> Mapping[str, str]:
    """The knockout's words in ``language`` (English for a language without them)."""
    return KO_WORDS.get(language, _EN)
