"""The bracket checker (issue [KNOCKOUT]): refuses a bracket that cannot work before a
team plays in it, naming the match (or the choice group) at fault.

A bracket works when every slot is filled by exactly one thing (an entry rank, a named
team, a finishing position of an earlier round's match, a choice group), every finishing
position of every match goes exactly one way (a later slot or a final place range), and
the place ranges, in order, cover places 1 to ``entries`` with exactly as many teams in
each as it has places. Rounds are played in the order listed, so a slot may only name a
match of an earlier round.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scoring.errors import ScoringInputError
from scoring.knockout.bracket import (
    Bracket,
    CarryKind,
    ChoiceGroup,
    ChoiceOrder,
    Match,
    Slot,
    SlotKind,
)
from scoring.knockout.ko_match import TieRule, check_chain

_RANGE = re.compile(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?")


@dataclass(frozen=True, slots=True)
class BracketProblem:
    """One reason the bracket cannot work; ``match`` names the match or choice group
    (empty for the bracket as a whole)."""

    match: str
    message: str


def place_range(text: str) -> tuple[int, int] | None:
    """``"3"`` -> (3, 3), ``"9-16"`` -> (9, 16); None when not a place or range."""
    found = _RANGE.fullmatch(text)
    if not found:
        return None
    first = int(found[1])
    last = int(found[2]) if found[2] else first
    return (first, last) if 1 <= first <= last else None


def check_bracket(bracket: Bracket) -> list[BracketProblem]:
    """Every problem of the bracket, in bracket order; empty when it works."""
    return _Checker(bracket).run()


def checked(bracket: Bracket) -> Bracket:
    """The bracket itself, or ``ScoringInputError`` listing every problem."""
    problems = check_bracket(bracket)
    if problems:
        said = "; ".join(f"{p.match}: {p.message}" if p.match else p.message for p in problems)
        raise ScoringInputError("bracket", f"the bracket cannot work: {said}")
    return bracket


class _Checker:
    def __init__(self, bracket: Bracket) -> None:
        self.b = bracket
        self.problems: list[BracketProblem] = []
        self.by_name: dict[str, Match] = {}
        self.groups: dict[str, ChoiceGroup] = {}
        self.round_of = {r: i for i, r in enumerate(bracket.rounds)}
        # (match, place) -> where it is used, for "a team in two places at once"
        self.uses: dict[tuple[str, int], list[str]] = {}
        self.ranks: dict[int, str] = {}
        self.teams: dict[str, str] = {}

    def say(self, where: str, message: str) -> None:
        self.problems.append(BracketProblem(where, message))

    def run(self) -> list[BracketProblem]:
        b = self.b
        if b.entries < 2:
            self.say("", f"entries {b.entries}: a knockout needs at least 2 teams")
        if len(set(b.rounds)) != len(b.rounds):
            self.say("", "a round is listed twice in rounds: list each round once, in order")
        for m in b.matches:
            if m.name in self.by_name:
                self.say(m.name, "two matches have this name: give each match its own name")
            self.by_name[m.name] = m
        for g in b.choices:
            if g.name in self.groups or g.name in self.by_name:
                self.say(g.name, "this choice group's name is already used")
            self.groups[g.name] = g
        for m in b.matches:
            self.match(m)
        for g in b.choices:
            self.group(g)
        self.positions()
        self.place_ranges()
        return self.problems

    # -- one match -------------------------------------------------------------------------
    def match(self, m: Match) -> None:
        if m.round not in self.round_of:
            self.say(m.name, f"round {m.round!r} is not in the rounds {list(self.b.rounds)}")
        if len(m.slots) not in (2, 3):
            self.say(m.name, f"{len(m.slots)} teams: a match has 2 teams (or 3, a three-way)")
        if m.three_way and not 1 <= m.advance <= 2:
            self.say(m.name, f"advance {m.advance}: a three-way advances 1 or 2 teams")
        if not m.three_way and m.advance != 1:
            self.say(m.name, f"advance {m.advance}: a two-team match advances its winner (1)")
        if m.segments < 1:
            self.say(m.name, f"segments {m.segments}: a match has at least 1 segment")
        if m.boards_per_segment < 1:
            self.say(m.name, f"boards per segment {m.boards_per_segment}: at least 1")
        try:
            check_chain([TieRule(t) for t in m.tie])
        except (ValueError, ScoringInputError) as e:  # a word not a rule, or out of order
            self.say(m.name, f"tie {list(m.tie)}: {getattr(e, 'message', e)}")
        if len(m.places) > len(m.slots):
            self.say(m.name, f"{len(m.places)} places given for {len(m.slots)} teams")
        for i, slot in enumerate(m.slots):
            self.slot(m.name, m.round, slot, f"{m.name} slot {i + 1}", in_match=True)
        for k, text in enumerate(m.places[: len(m.slots)]):
            if text.strip():
                if place_range(text) is None:
                    self.say(m.name, f"place {text!r}: give a place (3) or a range (9-16)")
                self.use((m.name, k + 1), f"places ({text})")
        self.carry(m)

    def slot(self, owner: str, rnd: str, slot: Slot, where: str, in_match: bool) -> None:
        if slot.kind is SlotKind.RANK:
            if not 1 <= slot.rank <= self.b.entries:
                self.say(owner, f"rank {slot.rank}: ranks go from 1 to {self.b.entries}")
            elif slot.rank in self.ranks:
                self.say(owner, f"rank {slot.rank} is already in {self.ranks[slot.rank]}")
            else:
                self.ranks[slot.rank] = where
        elif slot.kind is SlotKind.TEAM:
            if not slot.team:
                self.say(owner, "a team slot without a team name")
            elif slot.team in self.teams:
                self.say(owner, f"team {slot.team} is already in {self.teams[slot.team]}")
            else:
                self.teams[slot.team] = where
        elif slot.kind is SlotKind.PLACED:
            source = self.by_name.get(slot.match)
            if source is None:
                self.say(owner, f"{slot} names no match of the bracket")
                return
            if not 1 <= slot.place <= len(source.slots):
                self.say(owner, f"{slot}: {slot.match} has {len(source.slots)} teams")
                return
            here, there = self.round_of.get(rnd), self.round_of.get(source.round)
            if slot.match == owner or (here is not None and there is not None and there >= here):
                self.say(owner, f"{slot}: a slot may only name a match of an earlier round")
            self.use((slot.match, slot.place), where)
        elif not in_match:
            self.say(owner, f"{slot}: a choice group's teams come from ranks, names or matches")
        elif slot.choice not in self.groups:
            self.say(owner, f"{slot}: there is no choice group {slot.choice!r}")
        elif owner not in self.groups[slot.choice].matches:
            self.say(owner, f"{slot}: the group {slot.choice} does not list this match")

    def use(self, position: tuple[str, int], where: str) -> None:
        self.uses.setdefault(position, []).append(where)

    def carry(self, m: Match) -> None:
        c = m.carry_over
        if c.imps < 0:
            self.say(m.name, f"carry-over {c.imps} IMPs: give 0 or more")
        if c.kind is CarryKind.FIXED and not 0 <= c.slot < len(m.slots):
            self.say(m.name, f"carry-over to slot {c.slot + 1}: the match has {len(m.slots)}")
        if c.kind is CarryKind.SHARE:
            if not 0 < c.share <= 1:
                self.say(m.name, f"carry-over share {c.share}: give more than 0, at most 1")
            source = self.by_name.get(c.of_match)
            if source is None:
                self.say(m.name, f"carry-over of {c.of_match!r}: no such match")
            elif self.round_of.get(source.round, 0) >= self.round_of.get(m.round, 0):
                self.say(m.name, f"carry-over of {c.of_match}: not an earlier round's match")

    # -- choice groups ---------------------------------------------------------------------
    def group(self, g: ChoiceGroup) -> None:
        missing = [n for n in g.matches if n not in self.by_name]
        if missing:
            self.say(g.name, f"choice group: no match {', '.join(missing)} in the bracket")
        if not g.matches:
            self.say(g.name, "choice group without matches")
        matches = [self.by_name[n] for n in g.matches if n in self.by_name]
        rounds = {m.round for m in matches}
        if len(rounds) > 1:
            self.say(g.name, f"choice group over rounds {sorted(rounds)}: keep it in one round")
        for m in matches:
            if len(m.slots) != 2 or any(s != Slot.chosen(g.name) for s in m.slots):
                self.say(m.name, f"in choice group {g.name}: both slots must be 'choice {g.name}'")
        n = len(g.matches)
        if g.order is ChoiceOrder.LISTED:
            if len(g.choosers) != n or len(g.pool) != n:
                self.say(g.name, f"listed choice: {n} matches need {n} choosers and a pool of "
                         f"{n} ({len(g.choosers)} choosers, pool {len(g.pool)})")  # fmt: skip
        else:
            if g.choosers:
                self.say(g.name, f"{g.order.value} choice: choosers are for 'listed' only")
            if len(g.pool) != 2 * n:
                self.say(g.name, f"{g.order.value} choice: {n} matches need a pool of {2 * n} "
                         f"teams, not {len(g.pool)}")  # fmt: skip
        rnd = matches[0].round if matches else ""
        for i, slot in enumerate((*g.choosers, *g.pool)):
            self.slot(g.name, rnd, slot, f"choice group {g.name} ({i + 1})", in_match=False)

    # -- every finishing position once; place ranges add up ---------------------------------
    def positions(self) -> None:
        for m in self.b.matches:
            for place in range(1, len(m.slots) + 1):
                used = self.uses.get((m.name, place), [])
                what = str(Slot.placed(m.name, place))
                if not used:
                    self.say(m.name, f"{what} goes nowhere: name it in a later slot or "
                             "give it a place")  # fmt: skip
                elif len(used) > 1:
                    self.say(m.name, f"{what} would be in two places at once: {', '.join(used)}")

    def place_ranges(self) -> None:
        count: dict[tuple[int, int], int] = {}
        senders: dict[tuple[int, int], list[str]] = {}
        for m in self.b.matches:
            for text in m.places[: len(m.slots)]:
                found = place_range(text) if text.strip() else None
                if found:
                    count[found] = count.get(found, 0) + 1
                    senders.setdefault(found, []).append(m.name)
        expected = 1
        for first, last in sorted(count):
            who = senders[(first, last)][0]
            label = f"places {first}-{last}" if last > first else f"place {first}"
            if first < expected:
                self.say(who, f"{label} overlaps the places before it")
            elif first > expected:
                self.say(who, f"{label}: places {expected}-{first - 1} are given to no team")
            size, n = last - first + 1, count[(first, last)]
            if n != size:
                came = ", ".join(dict.fromkeys(senders[(first, last)]))
                held = "is for 1 team" if size == 1 else f"hold {size} teams"
                self.say(who, f"{label} {held}, but {n} go there (from {came})")
            expected = max(expected, last + 1)
        if self.b.entries >= 2 and expected != self.b.entries + 1:
            self.say("", f"the places go to {expected - 1}: they must cover 1-{self.b.entries}")
