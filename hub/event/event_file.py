"""The event file (decisions D2): TOML with ``schema_version = 1``, one schema, one validator.

Every error names the key path (``rules.slow_play.steps[2].to_minutes``) and the reason,
with the nearest known key for a misspelt one. Other issues extend the schema here and in
``hub/event/event_rules.py`` (the ``[rules]`` tables, re-exported here) and nowhere else.
"""

from __future__ import annotations

import datetime as dt
import difflib
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag, ValidationError, ValidationInfo, field_validator

from hub.event.event_rules import (
    AverageToken,
    ButlerOptions,
    CrossImpOptions,
    Display,
    ImpAwardOptions,
    MatchpointOptions,
    PenaltyScaleModel,
    PenaltyStep,
    RepeatMinimum,
    Rules,
    Scoring,
    Strict,
    SuspiciousScores,
    Timing,
)
from hub.event.pair_ranges import unseated_pairs
from hub.event.problems import key_report
from scoring.butler import ButlerRules, DropRule
from scoring.cross_imps import CrossImpRules
from scoring.errors import ScoringInputError
from scoring.imp_awards import ImpAwards
from scoring.matchpoints import MatchpointRules
from scoring.penalties import PenaltyScale, scale_from_data
from scoring.traveller import Token

__all__ = [
    "SCHEMA_VERSION",
    "AverageToken",
    "ButlerOptions",
    "CrossImpOptions",
    "Display",
    "EventFile",
    "EventFileError",
    "EventInfo",
    "GeneratedMovement",
    "ImpAwardOptions",
    "MatchpointOptions",
    "Pair",
    "PenaltyScaleModel",
    "PenaltyStep",
    "Player",
    "RepeatMinimum",
    "Room",
    "RoundDataMovement",
    "Rules",
    "Scoring",
    "Section",
    "Session",
    "SuspiciousScores",
    "Team",
    "Timing",
    "parse_event",
    "read_event",
]

SCHEMA_VERSION = 1
LANGUAGES = ("en", "sv", "cs", "pl")


class EventFileError(ValueError):
    """The event file is invalid; ``problems`` holds (key path, reason) pairs."""

    def __init__(self, problems: list[tuple[str, str]], source: str = "event file") -> None:
        self.problems = problems
        self.source = source
        super().__init__("\n".join(f"{source}: {path}: {reason}" for path, reason in problems))


class Player(Strict):
    """A player and what seedings and prizes need (decisions D16)."""

    number: str | None = None
    name: str
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
    """A movement the hub generates instead of reading a file."""

    kind: Literal["mitchell", "howell", "barometer", "teams"]
    tables: int | None = Field(default=None, ge=2)
    pairs: int | None = Field(default=None, ge=3)
    teams: int | None = Field(default=None, ge=2)
    rounds: int | None = Field(default=None, ge=1)
    boards_per_round: int = Field(ge=1)
    variant: Literal["auto", "plain", "skip", "relay"] = "auto"
    arrow_switch: bool = False
    double: bool = False


class RoundDataMovement(Strict):
    """A Bridgemate RoundData CSV beside the event file (``hub/event/movement/round_data.py``):
    ``section``, the file's section (ID or letter) when it holds several; ``kind``, the
    layout when the rows alone do not say it."""

    round_data: str = Field(min_length=1)
    section: str | None = Field(default=None, pattern=r"^([A-Z]{1,3}|[0-9]{1,2})$")
    kind: Literal["auto", "mitchell", "howell", "barometer"] = "auto"


def _movement_form(v: Any) -> str:
    """Which form a ``movement`` is: a movement file, a RoundData file, a generated one."""
    if isinstance(v, str):
        return "str"
    rd = isinstance(v, RoundDataMovement) or (isinstance(v, dict) and "round_data" in v)
    return "RoundDataMovement" if rd else "GeneratedMovement"


