"""Restart to the first ACK (issue 12 [FAULTS]): how long ``bridgehub run`` takes, from the
process start to the ACK of a result a terminal resends, on a store holding 105,000 results
(12 Mitchell sections of 25 tables × 25 rounds × 14 boards, the last round of table 1 of
each section not yet played). The hub runs in its own process; the base station and the
terminal holding the unacknowledged result are simulated in this one, over a real
pseudo-terminal. After each ACK the hub is killed with SIGKILL (a real ``kill -9``) and
started again, as in the campaign.

Run: ``.venv/bin/python bench/recovery.py [--restarts 5] [--db sqlite|URL] [--against DIR]``;
``--against`` builds the same store with another checkout (e.g. ``git worktree add
/tmp/old REV``) and measures its hub in the same run, one restart of each in turn (a load
that comes and goes on the machine then hits both alike), then prints the ratios. Besides
the wall time, each restart's CPU time of the hub process up to the ACK is printed: on a
loaded machine it says more than the wall time.
``--db postgresql+psycopg://postgres@127.0.0.1:5432`` measures on PostgreSQL, in a
database of the bench's own on that server (made, then dropped). Target (issue 12):
median < 2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path[0] = os.environ.get("BRIDGEHUB_TREE", str(HERE))

SECTIONS = "ABCDEFGHIJKL"
TABLES, ROUNDS, BOARDS = 25, 25, 14
SECTION = """[[sessions.sections]]
letter = "{letter}"
movement = {{ kind = "mitchell", tables = {tables}, rounds = {rounds}, \
boards_per_round = {boards} }}
"""


def event_text(sections: str = SECTIONS) -> str:
    head = (
        'schema_version = 1\n[event]\nname = "recovery bench"\n[rules]\nscoring = "mp"\n'
        '[[sessions]]\nname = "Bench"\n'
    )
    body = "".join(
        SECTION.format(letter=s, tables=TABLES, rounds=ROUNDS, boards=BOARDS) for s in sections
    )
    return head + body


def build(url: str, event_file: Path) -> int:
    """The store, filled through the Store API in big transactions: every result but the
    last round of table 1 of each section; each section's rounds started on the clock.
    Returns the number of results stored."""
    import datetime as dt

    from hub.store.store import ResultEntry, Store

    store = Store.open(url, migrate=True)
    try:
        eid = store.create_event(event_file.read_text("utf-8"), base_dir=event_file.parent)
        start = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=7 * BOARDS * ROUNDS)
        count = 0
        for letter in SECTIONS:
            movement = store.movement(eid, letter)
            entries = []
            for rnd in range(1, ROUNDS + 1):
                for row in movement.round_rows(rnd, letter):
                    if rnd == ROUNDS and row.table == 1:
                        continue  # the terminal of the bench enters these
                    serial = f"BM-{letter}{row.table}"
                    for board in row.boards:
                        tricks = 7 + (board * 7 + row.table * 3 + rnd) % 6
                        entries.append(
                            ResultEntry(
                                letter,
                                row.table,
                                rnd,
                                board,
                                row.ns_pair,
                                row.ew_pair,
                                contract="3NT",
                                declarer="NS"[(board + row.table) % 2],
                                tricks=tricks,
                                entered_by=serial,
                                submission_key=f"{serial}:{letter}:{row.table}:{rnd}:{board}:1",
                            )
                        )
            for i in range(0, len(entries), 5000):
                count += len(store.record(eid, entries[i : i + 5000]))
            for rnd in range(1, ROUNDS + 1):
                at = start + dt.timedelta(minutes=7 * BOARDS * (rnd - 1))
                store.add_clock_event(eid, "start", letter, rnd, {}, at=at)
        return count
    finally:
        store.close()


def hub_command(tree: Path | None) -> tuple[list[str], dict[str, str]]:
    """How to start the hub: this checkout's installed command, or another checkout's."""
    env = dict(os.environ)
    env.pop("BRIDGEHUB_CRASH_AT", None)
    if tree is None:
        return [shutil.which("bridgehub") or str(Path(sys.executable).parent / "bridgehub")], env
    env["PYTHONPATH"] = str(tree)
    return [sys.executable, "-m", "hub.cli"], env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def restarts(
    url: str,
    event_file: Path,
    folder: Path,
    count: int,
    tree: Path | None,
    first: int = 0,
    label: str = "",
) -> list[tuple[float, float]]:
    """``count`` starts of the hub, each timed from the process start to the ACK of the
    result the terminal holds; each hub is then killed with SIGKILL. The terminal enters
    the boards of its round from the ``first``-th on (each restart a new one). Returns the
    wall time and the hub's CPU time up to each ACK."""
    from drivers.protocol.messages import Assignment
    from simulator.bots import PlayerBot
    from simulator.line import PtyLine
    from simulator.station import VirtualBaseStation
    from simulator.terminal import VirtualTerminal

    line = PtyLine(folder / "base-1")
    station = VirtualBaseStation(line)
    # resend every 20 ms, never give up: the link's pauses are not the hub's time
    station.link.rto = station.link.max_rto = 0.02
    station.link.max_tries = 1_000_000
    terminal = VirtualTerminal(1, "BM-A1", "A", 1, PlayerBot(seed=1))
    station.add_terminal(terminal)
    station.start()
    await terminal.stop()  # the bench enters the results itself
    exe, env = hub_command(tree)
    log = (folder / "hub.log").open("ab")
    row_boards: tuple[int, ...] = ()
    out: list[tuple[float, float]] = []
    hub: subprocess.Popen[bytes] | None = None
    try:
        for k in range(count):
            if k == 0:  # the first start also tells the terminal its table (not timed)
                hub = _start(exe, env, event_file, url, line, log, tree)
                a = await _wait(lambda: terminal.assignment, 120, "the assignment", folder)
                assert a is not None and a.round == ROUNDS, a
                row_boards = a.boards
                _kill(hub)
            a = terminal.assignment
            assert isinstance(a, Assignment)
            before = len(terminal.log.accepted) + len(terminal.log.held)
            board = row_boards[first + k]
            terminal.enter(a, board, "4S", 1, "HA", 10)  # the hub is down: held back
            t0 = time.perf_counter()
            hub = _start(exe, env, event_file, url, line, log, tree)
            await _wait(
                lambda n=before: len(terminal.log.accepted) + len(terminal.log.held) > n,
                60,
                "the ACK after the restart",
                folder,
            )
            out.append((time.perf_counter() - t0, _cpu_seconds(hub.pid)))
            print(
                f"   {label}restart {first + k + 1}: first ACK after {out[-1][0]:.3f} s "
                f"(hub CPU {out[-1][1]:.3f} s)",
                flush=True,
            )
            _kill(hub)
    finally:
        if hub is not None and hub.poll() is None:
            _kill(hub)
        await station.stop()
        line.close()
        log.close()
    return out


