"""Scoring speed: the engine against a plain O(n²) reference measured in the same run.

Run: ``bash dev.sh bench`` (or ``.venv/bin/python bench/scoring.py [--quick]``).

Prints medians of repeated runs and ratios:
1. MP with Neuberg, cross-IMPs and Butler on one board of 20, 200 and 2,000 results,
   against plain Python double loops (target ≥ 50× at 2,000 results);
2. a full rescore of (a) seed 002's barometer final, 52 pairs × 102 boards, and (b) 2,000
   tables × 36 boards, from stored results to exact standings (target (b) < 1 s);
3. one new result added to a 2,000-result board: rescore the board and update the
   standings (target < 5 ms).
"""

from __future__ import annotations

import argparse
import bisect
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

# This file is named after what it measures; keep its folder from shadowing the package.
sys.path[0] = str(Path(__file__).resolve().parents[1])

from scoring.board_score import ScoreKind
from scoring.butler import ButlerRules, score_butler
from scoring.cross_imps import score_cross_imps
from scoring.imps import IMP_THRESHOLDS
from scoring.matchpoints import MatchpointRules, score_matchpoints
from scoring.standings import Tally, standings_by_direction
from scoring.traveller import Traveller, TravellerLine


def median_time(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


# -- plain references: what a first version would write ---------------------------------
def plain_imps(diff: float) -> int:
    d = abs(diff)
    d = (d + 5) // 10 * 10
    n = bisect.bisect_right(IMP_THRESHOLDS, d)
    return n if diff >= 0 else -n


def plain_neuberg(scores: list[int], expected: int) -> list[float]:
    n = len(scores)
    out = []
    for s in scores:
        mp = 0
        for t in scores:
            if t < s:
                mp += 2
            elif t == s:
                mp += 1
        mp -= 1
        out.append(((mp + 1) * expected / n - 1) / (2 * (expected - 1)) * 100)
    return out


def plain_cross_imps(scores: list[int]) -> list[float]:
    n = len(scores)
    return [sum(plain_imps(s - t) for t in scores) / (n - 1) for s in scores]


def plain_butler(scores: list[int]) -> list[int]:
    ordered = sorted(scores)
    k = -(-len(scores) // 10)
    kept = ordered[k : len(ordered) - k]
    mean = sum(kept) / len(kept)
    datum = int((abs(mean) + 5) // 10 * 10) * (1 if mean >= 0 else -1)
    return [plain_imps(s - datum) for s in scores]  # O(n log n): Butler has no n² step


# -- realistic boards ----------------------------------------------------------------------
def board_scores(rng: random.Random, n: int) -> list[int]:
    """A board's NS scores: a handful of common results and a tail of rare ones."""
    common = rng.sample(
        [
            -1100,
            -800,
            -620,
            -500,
            -420,
            -200,
            -170,
            -140,
            -110,
            -100,
            -50,
            50,
            100,
            110,
            140,
            170,
            200,
            300,
            400,
            420,
            450,
            480,
            600,
            620,
            650,
            680,
            990,
            1430,
        ],
        12,
    )
    weights = [rng.random() ** 2 for _ in common]
    return [
        rng.choices(common, weights)[0]
        if rng.random() < 0.97
        else rng.choice(common) + rng.choice((-30, 30, -100, 100))
        for _ in range(n)
    ]


def traveller(rng: random.Random, board: int, tables: int, winners: int) -> Traveller:
    scores = board_scores(rng, tables)
    if winners == 2:
        ns = list(range(1, tables + 1))
        ew = ns[board % tables :] + ns[: board % tables]
    else:
        pairs = list(range(1, 2 * tables + 1))
        rng.shuffle(pairs)
        ns, ew = pairs[:tables], pairs[tables:]
    return Traveller.of(
        board, [TravellerLine(a, b, s) for a, b, s in zip(ns, ew, scores, strict=True)]
    )


def full_rescore(travellers: list[Traveller], rules, score, kind: ScoreKind, winners: int) -> None:
    tally = Tally(kind, winners)
    for t in travellers:
        tally.set_board(score(t, rules))
    standings_by_direction(tally)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer repeats")
    args = ap.parse_args()
    rng = random.Random(2026)
    rep = 3 if args.quick else 7

    print("1. One board: engine vs plain O(n²) Python (median seconds, ratio)")
    print(f"   {'method':<12} {'results':>7} {'engine':>10} {'plain':>10} {'ratio':>8}")
    worst_ratio_2000 = None
    for n in (20, 200, 2000):
        t = traveller(rng, 1, n, 2)
        scores = [int(x) for x in t.scores]
        cases = [
            (
                "MP-Neuberg",
                lambda t=t, n=n: score_matchpoints(t, MatchpointRules(expected=n + 2)),
                lambda s=scores, n=n: plain_neuberg(s, n + 2),
            ),
            ("cross-IMP", lambda t=t: score_cross_imps(t), lambda s=scores: plain_cross_imps(s)),
            (
                "Butler",
                lambda t=t: score_butler(t, ButlerRules()),
                lambda s=scores: plain_butler(s),
            ),
        ]
        for name, ours, plain in cases:
            a = median_time(ours, rep * 3)
            b = median_time(plain, 1 if n == 2000 else rep)
            ratio = b / a
            if n == 2000 and name != "Butler":
                worst_ratio_2000 = (
                    ratio if worst_ratio_2000 is None else min(worst_ratio_2000, ratio)
                )
            print(f"   {name:<12} {n:>7} {a:>10.6f} {b:>10.6f} {ratio:>7.1f}×")
    print(
        f"   lowest ratio at 2,000 results: {worst_ratio_2000:.0f}× (target ≥ 50×; Butler has no "
        "O(n²) step, so its plain reference is a sort and one IMP lookup per result)"
    )

    print("\n2. Full rescore from stored results to exact standings (median seconds)")
    final = [traveller(rng, b, 26, 1) for b in range(1, 103)]
    t_a = median_time(
        lambda: full_rescore(final, MatchpointRules(), score_matchpoints, ScoreKind.MATCHPOINTS, 1),
        rep,
    )
    print(f"   (a) 52 pairs × 102 boards, MP Neuberg:          {t_a:8.4f} s")
    big = [traveller(rng, b, 2000, 2) for b in range(1, 37)]
    t_b = median_time(
        lambda: full_rescore(big, MatchpointRules(), score_matchpoints, ScoreKind.MATCHPOINTS, 2),
        rep,
    )
    t_bx = median_time(lambda: full_rescore(big, None, score_cross_imps, ScoreKind.IMPS, 2), rep)
    t_bb = median_time(
        lambda: full_rescore(big, ButlerRules(), score_butler, ScoreKind.IMPS, 2), rep
    )
    print(
        f"   (b) 2,000 tables × 36 boards, MP Neuberg:       {t_b:8.4f} s "
        f"({1 / t_b:.1f}× the 1 s target)"
    )
    print(f"   (b) 2,000 tables × 36 boards, cross-IMP:        {t_bx:8.4f} s")
    print(f"   (b) 2,000 tables × 36 boards, Butler:           {t_bb:8.4f} s")

    print("\n3. One new result on a 2,000-result board: rescore it, update standings")
    tally = Tally(ScoreKind.MATCHPOINTS, 2)
    for t in big:
        tally.set_board(score_matchpoints(t, MatchpointRules(expected=2001)))
    base = big[0]
    newline = TravellerLine(2001, 2001, 420)

    def add_one() -> None:
        t = base.with_line(newline)
        tally.set_board(score_matchpoints(t, MatchpointRules(expected=2001)))

    t_one = median_time(add_one, rep * 5)
    t_totals = median_time(tally.totals, rep)
    print(
        f"   board rescore + tally update:                   {t_one * 1000:8.3f} ms "
        f"({0.005 / t_one:.1f}× the 5 ms target)"
    )
    print(f"   exact totals of all 4,000 pairs afterwards:     {t_totals * 1000:8.3f} ms")


if __name__ == "__main__":
    main()
