"""Slow-play, late-arrival and procedural penalty scales as data (decisions D2, D10).

A scale is a list of half-open bands of minutes, ``above_minutes`` < m ≤ ``up_to_minutes``
("0+ – 5" is more than 0 and at most 5). A band gives a fixed ``penalty`` in a ``unit``,
optionally plus ``per_started`` for every started ``interval_minutes`` beyond its start
(seed 002 KO: 1 IMP per started minute), or per board left unfinished (seed 003). A band
may give only a warning for a first offence (seed 000); a scale may set a minimum for a
repeat offender (seed 002: at least 0.5 VP / 3 IMP).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

from scoring.errors import ScoringInputError


class PenaltyUnit(Enum):
    VP = "VP"
    IMP = "IMP"
    PERCENT_OF_TOP = "percent_of_top"
    BOARDS_REMOVED = "boards_removed"
    WARNING = "warning"
    TD_DECIDES = "td_decides"
    FORFEIT = "forfeit"


@dataclass(frozen=True, slots=True)
class PenaltyStep:
    above_minutes: Fraction
    up_to_minutes: Fraction | None
    penalty: Fraction
    unit: PenaltyUnit
    per_started: Fraction = Fraction(0)
    interval_minutes: Fraction = Fraction(1)
    per_board_unfinished: Fraction = Fraction(0)
    first_offence: PenaltyUnit | None = None

    def contains(self, minutes: Fraction) -> bool:
        return minutes > self.above_minutes and (
            self.up_to_minutes is None or minutes <= self.up_to_minutes
        )


@dataclass(frozen=True, slots=True)
class Penalty:
    """What a scale proposes; the TD confirms or waives it (decisions D10)."""

    amount: Fraction
    unit: PenaltyUnit
    step: int | None
    note: str = ""

    def __str__(self) -> str:
        if self.unit is PenaltyUnit.WARNING:
            return "warning"
        if self.unit is PenaltyUnit.TD_DECIDES:
            return "TD decides"
        if self.unit is PenaltyUnit.FORFEIT:
            return "forfeit"
        amount = f"{float(self.amount):g}"
        unit = {
            PenaltyUnit.PERCENT_OF_TOP: "% of a top",
            PenaltyUnit.BOARDS_REMOVED: " board(s) removed",
        }.get(self.unit, f" {self.unit.value}")
        return f"{amount}{unit}"


@dataclass(frozen=True)
class PenaltyScale:
    name: str
    steps: tuple[PenaltyStep, ...]
    beyond: PenaltyUnit = PenaltyUnit.TD_DECIDES
    repeat_minimum: Penalty | None = None
    opponent_imps_per_board_removed: Fraction = Fraction(0)

    def penalty(
        self, minutes: Fraction | float | int, offence: int = 1, boards_unfinished: int = 0
    ) -> Penalty | None:
        """The proposed penalty for ``minutes`` late (None when not late).

        ``offence`` counts this contestant's offences of this kind, 1 for the first.
        """
        m = Fraction(minutes)
        if m <= 0:
            return None
        for k, step in enumerate(self.steps):
            if not step.contains(m):
                continue
            if offence <= 1 and step.first_offence is not None:
                return Penalty(Fraction(0), step.first_offence, k, "first offence")
            started = math.ceil((m - step.above_minutes) / step.interval_minutes)
            amount = (
                step.penalty
                + step.per_started * started
                + step.per_board_unfinished * boards_unfinished
            )
            proposed = Penalty(amount, step.unit, k)
            return self._at_least_repeat_minimum(proposed, offence)
        return Penalty(
            Fraction(0), self.beyond, None, f"beyond {self.steps[-1].up_to_minutes} minutes"
        )

    def _at_least_repeat_minimum(self, p: Penalty, offence: int) -> Penalty:
        low = self.repeat_minimum
        if offence <= 1 or low is None:
            return p
        if p.unit is PenaltyUnit.WARNING or (p.unit is low.unit and p.amount < low.amount):
            return Penalty(low.amount, low.unit, p.step, "repeat offence minimum")
        return p


def _frac(value: Any, path: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ScoringInputError(path, f"{path}: a number is required, got {value!r}")
    try:
        return Fraction(str(value))
    except ValueError:
        raise ScoringInputError(path, f"{path}: a number is required, got {value!r}") from None


def _unit(value: Any, path: str) -> PenaltyUnit:
    try:
        return PenaltyUnit(value)
    except ValueError:
        allowed = ", ".join(u.value for u in PenaltyUnit)
        raise ScoringInputError(path, f"{path}: unit {value!r} is not one of {allowed}") from None


_STEP_KEYS = {
    "above_minutes",
    "up_to_minutes",
    "penalty",
    "unit",
    "per_started",
    "interval_minutes",
    "per_board_unfinished",
    "first_offence",
}


def scale_from_data(data: Mapping[str, Any], path: str = "scale") -> PenaltyScale:
    """Build a scale from parsed TOML/JSON; errors name the key path and the reason."""
    steps_data = data.get("steps")
    if not isinstance(steps_data, list) or not steps_data:
        raise ScoringInputError(f"{path}.steps", f"{path}.steps: a non-empty list is required")
    steps = []
    prev_to: Fraction | None = Fraction(0)
    for k, s in enumerate(steps_data):
        sp = f"{path}.steps[{k}]"
        if not isinstance(s, Mapping):
            raise ScoringInputError(sp, f"{sp}: a table is required")
        unknown = set(s) - _STEP_KEYS
        if unknown:
            raise ScoringInputError(
                f"{sp}.{sorted(unknown)[0]}", f"{sp}.{sorted(unknown)[0]}: unknown key"
            )
        for key in ("above_minutes", "unit"):
            if key not in s:
                raise ScoringInputError(f"{sp}.{key}", f"{sp}.{key}: required")
        above = _frac(s["above_minutes"], f"{sp}.above_minutes")
        up_to = _frac(s["up_to_minutes"], f"{sp}.up_to_minutes") if "up_to_minutes" in s else None
        if prev_to is None or above != prev_to:
            raise ScoringInputError(
                f"{sp}.above_minutes",
                f"{sp}.above_minutes: bands must follow on without gaps; expected "
                f"{prev_to if prev_to is not None else 'no band after an open-ended one'}",
            )
        if up_to is not None and up_to <= above:
            raise ScoringInputError(
                f"{sp}.up_to_minutes", f"{sp}.up_to_minutes: must be more than above_minutes"
            )
        interval = _frac(s.get("interval_minutes", 1), f"{sp}.interval_minutes")
        if interval <= 0:
            raise ScoringInputError(f"{sp}.interval_minutes", f"{sp}.interval_minutes: must be > 0")
        steps.append(
            PenaltyStep(
                above,
                up_to,
                _frac(s.get("penalty", 0), f"{sp}.penalty"),
                _unit(s["unit"], f"{sp}.unit"),
                _frac(s.get("per_started", 0), f"{sp}.per_started"),
                interval,
                _frac(s.get("per_board_unfinished", 0), f"{sp}.per_board_unfinished"),
                _unit(s["first_offence"], f"{sp}.first_offence") if "first_offence" in s else None,
            )
        )
        prev_to = up_to
    repeat = None
    if "repeat_minimum" in data:
        r = data["repeat_minimum"]
        rp = f"{path}.repeat_minimum"
        if not isinstance(r, Mapping) or "penalty" not in r or "unit" not in r:
            raise ScoringInputError(rp, f"{rp}: a table with penalty and unit is required")
        repeat = Penalty(_frac(r["penalty"], f"{rp}.penalty"), _unit(r["unit"], f"{rp}.unit"), None)
    return PenaltyScale(
        name=str(data.get("name", path)),
        steps=tuple(steps),
        beyond=_unit(data.get("beyond", "td_decides"), f"{path}.beyond"),
        repeat_minimum=repeat,
        opponent_imps_per_board_removed=_frac(
            data.get("opponent_imps_per_board_removed", 0),
            f"{path}.opponent_imps_per_board_removed",
        ),
    )
