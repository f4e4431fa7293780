"""Choice of opponent (issue [KNOCKOUT]): the pure state machine behind the director's
choice commands and the console's "who chooses next, and from whom".

- ``listed``: the choosers in a given order (seed 002 CC16: the winners at tables 1-8,
  table 1 first; seed 002 veterans: by match number) choose among the ``pool``.
- ``top_half``: the better half by rank choose in rank order among the other half (seed
  001 R16, seed 002 CC32 and BC08-A); a withdrawal before the choice moves the next
  ranked team up to a choosing position (seed 002 BC08-A).
- ``by_rank``: the best-ranked unpaired team chooses among all the others (seed 001 QF and
  SF), optionally with seed 001's ``same_country`` rule.

An absent chooser loses its turn and chooses on arrival; ``close`` gives the absent ones
the teams left over, best-placed absent the worst-placed left (seed 002 §17). A choice with
one possible opponent is made at once ("paired automatically"). ``fold`` pairs best v worst
without choice (seed 002 BC32-A/B, BC16-A/B); ``inherited_rank`` is seed 002's Bonus Cup
ranking. Ranks: smaller is better; teams of equal rank keep the order they are given in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from scoring.errors import ScoringInputError
from scoring.knockout.bracket import ChoiceOrder

SAME_COUNTRY = "same_country"
RULES = (SAME_COUNTRY,)
WALK_OVER = ""  # the opponent of a chooser left without one after a withdrawal (BC08-A)


@dataclass(frozen=True, slots=True)
class Contender:
    """A team taking part in a choice: ``rank`` is its qualification place or inherited
    rank (smaller is better); ``country`` matters only for ``same_country``."""

    team: str
    rank: int
    country: str = ""


class ChoiceRefused(ScoringInputError):
    """A choice, absence, arrival, withdrawal or close the rules do not allow; the message
    says why and what is allowed."""


Pair = tuple[str, str]


@dataclass(frozen=True)
class ChoiceProcedure:
    """One choice of opponents in progress. ``teams``: in turn order (``listed``: the
    choosers then the pool; otherwise by rank); ``positions``: how many choose (the
    listed choosers, or half the teams); ``needs``: (country, compatriot pairs it must
    have) under ``same_country``. Each command returns the next state."""

    order: ChoiceOrder
    teams: tuple[Contender, ...]
    positions: int
    needs: tuple[tuple[str, int], ...] = ()
    made: tuple[Pair, ...] = ()
    absentees: frozenset[str] = frozenset()
    withdrawals: frozenset[str] = frozenset()

    @staticmethod
    def listed(
        choosers: Sequence[Contender], pool: Sequence[Contender], rules: Sequence[str] = ()
    ) -> ChoiceProcedure:
        """``choosers`` choose in the order given among ``pool`` (table slot, match number)."""
        if not choosers or len(choosers) != len(pool):
            raise ScoringInputError(
                "pool",
                f"as many choosers as teams to choose from (here {len(choosers)} and "
                f"{len(pool)}), at least one",
            )
        _rules(rules, allowed=())
        teams = _checked([*choosers, *pool])
        return ChoiceProcedure(ChoiceOrder.LISTED, teams, len(choosers))._settle()

    @staticmethod
    def by_rank(teams: Sequence[Contender], rules: Sequence[str] = ()) -> ChoiceProcedure:
        """The best-ranked unpaired team chooses among all the others, then the next
        (seed 001 quarter- and semi-finals; ``same_country`` for its country rules)."""
        ranked = _ranked(teams)
        needs = _compatriot_needs(ranked) if SAME_COUNTRY in _rules(rules, RULES) else ()
        return ChoiceProcedure(ChoiceOrder.RANK, ranked, len(ranked), needs)._settle()

    @staticmethod
    def top_half(teams: Sequence[Contender], rules: Sequence[str] = ()) -> ChoiceProcedure:
        """The better half by rank choose in rank order among the other half (seed 001
        R16: 1st-8th among 9th-16th; seed 002 CC32: 1-16 among 17-32; BC08-A: 1-4 among
        5-8)."""
        _rules(rules, allowed=())
        ranked = _ranked(teams)
        return ChoiceProcedure(ChoiceOrder.TOP_HALF, ranked, len(ranked) // 2)._settle()

    @property
    def pairs(self) -> tuple[Pair, ...]:
        """(chooser, chosen) in the order made, automatic pairings included; a chosen
        ``WALK_OVER`` ("") means no opponent was left (a withdrawal, BC08-A)."""
        return self.made

    @property
    def match_pairs(self) -> tuple[Pair, ...]:
        """The pairs in the choosers' turn order (seed 002 §17: an absent team keeps its
        table); for ``by_rank``, where no turn is fixed in advance, in the order made."""
        if self.order is ChoiceOrder.RANK:
            return self.made
        turn = [c.team for c in self._choosers()]
        return tuple(sorted(self.made, key=lambda p: turn.index(p[0])))

    @property
    def done(self) -> bool:
        return all(c.team in self._paired() for c in self._live())

    @property
    def waiting(self) -> tuple[Contender, ...]:
        """The absent teams still to be paired (their arrival, or ``close``)."""
        return tuple(c for c in self._open() if c.team in self.absentees)

    def next_chooser(self) -> Contender | None:
        """The team to choose now; None when every pair is made or only absent choosers
        are left (then ``close``)."""
        return next((c for c in self._open() if c.team not in self.absentees), None)

    def options(self) -> tuple[Contender, ...]:
        """Whom the next chooser may choose now."""
        chooser = self.next_chooser()
        return () if chooser is None else self._options_for(chooser)

    def choose(self, chooser: str | Contender, chosen: str | Contender) -> ChoiceProcedure:
        """The next chooser's choice; refused (with why) if the rules do not allow it."""
        who, whom = self._find(chooser, "chooser"), self._find(chosen, "chosen")
        self._not_over()
        paired = self._paired()
        if who.team in paired:
            raise ChoiceRefused("chooser", f"{who.team} already plays {paired[who.team]}")
        if who.team in self.absentees:
            raise ChoiceRefused("chooser", f"{who.team} is absent: record its arrival first")
        if who not in self._choosers():
            raise ChoiceRefused("chooser", f"{who.team} is to be chosen; it does not choose")
        turn = self.next_chooser()
        if turn is None or turn != who:
            raise ChoiceRefused("chooser", f"it is {_names([turn])}'s turn to choose")
        allowed = self._options_for(who)
        if whom not in allowed:
            why = self._why_not(who, whom)
            raise ChoiceRefused(
                "chosen",
                f"{who.team} may not choose {whom.team} ({why}); it may choose {_names(allowed)}",
            )
        return self._with((who.team, whom.team))._settle()

    def absent(self, team: str | Contender) -> ChoiceProcedure:
        """A choosing team not present: its turn passes to the next (seed 002 §17)."""
        who = self._unpaired(team)
        if who.team in self.absentees:
            raise ChoiceRefused("team", f"{who.team} is already absent")
        if who not in self._choosers():
            raise ChoiceRefused("team", f"{who.team} does not choose: its absence changes nothing")
        return replace(self, absentees=self.absentees | {who.team})._settle()

    def arrived(self, team: str | Contender) -> ChoiceProcedure:
        """An absent team arrives: it chooses next among the teams still left of the
        original lower half (seed 002 §17)."""
        who = self._unpaired(team)
        if who.team not in self.absentees:
            raise ChoiceRefused("team", f"{who.team} is not absent")
        return replace(self, absentees=self.absentees - {who.team})._settle()

    def withdraw(self, team: str | Contender) -> ChoiceProcedure:
        """A team drops out before it is paired: the next ranked moves up to a choosing
        position (seed 002 BC08-A); a chooser left without an opponent gets a walk over."""
        if self.order is not ChoiceOrder.TOP_HALF:
            raise ChoiceRefused(
                "team",
                "seed 002's withdrawal rule is for choices by the better half (BC08-A): "
                "here the director must settle it",
            )
        who = self._unpaired(team, ": a later withdrawal is a walk over (seed 002 BC08-A)")
        return replace(
            self, withdrawals=self.withdrawals | {who.team}, absentees=self.absentees - {who.team}
        )._settle()

    def close(self) -> ChoiceProcedure:
        """The procedure ends: the absent choosers get the teams left over, the
        best-placed absent the worst-placed left, and so on (seed 002 §17)."""
        self._not_over()
        turn = self.next_chooser()
        if turn is not None:
            raise ChoiceRefused("close", f"{turn.team} is present and still to choose")
        proc = self
        while not proc.done:
            best = min(proc.waiting, key=proc._place)
            worst = max(proc._options_for(best), key=proc._place)
            proc = proc._with((best.team, worst.team))._settle()
        return proc

    def _live(self) -> list[Contender]:
        return [c for c in self.teams if c.team not in self.withdrawals]

    def _paired(self) -> dict[str, str]:
        paired = {a: b for a, b in self.made}
        paired.update({b: a for a, b in self.made if b != WALK_OVER})
        return paired

    def _choosers(self) -> tuple[Contender, ...]:
        """The choosing teams in turn order. After a withdrawal in ``top_half`` the teams
        that chose keep their places and the best of the unpaired fill the others."""
        if self.order is not ChoiceOrder.TOP_HALF:
            return tuple(self.teams[: self.positions])
        chose = {a for a, _ in self.made}
        paired = self._paired()
        live = self._live()
        kept = [c for c in live if c.team in chose]
        free = [c for c in live if c.team not in paired][: self.positions - len(kept)]
        return tuple(c for c in live if c in kept or c in free)

    def _open(self) -> list[Contender]:
        """The choosers not yet paired, in turn order."""
        paired = self._paired()
        return [c for c in self._choosers() if c.team not in paired]

    def _options_for(self, chooser: Contender) -> tuple[Contender, ...]:
        paired = self._paired()
        takers = () if self.order is ChoiceOrder.RANK else self._choosers()
        return tuple(
            c
            for c in self._live()
            if c.team not in paired
            and c != chooser
            and c not in takers
            and self._compatriots_kept(chooser, c)
        )

    def _compatriots_kept(self, a: Contender, b: Contender) -> bool:
        """Seed 001: after a v b, can each country still have the compatriot pairs its
        rule asks for (pairs made within it + half its unpaired teams)?"""
        if not self.needs:
            return True
        after = self._with((a.team, b.team))
        paired = after._paired()
        return all(
            after._within(land)
            + sum(c.country == land and c.team not in paired for c in self.teams) // 2
            >= need
            for land, need in self.needs
        )

    def _within(self, land: str) -> int:
        """The pairs made of two teams of ``land``."""
        country = {c.team: c.country for c in self.teams}
        return sum(country[x] == land == country.get(y) for x, y in self.made)

    def _why_not(self, who: Contender, whom: Contender) -> str:
        paired = self._paired()
        if whom == who:
            return "a team cannot choose itself"
        if whom.team in self.withdrawals:
            return f"{whom.team} has withdrawn"
        if whom.team in paired:
            return f"{whom.team} already plays {paired[whom.team]}"
        if whom in self._choosers() and self.order is not ChoiceOrder.RANK:
            return f"{whom.team} is a choosing team"
        return "seed 001: the teams of one country must then play each other"

    def _automatic(self) -> Pair | None:
        """A pairing no choice can change, or None: two compatriots who must play each
        other; the last chooser and the team left; a chooser with one possible opponent;
        a chooser with none left (a walk over)."""
        paired = self._paired()
        for land, need in self.needs:
            free = [c for c in self.teams if c.country == land and c.team not in paired]
            if self._within(land) < need and len(free) == 2:
                return (free[0].team, free[1].team)
        waiting = self._open()
        if not waiting:
            return None
        first = self._options_for(waiting[0])
        if not first:
            return (waiting[0].team, WALK_OVER)
        if len(first) == 1 and len(waiting) == (2 if self.order is ChoiceOrder.RANK else 1):
            return (waiting[0].team, first[0].team)
        turn = self.next_chooser()
        allowed = () if turn is None else self._options_for(turn)
        return (turn.team, allowed[0].team) if turn is not None and len(allowed) == 1 else None

    def _settle(self) -> ChoiceProcedure:
        proc = self
        while (pair := proc._automatic()) is not None:
            proc = proc._with(pair)
        return proc

    def _with(self, pair: Pair) -> ChoiceProcedure:
        return replace(self, made=(*self.made, pair))

    def _place(self, c: Contender) -> tuple[int, int]:
        return (c.rank, self.teams.index(c))

    def _find(self, team: str | Contender, field: str) -> Contender:
        name = team.team if isinstance(team, Contender) else team
        found = next((c for c in self.teams if c.team == name), None)
        if found is None:
            raise ChoiceRefused(field, f"no team {name!r} here; the teams: {_names(self.teams)}")
        if found.team in self.withdrawals:
            raise ChoiceRefused(field, f"{name} has withdrawn")
        return found

    def _unpaired(self, team: str | Contender, then: str = "") -> Contender:
        self._not_over()
        who = self._find(team, "team")
        paired = self._paired()
        if who.team in paired:
            raise ChoiceRefused("team", f"{who.team} already plays {paired[who.team]}{then}")
        return who

    def _not_over(self) -> None:
        if self.done:
            raise ChoiceRefused("choice", "every pair is made: the choice is over")


