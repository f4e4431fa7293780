"""Following results through a bracket (issue [KNOCKOUT]): who plays in each match once
the earlier results are in, which matches are ready, the choices of opponent so far, the
ranks (inherited in seed 002's Bonus Cup), the carry-over, and the final places.

``follow`` plays the bracket round by round (a slot only names an earlier round), so a
team's rank in a round is its rank after every earlier round. Byes: a rank with no entry
is missing (seed 003: 21 teams in a bracket of 32); its opponent goes through without
playing and the missing team gets no place. The final table is in ``places``.

With ``Ranking.INHERIT`` a team finishing above another takes its rank when better, a
walk-over included (seed 002: a late withdrawal counts as a walk-over); where ranks are
then equal (for choices, folds and the higher-placed carry-over) the better entry rank
goes first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring.errors import ScoringInputError
from scoring.knockout.bracket import (
    Bracket,
    CarryKind,
    ChoiceGroup,
    Match,
    Ranking,
    Slot,
    SlotKind,
)
from scoring.knockout.bracket_check import checked
from scoring.knockout.choice import ChoiceProcedure, Contender, inherited_rank
from scoring.knockout.choice_groups import MISSING, Seat, pair_group
from scoring.knockout.ko_match import share_carry_over
from scoring.knockout.places import PlaceRow, final_table

__all__ = ["BracketState", "Entry", "Outcome", "PlaceRow", "follow"]


@dataclass(frozen=True, slots=True)
class Entry:
    """A team entering the knockout; ``rank``: its seeding number or qualification place."""

    team: str
    rank: int
    country: str = ""


@dataclass(frozen=True, slots=True)
class Outcome:
    """A match's teams in finishing order, winner first (a three-way: all three). A
    walk-over: the absent team is the loser, placed as the loser."""

    order: tuple[str, ...]
    walk_over: bool = False


def follow(
    bracket: Bracket,
    entries: Sequence[Entry],
    outcomes: Mapping[str, Outcome],
    choices: Mapping[str, Sequence[tuple[str, str]]] | None = None,
    margins: Mapping[str, Fraction] | None = None,
) -> BracketState:
    """The bracket with these results: ``outcomes`` by match name, ``choices`` by group
    name as (chooser, chosen) team names in the order made, ``margins`` the IMP margin of
    the matches a SHARE carry-over needs (its size counts: the share goes to the winner).
    Refuses (``ScoringInputError``) a bracket that cannot work, bad entries, an outcome
    whose teams are not the match's, a refused choice."""
    return BracketState(checked(bracket), entries, outcomes, choices or {}, margins or {})


