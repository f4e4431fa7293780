"""Counted offences (issue 29, [RULINGS]): a penalty set by how many times a contestant has
committed one offence in the event, not by minutes: mobile phone, smoking, leaving the
table, late line-ups, an unauthorised reserve.

A scale lists the penalty of the 1st, 2nd … offence (``count`` 1, 2 …); ``then`` says what
an offence beyond the last listed count gives: ``repeat`` the last listed penalty (seed 000
smoking, "each offense 2 VPs"), ``rise`` by ``rise`` for each further offence (seed 001
line-ups: 0.5, 1, 1.5 VP and so on), ``forfeit``, or ``td_decides`` (the seed says nothing
more: the director decides, nothing is guessed). The hub proposes; the TD confirms.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

from scoring.errors import ScoringInputError
from scoring.penalties import Penalty, PenaltyUnit, _frac, _unit

# units that carry an amount; the others (warning, forfeit, td_decides) stand alone
AMOUNT_UNITS = frozenset(
    {PenaltyUnit.VP, PenaltyUnit.IMP, PenaltyUnit.PERCENT_OF_TOP, PenaltyUnit.BOARDS_REMOVED}
)


class Then(Enum):
    """What an offence beyond the last listed count gives."""

    REPEAT = "repeat"
    RISE = "rise"
    FORFEIT = "forfeit"
    TD_DECIDES = "td_decides"


@dataclass(frozen=True, slots=True)
class OffenceStep:
    """The penalty for the ``count``-th offence (1 for the first)."""

    count: int
    penalty: Fraction
    unit: PenaltyUnit


@dataclass(frozen=True)
class OffenceScale:
    name: str
    steps: tuple[OffenceStep, ...]
    then: Then = Then.TD_DECIDES
    rise: Fraction = Fraction(0)

    def penalty(self, count: int) -> Penalty:
        """The proposed penalty for this contestant's ``count``-th offence."""
        return proposed_penalty(self, count)


def proposed_penalty(scale: OffenceScale, count: int) -> Penalty:
    """The penalty ``scale`` proposes for the ``count``-th offence (1 for the first);
    ``Penalty.step`` is the index of the listed step it comes from, None for a forfeit or
    a TD's decision beyond the list."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ScoringInputError(
            "count", f"count: a whole number from 1 (the first offence) is required, got {count!r}"
        )
    listed = len(scale.steps)
    if count <= listed:
        step = scale.steps[count - 1]
        return Penalty(step.penalty, step.unit, count - 1)
    last = scale.steps[-1]
    beyond = f"offence {count}, beyond the {listed} listed"
    if scale.then is Then.REPEAT:
        return Penalty(last.penalty, last.unit, listed - 1, f"{beyond}: as the last listed")
    if scale.then is Then.RISE:
        amount = last.penalty + scale.rise * (count - listed)
        return Penalty(
            amount, last.unit, listed - 1, f"{beyond}: {float(scale.rise):g} more each time"
        )
    unit = PenaltyUnit.FORFEIT if scale.then is Then.FORFEIT else PenaltyUnit.TD_DECIDES
    return Penalty(Fraction(0), unit, None, beyond)


def is_counted(data: Mapping[str, Any]) -> bool:
    """Whether parsed scale data is a counted-offence scale (its steps give ``count``)
    rather than a minute scale (``above_minutes``)."""
    steps = data.get("steps")
    if "then" in data:
        return True
    return isinstance(steps, list) and any(isinstance(s, Mapping) and "count" in s for s in steps)


_SCALE_KEYS = {"name", "steps", "then", "rise"}
_STEP_KEYS = {"count", "penalty", "unit"}


def _unknown(table: Mapping[str, Any], allowed: set[str], path: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        field = f"{path}.{unknown[0]}"
        raise ScoringInputError(
            field, f"{field}: unknown key; allowed: {', '.join(sorted(allowed))}"
        )


def _step(s: Any, k: int, path: str) -> OffenceStep:
    sp = f"{path}.steps[{k}]"
    if not isinstance(s, Mapping):
        raise ScoringInputError(sp, f"{sp}: a table {{ count, penalty, unit }} is required")
    _unknown(s, _STEP_KEYS, sp)
    count = s.get("count")
    if type(count) is not int or count != k + 1:
        raise ScoringInputError(
            f"{sp}.count",
            f"{sp}.count: must be {k + 1} (counts run 1, 2 … in order), got {count!r}",
        )
    if "unit" not in s:
        raise ScoringInputError(f"{sp}.unit", f"{sp}.unit: required")
    unit = _unit(s["unit"], f"{sp}.unit")
    if unit in AMOUNT_UNITS:
        if "penalty" not in s:
            raise ScoringInputError(
                f"{sp}.penalty", f"{sp}.penalty: required with unit {unit.value}"
            )
        amount = _frac(s["penalty"], f"{sp}.penalty")
        if amount <= 0:
            raise ScoringInputError(f"{sp}.penalty", f"{sp}.penalty: must be more than 0")
    elif "penalty" in s:
        raise ScoringInputError(
            f"{sp}.penalty", f"{sp}.penalty: a {unit.value} step has no amount; leave it out"
        )
    else:
        amount = Fraction(0)
    return OffenceStep(k + 1, amount, unit)


def offence_scale_from_data(data: Mapping[str, Any], path: str = "scale") -> OffenceScale:
    """Build a counted-offence scale from parsed TOML/JSON; errors name the key path and
    say what is allowed."""
    _unknown(data, _SCALE_KEYS, path)
    steps_data = data.get("steps")
    if not isinstance(steps_data, list) or not steps_data:
        raise ScoringInputError(
            f"{path}.steps", f"{path}.steps: a non-empty list of {{ count, penalty, unit }}"
        )
    steps = tuple(_step(s, k, path) for k, s in enumerate(steps_data))
    try:
        then = Then(data.get("then", "td_decides"))
    except ValueError:
        allowed = ", ".join(t.value for t in Then)
        raise ScoringInputError(
            f"{path}.then", f"{path}.then: {data['then']!r} is not one of {allowed}"
        ) from None
    rise = Fraction(0)
    if then is Then.RISE:
        if "rise" not in data:
            raise ScoringInputError(f"{path}.rise", f"{path}.rise: required with then = rise")
        rise = _frac(data["rise"], f"{path}.rise")
        if rise <= 0:
            raise ScoringInputError(f"{path}.rise", f"{path}.rise: must be more than 0")
        if steps[-1].unit not in AMOUNT_UNITS:
            raise ScoringInputError(
                f"{path}.then",
                f"{path}.then: rise needs a last step with an amount (VP, IMP, percent_of_top, "
                "boards_removed)",
            )
    elif "rise" in data:
        raise ScoringInputError(f"{path}.rise", f"{path}.rise: only with then = rise")
    return OffenceScale(str(data.get("name", path)), steps, then, rise)