def fold(teams: Sequence[Contender]) -> tuple[Pair, ...]:
    """Best v worst, second v second worst … (seed 002 BC32-A: 33 v 64, 34 v 63 …)."""
    ranked = _ranked(teams)
    n = len(ranked)
    return tuple((ranked[i].team, ranked[n - 1 - i].team) for i in range(n // 2))


def inherited_rank(winner_rank: int, loser_rank: int) -> int:
    """Seed 002 Bonus Cup: a winner takes its beaten opponent's rank when that is better."""
    _rank_checked(winner_rank, "winner_rank")
    return min(winner_rank, _rank_checked(loser_rank, "loser_rank"))


def _rank_checked(rank: int, field: str) -> int:
    if isinstance(rank, bool) or not isinstance(rank, int) or rank < 1:
        raise ScoringInputError(field, f"a rank is a whole number from 1, not {rank!r}")
    return rank


def _checked(teams: Sequence[Contender]) -> tuple[Contender, ...]:
    names = Counter(c.team for c in teams)
    if "" in names or any(n > 1 for n in names.values()):
        twice = sorted(t for t, n in names.items() if n > 1)
        raise ScoringInputError("teams", f"each team named, once (twice: {twice})")
    return tuple(c for c in teams if _rank_checked(c.rank, "rank"))


def _ranked(teams: Sequence[Contender]) -> tuple[Contender, ...]:
    if not teams or len(teams) % 2:
        raise ScoringInputError("teams", f"an even number of teams, at least 2 (not {len(teams)})")
    return tuple(sorted(_checked(teams), key=lambda c: c.rank))


def _rules(rules: Sequence[str], allowed: Sequence[str]) -> frozenset[str]:
    for word in rules:
        if word not in allowed:
            known = ", ".join(allowed) or "none"
            raise ScoringInputError("rules", f"unknown rule {word!r} here; allowed: {known}")
    return frozenset(rules)


def _compatriot_needs(teams: tuple[Contender, ...]) -> tuple[tuple[str, int], ...]:
    """Seed 001: in the quarter-finals 3 teams of one country give one compatriot pair, 4
    give two; in the semi-finals two teams of one country play each other."""
    if len(teams) not in (4, 8):
        raise ScoringInputError(
            "rules", f"same_country is seed 001's rule for 8 or 4 teams, not {len(teams)}"
        )
    if any(not c.country for c in teams):
        raise ScoringInputError("country", "same_country needs every team's country")
    needs = []
    for land, n in sorted(Counter(c.country for c in teams).items()):
        if len(teams) == 8 and n > 4:
            raise ScoringInputError(
                "country",
                f"seed 001's rule covers 3 or 4 quarter-finalists of one country, "
                f"not {n} ({land}): the director must pair them",
            )
        need = n // 2 if len(teams) == 4 else {3: 1, 4: 2}.get(n, 0)
        if need:
            needs.append((land, need))
    return tuple(needs)


def _names(teams: Sequence[Contender | None]) -> str:
    return ", ".join(c.team for c in teams if c is not None) or "nobody"
