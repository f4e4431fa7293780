"""Complete and 3/4 Howell movements, built from a cyclic starter and searched for balance.

With P = 2T pairs and n = P − 1 moving pairs, seats form a band of n positions (Z_n) plus
the stationary pair's seat; after each round every moving pair advances one position.
Table t holds positions {i, −i} (table 0 holds 0 and the stationary seat), so every two
pairs meet exactly once. Board set σ_t + r is at table t in round r; a search picks σ so
that every pair plays every set once (σ_t − k distinct over all positions k) and then the
directions at each table that minimise Manning's competition spread. Sets not at a table
rest on relay stands. Three tables have no such σ: there every table plays the round's set
(a shared, barometer-style Howell).
"""

from __future__ import annotations

import itertools
import random

import numpy as np

from hub.event.movement.balance import spread
from hub.event.movement.model import Layout, Movement, MovementError, MovementKind, MovementRow

_CANDIDATES = 24  # (starter, σ) layouts examined for balance
_STARTERS = 200  # starters tried before giving up on separate board sets


def _starters(n: int, tables: int) -> list[list[list[int]]]:
    """Seat positions per table: [0] for the stationary table, then pairs {a, b} of Z_n
    whose differences ±(a − b) cover every non-zero residue once. The patterned starter
    {i, −i} comes first."""
    patterned = [[0]] + [[i, n - i] for i in range(1, tables)]
    found = [patterned]

    def extend(free: list[int], used: set[int], acc: list[list[int]]) -> None:
        if len(found) >= _STARTERS:
            return
        if not free:
            cand = [[0], *acc]
            if cand != patterned:
                found.append(cand)
            return
        a = free[0]
        for b in free[1:]:
            d = (b - a) % n
            if d in used or (n - d) % n in used:
                continue
            rest = [x for x in free if x not in (a, b)]
            extend(rest, used | {d, (n - d) % n}, [*acc, [a, b]])

    extend(list(range(1, n)), set(), [])
    return found


def _sigmas(n: int, seats: list[list[int]], injective: bool, limit: int) -> list[list[int]]:
    """Board-station offsets σ per table such that σ_t − k covers Z_n once."""
    tables = len(seats)
    found: list[list[int]] = []

    def place(t: int, sigma: list[int], used: set[int]) -> None:
        if len(found) >= limit:
            return
        if t == tables:
            found.append(list(sigma))
            return
        for s in range(n):
            if injective and s in sigma:
                continue
            vals = {(s - k) % n for k in seats[t]}
            if len(vals) == len(seats[t]) and not vals & used:
                sigma.append(s)
                place(t + 1, sigma, used | vals)
                sigma.pop()

    place(1, [0], {0})
    return found


def _layouts(n: int, tables: int) -> tuple[list[tuple[list[list[int]], list[int]]], bool]:
    """Candidate (starter, σ) layouts; ``shared`` when no σ keeps one set per table."""
    starters = _starters(n, tables)
    out: list[tuple[list[list[int]], list[int]]] = []
    for seats in starters:
        for sigma in _sigmas(n, seats, True, _CANDIDATES - len(out)):
            out.append((seats, sigma))
        if len(out) >= _CANDIDATES:
            break
    if out:
        return out, False
    patterned = starters[0]
    return [(patterned, s) for s in _sigmas(n, patterned, False, _CANDIDATES)], True


class _Plan:
    """Index arrays of one (starter, σ) layout, so directions can be tried quickly."""

    def __init__(self, n: int, seats: list[list[int]], sigma: list[int], rounds: int) -> None:
        self.n, self.seats, self.sigma = n, seats, sigma
        r = np.arange(rounds)[:, None]
        tabs = len(seats)
        first = np.array([s[0] for s in seats])
        second = np.array([s[1] if len(s) > 1 else -1 for s in seats])
        self.sets = (np.array(sigma)[None, :] + r) % n
        self.a = (first[None, :] + r) % n
        self.b = np.where(second[None, :] >= 0, (second[None, :] + r) % n, n)  # n: stationary
        self.tables = tabs

    def directions(self, flips: np.ndarray) -> np.ndarray:
        ns = np.where(flips[None, :], self.a, self.b)
        ew = np.where(flips[None, :], self.b, self.a)
        # table 0 (stationary seat is "b" = n): flips[0] False puts the stationary pair NS
        d = np.zeros((self.n, self.n + 1))
        d[self.sets, ns] = 1.0
        d[self.sets, ew] = -1.0
        return d


