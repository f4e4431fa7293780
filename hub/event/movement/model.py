"""The canonical movement: rows ``section, table, round, ns_pair, ew_pair, boards`` plus the
layout metadata rows cannot carry (decisions D3). Pair number 0 is an empty seat."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from functools import cached_property


class MovementError(ValueError):
    """A movement that breaks a rule; ``row`` is the 1-based data row (or file line)."""

    def __init__(self, message: str, row: int | None = None, rule: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.row = row
        self.rule = rule


class MovementKind(Enum):
    MITCHELL = "mitchell"
    HOWELL = "howell"
    BAROMETER = "barometer"
    SEMI_BAROMETER = "semi-barometer"
    TEAMS = "teams"


@dataclass(frozen=True, slots=True)
class MovementRow:
    """One table in one round. ``boards`` ascending; empty for a table with no boards."""

    section: str
    table: int
    round: int
    ns_pair: int
    ew_pair: int
    boards: tuple[int, ...]

    @property
    def low_board(self) -> int:
        return self.boards[0] if self.boards else 0

    @property
    def high_board(self) -> int:
        return self.boards[-1] if self.boards else 0

    @property
    def consecutive(self) -> bool:
        return not self.boards or list(self.boards) == list(
            range(self.boards[0], self.boards[-1] + 1)
        )

    def pairs(self) -> tuple[int, ...]:
        return tuple(p for p in (self.ns_pair, self.ew_pair) if p)


@dataclass(frozen=True, slots=True)
class ThreeWay:
    """Three teams A, B, C that play each other over rounds N = ``round`` and N+1 at
    ``tables`` (a, b, c), each team NS at its own table (ASE Scorer's three-way over two
    rounds at normal length; movements.md 5.5): in round N A v B at a (set X), B v C at b
    (set Y), C v A at c (set Z); in round N+1 A v C at a (Z), B v A at b (X), C v B at c
    (Y). Each match's second room plays its first room's boards, a round later and at
    another table."""

    round: int
    teams: tuple[int, int, int]
    tables: tuple[int, int, int]

    def seats(self) -> list[tuple[int, int, int, int, int]]:
        """(table, round, NS team, EW team, set 0-2) of its six table-rounds."""
        (a, b, c), (ta, tb, tc), n = self.teams, self.tables, self.round
        return [
            (ta, n, a, b, 0),
            (tb, n, b, c, 1),
            (tc, n, c, a, 2),
            (ta, n + 1, a, c, 2),
            (tb, n + 1, b, a, 0),
            (tc, n + 1, c, b, 1),
        ]

    def matches(self) -> list[tuple[int, int, tuple[int, int], tuple[int, int]]]:
        """(home, away, the (table, round) where home sits NS, the one where it sits EW)
        of its three matches: A v B, B v C, C v A."""
        (a, b, c), (ta, tb, tc), n = self.teams, self.tables, self.round
        return [
            (a, b, (ta, n), (tb, n + 1)),
            (b, c, (tb, n), (tc, n + 1)),
            (c, a, (tc, n), (ta, n + 1)),
        ]

    def holds(self, table: int, rnd: int) -> bool:
        return table in self.tables and rnd in (self.round, self.round + 1)


@dataclass(frozen=True, slots=True)
class KnockoutPlan:
    """What a knockout's movement says beyond its rows (issue [KNOCKOUT]): its movement
    rounds are appended while it runs (a bracket round's segments, then an extra set or
    sudden-death boards where a match is level), so ``event_rounds[r − 1]`` is the bracket
    round (event round) movement round r plays; ``matches`` names the bracket match each
    pair of tables plays in an event round, as (event round, index in ``Layout.matches``,
    match), and ``three_ways`` its three-way matches (seed 000) as (event round, index in
    ``Layout.three_ways``, match); ``carried`` the IMPs a team starts its match of an event
    round with, as (event round, team, IMPs); ``to_come``: rounds are still to be appended
    (the bracket is not decided), so the section waits after its last round instead of
    ending;
    ``entries``, the team numbers by rank (rank 1 first) as seeded when the event was
    created, with the ``lot_seed`` of the seeding and of every later lot (decisions D19);
    ``bracket``, the bracket file's text when the section plays one (docs/brackets.md), so
    the store alone rebuilds the knockout (D23); ``minutes``, the movement rounds with a
    time of their own (an extra set: seed 003 §12.8) as (round, minutes)."""

    event_rounds: tuple[int, ...] = ()
    matches: tuple[tuple[int, int, str], ...] = ()
    three_ways: tuple[tuple[int, int, str], ...] = ()
    carried: tuple[tuple[int, int, Fraction], ...] = ()
    to_come: bool = True
    entries: tuple[int, ...] = ()
    lot_seed: int = 0
    bracket: str = ""
    minutes: tuple[tuple[int, Fraction], ...] = ()

    def event_round(self, rnd: int) -> int:
        return self.event_rounds[rnd - 1] if 0 < rnd <= len(self.event_rounds) else 0

    def first_round(self, k: int) -> int:
        """The first movement round of event round ``k`` (0 before it is appended)."""
        return next((r for r, e in enumerate(self.event_rounds, start=1) if e == k), 0)

    def match_at(self, k: int, pair: int) -> str:
        """The bracket match the ``pair``-th pair of tables plays in event round ``k``."""
        return next((name for e, i, name in self.matches if (e, i) == (k, pair)), "")

    def carry(self, team: int, k: int) -> Fraction:
        return sum((imps for e, t, imps in self.carried if (e, t) == (k, team)), Fraction(0))


@dataclass(frozen=True)
class Layout:
    """What rows cannot say: the movement's kind, winners, board copies, shared tables,
    relay stands, team tables that form one match, arrow-switched table-rounds; for teams,
    ``segments`` (movement rounds that form one match: rounds (k−1)·S+1 … k·S are match k)
    and, for a draw made while the event runs (decisions D19), its ``draw`` method and the
    rounds ``drawn`` so far (later rounds' rows are empty until their draw is published)
    and the teams ``withdrawn`` from a round on (left out of that round's draw and later),
    and the ``three_ways`` an odd field of teams plays instead of a bye; a knockout's
    ``knockout`` plan (``draw = "knockout"``)."""

    kind: MovementKind = MovementKind.HOWELL
    winners: int = 1
    copies: int = 1
    shares: tuple[tuple[int, ...], ...] = ()
    relays: tuple[tuple[int, int], ...] = ()
    matches: tuple[tuple[int, int], ...] = ()
    arrow_switch: tuple[tuple[int, int], ...] = ()
    description: str = ""
    segments: int = 1
    draw: str = ""  # "", "swiss", "danish" or "monrad"
    drawn: int = 0  # with a draw: the rounds drawn so far
    withdrawn: tuple[tuple[int, int], ...] = ()  # (team, the first round it no longer plays)
    three_ways: tuple[ThreeWay, ...] = ()
    knockout: KnockoutPlan | None = None

    def three_way_at(self, table: int, rnd: int) -> ThreeWay | None:
        """The three-way match table ``table`` plays in round ``rnd``, if any."""
        return next((w for w in self.three_ways if w.holds(table, rnd)), None)

    def plays(self, team: int, rnd: int) -> bool:
        """The team has not withdrawn before round ``rnd`` (a drawn event, D19)."""
        return all(t != team or rnd < first for t, first in self.withdrawn)

    def undrawn(self, rnd: int) -> bool:
        """Round ``rnd`` waits for its draw (D19)."""
        return bool(self.draw) and rnd > self.drawn

    @property
    def to_come(self) -> bool:
        """Rounds are still to be appended after the last (a knockout not decided yet)."""
        return self.knockout is not None and self.knockout.to_come


@dataclass(frozen=True)
class Movement:
    rows: tuple[MovementRow, ...]
    layout: Layout = field(default_factory=Layout)

    @property
    def rounds(self) -> int:
        return max((r.round for r in self.rows), default=0)

    @property
    def sections(self) -> list[str]:
        return sorted({r.section for r in self.rows})

    def tables(self, section: str | None = None) -> list[int]:
        return sorted({r.table for r in self.rows if section in (None, r.section)})

    def pairs(self, section: str | None = None) -> list[int]:
        return sorted({p for r in self.rows if section in (None, r.section) for p in r.pairs()})

    def boards(self) -> list[int]:
        return sorted({b for r in self.rows for b in r.boards})

    def round_rows(self, rnd: int, section: str | None = None) -> list[MovementRow]:
        return [r for r in self.rows if r.round == rnd and section in (None, r.section)]

    def row(self, section: str, table: int, rnd: int) -> MovementRow | None:
        return self._by_seat.get((section, table, rnd))

    @cached_property
    def _by_seat(self) -> dict[tuple[str, int, int], MovementRow]:
        """Each (section, table, round)'s row (the first, as a scan would find it): the hub
        looks rows up for every result on the wire, and a 200-table room has thousands."""
        index: dict[tuple[str, int, int], MovementRow] = {}
        for r in self.rows:
            index.setdefault((r.section, r.table, r.round), r)
        return index

    def sorted(self) -> Movement:
        return replace(
            self, rows=tuple(sorted(self.rows, key=lambda r: (r.section, r.round, r.table)))
        )

    def from_round(self, first_round: int, later: Movement) -> Movement:
        """This movement up to ``first_round − 1`` and ``later``'s rows from it on: a
        mid-session change (late pair, filled phantom, next Swiss round) that keeps every
        earlier round as it was played."""
        kept = [r for r in self.rows if r.round < first_round]
        added = [r for r in later.rows if r.round >= first_round]
        return replace(self, rows=tuple(kept + added), layout=later.layout).sorted()


def renumber_boards(sets: Sequence[int], boards_per_set: int) -> list[tuple[int, ...]]:
    """Board numbers of 0-based sets: set k holds boards k·B+1 … (k+1)·B."""
    return [tuple(range(s * boards_per_set + 1, (s + 1) * boards_per_set + 1)) for s in sets]


def rows_from(
    items: Iterable[tuple[str, int, int, int, int, tuple[int, ...]]],
) -> tuple[MovementRow, ...]:
    return tuple(MovementRow(*it) for it in items)
