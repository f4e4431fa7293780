"""Barometer movements: every table plays the same boards in the same round.

Pairs meet by the circle method (a complete round robin, P − 1 rounds; a phantom for an
odd count), and the direction at each table-round is searched so that NS/EW counts and
Manning's competition are as even as possible (decisions D3: up to at least 52 pairs, seed
002's final of 52 pairs × 102 boards). Fewer rounds give an incomplete barometer.
"""

from __future__ import annotations

import random

import numpy as np

from hub.event.movement.balance import flip_gain
from hub.event.movement.model import Layout, Movement, MovementError, MovementKind, MovementRow


def circle_rounds(pairs: int) -> list[list[tuple[int, int]]]:
    """Round-robin meetings for an even number of pairs: pair P fixed, the rest rotate."""
    n = pairs - 1
    out = []
    for r in range(n):
        meet = [(pairs, r + 1)]
        for k in range(1, pairs // 2):
            meet.append(((r + k) % n + 1, (r - k) % n + 1))
        out.append(meet)
    return out


def barometer(
    pairs: int,
    boards_per_round: int,
    rounds: int | None = None,
    *,
    section: str = "A",
    seed: int = 1,
) -> Movement:
    """A barometer for ``pairs`` pairs (odd: a phantom, its opponent sits out)."""
    if pairs < 3:
        raise MovementError("a barometer needs at least 3 pairs", None, "size")
    if boards_per_round < 1:
        raise MovementError("boards per round must be at least 1", None, "size")
    even = pairs + pairs % 2
    full = even - 1
    rounds = full if rounds is None else rounds
    if not 1 <= rounds <= full:
        raise MovementError(f"{pairs} pairs play 1 to {full} barometer rounds", None, "size")
    meetings = circle_rounds(even)[:rounds]
    # directions: D[round, pair] = ±1; start alternating, then improve by single flips
    d = np.zeros((rounds, even))
    for r, meet in enumerate(meetings):
        for k, (a, b) in enumerate(meet):
            ns, ew = (a, b) if (r + k) % 2 == 0 else (b, a)
            d[r, ns - 1], d[r, ew - 1] = 1.0, -1.0
    real = np.arange(even) < pairs  # the phantom's column does not count
    rng = random.Random(seed)
    cells = [(r, k) for r in range(rounds) for k in range(len(meetings[r]))]
    for _ in range(6):
        c = d[:, real].T @ d[:, real]
        mean = c[np.triu_indices(pairs, 1)].mean()
        ns_dev = d[:, real].sum(axis=0)
        improved = False
        rng.shuffle(cells)
        for r, k in cells:
            a, b = (x - 1 for x in meetings[r][k])
            if not (real[a] and real[b]):
                continue
            gain = flip_gain(c, d[r, real], a, b, mean)
            # keep every pair near half its rounds as NS: ns_dev changes by −2·d at a and b
            gain += 4.0 * sum((ns_dev[p] - 2 * d[r, p]) ** 2 - ns_dev[p] ** 2 for p in (a, b))
            if gain < -1e-9:
                d[r, a], d[r, b] = -d[r, a], -d[r, b]
                c = d[:, real].T @ d[:, real]
                ns_dev = d[:, real].sum(axis=0)
                improved = True
        if not improved:
            break
    rows = []
    for r, meet in enumerate(meetings):
        boards = tuple(range(r * boards_per_round + 1, (r + 1) * boards_per_round + 1))
        for t, (a, b) in enumerate(sorted(meet, key=lambda m: min(m)), start=1):
            ns, ew = (a, b) if d[r, a - 1] > 0 else (b, a)
            rows.append(
                MovementRow(
                    section, t, r + 1, ns if ns <= pairs else 0, ew if ew <= pairs else 0, boards
                )
            )
    tables = even // 2
    layout = Layout(
        kind=MovementKind.BAROMETER,
        winners=1,
        copies=tables,
        description=f"barometer, {pairs} pairs, {tables} tables, {rounds} rounds x "
        f"{boards_per_round} boards",
    )
    return Movement(tuple(rows), layout)
