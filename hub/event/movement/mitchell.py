"""Mitchell movements: NS stationary, EW up one table, boards down one table.

Odd tables need nothing else; even tables use the skip (EW jump a table after half the
rounds) or share-and-relay (a relay stand between the middle tables, the last table sharing
table 1's boards). Arrow-switched rounds give one winner; the rounds are chosen to minimise
the balance spread.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np

from hub.event.movement.balance import spread
from hub.event.movement.model import Layout, Movement, MovementError, MovementKind, MovementRow


def mitchell(
    tables: int,
    boards_per_round: int,
    rounds: int | None = None,
    *,
    variant: str = "auto",
    arrow_switch: bool = False,
    section: str = "A",
) -> Movement:
    """A Mitchell for ``tables`` tables. ``variant``: auto, plain (odd tables), skip, relay."""
    if tables < 2:
        raise MovementError("a Mitchell needs at least 2 tables", None, "size")
    if boards_per_round < 1:
        raise MovementError("boards per round must be at least 1", None, "size")
    if variant == "auto":
        variant = "plain" if tables % 2 else "skip"
    if variant == "plain" and tables % 2 == 0:
        raise MovementError(
            f"a plain Mitchell needs an odd number of tables; for {tables} use --skip or --relay",
            None,
            "size",
        )
    if variant in ("skip", "relay") and tables % 2:
        variant = "plain"
    full = tables - 1 if variant == "skip" else tables
    rounds = full if rounds is None else rounds
    if not 1 <= rounds <= tables:
        raise MovementError(f"a {tables}-table Mitchell plays 1 to {tables} rounds", None, "size")
    half = tables // 2
    rows = []
    for r in range(rounds):
        skip = 1 if variant == "skip" and r >= half else 0
        for t in range(tables):
            ew = tables + (t - r - skip) % tables + 1
            if variant == "relay":
                # stations: tables 1..T/2, the relay, tables T/2+1..T−1; table T shares station 0
                station = t if t < half else (t + 1 if t < tables - 1 else 0)
                s = (station + r) % tables
            else:
                s = (t + r) % tables
            boards = tuple(range(s * boards_per_round + 1, (s + 1) * boards_per_round + 1))
            rows.append(MovementRow(section, t + 1, r + 1, t + 1, ew, boards))
    layout = Layout(
        kind=MovementKind.MITCHELL,
        winners=2,
        shares=((1, tables),) if variant == "relay" else (),
        relays=((half, half + 1),) if variant == "relay" else (),
        description=f"{variant} Mitchell, {tables} tables, {rounds} rounds x "
        f"{boards_per_round} boards",
    )
    movement = Movement(tuple(rows), layout)
    return with_arrow_switch(movement) if arrow_switch else movement


def directions_and_meetings(
    movement: Movement, switched: frozenset[int] = frozenset()
) -> tuple[np.ndarray, np.ndarray]:
    """D (set × pair directions, rounds in ``switched`` reversed) and the meeting bonus."""
    pairs = movement.pairs()
    index = {p: i for i, p in enumerate(pairs)}
    sets = sorted({r.boards for r in movement.rows if r.ns_pair and r.ew_pair})
    srow = {b: i for i, b in enumerate(sets)}
    plays = {
        b: sum(1 for r in movement.rows if r.boards == b and r.ns_pair and r.ew_pair) for b in sets
    }
    d = np.zeros((len(sets), len(pairs)))
    meet = np.zeros((len(pairs), len(pairs)))
    for r in movement.rows:
        if not (r.ns_pair and r.ew_pair):
            continue
        sign = -1.0 if r.round in switched else 1.0
        a, b = index[r.ns_pair], index[r.ew_pair]
        d[srow[r.boards], a] = sign
        d[srow[r.boards], b] = -sign
        meet[a, b] += plays[r.boards]
        meet[b, a] += plays[r.boards]
    return d, meet


def with_arrow_switch(movement: Movement, max_rounds: int | None = None) -> Movement:
    """One winner: swap NS and EW in the whole rounds that minimise the balance spread.

    Tries every choice of up to a quarter of the rounds (the EBU advises about one board in
    eight); ties go to fewer and later rounds."""
    rounds = movement.rounds
    limit = max_rounds or max(1, rounds // 4)
    best: tuple[float, int, tuple[int, ...]] | None = None
    _, meet = directions_and_meetings(movement)
    for k in range(1, limit + 1):
        for combo in itertools.combinations(range(1, rounds + 1), k):
            d, _ = directions_and_meetings(movement, frozenset(combo))
            score = spread(d, meet)
            key = (round(score, 6), k, tuple(-c for c in combo))
            if best is None or key < (best[0], best[1], tuple(-c for c in best[2])):
                best = (key[0], k, combo)
    assert best is not None
    chosen = set(best[2])
    rows = tuple(
        replace(r, ns_pair=r.ew_pair, ew_pair=r.ns_pair) if r.round in chosen else r
        for r in movement.rows
    )
    switched = tuple((r.round, r.table) for r in rows if r.round in chosen)
    lay = movement.layout
    layout = replace(
        lay,
        winners=1,
        arrow_switch=switched,
        description=f"{lay.description}, arrow-switched round(s) "
        f"{', '.join(map(str, sorted(chosen)))}",
    )
    return Movement(rows, layout)
