"""Mitchell movements: NS stationary, EW up one table, boards down one table.

Odd tables need nothing else; even tables use the skip (EW jump a table after half the
rounds) or share-and-relay (a relay stand between the middle tables, the last table sharing
table 1's boards). Arrow-switched rounds give one winner; the rounds are chosen to minimise
the balance spread.

Pairs are numbered internally NS 1..T and EW T+1..2T (the room calls EW T+k "EW k":
``hub/event/pair_labels.py``). An odd number of pairs (2T − 1) leaves the last EW pair out:
its seat is 0 in the rows, so the NS pair it would have met sits out that round.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import numpy as np

from hub.event.movement.balance import spread
from hub.event.movement.model import Layout, Movement, MovementError, MovementKind, MovementRow

MAX_TABLES = 500  # one section (a congress room, the 200-table bench); a typo is refused


def tables_for(tables: int | None, pairs: int | None, kind: str) -> int:
    """The tables a movement of ``pairs`` pairs needs (half, rounded up), or ``tables``."""
    if tables is not None:
        return tables
    if pairs is None:
        raise MovementError(f"a generated {kind} needs tables or pairs", None, "size")
    return -(-pairs // 2)


def mitchell(
    tables: int | None,
    boards_per_round: int,
    rounds: int | None = None,
    *,
    pairs: int | None = None,
    variant: str = "auto",
    arrow_switch: bool = False,
    section: str = "A",
) -> Movement:
    """A Mitchell for ``tables`` tables (or ``pairs`` pairs: half as many tables, rounded
    up). ``variant``: auto, plain (odd tables), skip, relay. ``pairs`` = 2T − 1: EW T sits
    out (0), so each round one NS pair has no opponents."""
    tables = tables_for(tables, pairs, "Mitchell")
    pairs = 2 * tables if pairs is None else pairs
    if pairs not in (2 * tables, 2 * tables - 1):
        raise MovementError(
            f"a Mitchell on {tables} tables seats {2 * tables - 1} or {2 * tables} pairs, "
            f"not {pairs}",
            None,
            "size",
        )
    if tables < 2:
        raise MovementError("a Mitchell needs at least 2 tables", None, "size")
    if tables > MAX_TABLES:  # a typo (700 for 70) must not run for minutes
        raise MovementError(f"a Mitchell here has 2 to {MAX_TABLES} tables", None, "size")
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
            ew = 0 if ew > pairs else ew  # the missing pair: its opponents sit out
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
        description=f"{variant} Mitchell, {tables} tables, "
        + (f"{pairs} pairs (EW {tables} sits out), " if pairs < 2 * tables else "")
        + f"{rounds} rounds x {boards_per_round} boards",
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


EXHAUSTIVE = 6000  # choices of rounds tried one by one (19 tables: 5035); beyond, greedily


def with_arrow_switch(movement: Movement, max_rounds: int | None = None) -> Movement:
    """One winner: swap NS and EW in the whole rounds that minimise the balance spread.

    Tries every choice of up to a quarter of the rounds (the EBU advises about one board in
    eight); ties go to fewer and later rounds. Where that is more than ``EXHAUSTIVE``
    choices (21 tables and up: the count grows as rounds^(rounds/4), hours by 25 tables)
    rounds are added one at a time, each the best next one."""
    rounds = movement.rounds
    limit = max_rounds or max(1, rounds // 4)
    best: tuple[float, int, tuple[int, ...]] | None = None
    d0, meet = directions_and_meetings(movement)
    # a pair plays a set in one round only: switching round r negates its own entries
    flip = {
        r: d0 - directions_and_meetings(movement, frozenset((r,)))[0] for r in range(1, rounds + 1)
    }

    def key(combo: tuple[int, ...]) -> tuple[float, int, tuple[int, ...]]:
        d = d0 - sum((flip[r] for r in combo), np.zeros_like(d0))
        return (round(spread(d, meet), 6), len(combo), tuple(-c for c in sorted(combo)))

    def better(k: tuple[float, int, tuple[int, ...]]) -> bool:
        return best is None or k < (best[0], best[1], tuple(-c for c in best[2]))

    if sum(math.comb(rounds, k) for k in range(1, limit + 1)) <= EXHAUSTIVE:
        for k in range(1, limit + 1):
            for combo in itertools.combinations(range(1, rounds + 1), k):
                if better(scored := key(combo)):
                    best = (scored[0], k, combo)
    else:
        grown: tuple[int, ...] = ()
        for k in range(1, limit + 1):
            step = min(
                (key(tuple(sorted((*grown, r)))), tuple(sorted((*grown, r))))
                for r in range(1, rounds + 1)
                if r not in grown
            )
            grown = step[1]
            if better(step[0]):
                best = (step[0][0], k, grown)
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
