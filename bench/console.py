"""The TD console with a 200-table room updating: CPU of the console process.

Run: ``.venv/bin/python bench/console.py [--tables 200] [--seconds 8] [--runs 3]``.
Target (issue [CONSOLE]): under 20 % of one core with 200 tables updating.

The console runs headless (Textual's test driver: it lays out and renders every refresh,
but writes no escape codes to a terminal), fed by a generator of hub messages in this
process: a snapshot of the room, a clock event per second, and results at a given rate.
Three loads, each measured ``--runs`` times, median reported, with the idle room as the
baseline measured in the same run:

- idle: only the clock ticking;
- play pace: one result a second (200 tables finish a 7.5-minute board every ~2.3 s);
- burst: 200 results a second (every table sending at once, ten times over).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])

from hub.console.app import ConsoleApp


def snapshot(tables: int) -> dict:
    rows = [
        {
            "table": t,
            "ns": t,
            "ew": t + tables,
            "boards": [1, 2, 3],
            "done": 0,
            "minutes_behind": 0.0,
            "online": True,
            "unverified": 0,
        }
        for t in range(1, tables + 1)
    ]
    standings = [
        {
            "pair": p,
            "direction": "NS" if p <= tables else "EW",
            "total": "50",
            "text": "50.00",
            "points": "0",
            "top": 0,
            "rank": "1=",
            "boards": 0,
        }
        for p in range(1, 2 * tables + 1)
    ]
    return {
        "type": "snapshot",
        "seq": 0,
        "state": {
            "event": "bench",
            "held": [],
            "td_calls": [],
            "penalties": [],
            "alerts": [],
            "sections": {
                "A": {
                    "round": 1,
                    "rounds": 9,
                    "predicted_finish": None,
                    "clock": {"phase": "play", "seconds_left": 1500},
                    "tables": rows,
                    "standings": standings,
                }
            },
        },
    }


def feed(tables: int, results_per_s: float, seconds: float):
    async def source():
        yield snapshot(tables)
        seq, start = 0, time.monotonic()
        next_clock = start
        sent = 0
        while True:
            now = time.monotonic()
            if now >= next_clock:
                seq += 1
                yield {
                    "type": "event",
                    "seq": seq,
                    "event": "clock",
                    "section": "A",
                    "round": 1,
                    "phase": "play",
                    "seconds_left": int(1500 - (now - start)),
                }
                next_clock += 1.0
            due = int((now - start) * results_per_s)
            while sent < due:
                sent += 1
                seq += 1
                yield {
                    "type": "event",
                    "seq": seq,
                    "event": "result",
                    "section": "A",
                    "table": 1 + sent % tables,
                    "round": 1,
                    "board": 1 + sent % 3,
                    "status": "accepted",
                    "id": sent,
                }
                if sent % tables == 0:  # a standings publication per 'round' of results
                    seq += 1
                    yield {
                        "type": "event",
                        "seq": seq,
                        "event": "standings",
                        "section": "A",
                        "round": 1,
                        "released_by": None,
                        "provisional": [],
                        "rows": snapshot(tables)["state"]["sections"]["A"]["standings"],
                    }
            await asyncio.sleep(0.005)

    return source


def measure(tables: int, results_per_s: float, seconds: float) -> float:
    """CPU seconds per wall second of this process while the console runs."""

    async def scenario() -> float:
        app = ConsoleApp(feed(tables, results_per_s, seconds), None, refresh_s=0.25)
        async with app.run_test(size=(160, 50)) as pilot:
            await pilot.pause(1.0)  # settle: snapshot drawn
            cpu0, wall0 = time.process_time(), time.monotonic()
            await asyncio.sleep(seconds)
            cpu, wall = time.process_time() - cpu0, time.monotonic() - wall0
            await pilot.press("q")
        return cpu / wall

    return asyncio.run(scenario())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    loads = [
        ("idle (clock only)", 0.0),
        ("play pace (1 result/s)", 1.0),
        ("burst (200 results/s)", 200.0),
    ]
    print(
        f"console CPU, {a.tables} tables, 160x50, refresh 4/s, median of {a.runs} runs of "
        f"{a.seconds:g} s"
    )
    base = None
    for name, rate in loads:
        share = statistics.median(measure(a.tables, rate, a.seconds) for _ in range(a.runs))
        base = share if base is None else base
        ratio = f"{share / base:5.1f}x idle" if base else ""
        print(f"  {name:<24} {100 * share:5.1f} % of one core   {ratio}")


if __name__ == "__main__":
    main()
