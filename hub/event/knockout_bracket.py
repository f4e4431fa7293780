"""A knockout section's bracket and entries (issue [KNOCKOUT]): the bracket its movement
names (a template of ``scoring.knockout.templates`` or a bracket file beside the event file,
docs/brackets.md) and its teams as entries ranked by the event's seeding (team numbers, or
seed 003's Elo seeding with its lot from a recorded seed). Pure but for reading the file."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

from hub.event.event_sections import Team
from hub.event.knockout_movement import TEMPLATES, KnockoutMovement
from scoring.errors import ScoringInputError
from scoring.knockout.bracket import Bracket
from scoring.knockout.routing import Entry
from scoring.knockout.seeding import bracket_size, seed_numbers, team_elo
from scoring.knockout.templates import double_elimination_16, single_elimination


def bracket_text(spec: KnockoutMovement, base_dir: Path | None = None) -> str:
    """The bracket file's text ("" for a template), read once, at the event's creation."""
    if spec.knockout in TEMPLATES:
        return ""
    path = (base_dir or Path(".")) / spec.knockout
    try:
        return path.read_text(encoding="utf-8")
    except OSError as e:
        raise ScoringInputError("knockout", f"cannot read the bracket file {path}: {e}") from None


def bracket_for(spec: KnockoutMovement, text: str = "") -> Bracket:
    """The bracket the section plays: its template, or the bracket file's ``text``;
    ``ScoringInputError`` (naming the key) when it does not take the section's teams."""
    if spec.knockout == "single_elimination":
        return single_elimination(
            bracket_size(spec.teams),
            segments=spec.segments,
            final_segments=spec.final_segments,
            boards_per_segment=spec.boards_per_segment,
            third_place=spec.third_place,
            tie=tuple(spec.tie),
        )
    if spec.knockout == "double_elimination":
        if spec.teams != 16:
            raise ScoringInputError(
                "teams", f"seed 000's double elimination is for 16 teams, not {spec.teams}"
            )
        return double_elimination_16(
            segments=spec.segments,
            final_segments=spec.final_segments,
            boards_per_segment=spec.boards_per_segment,
        )
    from hub.event.bracket_file import BracketFileError, parse_bracket  # a file's only

    try:
        bracket = parse_bracket(text, spec.knockout)
    except BracketFileError as e:
        raise ScoringInputError("knockout", str(e)) from None
    if bracket.entries < spec.teams:
        raise ScoringInputError(
            "teams", f"{spec.knockout} has places for {bracket.entries} teams, not {spec.teams}"
        )
    return bracket


def team_country(team: Team | None) -> str:
    """A team's country for seed 001's same-country rule: its players' most common."""
    countries = Counter(p.country for p in (team.players if team else ()) if p.country)
    return countries.most_common(1)[0][0] if countries else ""


def _elos(team: Team | None) -> list[Fraction | None]:
    """The players' Elo, exactly as written (``600.5`` is 1201/2)."""
    players = team.players if team else []
    return [None if p.elo is None else Fraction(str(p.elo)) for p in players]


def entries_for(
    spec: KnockoutMovement, teams: Sequence[Team], lot_seed: int, size: int
) -> tuple[Entry, ...]:
    """The section's teams 1 … ``spec.teams`` as entries: with ``numbers`` seeding a
    team's number is its rank; with ``elo`` (seed 003 §10-11) the teams are numbered by
    their Elo (the players' mean, rounded half up; 500 when none is known), the best
    ``size``/4 first, the rest by a lot drawn from ``lot_seed``."""
    listed = {t.number: t for t in teams}
    numbers = range(1, spec.teams + 1)
    if spec.seeding == "numbers":
        return tuple(Entry(str(n), n, team_country(listed.get(n))) for n in numbers)
    ratings = {str(n): team_elo(_elos(listed.get(n))) for n in numbers}
    order = seed_numbers(ratings, size, lot_seed)
    return tuple(
        Entry(team, rank, team_country(listed.get(int(team))))
        for rank, team in enumerate(order, start=1)
    )
