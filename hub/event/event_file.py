"""The event file (decisions D2): TOML with ``schema_version = 1``, one schema, one validator.

Every error names the key path (``rules.slow_play.steps[2].to_minutes``) and the reason,
with the nearest known key for a misspelt one. Other issues extend the schema here and in
``hub/event/event_rules.py`` (the ``[rules]`` tables, re-exported here) and nowhere else.
"""

from __future__ import annotations

import difflib
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError, field_validator

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
from hub.event.event_sections import (
    GeneratedMovement,
    KnockoutMovement,
    Pair,
    Player,
    RoundDataMovement,
    Section,
    Session,
    Team,
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
    "KnockoutMovement",
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
                m.expected, m.adjusted_method, m.half_points, m.ebu_small_groups, averages, m.top
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
_FORMS: dict[str, Any] = {
    m.__name__: m for m in (str, GeneratedMovement, RoundDataMovement, KnockoutMovement)
}


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
    drawn_not_teams = [
        (f"sessions[{i}].sections[{j}].movement.draw", "a draw is made for a teams event: "
         f'give rules.scoring = "teams" (not "{event.rules.scoring.value}")')
        for i, session in enumerate(event.sessions)
        for j, section in enumerate(session.sections)
        if isinstance(section.movement, GeneratedMovement) and section.movement.draw
        and event.rules.scoring is not Scoring.TEAMS
    ]  # fmt: skip
    if drawn_not_teams:
        raise EventFileError(drawn_not_teams, source)
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
