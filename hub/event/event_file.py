"""The event file (decisions D2): TOML with ``schema_version = 1``, one schema, one validator.

Every error names the key path (``rules.slow_play.steps[2].to_minutes``) and the reason.
Other issues extend the schema here and nowhere else.
"""

from __future__ import annotations

import datetime as dt
import tomllib
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from hub.event.problems import key_report
from scoring.butler import ButlerRules, DatumRounding, DropRule
from scoring.cross_imps import CrossImpDivisor, CrossImpRules
from scoring.errors import ScoringInputError
from scoring.imp_awards import ImpAwards
from scoring.matchpoints import AdjustedMethod, MatchpointRules
from scoring.penalties import PenaltyScale, scale_from_data
from scoring.standings import PAIR_TIE_BREAKS
from scoring.suspicious import SuspicionLimits
from scoring.team_standings import TEAM_TIE_BREAKS
from scoring.traveller import Token
from scoring.vp_scale import BUILT_IN

SCHEMA_VERSION = 1


class EventFileError(ValueError):
    """The event file is invalid; ``problems`` holds (key path, reason) pairs."""

    def __init__(self, problems: list[tuple[str, str]], source: str = "event file") -> None:
        self.problems = problems
        self.source = source
        super().__init__("\n".join(f"{source}: {path}: {reason}" for path, reason in problems))


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Player(_Strict):
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


class Pair(_Strict):
    number: int = Field(ge=1)
    players: list[Player] = Field(default_factory=list, max_length=2)
    not_competing: bool = False


class Team(_Strict):
    number: int = Field(ge=1)
    name: str
    players: list[Player] = Field(default_factory=list, max_length=12)
    not_competing: bool = False


class GeneratedMovement(_Strict):
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


class Section(_Strict):
    letter: str = Field(pattern=r"^[A-Z]{1,3}$")
    movement: str | GeneratedMovement
    pairs: list[Pair] = Field(default_factory=list)
    teams: list[Team] = Field(default_factory=list)

    @field_validator("pairs")
    @classmethod
    def _unique_pairs(cls, v: list[Pair]) -> list[Pair]:
        numbers = [p.number for p in v]
        dup = next((n for n in numbers if numbers.count(n) > 1), None)
        if dup is not None:
            raise ValueError(f"pair {dup} is listed twice")
        return v


class Session(_Strict):
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


class Scoring(StrEnum):
    MP = "mp"
    XIMP = "ximp"
    BUTLER = "butler"
    TEAMS = "teams"


AverageToken = Literal["A+", "A", "A-"]


def _default_averages() -> dict[AverageToken, float]:
    return {"A+": 60.0, "A": 50.0, "A-": 40.0}


class MatchpointOptions(_Strict):
    expected: int | None = Field(default=None, ge=1)
    adjusted_method: AdjustedMethod = AdjustedMethod.NEUBERG
    half_points: bool = False
    ebu_small_groups: bool = False
    averages: dict[AverageToken, float] = Field(default_factory=_default_averages)


class CrossImpOptions(_Strict):
    divisor: CrossImpDivisor = CrossImpDivisor.AVERAGE
    cap: int | None = Field(default=None, ge=1, le=24)


class ButlerOptions(_Strict):
    drop: str = "10%"
    rounding: DatumRounding = DatumRounding.NEAREST

    @field_validator("drop")
    @classmethod
    def _drop(cls, v: str) -> str:
        try:
            DropRule.parse(v)
        except ScoringInputError as e:
            raise ValueError(e.message) from None
        return v


class ImpAwardOptions(_Strict):
    ave_plus: float = 3
    ave: float = 0
    ave_minus: float = -3
    per_10_percent: float = 3


class Timing(_Strict):
    """Round time (seed 004: 7.5 min a board, a half's total rounded up to 5 minutes)."""

    minutes_per_board: float = Field(default=7.5, gt=0)
    move_minutes: float = Field(default=0, ge=0)
    round_up_to_minutes: int = Field(default=1, ge=1)
    extra_minutes: float = Field(default=0, ge=0)
    scoring_time_excluded: bool = True


class Display(_Strict):
    """What players see when (terminals and screens), and how results are verified."""

    verification: Literal["opponents", "none"] = "opponents"
    rankings_after_each_round: bool = True
    hide_rankings_last_rounds: int = Field(default=0, ge=0)
    travellers: Literal["after_play", "never", "always"] = "after_play"
    own_score: bool = True


