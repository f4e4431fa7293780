"""A room of 200 tables: result→ACK and result→standings latency, burst throughput and the
hub's CPU, with the hub in its own process (decisions D11) and the simulated base stations
in this one, over real pseudo-terminals.

Run: ``.venv/bin/python bench/room.py [--tables 200] [--stations 4] [--quick]
[--against DIR]``; ``--against`` runs the same rooms against the hub of another checkout
(e.g. ``git worktree add /tmp/old REV``) in the same run and prints the ratios.
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


def hub_command(tree: Path | None) -> tuple[list[str], dict[str, str]]:
    """How to start the hub: this checkout's installed command, or another checkout's."""
    env = dict(os.environ)
    if tree is None:
        return [shutil.which("bridgehub") or str(Path(sys.executable).parent / "bridgehub")], env
    env["PYTHONPATH"] = str(tree)  # and run from there: ``-m`` puts the folder first
    return [sys.executable, "-m", "hub.cli"], env


async def room(
    args: argparse.Namespace,
    rounds: int,
    boards: int,
    speed: float,
    seconds: float | None,
    tree: Path | None = None,
) -> dict[str, float]:
    """Run one room (hub process + simulated stations); returns the measurements."""
    folder = Path(tempfile.mkdtemp(prefix="bridgehub-room-"))
    (folder / "room.toml").write_text(
        EVENT.format(tables=args.tables, rounds=rounds, boards=boards), "utf-8"
    )
    per = -(-args.tables // args.stations)
    stations = []
    for k in range(args.stations):
        st = VirtualBaseStation(PtyLine(folder / f"base-{k + 1}"), serial=f"BS-{k + 1}")
        for table in range(k * per + 1, min(args.tables, (k + 1) * per) + 1):
            st.add_terminal(
                VirtualTerminal(
                    table, f"BM-{table:04d}", "A", table, PlayerBot(seed=table), speed=speed
                )
            )
        stations.append(st)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        api = s.getsockname()[1]
    exe, env = hub_command(tree)
    cmd = [
        *exe,
        "run",
        "--event",
        str(folder / "room.toml"),
        "--api",
        f"127.0.0.1:{api}",
        "--td-pin",
        "bench-room-pin",
    ]
    for st in stations:
        cmd += ["--station", str(st.line.path)]
    hub = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env=env, cwd=tree)
    await asyncio.sleep(3.0)  # the hub builds the movement and opens the lines
    terminals = [t for st in stations for t in st.terminals.values()]
    total = args.tables * boards * rounds
    cpu0, t0, own0 = cpu_seconds(hub.pid), time.monotonic(), time.process_time()
    for st in stations:
        st.start()
    try:
        if seconds is not None:
            await asyncio.sleep(seconds)
        else:  # from the first stored result on: log-ons are not part of the burst
            while not any(t.log.accepted for t in terminals):
                await asyncio.sleep(0.005)
            cpu0, t0, own0 = cpu_seconds(hub.pid), time.monotonic(), time.process_time()
            while sum(len(t.log.accepted) for t in terminals) < total:
                if time.monotonic() - t0 > 180:
                    break
                await asyncio.sleep(0.02)
        elapsed = time.monotonic() - t0
        cpu = (cpu_seconds(hub.pid) - cpu0) / elapsed
        sim = (time.process_time() - own0) / elapsed
    finally:
        for st in stations:
            await st.stop()
            st.line.close()
        hub.terminate()
        try:
            hub.wait(30)
        except subprocess.TimeoutExpired:  # a hub that ignores SIGTERM is a finding, not a crash
            print("   (this hub did not stop within 30 s of SIGTERM: killed)")
            hub.kill()
            hub.wait(30)
    ack = [x for t in terminals for x in t.log.ack_s]
    view = [x for t in terminals for x in t.log.view_s]
    n = sum(len(t.log.accepted) for t in terminals)
    return {
        "n": n,
        "elapsed": elapsed,
        "cpu": cpu,
        "sim": sim,
        "ack50": statistics.median(ack) if ack else float("nan"),
        "ack99": pct(ack, 0.99),
        "view50": statistics.median(view) if view else float("nan"),
        "view99": pct(view, 0.99),
    }


async def measure(args: argparse.Namespace, tree: Path | None) -> dict[str, float]:
    """Play pace, then a burst; prints both and returns the figures the ratios use."""
    ms = 1000
    pace = await room(args, 3, args.boards, args.pace, args.pace_seconds, tree)
    print(
        f"play pace ({pace['elapsed']:.0f} s, {pace['n']:.0f} results, a board every "
        f"{7 * 60 / args.pace:.0f} s per table):"
    )
    print(
        f"   result→ACK       p50 {pace['ack50'] * ms:7.2f} ms   "
        f"p99 {pace['ack99'] * ms:7.2f} ms   (target p99 < 50 ms)"
    )
    print(
        f"   result→standings p50 {pace['view50'] * ms:7.2f} ms   "
        f"p99 {pace['view99'] * ms:7.2f} ms   (target p99 < 100 ms)"
    )
    print(f"   hub CPU {pace['cpu'] * 100:5.1f} % of one core (target < 10 %)")
    burst = await room(args, 1, args.burst_boards, 1e9, None, tree)
    rate = burst["n"] / burst["elapsed"]
    print(
        f"burst (every table enters {args.burst_boards} boards at once: {burst['n']:.0f} "
        f"results in {burst['elapsed']:.2f} s):"
    )
    print(
        f"   durable results/s {rate:8.0f}   (target ≥ 1,000); "
        f"hub CPU {burst['cpu'] * 100:.0f} %, simulator CPU {burst['sim'] * 100:.0f} %"
    )
    print(
        f"   result→ACK       p50 {burst['ack50'] * ms:7.2f} ms   p99 {burst['ack99'] * ms:7.2f} ms"
    )
    print(f"   result→standings p99 {burst['view99'] * ms:7.2f} ms")
    return {"ack99": pace["ack99"], "view99": pace["view99"], "cpu": pace["cpu"], "rate": rate}


async def main_async(args: argparse.Namespace) -> None:
    print(
        f"room: {args.tables} tables on {args.stations} pty base stations, hub in its own "
        "process, SQLite (WAL, synchronous FULL)"
    )
    print("this checkout:")
    now = await measure(args, None)
    if args.against is None:
        return
    print(f"baseline: the hub of {args.against}")
    then = await measure(args, args.against)
    print("ratios, this checkout ÷ baseline (ACK and CPU: lower is better; results/s: higher):")
    print(
        f"   play-pace ACK p99 {now['ack99'] / then['ack99']:.2f}×   standings p99 "
        f"{now['view99'] / then['view99']:.2f}×   hub CPU {now['cpu'] / then['cpu']:.2f}×   "
        f"burst results/s {now['rate'] / then['rate']:.2f}×"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--stations", type=int, default=4)
    ap.add_argument("--boards", type=int, default=3)
    ap.add_argument(
        "--pace",
        type=float,
        default=30.0,
        help="time factor at play pace (30: a 7-minute board in 14 s)",
    )
    ap.add_argument("--pace-seconds", type=float, default=30.0)
    ap.add_argument("--burst-boards", type=int, default=9)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument(
        "--against", type=Path, default=None, help="another checkout whose hub is the baseline"
    )
    args = ap.parse_args()
    if args.quick:
        args.pace_seconds = 10.0
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
