"""What the store records of a knockout (issue [KNOCKOUT], decisions D23): each match's
outcome once fixed (``ko_outcome``), the choices of opponent (``ko_choice``) and the
walk-overs (``ko_walk_over``), read back from the audit trail in order, so the running hub
after a restart, the report and the exports follow the bracket alike. Pure over the audit
entries; any thread."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from scoring.knockout.routing import Outcome

OUTCOME, CHOICE, WALK_OVER, SEATING = "ko_outcome", "ko_choice", "ko_walk_over", "ko_seating"
ACTIONS = (OUTCOME, CHOICE, WALK_OVER, SEATING)


@dataclass
class KoDecisions:
    """A knockout section's decisions: outcomes fixed (by match), the IMP margin of each
    (a share carry-over needs it), choices of opponent (by group, in order) and walk-overs
    (match → the team that did not come: its match decided with it, ``order`` the other
    team first) and the captains' seating choices (match → segments in turn). Belongs to
    whoever reads it: the hub's asyncio loop keeps one per section, the report its own."""

    outcomes: dict[str, Outcome] = field(default_factory=dict)
    margins: dict[str, Fraction] = field(default_factory=dict)
    choices: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    walk_overs: dict[str, str] = field(default_factory=dict)
    seating: dict[str, list[int]] = field(default_factory=dict)  # captains' choices, in turn

    def apply(self, action: str, d: Mapping[str, Any]) -> None:
        """One audit entry's ``detail`` of kind ``action`` taken in."""
        if action == OUTCOME:
            match = str(d["match"])
            self.outcomes[match] = Outcome(tuple(str(t) for t in d["order"]), bool(d["walk_over"]))
            self.margins[match] = Fraction(str(d["margin"]))
        elif action == CHOICE:
            made = self.choices.setdefault(str(d["group"]), [])
            made.append((str(d["team"]), str(d["opponent"])))
        elif action == SEATING:  # seed 000 §8: a segment where the choosing team sits first
            self.seating.setdefault(str(d["match"]), []).append(int(d["segment"]))
        elif action == WALK_OVER:  # the absent team loses: its match decided at once
            match = str(d["match"])
            self.walk_overs[match] = str(d["team"])
            if "order" in d:
                self.outcomes[match] = Outcome(tuple(str(t) for t in d["order"]), True)
                self.margins[match] = Fraction(0)


def decisions_of(entries: Iterable[Mapping[str, Any]]) -> dict[str, KoDecisions]:
    """Every knockout section's decisions from the audit trail's entries, in order."""
    out: dict[str, KoDecisions] = {}
    for entry in entries:
        if entry["action"] in ACTIONS:
            d = entry["detail"]
            out.setdefault(str(d["section"]), KoDecisions()).apply(entry["action"], d)
    return out
