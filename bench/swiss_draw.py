"""Swiss draw speed (issue 16): the next round for 300 teams after 9 rounds, target < 1 s.

Run: ``.venv/bin/python bench/swiss_draw.py [--teams 300] [--rounds 9] [--repeat 5]``.

Builds a Swiss of ``--teams`` teams over ``--rounds`` rounds (each drawn by the draw under
test, illustrative random results), then prints the median time of the next round's whole
draw (standing from every match, meetings, bye, top-down matching, tables) against a
baseline measured in the same run: the direct formulation, networkx's minimum-cost perfect
matching over every pair of teams with the exact costs of ``scoring.draw.top_down`` (run
once: it takes seconds). Both must give the same draw.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

# This file is named after what it measures; keep its folder from shadowing the package.
sys.path[0] = str(Path(__file__).resolve().parents[1])

import networkx as nx

from scoring.draw.model import Draw, MatchPlayed, Team, meetings
from scoring.draw.standing import SWISS_RULE, current_standing
from scoring.draw.swiss import swiss_draw
from scoring.draw.top_down import pair_cost


def median_time(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def swiss_event(n: int, rounds: int, rng: random.Random) -> tuple[list[Team], list[MatchPlayed]]:
    """``rounds`` rounds of a Swiss of ``n`` teams, results drawn at random (20-0 VPs)."""
    teams = [Team(f"T{i}", f"Team {i}", i) for i in range(1, n + 1)]
    matches: list[MatchPlayed] = []
    for _ in range(rounds):
        draw = swiss_draw(teams, matches)
        for p in draw.matches:
            a, b = rng.randint(0, 60), rng.randint(0, 60)
            vp = Fraction(min(20, max(0, 10 + (a - b) // 3)))
            matches.append(
                MatchPlayed(draw.round, p.home, p.away, vp, 20 - vp, Fraction(a), Fraction(b))
            )
        matches += [MatchPlayed(draw.round, t, None, Fraction(12)) for t in draw.byes]
    return teams, matches


def baseline(teams: list[Team], matches: list[MatchPlayed]) -> set[frozenset[str]]:
    """The draw as networkx's minimum-cost perfect matching of the complete graph."""
    order = current_standing(teams, matches, rule=SWISS_RULE)
    met = meetings(matches)
    n = len(order)
    graph = nx.Graph()
    for i, j in itertools.combinations(range(n), 2):
        repeat = frozenset((order[i], order[j])) in met
        graph.add_edge(i, j, weight=pair_cost(i, j, repeat, n))
    return {frozenset((order[i], order[j])) for i, j in nx.min_weight_matching(graph)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--teams", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rng = random.Random(2013)
    t0 = time.perf_counter()
    teams, matches = swiss_event(args.teams, args.rounds, rng)
    built = time.perf_counter() - t0
    print(f"Swiss draw: {args.teams} teams after {args.rounds} rounds (built in {built:.1f} s)")
    draws: list[Draw] = []
    ours = median_time(lambda: draws.append(swiss_draw(teams, matches)), args.repeat)
    t0 = time.perf_counter()
    direct = baseline(teams, matches)
    base = time.perf_counter() - t0
    same = {frozenset((p.home, p.away)) for p in draws[-1].matches} == direct
    print(f"   next round's draw, median of {args.repeat}:   {ours:8.4f} s (target < 1 s)")
    print(f"   baseline, networkx on all pairs (once): {base:8.4f} s")
    print(
        f"   ratio: {base / ours:.1f}× faster; same draw: {'yes' if same else 'NO'}; "
        f"repeats: {draws[-1].repeats}"
    )


if __name__ == "__main__":
    main()