def _best_flips(plan: _Plan, rng: random.Random) -> tuple[float, np.ndarray]:
    tables = plan.tables
    if tables - 1 <= 11:
        best: tuple[float, np.ndarray] | None = None
        for bits in itertools.product((False, True), repeat=tables - 1):
            flips = np.array((False, *bits))
            score = spread(plan.directions(flips))
            if best is None or score < best[0] - 1e-9:
                best = (score, flips)
        assert best is not None
        return best
    best = None
    for _ in range(8):  # hill-climb from a few random starts
        flips = np.array([False] + [rng.random() < 0.5 for _ in range(tables - 1)])
        score = spread(plan.directions(flips))
        improved = True
        while improved:
            improved = False
            for t in range(1, tables):
                flips[t] = not flips[t]
                s = spread(plan.directions(flips))
                if s < score - 1e-9:
                    score, improved = s, True
                else:
                    flips[t] = not flips[t]
        if best is None or score < best[0]:
            best = (score, flips.copy())
    assert best is not None
    return best


def howell(
    tables: int,
    boards_per_round: int,
    rounds: int | None = None,
    *,
    pairs: int | None = None,
    section: str = "A",
    seed: int = 1,
) -> Movement:
    """A Howell for ``tables`` tables: complete (2T − 1 rounds) or 3/4 (fewer rounds).

    ``pairs`` = 2T − 1 leaves a phantom: the stationary seat is empty and its table's
    opponents sit out in turn (0 in the rows)."""
    if not 2 <= tables <= 30:
        raise MovementError("a Howell here has 2 to 30 tables", None, "size")
    if boards_per_round < 1:
        raise MovementError("boards per round must be at least 1", None, "size")
    n = 2 * tables - 1
    rounds = n if rounds is None else rounds
    if not 1 <= rounds <= n:
        raise MovementError(f"a {tables}-table Howell has 1 to {n} rounds", None, "size")
    pairs = 2 * tables if pairs is None else pairs
    if pairs not in (2 * tables, 2 * tables - 1):
        raise MovementError(
            f"{tables} tables seat {2 * tables - 1} or {2 * tables} pairs", None, "size"
        )
    layouts, shared = _layouts(n, tables)
    rng = random.Random(seed)
    scored = []
    for seats, sigma in layouts:
        plan = _Plan(n, seats, sigma, rounds)
        score, flips = _best_flips(plan, rng)
        scored.append((score, plan, flips))
    _, plan, flips = min(scored, key=lambda x: x[0])
    sigma = plan.sigma
    # Physical tables in station order, so boards move to the next lower table (or relay).
    order = sorted(range(tables), key=lambda t: (sigma[t], t))
    number = {t: i + 1 for i, t in enumerate(order)}
    table_values = sorted({sigma[t] for t in range(tables)})
    rest = [v for v in range(n) if v not in table_values]
    label = {v: i for i, v in enumerate(table_values + rest)}
    stationary = 2 * tables if pairs == 2 * tables else 0
    rows = []
    for r in range(rounds):
        for t in range(tables):
            s = label[int(plan.sets[r, t])]
            boards = tuple(range(s * boards_per_round + 1, (s + 1) * boards_per_round + 1))
            a, b = int(plan.a[r, t]), int(plan.b[r, t])
            ns_i, ew_i = (a, b) if flips[t] else (b, a)
            ns = stationary if ns_i == n else ns_i + 1
            ew = stationary if ew_i == n else ew_i + 1
            rows.append(MovementRow(section, number[t], r + 1, ns, ew, boards))
    relays = []
    for i, v in enumerate(table_values):
        nxt = table_values[(i + 1) % len(table_values)]
        gap = (nxt - v - 1) % n
        lower = number[next(t for t in order if sigma[t] == v)]
        upper = number[next(t for t in order if sigma[t] == nxt)]
        relays.extend([(lower, upper)] * gap)
    kind = "complete" if rounds == n else "3/4"
    layout = Layout(
        kind=MovementKind.HOWELL,
        winners=1,
        shares=(tuple(range(1, tables + 1)),) if shared else (),
        relays=tuple(relays),
        description=f"{kind} Howell, {tables} tables, {pairs} pairs, {rounds} "
        f"rounds x {boards_per_round} boards"
        + (", every table plays the round's set" if shared else ""),
    )
    return Movement(tuple(rows), layout).sorted()
