"""The event file's rules (decisions D2): scoring method and its options, timing, display,
suspicious-score limits and penalty scales. Part of the one event-file schema
(``hub/event/event_file.py`` re-exports every name); frozen values, any thread."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field, ValidationInfo, field_validator

from hub.event.strict import Strict
from hub.event.team_rules import TeamRules
from scoring.butler import DatumRounding, DropRule
from scoring.cross_imps import CrossImpDivisor
from scoring.errors import ScoringInputError
from scoring.matchpoints import AdjustedMethod, BoardTop
from scoring.standings import PAIR_TIE_BREAKS
from scoring.suspicious import DoubleDummyFlags, SuspicionLimits
from scoring.team_tie_criteria import CRITERIA
from scoring.team_ties import ENDS, RULES, rule_from_names
from scoring.vp_scale import BUILT_IN


class Scoring(StrEnum):
    MP = "mp"
    XIMP = "ximp"
    BUTLER = "butler"
    TEAMS = "teams"


AverageToken = Literal["A+", "A", "A-"]


def _default_averages() -> dict[AverageToken, float]:
    return {"A+": 60.0, "A": 50.0, "A-": 40.0}


class MatchpointOptions(Strict):
    """``top``: ``section`` (default, decisions D22) factors every board to the section's
    common top; ``board`` keeps each board's own."""

    expected: int | None = Field(default=None, ge=1)
    adjusted_method: AdjustedMethod = AdjustedMethod.NEUBERG
    top: BoardTop = BoardTop.SECTION
    half_points: bool = False
    ebu_small_groups: bool = False
    averages: dict[AverageToken, float] = Field(default_factory=_default_averages)


class CrossImpOptions(Strict):
    divisor: CrossImpDivisor = CrossImpDivisor.AVERAGE
    cap: int | None = Field(default=None, ge=1, le=24)


class ButlerOptions(Strict):
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


class ImpAwardOptions(Strict):
    ave_plus: float = 3
    ave: float = 0
    ave_minus: float = -3
    per_10_percent: float = 3


class Timing(Strict):
    """Round time (seed 004: 7.5 min a board, a half's total rounded up to 5 minutes)."""

    minutes_per_board: float = Field(default=7.5, gt=0)
    move_minutes: float = Field(default=0, ge=0)
    round_up_to_minutes: int = Field(default=1, ge=1)
    extra_minutes: float = Field(default=0, ge=0)
    scoring_time_excluded: bool = True


class Display(Strict):
    """What players see when (terminals and screens), and how results are verified."""

    verification: Literal["opponents", "none"] = "opponents"
    rankings_after_each_round: bool = True
    hide_rankings_last_rounds: int = Field(default=0, ge=0)
    travellers: Literal["after_play", "never", "always"] = "after_play"
    own_score: bool = True


class SuspiciousScores(Strict):
    """Suspicious-score flags (decisions D12): same strain by both sides with too many
    tricks between them, or too far from double dummy when hand records exist. A frozen
    value with no I/O: any thread."""

    check: bool = True
    suit_tricks: int = Field(default=14, ge=13, le=26)
    notrump_tricks: int = Field(default=15, ge=13, le=26)
    double_dummy: bool = True
    double_dummy_tricks: int = Field(default=3, ge=0, le=13)
    # "bonus": only where the difference wins or loses a bonus (G14); "tricks": every one
    double_dummy_flags: DoubleDummyFlags = DoubleDummyFlags.BONUS

    def limits(self) -> SuspicionLimits | None:
        if not self.check:
            return None
        return SuspicionLimits(
            self.suit_tricks,
            self.notrump_tricks,
            self.double_dummy_tricks if self.double_dummy else None,
            self.double_dummy_flags,
        )


class PenaltyStep(Strict):
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


class RepeatMinimum(Strict):
    penalty: float
    unit: Literal["VP", "IMP", "percent_of_top"]


class PenaltyScaleModel(Strict):
    name: str | None = None
    steps: list[PenaltyStep] = Field(min_length=1)
    beyond: Literal["td_decides", "forfeit"] = "td_decides"
    repeat_minimum: RepeatMinimum | None = None
    opponent_imps_per_board_removed: float = 0


class TieBreaksAfter(Strict):
    """``[[rules.tie_breaks_after]]``: the standings after event round ``round`` and later
    use ``tie_breaks`` (seed 000 §6-1: one chain "during the event", another "after round
    10"); checked as ``rules.tie_breaks`` is, in ``Rules``."""

    round: int = Field(ge=1)
    tie_breaks: list[str] = Field(min_length=1)

    @field_validator("tie_breaks", mode="before")
    @classmethod
    def _one_name(cls, v: object) -> object:
        return [v] if isinstance(v, str) else v


