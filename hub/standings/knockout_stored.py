"""A knockout section's bracket from the store (issue [KNOCKOUT]): its movement (the plan:
entries, lot seed, the bracket file's text), its event file's spec and the decisions in the
audit trail, followed as the running hub follows them, for the report, the exports and the
command line. Pure over what it is given; any thread."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hub.event.event_file import EventFile, KnockoutMovement, Section
from hub.event.knockout_bracket import bracket_for
from hub.event.knockout_rounds import countries, entries_of
from hub.event.movement.model import Movement
from hub.standings.knockout_decisions import KoDecisions, decisions_of
from scoring.knockout.bracket import Bracket
from scoring.knockout.routing import BracketState, follow


def knockout_section(event: EventFile, letter: str) -> Section | None:
    """The event's section ``letter`` when it is a knockout."""
    for session in event.sessions:
        for sec in session.sections:
            if sec.letter == letter and isinstance(sec.movement, KnockoutMovement):
                return sec
    return None


def stored_bracket(
    event: EventFile,
    letter: str,
    movement: Movement,
    audit: Iterable[Mapping[str, Any]],
) -> tuple[Bracket, BracketState, KoDecisions] | None:
    """The section's bracket, where it stands and its decisions (None for a section that
    is not a knockout)."""
    sec = knockout_section(event, letter)
    plan = movement.layout.knockout
    if sec is None or plan is None:
        return None
    assert isinstance(sec.movement, KnockoutMovement)
    bracket = bracket_for(sec.movement, plan.bracket)
    decisions = decisions_of(audit).get(letter, KoDecisions())
    entries = entries_of(plan, countries(sec.teams))
    state = follow(bracket, entries, decisions.outcomes, decisions.choices, decisions.margins)
    return bracket, state, decisions
