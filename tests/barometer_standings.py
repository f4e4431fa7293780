"""The standings of a barometer night counted by hand, for the tests of the screens that
show them (the projector screen, the console): 4 pairs at 2 tables, one board a round, as
the movement `bridgehub movement barometer --pairs 4 --boards-per-round 1` makes.
``published_rows``: the rows the hub publishes after a round; ``expected_places``: the
places and totals they come from."""

from __future__ import annotations

from fractions import Fraction

from hub_stub import pairs_row

# (table, NS, EW) in rounds 1 and 2
SEATING = {1: [(1, 4, 1), (2, 3, 2)], 2: [(1, 1, 3), (2, 2, 4)]}


def expected_places(rounds: int) -> tuple[dict[int, int], dict[int, Fraction]]:
    """Count tops by hand: on each board table 1's NS and table 2's EW get the top; with
    two results a board is 100 % or 0 %; a pair's total is its average. Standard
    competition places (1, 1, 3, 3)."""
    tops: dict[int, list[int]] = {}
    for rnd in range(1, rounds + 1):
        for table, ns, ew in SEATING[rnd]:
            won_ns = table == 1
            tops.setdefault(ns, []).append(100 if won_ns else 0)
            tops.setdefault(ew, []).append(0 if won_ns else 100)
    avg = {p: Fraction(sum(v), len(v)) for p, v in tops.items()}
    return {p: 1 + sum(1 for q in avg.values() if q > a) for p, a in avg.items()}, avg


def _rank(places: dict[int, int], pair: int) -> str:
    shared = sum(1 for q in places.values() if q == places[pair]) > 1
    return f"{places[pair]}{'=' if shared else ''}"


def published_rows(rounds: int, names: dict[int, str] | None = None) -> list[dict]:
    """The rows the hub publishes after ``rounds``: hand-counted places and totals, with
    each pair's rank after the round before (None after the first)."""
    now, avg = expected_places(rounds)
    before = expected_places(rounds - 1)[0] if rounds > 1 else {}
    order = sorted(now, key=lambda p: (now[p], p))
    return [
        pairs_row(
            p,
            _rank(now, p),
            avg[p],
            boards=rounds,
            name=(names or {}).get(p, ""),
            previous_rank=_rank(before, p) if before else None,
        )
        for p in order
    ]