class Rules(Strict):
    scoring: Scoring
    matchpoints: MatchpointOptions = Field(default_factory=MatchpointOptions)
    cross_imps: CrossImpOptions = Field(default_factory=CrossImpOptions)
    butler: ButlerOptions = Field(default_factory=ButlerOptions)
    imp_awards: ImpAwardOptions = Field(default_factory=ImpAwardOptions)
    vp_scale: str = "wbf_continuous_20"
    tie_breaks: list[str] = Field(default_factory=list)
    tie_breaks_after: list[TieBreaksAfter] = Field(default_factory=list)
    lot_seed: int | None = None
    timing: Timing = Field(default_factory=Timing)
    display: Display = Field(default_factory=Display)
    suspicious: SuspiciousScores = Field(default_factory=SuspiciousScores)
    slow_play: PenaltyScaleModel | None = None
    late_arrival: PenaltyScaleModel | None = None
    teams: TeamRules = Field(default_factory=TeamRules)

    @field_validator("scoring", mode="before")
    @classmethod
    def _scoring_any_case(cls, v: object) -> object:
        """`scoring = "MP"` is `mp` (TD trial G15): the method's name in any case."""
        return v.strip().lower() if isinstance(v, str) else v

    @field_validator("tie_breaks", mode="before")
    @classmethod
    def _one_name(cls, v: object) -> object:
        """A rule's name may be given alone: ``tie_breaks = "wbf"``."""
        return [v] if isinstance(v, str) else v

    @field_validator("tie_breaks")
    @classmethod
    def _tie_breaks(cls, v: list[str], info: ValidationInfo) -> list[str]:
        return _tie_breaks_for(info.data.get("scoring"), v)

    @field_validator("tie_breaks_after")
    @classmethod
    def _tie_breaks_after(
        cls, v: list[TieBreaksAfter], info: ValidationInfo
    ) -> list[TieBreaksAfter]:
        """Each entry's rule as ``tie_breaks``; rounds strictly increasing; teams only (the
        pairs' standings have one rule for the event)."""
        scoring = info.data.get("scoring")
        if v and scoring is not Scoring.TEAMS:
            raise ValueError("is for teams scoring only; a pairs event has one tie_breaks")
        for i, entry in enumerate(v):
            if i and entry.round <= v[i - 1].round:
                raise ValueError(
                    f"entry {i}: round {entry.round} is not after round {v[i - 1].round}; "
                    "give the entries in strictly increasing rounds"
                )
            try:
                _tie_breaks_for(scoring, entry.tie_breaks)
            except ValueError as e:
                raise ValueError(f"entry {i}, tie_breaks: {e}") from None
        return v

    @field_validator("vp_scale")
    @classmethod
    def _vp_scale(cls, v: str) -> str:
        if v not in BUILT_IN and not v.endswith(".csv"):
            raise ValueError(f"{v!r} is neither {' nor '.join(BUILT_IN)} nor a .csv table file")
        return v


def _tie_breaks_for(scoring: object, v: list[str]) -> list[str]:
    """``v`` if it is a tie-break rule for ``scoring``'s standings, else ValueError."""
    if scoring is Scoring.TEAMS:
        return _team_tie_breaks(v)
    for i, name in enumerate(v):
        if name not in PAIR_TIE_BREAKS:
            raise ValueError(
                f"item {i}, {name!r}, is not a tie-break for "
                f"{getattr(scoring, 'value', '?')} scoring; use "
                f"{', '.join(PAIR_TIE_BREAKS)}"
            )
    return v


def _team_tie_breaks(v: list[str]) -> list[str]:
    """A team event's rule (``scoring.team_ties.RULES``) alone, or a chain of its criteria
    ending maybe in ``lot``, ``play_off`` or ``sudden_death``."""
    choices = (
        f"use one rule alone ({', '.join(RULES)}) or a chain of "
        f"{', '.join(CRITERIA)}, ending maybe in {', '.join(ENDS)}"
    )
    for i, name in enumerate(v):
        if name not in CRITERIA and name not in ENDS and name not in RULES:
            raise ValueError(f"item {i}, {name!r}, is not a tie-break for teams scoring; {choices}")
    try:
        rule_from_names(v)
    except ValueError as e:
        raise ValueError(f"{e}; {choices}") from None
    return v
