"""Knockout speed (issue [KNOCKOUT]): drawing and following a bracket of 256 teams.

Run: ``.venv/bin/python bench/knockout_bracket.py [--teams 256] [--repeat 15] [--rounds 9]``.

Seed 003's knockout with ``--teams`` teams (a power of two: every number has a team, no
bye), each of four players with an illustrative Elo (one in five unknown). Three loads,
each the median of ``--repeat`` runs, in milliseconds:

- drawing: every team's Elo (``seeding.team_elo``), the starting numbers (the best
  quarter by Elo, the others by lot: ``seed_numbers``), the first round
  (``first_round``), the single-elimination bracket with its match for third place
  (``templates.single_elimination``) and its check (``bracket_check.check_bracket``);
- routing, the whole event: ``routing.follow`` with every match's outcome (255 knockout
  matches and the match for third place) and the final table (``places``);
- one more result mid-event (what the running hub does after each result): the first
  round and half the second in, one more outcome, then ``follow`` + ``places`` + ``ready``.

Baseline, measured in the same run: the next round's Swiss draw of as many teams after
``--rounds`` rounds (``scoring.draw.swiss.swiss_draw``, as ``bench/swiss_draw.py``), the
heaviest pairing work the hub already does between two rounds (issue 16's target is
< 1 s for 300 teams), so a ratio below 1 says a knockout step costs less than a step the
hub is known to afford. Sorting 256 standings rows was not taken: it takes microseconds,
and a ratio against it says nothing about whether the hub keeps up. Nothing is asserted:
the figures are printed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

# This file is named after what it measures; keep its folder from shadowing the package.
sys.path[0] = str(Path(__file__).resolve().parents[1])

from scoring.draw.model import MatchPlayed, Team
from scoring.draw.swiss import swiss_draw
from scoring.knockout.bracket import Bracket
from scoring.knockout.bracket_check import check_bracket
from scoring.knockout.routing import Entry, Outcome, follow
from scoring.knockout.seeding import first_round, seed_numbers, team_elo
from scoring.knockout.templates import single_elimination

LOT_SEED = 2026  # the recorded seed of the starting numbers' lot


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1000 * statistics.median(times)


def players(n: int, rng: random.Random) -> dict[str, list[int | Fraction | None]]:
    """Four players a team, Elo 1200-2400, one in five unknown (illustrative)."""
    return {
        f"T{i}": [None if rng.random() < 0.2 else rng.randint(1200, 2400) for _ in range(4)]
        for i in range(1, n + 1)
    }


def draw(ratings: dict[str, list[int | Fraction | None]], size: int) -> tuple[Bracket, list]:
    """Seed 003's draw: Elo, starting numbers, first round, bracket, checked."""
    elo = {team: team_elo(r) for team, r in ratings.items()}
    numbered = seed_numbers(elo, size, LOT_SEED)
    first_round(numbered, size)
    bracket = single_elimination(size)
    if check_bracket(bracket):
        raise SystemExit("the bracket of the template does not work")
    return bracket, [Entry(team, k) for k, team in enumerate(numbered, start=1)]


def play_out(bracket: Bracket, entries: list[Entry], rng: random.Random) -> dict[str, Outcome]:
    """Every match's outcome, round by round, in the order played (the better starting
    number wins two in three: illustrative)."""
    outcomes: dict[str, Outcome] = {}
    state = follow(bracket, entries, outcomes)
    while ready := state.ready():
        for match in ready:
            home, away = (str(t) for t in state.teams(match))
            upset = rng.random() < 1 / 3
            outcomes[match] = Outcome((away, home) if upset else (home, away))
        state = follow(bracket, entries, outcomes)
    return outcomes


def swiss_event(n: int, rounds: int, rng: random.Random) -> tuple[list[Team], list[MatchPlayed]]:
    """``rounds`` rounds of a Swiss of ``n`` teams, results drawn at random (20-0 VPs)."""
    teams = [Team(f"T{i}", f"Team {i}", i) for i in range(1, n + 1)]
    matches: list[MatchPlayed] = []
    for _ in range(rounds):
        swiss = swiss_draw(teams, matches)
        for p in swiss.matches:
            a, b = rng.randint(0, 60), rng.randint(0, 60)
            vp = Fraction(min(20, max(0, 10 + (a - b) // 3)))
            matches.append(
                MatchPlayed(swiss.round, p.home, p.away, vp, 20 - vp, Fraction(a), Fraction(b))
            )
        matches += [MatchPlayed(swiss.round, t, None, Fraction(12)) for t in swiss.byes]
    return teams, matches


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--teams", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--rounds", type=int, default=9, help="Swiss rounds before the baseline")
    args = ap.parse_args()
    size = args.teams
    if size < 4 or size & (size - 1):
        ap.error("--teams: a power of two, 4 or more (every starting number a team)")
    rng = random.Random(2013)
    ratings = players(size, rng)

    bracket, entries = draw(ratings, size)
    everything = play_out(bracket, entries, rng)
    played = list(everything)
    first = len(bracket.round_matches(bracket.rounds[0]))
    one_more = {m: everything[m] for m in played[: first + first // 4 + 1]}

    def whole() -> None:
        follow(bracket, entries, everything).places()

    def after_a_result() -> None:
        state = follow(bracket, entries, one_more)
        state.places()
        state.ready()

    t0 = time.perf_counter()
    teams, matches = swiss_event(size, args.rounds, rng)
    built = time.perf_counter() - t0
    print(
        f"knockout of {size} teams (seed 003: single elimination, match for 3rd), "
        f"{len(bracket.matches)} matches; medians of {args.repeat} runs"
    )
    base = median_ms(lambda: swiss_draw(teams, matches), args.repeat)
    loads = [
        ("drawing (Elo, numbers, bracket, check)", lambda: draw(ratings, size)),
        (f"routing, all {len(everything)} outcomes + places", whole),
        (f"one more result ({len(one_more)} in): follow+places+ready", after_a_result),
    ]
    print(
        f"  baseline: Swiss draw of {size} teams after {args.rounds} rounds "
        f"(built in {built:.1f} s): {base:9.2f} ms"
    )
    for name, fn in loads:
        ms = median_ms(fn, args.repeat)
        print(f"  {name:<48} {ms:9.2f} ms   {ms / base:6.3f}x baseline")


if __name__ == "__main__":
    main()