def _start(
    exe: list[str],
    env: dict[str, str],
    event_file: Path,
    url: str,
    line: object,
    log: object,
    tree: Path | None,
) -> subprocess.Popen[bytes]:
    cmd = [*exe, "run", "--event", str(event_file), "--db", url]
    cmd += ["--station", str(line.path), "--api", f"127.0.0.1:{free_port()}"]  # type: ignore[attr-defined]
    cmd += ["--td-pin", "bench-pin-1"]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log, env=env, cwd=tree)  # type: ignore[arg-type]


def _cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) a live process has used so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _kill(hub: subprocess.Popen[bytes]) -> None:
    os.kill(hub.pid, signal.SIGKILL)
    hub.wait(30)


async def _wait(what, timeout: float, name: str, folder: Path):  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while not (got := what()):
        if time.monotonic() > end:
            tail = (folder / "hub.log").read_text("utf-8", "replace")[-3000:]
            raise SystemExit(f"timed out after {timeout} s waiting for {name}\n{tail}")
        await asyncio.sleep(0.002)
    return got


def prepare(url: str | None, tree: Path | None) -> tuple[str, Path, Path]:
    """A folder with the event file and the store built by ``tree``'s code (a subprocess:
    that checkout's Store). PostgreSQL: the database at ``url`` is emptied first."""
    folder = Path(tempfile.mkdtemp(prefix="bridgehub-recovery-"))
    event_file = folder / "bench.toml"
    event_file.write_text(event_text(), "utf-8")
    db = url or f"sqlite:///{folder / 'bench.db'}"
    env = dict(os.environ)
    if tree is not None:
        env["BRIDGEHUB_TREE"] = str(tree)
        env["PYTHONPATH"] = str(tree)
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, __file__, "--build", db, "--event-file", str(event_file)],
        check=True,
        env=env,
    )
    print(f"   store built in {time.perf_counter() - t0:.0f} s: {db}", flush=True)
    return db, event_file, folder


