"""A knockout section as it stands (issue [KNOCKOUT], decisions D23): its bracket and
entries, the decisions recorded in the store (outcomes, choices of opponent, walk-overs),
and each match in play decided from the live scores by the event's rule (``ko_match``).

An outcome is fixed (recorded) once its match is decided at the end of a round: a later
correction of a board does not move a team by itself (D23). A lot of the tie rule is drawn
from the section's lot seed (kept in its movement) plus the match's place in the bracket,
so a restarted hub draws the same. Pure over the live scores; the hub's loop."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from hub.event.event_file import EventFile
from hub.event.event_sections import Team
from hub.event.knockout_bracket import bracket_for
from hub.event.knockout_movement import KnockoutMovement
from hub.event.knockout_rounds import countries, entries_of
from hub.event.movement.model import KnockoutPlan, Movement
from hub.live.views import TeamsLive
from hub.standings.knockout_decisions import KoDecisions
from hub.standings.knockout_outcome import match_lot_seed, match_outcome
from scoring.knockout.bracket import Bracket, Match
from scoring.knockout.ko_match import (
    KoOutcome,
    PairResult,
    three_way_order,
)
from scoring.knockout.routing import BracketState, follow


def plan_of(movement: Movement) -> KnockoutPlan:
    plan = movement.layout.knockout
    assert plan is not None, "a knockout section's movement has its plan"
    return plan


@dataclass
class KoSection:
    """One knockout section: the bracket (``spec``'s), the teams' countries, and its
    decisions so far. Belongs to the hub's asyncio loop (``Knockouts`` keeps one each)."""

    section: str
    spec: KnockoutMovement
    bracket: Bracket
    countries: dict[int, str]
    decisions: KoDecisions = field(default_factory=KoDecisions)
    teams: tuple[Team, ...] = ()  # the event file's (their players' Elo: a re-draw)

    def state(self, movement: Movement) -> BracketState:
        """The bracket with the outcomes fixed so far and the choices made."""
        d = self.decisions
        entries = entries_of(plan_of(movement), self.countries)
        return follow(self.bracket, entries, d.outcomes, d.choices, d.margins)

    def in_play(self, movement: Movement) -> list[tuple[int, int, str]]:
        """(event round, pair of tables, match) of the last event round's matches."""
        plan = plan_of(movement)
        k = plan.event_round(movement.rounds)
        return [m for m in plan.matches if m[0] == k]

    def three_ways_in_play(self, movement: Movement) -> list[tuple[int, int, str]]:
        """(event round, index in ``Layout.three_ways``, match) of the last event round's
        three-way matches (seed 000)."""
        plan = plan_of(movement)
        k = plan.event_round(movement.rounds)
        return [w for w in plan.three_ways if w[0] == k]

    def three_way_order(
        self, movement: Movement, live: TeamsLive, k: int, j: int, match: str
    ) -> tuple[str, ...] | None:
        """A three-way's finishing order (seed 000: a team that won both its matches, else
        total VPs; ``ko_match.three_way_order``), None until each of its three matches has
        every board in both rooms."""
        m: Match = self.bracket.match(match)
        first = len(movement.layout.matches) + 3 * j
        results = []
        for n in range(3):
            key = (first + n, k)
            played = live.played(key)
            if played is None or len(live.match_boards(key)) < m.boards_per_segment:
                return None
            r = played.result
            results.append(
                PairResult(
                    str(played.home),
                    str(played.away),
                    r.home_imps + r.home_carry_over,
                    r.away_imps + r.away_carry_over,
                    r.home_vp or Fraction(0),
                    r.away_vp or Fraction(0),
                )
            )
        teams = [str(t) for t in movement.layout.three_ways[j].teams]
        return three_way_order(teams, results, lot_seed=self.lot_seed(movement, match))

    def lot_seed(self, movement: Movement, match: str) -> int:
        return match_lot_seed(plan_of(movement).lot_seed, self.bracket, match)

    def outcome(
        self, movement: Movement, live: TeamsLive, k: int, pair: int, match: str
    ) -> KoOutcome:
        """Match ``match`` (at the ``pair``-th tables in event round ``k``) decided from
        the boards both rooms have played, by the event's rule."""
        played = live.played((pair, k))
        carry = (Fraction(0), Fraction(0))
        if played is not None:  # the carry-over less IMP penalties, as the match has it
            carry = (played.result.home_carry_over, played.result.away_carry_over)
        teams = self.teams_at(movement, k, pair)
        entries = self.state(movement).entries
        ranks = (entries[str(teams[0])].rank, entries[str(teams[1])].rank)
        return match_outcome(
            self.bracket.match(match),
            self.spec,
            live.match_boards((pair, k)),
            carry,
            teams,
            ranks,
            self.lot_seed(movement, match),
            self.decisions.walk_overs.get(match),
        )

    def teams_at(self, movement: Movement, k: int, pair: int) -> tuple[int, int]:
        """The home and away team at the ``pair``-th tables in event round ``k``."""
        plan = plan_of(movement)
        first = plan.first_round(k)
        open_t = movement.layout.matches[pair][0]
        row = movement.row(self.section, open_t, first)
        assert row is not None
        return row.ns_pair, row.ew_pair


def knockout_sections(event: EventFile, movements: Mapping[str, Movement]) -> dict[str, KoSection]:
    """Every knockout section of the event, with its bracket (a file's, as its movement
    keeps it)."""
    out = {}
    for session in event.sessions:
        for sec in session.sections:
            if isinstance(sec.movement, KnockoutMovement):
                bracket = bracket_for(sec.movement, plan_of(movements[sec.letter]).bracket)
                out[sec.letter] = KoSection(
                    sec.letter, sec.movement, bracket, countries(sec.teams), teams=tuple(sec.teams)
                )
    return out
