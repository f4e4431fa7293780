"""What a knockout section plays next (issue [KNOCKOUT], decisions D23): the first bracket
round not published yet, once every match of it has its teams (earlier results in, choices
made), seated by ``hub.event.movement.knockout``; and the movement a knockout starts with
(its first round, byes left out). Pure, any thread: the event's creation and the running
hub ask the same."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from hub.event.event_sections import Team
from hub.event.knockout_bracket import bracket_for, bracket_text, entries_for, team_country
from hub.event.knockout_movement import KnockoutMovement
from hub.event.movement.knockout import (
    KoTableMatch,
    KoThreeWay,
    knockout_layout,
    with_ko_round,
)
from hub.event.movement.model import KnockoutPlan, Movement, MovementError
from scoring.errors import ScoringInputError
from scoring.knockout.bracket import Bracket
from scoring.knockout.routing import BracketState, Entry, follow


class NotYet(Exception):
    """The next round cannot be published yet; the message says what it waits for."""


@dataclass(frozen=True, slots=True)
class NextRound:
    """Event round ``k`` (bracket round ``name``) and its matches and three-ways as the
    movement seats them (the byes of the round play no match)."""

    k: int
    name: str
    matches: tuple[KoTableMatch, ...]
    three_ways: tuple[KoThreeWay, ...] = ()


def entries_of(plan: KnockoutPlan, countries: Mapping[int, str]) -> tuple[Entry, ...]:
    """The entries the section was seeded with (its plan), with their countries."""
    return tuple(
        Entry(str(team), rank, countries.get(team, ""))
        for rank, team in enumerate(plan.entries, start=1)
    )


def room_tables(bracket: Bracket, state: BracketState) -> int:
    """Tables for the bracket's busiest round: two a match, three a three-way (a first
    round's byes play none)."""
    return max(
        sum(3 if m.three_way else 2 for m in bracket.round_matches(r) if not state.bye(m.name))
        for r in bracket.rounds
    )


def next_round(bracket: Bracket, state: BracketState, plan: KnockoutPlan) -> NextRound | None:
    """The first bracket round not published yet (None when every round is); ``NotYet``
    while one of its matches waits for an earlier result or a choice."""
    published = {k for k, _, _ in plan.matches} | {k for k, _, _ in plan.three_ways}
    for k, name in enumerate(bracket.rounds, start=1):
        if k in published:
            continue
        played = [
            m
            for m in bracket.round_matches(name)
            if not state.bye(m.name) and m.name not in state.outcomes  # a walk-over: decided
        ]
        for m in played:
            if any(t is None for t in state.teams(m.name)):
                raise NotYet(_waits(bracket, state, m.name))
            if m.three_way and m.segments != 2:
                raise NotYet(f"{m.name}: the hub plays a three-way over two segments")
        if not played:
            continue  # every match of the round is a bye
        ways = tuple(
            KoThreeWay(m.name, _three(state.teams(m.name)), m.boards_per_segment)
            for m in played
            if m.three_way
        )
        seated = []
        for i, m in enumerate(m for m in played if not m.three_way):
            home, away = (int(str(t)) for t in state.teams(m.name))
            carry = state.carry_over(m.name)
            seated.append(
                KoTableMatch(
                    m.name, i, home, away, m.segments, m.boards_per_segment, (carry[0], carry[1])
                )
            )
        return NextRound(k, name, tuple(seated), ways)
    return None


def _three(teams: tuple[str | None, ...]) -> tuple[int, int, int]:
    a, b, c = (int(str(t)) for t in teams)
    return a, b, c


def _waits(bracket: Bracket, state: BracketState, match: str) -> str:
    """What a match's missing team waits for: a choice, else an earlier match."""
    for g in bracket.choices:
        if match in g.matches:
            procedure = state.choosing(g.name)
            chooser = procedure.next_chooser() if procedure is not None else None
            if chooser is not None:
                options = ", ".join(c.team for c in procedure.options()) if procedure else ""
                return f"{match}: team {chooser.team} chooses its opponent ({g.name}: {options})"
    return f"{match}: its teams are not known yet (an earlier match is not decided)"


def start_movement(
    spec: KnockoutMovement,
    section: str,
    teams: Sequence[Team],
    lot_seed: int,
    base_dir: Path | None = None,
) -> Movement:
    """The knockout's movement before play: its first round (``MovementError`` when the
    bracket cannot start: a bad bracket, or a first round made by choice)."""
    try:
        text = bracket_text(spec, base_dir)
        bracket = bracket_for(spec, text)
        entries = entries_for(spec, teams, lot_seed, bracket.entries)
    except ScoringInputError as e:
        raise MovementError(
            f"knockout {spec.knockout}: {e.field}: {e.message}", None, "knockout"
        ) from None
    return first_movement(bracket, entries, section, lot_seed, text, spec.teams)


def first_movement(
    bracket: Bracket,
    entries: Sequence[Entry],
    section: str,
    lot_seed: int,
    text: str = "",
    teams: int = 0,
) -> Movement:
    """The movement of ``bracket`` entered by ``entries`` before play (at the event's
    creation, or a re-draw before the first board): its first round appended."""
    try:
        state = follow(bracket, entries, {})
    except ScoringInputError as e:
        raise MovementError(f"{bracket.name}: {e.field}: {e.message}", None, "knockout") from None
    layout = knockout_layout(
        room_tables(bracket, state), f"{bracket.name}, {teams or len(entries)} teams"
    )
    assert layout.knockout is not None
    entered = tuple(int(e.team) for e in entries)
    plan = replace(layout.knockout, entries=entered, lot_seed=lot_seed, bracket=text)
    movement = Movement((), replace(layout, knockout=plan))
    try:
        first = next_round(bracket, state, plan)
    except NotYet as e:
        raise MovementError(f"the knockout cannot start: {e}", None, "knockout") from None
    if first is None:
        raise MovementError("the knockout has no match to play", None, "knockout")
    return with_ko_round(
        movement, section, first.k, first.matches, first_board=1, three_ways=first.three_ways
    )


def countries(teams: Sequence[Team]) -> dict[int, str]:
    return {t.number: team_country(t) for t in teams}
