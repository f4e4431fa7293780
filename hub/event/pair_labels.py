"""Pair numbers as the room writes them (TD trial F16): a Mitchell numbers NS 1-n and EW
1-n ("EW 3"), every other pairs movement numbers its pairs once ("7").

Inside the hub pair numbers stay unique whole numbers, so the store, scoring and intake do
not change: a Mitchell's NS pairs are 1..T and its EW pairs T+1..2T (T tables), the
generators' and Bridgemate's RoundData numbering. ``PairLabels`` translates for one section;
the event file, the wire adapter, the standings and the snapshot use it. A frozen value: any
thread.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from hub.event.event_sections import Pair, direction_problem
from hub.event.movement.model import Movement, MovementKind
from hub.event.problems import number_ranges

Direction = Literal["NS", "EW"]


class PairNumberError(ValueError):
    """A pair number the section's movement does not have; the message says what it has."""


@dataclass(frozen=True)
class PairLabels:
    """One section's numbering: ``mitchell`` (NS and EW each from 1; EW internal = ``tables``
    + n) or one numbering; ``pairs``, the internal numbers the movement seats."""

    section: str
    mitchell: bool
    tables: int
    pairs: frozenset[int]
    movement: Movement | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, movement: Movement, section: str | None = None) -> PairLabels:
        """The numbering of ``section`` (default: the movement's first) of ``movement``. A
        Mitchell whose rows do not follow NS 1..T, EW T+1..2T keeps one numbering."""
        letter = section or (movement.sections[0] if movement.sections else "A")
        rows = [r for r in movement.rows if r.section == letter]
        tables = len({r.table for r in rows})
        switched = set(movement.layout.arrow_switch)
        regular = all(
            r.ns_pair <= tables and (r.ew_pair == 0 or tables < r.ew_pair <= 2 * tables)
            for r in rows
            if (r.round, r.table) not in switched
        )
        mitchell = movement.layout.kind is MovementKind.MITCHELL and regular and tables > 0
        return cls(letter, mitchell, tables, frozenset(movement.pairs(letter)), movement)

    # -- internal → room -------------------------------------------------------------------
    def direction(self, pair: int) -> Direction | None:
        """NS or EW in a Mitchell; None where there is one numbering."""
        if not self.mitchell or pair <= 0:
            return None
        return "NS" if pair <= self.tables else "EW"

    def to_room(self, pair: int) -> tuple[Direction | None, int]:
        """(direction, the room's number): (``"EW"``, 3) for internal T+3 in a Mitchell."""
        direction = self.direction(pair)
        return direction, pair - self.tables if direction == "EW" else pair

    def label(self, pair: int) -> str:
        """ "NS 3", "EW 3", or "7" (one numbering); "-" for an empty seat (0)."""
        if pair <= 0:
            return "-"
        direction, n = self.to_room(pair)
        return f"{direction} {n}" if direction else str(n)

    # -- room → internal -------------------------------------------------------------------
    def from_room(self, direction: str | None, n: int) -> int:
        """The internal number of the room's ``direction`` ``n``; raises ``PairNumberError``
        naming what the movement has. One numbering: ``direction`` must be None."""
        if self.mitchell:
            if direction not in ("NS", "EW"):
                raise PairNumberError(
                    f"section {self.section} is a Mitchell: say NS or EW for pair {n} "
                    f"({self.describe()})"
                )
            pair = n + (self.tables if direction == "EW" else 0)
            if not 1 <= n <= self.tables or pair not in self.pairs:
                raise PairNumberError(
                    f"section {self.section} has no pair {direction} {n}: its movement has "
                    f"{self.describe()}"
                )
            return pair
        if direction is not None:
            raise PairNumberError(
                f"section {self.section} numbers its pairs once ({self.describe()}): "
                f"pair {n} has no direction"
            )
        if n not in self.pairs:
            raise PairNumberError(
                f"section {self.section} has no pair {n}: its movement has {self.describe()}"
            )
        return n

    def internal(self, pair: Pair) -> int:
        """An event file's pair as the hub numbers it (``PairNumberError`` when the
        movement has no such pair)."""
        return self.from_room(pair.direction, pair.number)

    def at_seat(self, table: int, rnd: int, ns: bool, n: int) -> int:
        """The internal number of the pair a terminal calls ``n`` in the NS (``ns``) or EW
        seat of ``table`` in round ``rnd``: the pair the movement seats there when its room
        number is ``n`` (so an arrow-switched round maps right too); else the seat's
        direction's pair ``n``; else ``n`` unchanged (intake then refuses it)."""
        if not self.mitchell or n <= 0:
            return n
        row = None if self.movement is None else self.movement.row(self.section, table, rnd)
        if row is not None:
            seated = row.ns_pair if ns else row.ew_pair
            if seated and self.to_room(seated)[1] == n:
                return seated
        try:
            return self.from_room("NS" if ns else "EW", n)
        except PairNumberError:
            return n

    def describe(self) -> str:
        """What the movement has: "NS 1-7 and EW 1-6" or "pairs 1-13"."""
        if not self.mitchell:
            return f"pairs {number_ranges(sorted(self.pairs))}" if self.pairs else "no pairs"
        ns = sorted(p for p in self.pairs if p <= self.tables)
        ew = sorted(p - self.tables for p in self.pairs if p > self.tables)
        return f"NS {number_ranges(ns) or 'none'} and EW {number_ranges(ew) or 'none'}"

    def directory(self, names: Mapping[int, str]) -> dict[str, dict[str, str | None]]:
        """The snapshot's ``pairs``: every pair by its internal number (as text) with its
        label, direction and names, NS field first."""
        ordered = sorted(self.pairs, key=lambda p: (self.direction(p) == "EW", p))
        return {
            str(p): {
                "label": self.label(p),
                "direction": self.direction(p),
                "names": names.get(p, ""),
            }
            for p in ordered
        }


Numbering = Mapping[str, PairLabels]  # per section: the room's pair numbers (protocol §4)


def room(numbering: Numbering, section: str, pair: int) -> int:
    """The number the room (and the wire) uses for internal ``pair``: EW 3, not 10."""
    labels = numbering.get(section)
    return pair if labels is None or pair <= 0 else labels.to_room(pair)[1]


def field_named(labels: PairLabels, pair: int, names: str) -> str:
    """A ranking line's names led by the pair's field in a Mitchell ("EW: Anna & Bo"),
    since NS 3 and EW 3 both travel as 3 on the wire."""
    direction = labels.direction(pair)
    if direction is None:
        return names
    return f"{direction}: {names}" if names else direction


def numbering(movements: Mapping[str, Movement]) -> dict[str, PairLabels]:
    """Every section's numbering, for ``BaseStationPort.set_numbering``."""
    return {letter: PairLabels.of(m, letter) for letter, m in movements.items()}


def check_pairs(pairs: Iterable[Pair], labels: PairLabels, kind: str) -> list[tuple[int, str]]:
    """Problems with an event file's pairs against the section's movement, as (item index,
    reason): a direction where there is one numbering, none in a Mitchell, a pair the
    movement does not seat."""
    listed = list(pairs)
    problem = direction_problem(listed, labels.mitchell, kind)
    if problem:
        return [(-1, problem)]
    out = []
    for i, p in enumerate(listed):
        try:
            labels.internal(p)
        except PairNumberError as e:
            out.append((i, str(e)))
    return out
