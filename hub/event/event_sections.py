"""The event file's sessions, sections and who plays in them (decisions D2): players, pairs,
teams and each section's movement (a file, a RoundData CSV or one the hub generates). Part
of the one event-file schema (``hub/event/event_file.py`` re-exports every name)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag, ValidationInfo, field_validator, model_validator

from hub.event.event_rules import Strict
from hub.event.knockout_movement import KnockoutMovement
from hub.event.session_date import session_date


class Player(Strict):
    """A player and what seedings and prizes need (decisions D16). A member number without
    a name takes the club roster's name for it at ``event create`` ([MENDS] #25, TD trial
    turn 3 G7: a TD typed 26 names into the file that the roster had)."""

    number: str | None = None
    name: str | None = Field(default=None, validate_default=True)

    @field_validator("name")
    @classmethod
    def _named(cls, v: str | None, info: ValidationInfo) -> str | None:
        if v is None and not info.data.get("number"):
            raise ValueError("required (or the member number, named from the club roster)")
        return v

    country: str | None = None
    club: str | None = None
    district: str | None = None
    masterpoints: float | None = None
    handicap: float | None = None
    ranking_points: float | None = None
    elo: float | None = None
    year_of_birth: int | None = None


class Pair(Strict):
    """A pair; in a Mitchell section ``number`` is the room's number in its ``direction``
    (NS 1-n, EW 1-n), elsewhere the one numbering (``direction`` refused)."""

    number: int = Field(ge=1)
    direction: Literal["NS", "EW"] | None = None
    players: list[Player] = Field(default_factory=list, max_length=2)
    not_competing: bool = False

    @property
    def label(self) -> str:
        """As the room writes it: "EW 3", or "7" where there is one numbering."""
        return f"{self.direction} {self.number}" if self.direction else str(self.number)


class Team(Strict):
    number: int = Field(ge=1)
    name: str
    players: list[Player] = Field(default_factory=list, max_length=12)
    not_competing: bool = False


class GeneratedMovement(Strict):
    """A movement the hub generates instead of reading a file. Teams: ``segments`` per
    match (the seating switched between them); ``draw``, the next round drawn while the
    event runs (D19), ``delayed`` (Swiss: round N from the standings after round N−2),
    ``first_rounds``, rounds drawn before the event as (home, away) team numbers in table
    order (seed 000 prints rounds 1 and 2); ``publish``: each draw waits for the director
    (the default) or is published as soon as it can be made (``at_once``); ``home``, the
    home team of a drawn match (a Swiss: the higher number, seed 000 §8; else the
    higher-ranked); ``odd``, what an odd field does each round: one team has a bye (the
    default) or three teams play a three-way match over two rounds (movements.md 5.5).
    A frozen value, any thread."""

    kind: Literal["mitchell", "howell", "barometer", "teams"]
    tables: int | None = Field(default=None, ge=2)
    pairs: int | None = Field(default=None, ge=3)
    teams: int | None = Field(default=None, ge=2)
    rounds: int | None = Field(default=None, ge=1)
    boards_per_round: int = Field(ge=1)
    variant: Literal["auto", "plain", "skip", "relay"] = "auto"
    arrow_switch: bool = False
    double: bool = False
    segments: int = Field(default=1, ge=1)
    draw: Literal["swiss", "danish", "monrad"] | None = None
    delayed: bool = False
    first_rounds: list[list[tuple[int, int]]] = Field(default_factory=list)
    publish: Literal["director", "at_once"] = "director"
    home: Literal["higher-number", "higher-ranked"] | None = None
    odd: Literal["bye", "three_way"] = "bye"

    @model_validator(mode="after")
    def _drawn(self) -> GeneratedMovement:
        """A draw is for a teams movement that says its teams and rounds (D19)."""
        if self.draw is None:
            if self.delayed or self.first_rounds or self.home or self.odd != "bye":
                raise ValueError(
                    "delayed, first_rounds, home and odd are for a drawn event: add draw"
                )
            return self
        if self.kind != "teams" or self.teams is None or self.rounds is None:
            raise ValueError(
                f'a {self.draw} draw is made for a teams movement: give kind = "teams", '
                "teams and rounds"
            )
        if self.delayed and self.draw != "swiss":
            raise ValueError("only a Swiss is drawn one round delayed (delayed = true)")
        if self.segments != 1:
            raise ValueError("a drawn event plays one segment a round (segments = 1)")
        return self


class RoundDataMovement(Strict):
    """A Bridgemate RoundData CSV beside the event file (``hub/event/movement/round_data.py``):
    ``section``, the file's section (ID or letter) when it holds several; ``kind``, the
    layout when the rows alone do not say it."""

    round_data: str = Field(min_length=1)
    section: str | None = Field(default=None, pattern=r"^([A-Z]{1,3}|[0-9]{1,2})$")
    kind: Literal["auto", "mitchell", "howell", "barometer"] = "auto"


def _movement_form(v: Any) -> str:
    """Which form a ``movement`` is: a movement file, a RoundData file, a knockout, a
    generated one."""
    if isinstance(v, str):
        return "str"
    if isinstance(v, KnockoutMovement) or (isinstance(v, dict) and "knockout" in v):
        return "KnockoutMovement"
    rd = isinstance(v, RoundDataMovement) or (isinstance(v, dict) and "round_data" in v)
    return "RoundDataMovement" if rd else "GeneratedMovement"


MovementSpec = Annotated[
    Annotated[str, Tag("str")]
    | Annotated[GeneratedMovement, Tag("GeneratedMovement")]
    | Annotated[RoundDataMovement, Tag("RoundDataMovement")]
    | Annotated[KnockoutMovement, Tag("KnockoutMovement")],
    Discriminator(_movement_form),
]


class Section(Strict):
    letter: str = Field(pattern=r"^[A-Z]{1,3}$")
    movement: MovementSpec
    pairs: list[Pair] = Field(default_factory=list)
    teams: list[Team] = Field(default_factory=list)

    @field_validator("pairs")
    @classmethod
    def _unique_pairs(cls, v: list[Pair], info: ValidationInfo) -> list[Pair]:
        labels = [p.label for p in v]
        dup = next((n for n in labels if labels.count(n) > 1), None)
        if dup is not None:
            raise ValueError(f"pair {dup} is listed twice")
        movement = info.data.get("movement")
        stored = bool((info.context or {}).get("stored"))  # kept as it was valid when stored
        if isinstance(movement, GeneratedMovement) and not stored:  # a file's: at create
            problem = direction_problem(v, movement.kind == "mitchell", movement.kind)
            if problem:
                raise ValueError(problem)
        return v


class Session(Strict):
    name: str
    date: dt.date | None = None
    hand_records: str | None = None
    sections: list[Section] = Field(min_length=1)

    @field_validator("date", mode="before")
    @classmethod
    def _date(cls, v: object) -> object:
        """`2026-12-01`, `1.12.2026`, or `1/12/2026`-like text that is one day (G15)."""
        return session_date(v)

    @field_validator("sections")
    @classmethod
    def _unique_letters(cls, v: list[Section]) -> list[Section]:
        letters = [s.letter for s in v]
        dup = next((x for x in letters if letters.count(x) > 1), None)
        if dup:
            raise ValueError(f"section {dup} is listed twice")
        return v


KIND_NAMES = {  # what a direction is refused for; a Mitchell file numbering EW otherwise
    "mitchell": "Mitchell file that does not number EW T+1..2T",
    "howell": "Howell",
    "teams": "teams movement",
}


def direction_problem(pairs: list[Pair], mitchell: bool, kind: str) -> str | None:
    """Why the pairs' ``direction`` keys do not fit the movement, or None: a Mitchell
    numbers NS and EW each from 1 (every pair says which), other movements number all
    pairs once (no pair says a direction)."""
    for i, p in enumerate(pairs):
        if mitchell and p.direction is None:
            return (
                f"item {i}, pair {p.number}: a Mitchell numbers NS 1-n and EW 1-n; say which "
                f'this pair is with direction = "NS" or "EW"'
            )
        if not mitchell and p.direction is not None:
            return (
                f"item {i}, pair {p.label}: a {KIND_NAMES.get(kind, kind)} numbers every "
                "pair once (1-n); remove direction (it is for Mitchell sections)"
            )
    return None