def own_database(server: str, create: bool, tag: str = "") -> str:
    """A database of the bench's own on the PostgreSQL server (created, or dropped), so
    that no other database of that server is touched; returns its URL."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"bridgehub_recovery_{os.getpid()}{tag}"
    engine = create_engine(make_url(server).set(database="postgres"), isolation_level="AUTOCOMMIT")
    with engine.connect() as db:
        db.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        if create:
            db.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return make_url(server).set(database=name).render_as_string(hide_password=False)


def summary(name: str, runs: list[tuple[float, float]]) -> tuple[float, float]:
    """Prints and returns the medians of the wall and CPU times of one checkout's restarts."""
    wall = [w for w, _ in runs]
    cpu = statistics.median(c for _, c in runs)
    print(
        f"{name}: restart → first ACK median {statistics.median(wall):.3f} s, min "
        f"{min(wall):.3f} s, max {max(wall):.3f} s over {len(wall)} restarts (target < 2 s); "
        f"hub CPU to the ACK median {cpu:.3f} s",
        flush=True,
    )
    return statistics.median(wall), cpu


async def main_async(args: argparse.Namespace) -> None:
    where = "SQLite (WAL, synchronous FULL)" if args.db == "sqlite" else "PostgreSQL"
    print(
        f"restart → first ACK, {len(SECTIONS) * TABLES * ROUNDS * BOARDS - len(SECTIONS) * BOARDS}"
        f" results stored, {where}; the hub killed with SIGKILL after each ACK"
    )
    checkouts: list[tuple[str, Path | None]] = [("this checkout", None)]
    if args.against is not None:
        checkouts.append((f"baseline {args.against}", args.against))
    stores: dict[str, tuple[str, Path, Path]] = {}
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in checkouts}
    try:
        for n, (name, tree) in enumerate(checkouts):
            print(f"{name}: building its store")
            url = None if args.db == "sqlite" else own_database(args.db, True, f"_{n}")
            stores[name] = prepare(url, tree)
        for k in range(args.restarts):  # in turn: a passing load hits every checkout alike
            for name, tree in checkouts:
                runs[name] += await restarts(*stores[name], 1, tree, first=k, label=f"{name}, ")
    finally:
        for n, (name, _) in enumerate(checkouts):
            if args.db != "sqlite" and not args.keep:
                own_database(args.db, False, f"_{n}")
            if name in stores and not args.keep:
                shutil.rmtree(stores[name][2], ignore_errors=True)
    now = summary(checkouts[0][0], runs[checkouts[0][0]])
    if args.against is None:
        return
    then = summary(checkouts[1][0], runs[checkouts[1][0]])
    print(
        f"ratio, this checkout ÷ baseline (lower is better): wall {now[0] / then[0]:.2f}×, "
        f"hub CPU {now[1] / then[1]:.2f}×"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--restarts", type=int, default=5, help="timed restarts (at most 14)")
    ap.add_argument(
        "--db",
        default="sqlite",
        help="sqlite, or a PostgreSQL server URL (the bench makes and drops its own database)",
    )
    ap.add_argument("--against", type=Path, default=None, help="another checkout: the baseline")
    ap.add_argument("--keep", action="store_true", help="keep the store and the hub's log")
    ap.add_argument("--build", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--event-file", type=Path, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.build is not None:
        print(f"   {build(args.build, args.event_file)} results stored", flush=True)
        return
    args.restarts = max(1, min(args.restarts, BOARDS))
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
