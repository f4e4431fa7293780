"""The live bracket page after a result (issue [KNOCKOUT]): the time to redraw a 256-team
knockout's bracket when one result changes one match.

Run: ``.venv/bin/python bench/knockout_page.py [--teams 256] [--repeat 31]``.

The bracket is the hub's view (``hub/live/knockout/bracket_view.py``, built here as it
gives it) with every first-round match playing, a segment scored; each redraw takes the
view with one more result in one match (its running total and a segment changed), as the
results pages do on a ``knockout`` event. Measured, median of ``--repeat``: the picture
alone (``bracket_svg``), and the section's whole partial (picture and places,
``bracket_html``); the baseline, measured in the same run, is an existing page: the live
results index of a Swiss of as many teams (the published VP ranking of every team).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# This file is named after what it measures; keep its folder from shadowing the package.
sys.path[0] = str(Path(__file__).resolve().parents[1])

from hub.report.bracket_picture import bracket_svg
from hub.report.words import words
from hub.result_screen.state import ScreenState, SectionFeed
from hub.web_results.bracket_page import bracket_html
from hub.web_results.live_view import live_view
from hub.web_results.pages import index_page


def median_time(fn: Callable[[int], object], repeat: int) -> float:
    times = []
    for i in range(repeat):
        t0 = time.perf_counter()
        fn(i)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def bracket(teams: int) -> dict[str, Any]:
    """A single elimination of ``teams`` (2^k) in its first round: every match playing,
    its first segment scored; the later rounds waiting."""
    rounds, matches, n = [], [], teams
    while n >= 2:
        rnd = {2: "F", 4: "SF", 8: "QF"}.get(n, f"R{n}")
        rounds.append(rnd)
        for k in range(1, n // 2 + 1):
            first = n == teams
            home, away = 2 * k - 1, 2 * k
            matches.append(
                {
                    "match": f"{rnd}-{k}" if n > 2 else "F",
                    "round": rnd,
                    "boards": 32,
                    "teams": [
                        {"team": home, "name": f"Team {home}"},
                        {"team": away, "name": f"Team {away}"},
                    ]
                    if first
                    else [None, None],
                    "bye": False,
                    "tables": [2 * k - 1, 2 * k] if first else None,
                    "carry": ["0", "0"] if first else None,
                    "segments": [{"segment": 1, "home": "23", "away": "17/2"}] if first else [],
                    "totals": ["23", "17/2"] if first else None,
                    "winner": None,
                    "decided_by": None,
                    "next": None,
                    "walk_over": False,
                    "state": "playing" if first else "waiting",
                }
            )
        n //= 2
    return {"section": "A", "name": f"Knockout, {teams} teams", "rounds": rounds,
            "matches": matches, "choosing": [], "proposal": None, "places": [],
            "finished": False}  # fmt: skip


def after_result(view: dict[str, Any], i: int) -> dict[str, Any]:
    """The view after one more board of match ``i``: its total and its segment changed."""
    matches = list(view["matches"])
    k = i % (len(matches) // 2 + 1)
    m = dict(matches[k])
    imps = str(23 + i)
    m["totals"] = [imps, "17/2"]
    m["segments"] = [{"segment": 1, "home": imps, "away": "17/2"}]
    matches[k] = m
    return {**view, "matches": matches}


def swiss_state(teams: int) -> ScreenState:
    """The feed's picture of a Swiss of ``teams`` after its 9th round, every team ranked."""
    rows = [
        {"team": t, "name": f"Team {t}", "rank": str(t), "text": f"{180 - t / 2:.2f}",
         "imps": str(400 - 3 * t), "boards": 180}
        for t in range(1, teams + 1)
    ]  # fmt: skip
    section = SectionFeed("A", 9, 9, "VP", "teams", published_round=9, rows=rows)
    return ScreenState("Swiss", {"A": section}, True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--teams", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=31)
    a = ap.parse_args()
    view, w = bracket(a.teams), words("en")
    state = swiss_state(a.teams)
    print(f"knockout page, {a.teams} teams, {len(view['matches'])} matches, median of {a.repeat}")
    base = median_time(lambda i: index_page(live_view(state, None, {}, i)), a.repeat)
    svg = median_time(lambda i: bracket_svg(after_result(view, i)), a.repeat)
    part = median_time(lambda i: bracket_html(after_result(view, i), w), a.repeat)
    size = len(bracket_svg(view).encode()) / 1024
    print(f"  baseline: live index of a {a.teams}-team Swiss   {1000 * base:8.1f} ms")
    print(f"  bracket picture (SVG, {size:.0f} KiB)          {1000 * svg:8.1f} ms  "
          f"{svg / base:5.2f}x baseline")  # fmt: skip
    print(f"  bracket partial (picture and places)     {1000 * part:8.1f} ms  "
          f"{part / base:5.2f}x baseline")  # fmt: skip


if __name__ == "__main__":
    main()