MovementSpec = Annotated[
    Annotated[str, Tag("str")]
    | Annotated[GeneratedMovement, Tag("GeneratedMovement")]
    | Annotated[RoundDataMovement, Tag("RoundDataMovement")],
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


class EventInfo(Strict):
    """``language``: the printed report's and the terminals' texts; ``roster``: a club
    roster CSV (member number, name) beside the event file, for member numbers keyed at
    the tables that the event does not list."""

    name: str
    organiser: str | None = None
    venue: str | None = None
    language: Literal["en", "sv", "cs", "pl"] = "en"
    roster: str | None = Field(default=None, min_length=1)

    @field_validator("roster")
    @classmethod
    def _roster(cls, v: str | None) -> str | None:
        if v is not None and not v.lower().endswith(".csv"):
            raise ValueError(f"{v!r}: the club roster is a .csv file (member number, name)")
        return v


class Room(Strict):
    """The room (decisions D20): ``terminals``, the serials of the terminals registered for
    the event; when given, any other terminal's log-on is refused."""

    terminals: list[Annotated[str, Field(min_length=1, max_length=255)]] | None = None


class EventFile(Strict):
    """A parsed, validated event file: a frozen value with no I/O, usable from any thread."""

    schema_version: Annotated[int, Field(ge=1)]
    event: EventInfo
    rules: Rules
    sessions: list[Session] = Field(min_length=1)
    room: Room = Field(default_factory=Room)

    @field_validator("schema_version")
    @classmethod
    def _version(cls, v: int) -> int:
        if v != SCHEMA_VERSION:
            raise ValueError(f"this hub reads schema_version {SCHEMA_VERSION}, not {v}")
        return v

    # -- rules as scoring objects ---------------------------------------------------------
    def pairs_rules(self) -> MatchpointRules | CrossImpRules | ButlerRules:
        r = self.rules
        awards = ImpAwards(
            *(
                Fraction(str(x))
                for x in (
                    r.imp_awards.ave_plus,
                    r.imp_awards.ave,
                    r.imp_awards.ave_minus,
                    r.imp_awards.per_10_percent,
                )
            )
        )
        if r.scoring is Scoring.MP:
            m = r.matchpoints
            averages = {Token(k): Fraction(str(v)) for k, v in m.averages.items()}
            return MatchpointRules(
                m.expected, m.adjusted_method, m.half_points, m.ebu_small_groups, averages
            )
        if r.scoring is Scoring.XIMP:
            return CrossImpRules(r.cross_imps.divisor, r.cross_imps.cap, awards)
        return ButlerRules(DropRule.parse(r.butler.drop), r.butler.rounding, awards)

    def penalty_scale(self, which: Literal["slow_play", "late_arrival"]) -> PenaltyScale | None:
        model = getattr(self.rules, which)
        if model is None:
            return None
        return scale_from_data(model.model_dump(exclude_none=True), f"rules.{which}")


# the movement's forms, as pydantic names them in error locations
_FORMS: dict[str, Any] = {m.__name__: m for m in (str, GeneratedMovement, RoundDataMovement)}


def _path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in _FORMS or "[" in str(part):
            continue  # union branch names pydantic adds
        else:
            out += ("." if out else "") + str(part)
    return out or "(file)"


def _fields_at(loc: tuple[Any, ...]) -> list[str]:
    """The keys the table at ``loc`` (a pydantic error location) allows."""
    model: Any = EventFile
    for part in loc:
        if isinstance(part, int) or "[" in str(part) or part == "str":
            continue
        if part in _FORMS:
            model = _FORMS[part]
            continue
        field = getattr(model, "model_fields", {}).get(part)
        if field is None:
            return []
        model = _model_in(field.annotation)
    return list(getattr(model, "model_fields", {}))


def _model_in(annotation: Any) -> Any:
    """The event-file table a field holds (itself, or inside a list or an optional)."""
    if isinstance(annotation, type) and issubclass(annotation, Strict):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def _reason(err: Any) -> str:
    kind = err["type"]
    if kind == "extra_forbidden":
        loc = tuple(err["loc"])
        near = difflib.get_close_matches(str(loc[-1]), _fields_at(loc[:-1]), n=1, cutoff=0.75)
        return f"unknown key; did you mean {near[0]}?" if near else "unknown key"
    if kind == "missing":
        return "required"
    msg = str(err["msg"])
    return msg.removeprefix("Value error, ")


def parse_event(text: str, source: str = "event file", *, stored: bool = False) -> EventFile:
    """Parse and validate event TOML; raises ``EventFileError`` naming each bad key.
    ``stored``: an event file the store holds, valid when it was stored; a Mitchell's
    pairs from before the ``direction`` key (their numbers are the hub's) are read as
    they are, so an older store still opens."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise EventFileError([("(file)", f"not valid TOML: {e}")], source) from None
    try:
        event = EventFile.model_validate(data, context={"stored": stored})
    except ValidationError as e:
        found = [(_path(tuple(err["loc"])), _reason(err)) for err in e.errors()]
        said = [path for path, _ in found]
        found += [  # F22: a bad date does not hide a pair the movement lacks
            (path, why)
            for path, why in unseated_pairs(data)
            if path.rsplit("[", 1)[0] not in said  # the list's own complaint (listed twice)
        ]
        paths = {p for p, _ in found}
        problems: list[tuple[str, str]] = []
        for path, reason in found:
            # a union reports every branch; keep the deepest, most specific complaint
            deeper = any(
                q != path and (q.startswith(path + ".") or q.startswith(path + "[")) for q in paths
            )
            if not deeper and (path, reason) not in problems:
                problems.append((path, reason))
        raise EventFileError(key_report(problems), source) from None  # one report, not N
    for which in ("slow_play", "late_arrival"):
        try:
            event.penalty_scale(which)  # type: ignore[arg-type]
        except ScoringInputError as e:
            raise EventFileError([(e.field, e.message.split(": ", 1)[-1])], source) from None
    return event


def read_event(path: str | Path) -> EventFile:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise EventFileError([("(file)", f"cannot read: {e}")], str(path)) from None
    return parse_event(text, str(path))
