"""A knockout section's ``movement`` (issue [KNOCKOUT]): the bracket it plays and how its
matches are made; the hub appends the rounds while it runs (decisions D23). Part of the
one event-file schema (decisions D2)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from hub.event.event_rules import Strict
from scoring.errors import ScoringInputError
from scoring.knockout.ko_match import TieRule, check_chain

TEMPLATES = ("single_elimination", "double_elimination")
TIE_RULES = ("extra_set", "sudden_death", "total_points", "boards_won", "lot", "higher_placed")


class KnockoutMovement(Strict):
    """``knockout``: a bracket the hub knows (``single_elimination``: seed 003's 2^k
    bracket with a match for third place; ``double_elimination``: seed 000's, 16 teams) or
    a bracket file beside the event file (``*.toml``, docs/brackets.md); ``teams``, the
    entries, numbered 1 … teams; ``seeding``: ``numbers`` (a team's number is its rank) or
    ``elo`` (seed 003 §10-11: team Elo from the players', the N/4 best seeded, the rest by
    lot); a template's ``segments`` and ``boards_per_segment``, its final's
    ``final_segments``, ``third_place`` and ``tie`` rule; ``extra_set_boards`` (seed 003:
    4) and ``sudden_death_boards`` (seed 001: 1, seed 000: 2), and the time of such a
    round where it is not the boards' time (``extra_set_minutes``: seed 003 §12.8, 35, 40
    with screens); ``publish``: each next
    round waits for the director (the default) or goes out as soon as it is known;
    ``seating``: who sits second in each segment, so hands in its line-up after the other
    (``alternate_home_first``: seed 003 §12.6, the home team in segment 1, then in turn;
    ``higher_placed``: seed 001 II.4, the better-ranked team in segment 2, in the final in
    the first and the last; ``captains_draw``: seed 000 §8, blind seating but in the last
    round, where the winner of the captains' lot chooses the segment it sits first in, then
    the choice alternates: ``ko_seating``)."""

    knockout: str = Field(min_length=1)
    teams: int = Field(ge=2)
    seeding: Literal["numbers", "elo"] = "numbers"
    segments: int = Field(default=2, ge=1)
    boards_per_segment: int = Field(default=16, ge=1)
    final_segments: int = Field(default=3, ge=1)
    third_place: bool = True
    tie: list[str] = Field(default_factory=lambda: ["extra_set"])
    extra_set_boards: int = Field(default=4, ge=1)
    sudden_death_boards: Literal[1, 2] = 2
    extra_set_minutes: float | None = Field(default=None, gt=0, le=240)
    sudden_death_minutes: float | None = Field(default=None, gt=0, le=240)
    publish: Literal["director", "at_once"] = "director"
    seating: Literal["alternate_home_first", "higher_placed", "captains_draw"] = (
        "alternate_home_first"
    )

    @field_validator("knockout")
    @classmethod
    def _bracket(cls, v: str) -> str:
        if v not in TEMPLATES and not v.endswith(".toml"):
            raise ValueError(
                f"{v!r}: give {' or '.join(TEMPLATES)}, or a bracket file (.toml) beside the "
                "event file"
            )
        return v

    @field_validator("tie")
    @classmethod
    def _tie(cls, v: list[str]) -> list[str]:
        wrong = [w for w in v if w not in TIE_RULES]
        if wrong:
            raise ValueError(f"{wrong[0]!r} is not a tie rule: give {', '.join(TIE_RULES)}")
        try:
            check_chain([TieRule(w) for w in v])
        except ScoringInputError as e:
            raise ValueError(e.message) from None
        return v