class BracketState:
    """Where a bracket stands (built by ``follow``)."""

    def __init__(
        self,
        bracket: Bracket,
        entries: Sequence[Entry],
        outcomes: Mapping[str, Outcome],
        choices: Mapping[str, Sequence[tuple[str, str]]],
        margins: Mapping[str, Fraction],
    ) -> None:
        self.bracket = bracket
        self.entries = _entries(bracket, entries)
        self.by_rank = {e.rank: e for e in self.entries.values()}
        self.outcomes = dict(outcomes)
        self.margins = dict(margins)
        self._ranks = {e.team: e.rank for e in self.entries.values()}
        self._seats: dict[str, tuple[Seat, ...]] = {}
        self._finish: dict[str, tuple[Seat, ...]] = {}
        self._procedures: dict[str, ChoiceProcedure] = {}
        self._chosen: dict[str, list[Seat]] = {}
        for name in outcomes:
            if not any(m.name == name for m in bracket.matches):
                raise ScoringInputError(
                    f"outcomes[{name}]", f"{name} is not a match of the bracket"
                )
        for group in choices:
            if not any(g.name == group for g in bracket.choices):
                raise ScoringInputError(f"choices[{group}]", f"{group} is no choice group")
        for rnd in bracket.rounds:
            for g in bracket.choices:
                if g.matches and bracket.match(g.matches[0]).round == rnd:
                    self._group(g, choices.get(g.name, ()))
            played = bracket.round_matches(rnd)
            for m in played:
                self._match(m)
            if bracket.ranking is Ranking.INHERIT:
                for m in played:
                    self._inherit(m)

    # -- the public view ------------------------------------------------------------------
    def teams(self, match: str) -> tuple[str | None, ...]:
        """The team in each slot; None while unknown or missing (a bye)."""
        return tuple(s.team for s in self._seats[self._name(match)])

    def bye(self, match: str) -> bool:
        """Whether the match is not played: a slot's team is missing (fewer entries than
        the bracket) and the others go through in slot order."""
        seats = self._seats[self._name(match)]
        present = sum(s.present for s in seats)
        return present < len(seats) and present <= self.bracket.match(match).advance

    def ready(self) -> tuple[str, ...]:
        """The matches that can be played now: teams known, not a bye, no outcome yet."""
        return tuple(
            m.name
            for m in self.bracket.matches
            if m.name not in self.outcomes
            and not self.bye(m.name)
            and all(s.team is not None for s in self._seats[m.name] if s.present)
        )

    def choosing(self, group: str) -> ChoiceProcedure | None:
        """The group's choice procedure once its teams are known (the choices replayed);
        None before that, and for a FOLD (no choice is made)."""
        if not any(g.name == group for g in self.bracket.choices):
            raise ScoringInputError("group", f"{group} is no choice group of the bracket")
        return self._procedures.get(group)

    def rank(self, team: str) -> int:
        """The team's rank now: its entry rank, or with ``Ranking.INHERIT`` the better rank
        of a team it beat (from then on)."""
        if team not in self._ranks:
            raise ScoringInputError("team", f"{team} is not an entry of the bracket")
        return self._ranks[team]

    def carry_over(self, match: str) -> tuple[Fraction, ...]:
        """The IMPs each slot's team starts the match with (its teams must be known)."""
        m = self.bracket.match(self._name(match))
        teams = self.teams(match)
        zero = tuple(Fraction(0) for _ in teams)
        c = m.carry_over
        if c.kind is CarryKind.NONE:
            return zero
        if any(t is None for t in teams):
            raise ScoringInputError("match", f"{match}: its teams are not known yet")
        if c.kind is CarryKind.FIXED:
            return tuple(c.imps if i == c.slot else Fraction(0) for i in range(len(teams)))
        if c.kind is CarryKind.HIGHER_PLACED:
            best = min(range(len(teams)), key=lambda i: self._order_key(str(teams[i])))
            return tuple(c.imps if i == best else Fraction(0) for i in range(len(teams)))
        earlier = self.teams(c.of_match)
        if set(earlier) - {None} != set(teams) or c.of_match not in self.outcomes:
            return zero  # the teams did not meet there: nothing to carry
        if c.of_match not in self.margins:
            raise ScoringInputError(
                "margins", f"{match}: its carry-over shares the margin of {c.of_match}: give it"
            )
        winner = self.outcomes[c.of_match].order[0]
        # JFR: rounded up to 0.1 unless whole; the size of the margin, to its winner.
        share = share_carry_over(abs(self.margins[c.of_match]), c.share * 100)
        return tuple(share if t == winner else Fraction(0) for t in teams)

    def places(self) -> tuple[PlaceRow, ...]:
        """Every team placed so far, best first; ranges renumbered by the teams actually
        there; teams sharing a range ordered by their rank before the knockout."""
        placed: list[tuple[str, str | None]] = []
        for m in self.bracket.matches:
            for k, text in enumerate(m.places[: len(m.slots)]):
                seat = self._finish[m.name][k]
                if text.strip() and seat.present:
                    placed.append((text, seat.team))
        return final_table(placed, {t: e.rank for t, e in self.entries.items()})

    @property
    def finished(self) -> bool:
        """Every entry has a place."""
        return len(self.places()) == len(self.entries)

    # -- building it ----------------------------------------------------------------------
    def _name(self, match: str) -> str:
        if match not in self._seats:
            raise ScoringInputError("match", f"{match} is not a match of the bracket")
        return match

    def _order_key(self, team: str) -> tuple[int, int]:
        """Better first: the rank now, then (equal after inheritance) the entry rank."""
        return (self._ranks[team], self.entries[team].rank)

    def _slot(self, slot: Slot, match: str) -> Seat:
        if slot.kind is SlotKind.RANK:
            entry = self.by_rank.get(slot.rank)
            return Seat(True, entry.team) if entry else MISSING
        if slot.kind is SlotKind.TEAM:
            if slot.team not in self.entries:
                raise ScoringInputError("entries", f"{match}: team {slot.team} is not an entry")
            return Seat(True, slot.team)
        if slot.kind is SlotKind.PLACED:
            return self._finish[slot.match][slot.place - 1]
        chosen = self._chosen[slot.choice]
        return chosen.pop(0)

    def _group(self, g: ChoiceGroup, made: Sequence[tuple[str, str]]) -> None:
        seats = [self._slot(s, g.name) for s in (*g.choosers, *g.pool)]
        proc, self._chosen[g.name] = pair_group(g, seats, made, self._order_key, self._contender)
        if proc is not None:
            self._procedures[g.name] = proc

    def _contender(self, team: str) -> Contender:
        return Contender(team, self._ranks[team], self.entries[team].country)

    def _match(self, m: Match) -> None:
        seats = tuple(self._slot(s, m.name) for s in m.slots)
        self._seats[m.name] = seats
        present = [s for s in seats if s.present]
        absent = [MISSING] * (len(seats) - len(present))
        outcome = self.outcomes.get(m.name)
        if self.bye(m.name):
            if outcome is not None:
                raise ScoringInputError(f"outcomes[{m.name}]", f"{m.name} is a bye: not played")
            self._finish[m.name] = (*present, *absent)
        elif outcome is None:
            self._finish[m.name] = (*(Seat(True) for _ in present), *absent)
        else:
            teams = [s.team for s in present]
            if None in teams:
                raise ScoringInputError(
                    f"outcomes[{m.name}]", f"{m.name}: its teams are not known yet"
                )
            if sorted(outcome.order) != sorted(str(t) for t in teams):
                playing = ", ".join(str(t) for t in teams)
                raise ScoringInputError(
                    f"outcomes[{m.name}]",
                    f"{m.name} is played by {playing}: give them in finishing order",
                )
            self._finish[m.name] = (*(Seat(True, t) for t in outcome.order), *absent)

    def _inherit(self, m: Match) -> None:
        """Each team finishing above another takes its rank when better (seed 002)."""
        if m.name not in self.outcomes or self.bye(m.name):
            return
        order = self.outcomes[m.name].order
        before = {t: self._ranks[t] for t in order}
        for i, winner in enumerate(order[: m.advance]):
            for loser in order[i + 1 :]:
                self._ranks[winner] = inherited_rank(self._ranks[winner], before[loser])


def _entries(bracket: Bracket, entries: Sequence[Entry]) -> dict[str, Entry]:
    out: dict[str, Entry] = {}
    ranks: set[int] = set()
    if len(entries) > bracket.entries:
        raise ScoringInputError(
            "entries", f"{len(entries)} teams: the bracket takes {bracket.entries}"
        )
    for e in entries:
        if not e.team or e.team in out:
            raise ScoringInputError("entries", f"team {e.team!r}: give each team once, by name")
        if not 1 <= e.rank <= bracket.entries or e.rank in ranks:
            raise ScoringInputError("entries", f"{e.team} rank {e.rank}: ranks are 1-"
                                    f"{bracket.entries}, each once")  # fmt: skip
        out[e.team] = e
        ranks.add(e.rank)
    return out
