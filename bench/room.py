"""A room of 200 tables: result→ACK and result→standings latency, burst throughput and the
hub's CPU, with the hub in its own process (decisions D11) and the simulated base stations
in this one, over real pseudo-terminals.

Run: ``.venv/bin/python bench/room.py [--tables 200] [--stations 4] [--quick]``.
Targets (issue [HUB]): ACK p99 < 50 ms with durable commits, standings p99 < 100 ms,
≥ 1,000 durable results/s in a burst, hub CPU < 10 % of one core at play pace.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])

from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

EVENT = """schema_version = 1
[event]
name = "bench room"
[rules]
scoring = "mp"
[[sessions]]
name = "Bench"
[[sessions.sections]]
letter = "A"
movement = {{ kind = "mitchell", tables = {tables}, rounds = {rounds},\
             boards_per_round = {boards} }}
"""


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def phase(stations: list[VirtualBaseStation], seconds: float) -> None:
    await asyncio.sleep(seconds)


async def main_async(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bridgehub-room-"))
    rounds = 2 if args.quick else 3
    (folder / "room.toml").write_text(EVENT.format(tables=args.tables, rounds=rounds,
                                                   boards=args.boards), "utf-8")
    per = -(-args.tables // args.stations)
    stations = []
    for k in range(args.stations):
        st = VirtualBaseStation(PtyLine(folder / f"base-{k + 1}"), serial=f"BS-{k + 1}")
        for table in range(k * per + 1, min(args.tables, (k + 1) * per) + 1):
            st.add_terminal(VirtualTerminal(table, f"BM-{table:04d}", "A", table,
                                            PlayerBot(seed=table), speed=args.pace))
        stations.append(st)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        api = s.getsockname()[1]
    exe = shutil.which("bridgehub") or str(Path(sys.executable).parent / "bridgehub")
    cmd = [exe, "run", "--event", str(folder / "room.toml"), "--api", f"127.0.0.1:{api}",
           "--td-pin", "0"]
    for st in stations:
        cmd += ["--station", str(st.line.path)]
    hub = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    await asyncio.sleep(3.0)  # the hub builds the movement and opens the lines
    terminals = [t for st in stations for t in st.terminals.values()]
    for st in stations:
        st.start()
    try:
        # play pace: boards take the simulated minutes, scaled by --pace
        cpu0, t0 = cpu_seconds(hub.pid), time.monotonic()
        await asyncio.sleep(args.pace_seconds)
        cpu_pace = (cpu_seconds(hub.pid) - cpu0) / (time.monotonic() - t0)
        pace_results = sum(len(t.log.accepted) for t in terminals)
        ack_pace = [x for t in terminals for x in t.log.ack_s]
        view_pace = [x for t in terminals for x in t.log.view_s]
        # burst: every table enters its boards at once
        for t in terminals:
            t.speed = 1e9
        before = sum(len(t.log.accepted) for t in terminals)
        t1 = time.monotonic()
        total = args.tables * args.boards * rounds
        while sum(len(t.log.accepted) for t in terminals) < total:
            if time.monotonic() - t1 > 120:
                break
            await asyncio.sleep(0.05)
        burst_s = time.monotonic() - t1
        burst_n = sum(len(t.log.accepted) for t in terminals) - before
        ack_all = [x for t in terminals for x in t.log.ack_s]
        view_all = [x for t in terminals for x in t.log.view_s]
    finally:
        for st in stations:
            await st.stop()
            st.line.close()
        hub.terminate()
        hub.wait(30)
    ms = 1000
    print(f"room: {args.tables} tables on {args.stations} pty base stations, hub in its own "
          "process, SQLite (WAL, synchronous FULL)")
    print(f"play pace ({args.pace_seconds:.0f} s, {pace_results} results):")
    print(f"   result→ACK       p50 {statistics.median(ack_pace) * ms:7.2f} ms   "
          f"p99 {pct(ack_pace, 0.99) * ms:7.2f} ms   (target p99 < 50 ms)")
    print(f"   result→standings p50 {statistics.median(view_pace) * ms:7.2f} ms   "
          f"p99 {pct(view_pace, 0.99) * ms:7.2f} ms   (target p99 < 100 ms)")
    print(f"   hub CPU {cpu_pace * 100:5.1f} % of one core (target < 10 %)")
    print(f"burst ({burst_n} results in {burst_s:.2f} s):")
    print(f"   durable results/s {burst_n / burst_s:8.0f}   (target ≥ 1,000)")
    print(f"   result→ACK       p50 {statistics.median(ack_all) * ms:7.2f} ms   "
          f"p99 {pct(ack_all, 0.99) * ms:7.2f} ms")
    print(f"   result→standings p99 {pct(view_all, 0.99) * ms:7.2f} ms")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--stations", type=int, default=4)
    ap.add_argument("--boards", type=int, default=3)
    ap.add_argument("--pace", type=float, default=30.0,
                    help="time factor at play pace (30: a 7-minute board in 14 s)")
    ap.add_argument("--pace-seconds", type=float, default=30.0)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    if args.quick:
        args.pace_seconds = 10.0
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
