"""A bracket as data (issue [KNOCKOUT]): matches whose places (slots) are filled by a team
of the entry list (by rank or by name), by a named match's winner, loser or k-th placed
team, or by a choice of opponent; each finishing position of a match goes on to a later
match (a slot that names it) or to a range of final places.

The bracket file (docs/brackets.md) reads into these values; ``bracket_check`` refuses a
bracket that cannot work, ``routing`` follows results through it. Pure values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction


class SlotKind(Enum):
    RANK = "rank"  # the entry ranked ``rank`` (seeding number or qualification place)
    TEAM = "team"  # the entry named ``team``
    PLACED = "placed"  # the team placed ``place`` in match ``match`` (1: its winner)
    CHOICE = "choice"  # filled by the choices of group ``choice``


@dataclass(frozen=True, slots=True)
class Slot:
    """Who takes one place in a match."""

    kind: SlotKind
    rank: int = 0
    team: str = ""
    match: str = ""
    place: int = 0
    choice: str = ""

    @staticmethod
    def by_rank(rank: int) -> Slot:
        return Slot(SlotKind.RANK, rank=rank)

    @staticmethod
    def named(team: str) -> Slot:
        return Slot(SlotKind.TEAM, team=team)

    @staticmethod
    def winner(match: str) -> Slot:
        return Slot(SlotKind.PLACED, match=match, place=1)

    @staticmethod
    def loser(match: str) -> Slot:
        return Slot(SlotKind.PLACED, match=match, place=2)

    @staticmethod
    def placed(match: str, place: int) -> Slot:
        return Slot(SlotKind.PLACED, match=match, place=place)

    @staticmethod
    def chosen(group: str) -> Slot:
        return Slot(SlotKind.CHOICE, choice=group)

    def __str__(self) -> str:
        if self.kind is SlotKind.RANK:
            return f"rank {self.rank}"
        if self.kind is SlotKind.TEAM:
            return f"team {self.team}"
        if self.kind is SlotKind.CHOICE:
            return f"a choice in {self.choice}"
        return {1: "winner", 2: "loser"}.get(self.place, f"place {self.place}") + (
            f" of {self.match}"
        )


class CarryKind(Enum):
    NONE = "none"
    FIXED = "fixed"  # ``imps`` to the team in slot ``slot`` (seed 000: 6.5 to the unbeaten)
    HIGHER_PLACED = "higher_placed"  # ``imps`` to the better-ranked team (seed 001: 0.1)
    SHARE = "share"  # ``share`` of the difference of match ``of_match`` (JFR), to its winner


@dataclass(frozen=True, slots=True)
class CarryOver:
    kind: CarryKind = CarryKind.NONE
    imps: Fraction = Fraction(0)
    slot: int = 0
    share: Fraction = Fraction(0)
    of_match: str = ""


@dataclass(frozen=True, slots=True)
class Match:
    """One knockout match. ``slots`` are two (home first) or three (a three-way, seed
    000). ``places[k]`` is where the team finishing k+1-th goes when no later match
    takes it: a final place or range ("3", "9-16"), else "". A three-way's first
    ``advance`` teams are its winners. ``tie`` is the event's tie rule for the match, in
    order (``ko_match.TieRule`` names)."""

    name: str
    round: str
    slots: tuple[Slot, ...]
    segments: int = 2
    boards_per_segment: int = 16
    carry_over: CarryOver = field(default_factory=CarryOver)
    tie: tuple[str, ...] = ()
    places: tuple[str, ...] = ()
    advance: int = 1

    @property
    def three_way(self) -> bool:
        return len(self.slots) == 3


class ChoiceOrder(Enum):
    LISTED = "listed"  # the ``choosers`` in the order given (table slot, match number)
    RANK = "rank"  # the best-ranked team not yet paired chooses next, from all the others
    TOP_HALF = "top_half"  # the pool by rank: its top half choose in turn from the rest
    FOLD = "fold"  # no choice: the pool by rank, best v worst, second v second worst …


@dataclass(frozen=True, slots=True)
class ChoiceGroup:
    """Matches whose teams are paired by choice of opponent. With ``LISTED`` the
    ``choosers`` choose in turn among the ``pool``, chooser i playing ``matches[i]`` at
    home; with ``RANK`` every team of ``pool`` takes part, the best-ranked unpaired one
    choosing from the others, the k-th pair made playing ``matches[k]`` (the chooser at
    home); with ``TOP_HALF`` the pool is ranked at the time of the choice and its better
    half choose in rank order among the other half (seed 002 BC08-A); with ``FOLD`` the
    ranked pool is paired best v worst (seed 002 BC32-B), no choice made. ``rules`` names
    extra rules of the event (``same_country``: seed 001)."""

    name: str
    matches: tuple[str, ...]
    pool: tuple[Slot, ...]
    choosers: tuple[Slot, ...] = ()
    order: ChoiceOrder = ChoiceOrder.LISTED
    rules: tuple[str, ...] = ()


class Ranking(Enum):
    FIXED = "fixed"  # a team keeps its entry rank
    INHERIT = "inherit"  # a winner takes its loser's rank when better (seed 002 Bonus Cup)


@dataclass(frozen=True, slots=True)
class Bracket:
    """A whole knockout: ``entries`` teams, its rounds in playing order, its matches and
    choice groups."""

    name: str
    entries: int
    rounds: tuple[str, ...]
    matches: tuple[Match, ...]
    choices: tuple[ChoiceGroup, ...] = ()
    ranking: Ranking = Ranking.FIXED

    def match(self, name: str) -> Match:
        return next(m for m in self.matches if m.name == name)

    def round_matches(self, rnd: str) -> tuple[Match, ...]:
        return tuple(m for m in self.matches if m.round == rnd)