class SuspiciousScores(_Strict):
    """Suspicious-score flags (decisions D12): same strain by both sides with too many
    tricks between them, or too far from double dummy when hand records exist. A frozen
    value with no I/O: any thread."""

    check: bool = True
    suit_tricks: int = Field(default=14, ge=13, le=26)
    notrump_tricks: int = Field(default=15, ge=13, le=26)
    double_dummy: bool = True
    double_dummy_tricks: int = Field(default=3, ge=0, le=13)

    def limits(self) -> SuspicionLimits | None:
        if not self.check:
            return None
        return SuspicionLimits(
            self.suit_tricks,
            self.notrump_tricks,
            self.double_dummy_tricks if self.double_dummy else None,
        )


class PenaltyStep(_Strict):
    above_minutes: float = Field(ge=0)
    up_to_minutes: float | None = None
    penalty: float = 0
    unit: Literal[
        "VP", "IMP", "percent_of_top", "boards_removed", "warning", "td_decides", "forfeit"
    ]
    per_started: float = 0
    interval_minutes: float = 1
    per_board_unfinished: float = 0
    first_offence: Literal["warning"] | None = None


class RepeatMinimum(_Strict):
    penalty: float
    unit: Literal["VP", "IMP", "percent_of_top"]


class PenaltyScaleModel(_Strict):
    name: str | None = None
    steps: list[PenaltyStep] = Field(min_length=1)
    beyond: Literal["td_decides", "forfeit"] = "td_decides"
    repeat_minimum: RepeatMinimum | None = None
    opponent_imps_per_board_removed: float = 0


class Rules(_Strict):
    scoring: Scoring
    matchpoints: MatchpointOptions = Field(default_factory=MatchpointOptions)
    cross_imps: CrossImpOptions = Field(default_factory=CrossImpOptions)
    butler: ButlerOptions = Field(default_factory=ButlerOptions)
    imp_awards: ImpAwardOptions = Field(default_factory=ImpAwardOptions)
    vp_scale: str = "wbf_continuous_20"
    tie_breaks: list[str] = Field(default_factory=list)
    lot_seed: int | None = None
    timing: Timing = Field(default_factory=Timing)
    display: Display = Field(default_factory=Display)
    suspicious: SuspiciousScores = Field(default_factory=SuspiciousScores)
    slow_play: PenaltyScaleModel | None = None
    late_arrival: PenaltyScaleModel | None = None

    @field_validator("tie_breaks")
    @classmethod
    def _tie_breaks(cls, v: list[str], info: ValidationInfo) -> list[str]:
        scoring = info.data.get("scoring")
        known = TEAM_TIE_BREAKS if scoring is Scoring.TEAMS else PAIR_TIE_BREAKS
        for i, name in enumerate(v):
            if name not in known:
                raise ValueError(
                    f"item {i}, {name!r}, is not a tie-break for "
                    f"{getattr(scoring, 'value', '?')} scoring; use "
                    f"{', '.join(known)}"
                )
        return v

    @field_validator("vp_scale")
    @classmethod
    def _vp_scale(cls, v: str) -> str:
        if v not in BUILT_IN and not v.endswith(".csv"):
            raise ValueError(f"{v!r} is neither {' nor '.join(BUILT_IN)} nor a .csv table file")
        return v


class EventInfo(_Strict):
    name: str
    organiser: str | None = None
    venue: str | None = None


class Room(_Strict):
    """The room (decisions D20): ``terminals``, the serials of the terminals registered for
    the event; when given, any other terminal's log-on is refused."""

    terminals: list[Annotated[str, Field(min_length=1, max_length=255)]] | None = None


class EventFile(_Strict):
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


def _path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("str", "GeneratedMovement") or "[" in str(part):
            continue  # union branch names pydantic adds
        else:
            out += ("." if out else "") + str(part)
    return out or "(file)"


def _reason(err: Any) -> str:
    kind = err["type"]
    if kind == "extra_forbidden":
        return "unknown key"
    if kind == "missing":
        return "required"
    msg = str(err["msg"])
    return msg.removeprefix("Value error, ")


def parse_event(text: str, source: str = "event file") -> EventFile:
    """Parse and validate event TOML; raises ``EventFileError`` naming each bad key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise EventFileError([("(file)", f"not valid TOML: {e}")], source) from None
    try:
        event = EventFile.model_validate(data)
    except ValidationError as e:
        found = [(_path(tuple(err["loc"])), _reason(err)) for err in e.errors()]
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
