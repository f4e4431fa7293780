"""Ordering with shared places and a chain of named tie-breaks (the pairs' standings; teams
are placed by ``scoring.team_ties``).

A tie-break is a function from the tied group to a value per member (higher ranks first);
it is applied only to the members still level, and the next one only to those it leaves
level. ``lot`` draws with a seed the event records; without a seed the tie stays shared
and is reported, because a lot is the TD's act, not the program's.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

K = TypeVar("K", bound=Hashable)
TieBreakFn = Callable[[Sequence[Any]], Mapping[Any, Any]]


@dataclass(frozen=True, slots=True)
class Placed:
    """One entrant's place: ``place`` is 1-based; ``shared`` when level with others."""

    key: Any
    place: int
    shared: bool
    decided_by: str | None = None
    needs_lot: bool = False

    @property
    def rank(self) -> str:
        """Place as results lists show it: ``3=`` for a shared third place."""
        return f"{self.place}=" if self.shared else str(self.place)


def split_by_value(group: Sequence[K], values: Mapping[K, Any]) -> list[list[K]]:
    """Members grouped by value, best first (higher ranks first); within a part, the order
    they were given in."""
    buckets: dict[Any, list[K]] = {}
    for k in group:
        buckets.setdefault(values[k], []).append(k)
    return [buckets[v] for v in sorted(buckets, reverse=True)]


def place_entrants(
    keys: Sequence[K],
    primary: Mapping[K, Any],
    chain: Sequence[str] = (),
    primitives: Mapping[str, TieBreakFn] | None = None,
    lot_seed: int | None = None,
    natural: Callable[[K], Any] | None = None,
) -> list[Placed]:
    """Places by ``primary`` (higher first), ties broken by ``chain`` in order.

    ``natural`` orders members that stay level (e.g. by pair number) for display only.
    """
    primitives = primitives or {}
    for name in chain:
        if name != "lot" and name not in primitives:
            raise ValueError(
                f"unknown tie-break {name!r}: known are {', '.join(sorted([*primitives, 'lot']))}"
            )
    out: list[Placed] = []

    def resolve(group: list[K], step: int, decided: str | None) -> None:
        if len(group) == 1:
            out.append(Placed(group[0], len(out) + 1, False, decided))
            return
        if step >= len(chain):
            place = len(out) + 1
            ordered = sorted(group, key=natural) if natural else group
            needs_lot = "lot" in chain
            out.extend(Placed(k, place, True, None, needs_lot) for k in ordered)
            return
        name = chain[step]
        if name == "lot":
            if lot_seed is None:
                resolve(group, len(chain), None)
                return
            drawn = sorted(group, key=natural) if natural else list(group)
            random.Random(lot_seed).shuffle(drawn)
            for k in drawn:
                out.append(Placed(k, len(out) + 1, False, "lot"))
            return
        values = primitives[name](group)
        parts = split_by_value(group, values)
        for part in parts:
            resolve(part, step + 1, name if len(parts) > 1 else decided)

    for level in split_by_value(list(keys), primary):
        resolve(level, 0, None)
    return out
