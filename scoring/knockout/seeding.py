"""Seed 003's seeded knockout (§9-§12): the bracket size by entries, team Elo, starting
numbers (the N/4 best by Elo seeded, the rest by lot), the standard placing of the numbers
and the first round with byes for the teams whose opponents are missing.

Seed 003's bracket appendix is empty in our copy, so the placing is the standard one: 1
and 2 can meet only in the final, 1 meets 4 (not 3) in the semi-final, and in the first
round number x plays number N+1-x.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction

from scoring.errors import ScoringInputError
from scoring.lot import draw_lots

NO_ELO_KNOWN = 500  # seed 003 §10.2: a team none of whose players has a known Elo


def team_elo(ratings: Sequence[int | Fraction | None]) -> int:
    """Seed 003 §10: the mean of the players' known Elo (``None``: unknown), rounded half
    up (600.50 → 601, 600.49 → 600); 500 when none is known."""
    known = [r for r in ratings if r is not None]
    for r in known:
        if isinstance(r, bool) or not isinstance(r, int | Fraction) or r < 0:
            raise ScoringInputError(
                "elo", f"a player's Elo {r!r} is not allowed: a number of 0 or more, or None"
            )
    if not known:
        return NO_ELO_KNOWN
    mean = Fraction(sum(known, Fraction(0)), len(known))
    return math.floor(mean + Fraction(1, 2))


def _is_power_of_two(n: int) -> bool:
    return n >= 1 and n & (n - 1) == 0


def bracket_size(entries: int, smallest: int = 8) -> int:
    """Seed 003 §9.2: the bracket for the entries: 8 for up to 8 teams, 16 for 9-16, 32
    for 17-32, and the like 2^k beyond (33-64 → 64)."""
    if entries < 2:
        raise ScoringInputError("entries", f"a knockout needs at least 2 teams ({entries} given)")
    if smallest < 2 or not _is_power_of_two(smallest):
        raise ScoringInputError("smallest", f"{smallest} must be a power of two, 2 or more")
    size = smallest
    while size < entries:
        size *= 2
    return size


def _check_size(size: int) -> None:
    if size < 2 or not _is_power_of_two(size):
        raise ScoringInputError("size", f"a bracket of {size}: the size must be 2, 4, 8, 16 …")


def standard_order(size: int) -> tuple[int, ...]:
    """The starting numbers top to bottom of the standard bracket (8: 1 8 4 5 2 7 3 6).
    Built by doubling: each number x of the bracket of n is followed by 2n+1-x, so the
    better half of every part of the bracket meets only late."""
    _check_size(size)
    order: tuple[int, ...] = (1,)
    n = 1
    while n < size:
        order = tuple(y for x in order for y in (x, 2 * n + 1 - x))
        n *= 2
    return order


def seed_numbers(ratings: Mapping[str, int], size: int, lot_seed: int) -> tuple[str, ...]:
    """The teams by starting number 1, 2 … (seed 003 §11): the size/4 teams of highest
    Elo get 1 … size/4 by falling Elo (§11.1-2); the others get the next numbers by lot
    (§11.3).

    One lot is drawn with ``lot_seed`` over all the teams; it orders the unseeded, and it
    decides between teams of equal Elo (among the seeded, and at the boundary of the
    seeded: the one drawn earlier is seeded), which the conditions do not settle."""
    _check_size(size)
    if not 2 <= len(ratings) <= size:
        raise ScoringInputError(
            "ratings", f"a bracket of {size} takes 2 to {size} teams ({len(ratings)} given)"
        )
    for team, elo in ratings.items():
        if not team:
            raise ScoringInputError("ratings", "a team's name is empty")
        if isinstance(elo, bool) or not isinstance(elo, int) or elo < 0:
            raise ScoringInputError("ratings", f"{team}'s Elo {elo!r}: a whole number, 0 or more")
    lot = draw_lots(ratings, lot_seed)
    drawn_at = {team: i for i, team in enumerate(lot)}
    by_elo = sorted(ratings, key=lambda t: (-ratings[t], drawn_at[t]))
    seeded = by_elo[: size // 4]
    return (*seeded, *(t for t in lot if t not in seeded))


def ranked_numbers(ranks: Mapping[str, int]) -> tuple[str, ...]:
    """The teams by starting number when every team's number is its given rank (a
    qualification place): the ranks must be 1 … n, each once."""
    by_rank: dict[int, str] = {}
    for team, rank in ranks.items():
        if isinstance(rank, bool) or not isinstance(rank, int) or rank < 1:
            raise ScoringInputError("rank", f"{team}'s rank {rank!r}: a whole number, 1 or more")
        if rank in by_rank:
            raise ScoringInputError("rank", f"rank {rank} is given to {by_rank[rank]} and {team}")
        by_rank[rank] = team
    missing = [r for r in range(1, len(ranks) + 1) if r not in by_rank]
    if missing:
        raise ScoringInputError(
            "rank",
            f"the ranks must be 1 to {len(ranks)}, each once: "
            f"{', '.join(map(str, missing))} missing",
        )
    return tuple(by_rank[r] for r in range(1, len(ranks) + 1))


def first_round(numbered: Sequence[str], size: int) -> tuple[tuple[str, str | None], ...]:
    """The first-round matches top to bottom, each (home, away): the numbers paired as the
    standard bracket places them, the lower number (listed first in the scheme) at home
    (§12.2). Numbers beyond the entries are missing teams (§11.4): their opponents have a
    bye, shown as away ``None``."""
    order = standard_order(size)
    if len(set(numbered)) != len(numbered):
        raise ScoringInputError("numbered", "a team has more than one starting number")
    if not max(size // 2, 1) <= len(numbered) <= size:
        raise ScoringInputError(
            "numbered",
            f"a bracket of {size} takes {max(size // 2, 1)} to {size} teams ({len(numbered)} "
            "given): with fewer, a first-round match would have no team at all",
        )
    matches = []
    for a, b in zip(order[::2], order[1::2], strict=True):
        home, away = min(a, b), max(a, b)
        matches.append((numbered[home - 1], numbered[away - 1] if away <= len(numbered) else None))
    return tuple(matches)
