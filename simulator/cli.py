"""``bridgehub simulate``: a room of virtual base stations and terminals on real ptys (or
TCP, the only choice where the platform has no ptys), printing the line each hub station
should open (decisions D8)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import tempfile
from pathlib import Path

import click

from simulator.bots import PlayerBot
from simulator.deals import DealFileError, read_deals
from simulator.faults import Faults
from simulator.line import NO_PTYS, PtyLine, SocketLine, ptys_available
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal


async def run_room(
    tables: int,
    stations: int,
    section: str,
    speed: float,
    seed: int,
    slow_tables: int,
    wrong_board_rate: float,
    correction_rate: float,
    td_call_rate: float,
    faults: Faults,
    folder: Path,
    listen: str | None,
    duration: float | None,
    deals: dict[int, str] | None = None,
    wrong_declarer_rate: float = 0.0,
) -> list[VirtualBaseStation]:
    """The room; ``deals`` (board → PBN deal) makes the players play the real cards."""
    room: list[VirtualBaseStation] = []
    per_station = -(-tables // stations)
    for k in range(stations):
        if listen:
            host, _, port = listen.rpartition(":")
            line: PtyLine | SocketLine = SocketLine(host or "127.0.0.1", int(port) + k)
        else:
            line = PtyLine(folder / f"base-{k + 1}")
        station = VirtualBaseStation(line, serial=f"BS-{k + 1:04d}", faults=faults)
        first = k * per_station + 1
        for table in range(first, min(tables, first + per_station - 1) + 1):
            slow = table > tables - slow_tables
            bot = PlayerBot(
                seed=seed * 1000 + table,
                minutes_per_board=9.5 if slow else 7.0,
                wrong_board_rate=wrong_board_rate,
                correction_rate=correction_rate,
                td_call_rate=td_call_rate,
                wrong_declarer_rate=wrong_declarer_rate,
                deals=deals,
            )
            station.add_terminal(
                VirtualTerminal(table, f"BM-{table:04d}", section, table, bot, speed=speed)
            )
        room.append(station)
        click.echo(
            f"base station {station.serial} ({len(station.terminals)} terminals): {line.url}",
        )
    for station in room:
        station.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), timeout=duration)
    for station in room:
        await station.stop()
        station.line.close()
    return room


@click.command("simulate")
@click.option("--tables", type=click.IntRange(1, 5000), default=12, show_default=True)
@click.option(
    "--stations",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Base stations the tables are spread over.",
)
@click.option("--section", default="A", show_default=True)
@click.option(
    "--speed",
    type=float,
    default=1.0,
    show_default=True,
    help="Time factor: 60 plays a 7-minute board in 7 seconds.",
)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option(
    "--slow-tables",
    type=click.IntRange(0),
    default=0,
    help="This many tables play about 35 %% slower.",
)
@click.option("--wrong-board-rate", type=float, default=0.0)
@click.option("--correction-rate", type=float, default=0.0)
@click.option("--td-call-rate", type=float, default=0.0)
@click.option(
    "--wrong-declarer-rate",
    type=float,
    default=0.0,
    help="Chance a result is keyed with the other side's declarer (a suspicious score).",
)
@click.option(
    "--hand-records",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="PBN file: the players play its deals and lead from the leader's real hand.",
)
@click.option(
    "--corrupt",
    type=click.FloatRange(0, 1),
    default=0.0,
    help="Fault: chance per frame of one bit flipped.",
)
@click.option(
    "--drop",
    type=click.FloatRange(0, 1),
    default=0.0,
    help="Fault: chance per frame that it vanishes.",
)
@click.option(
    "--duplicate",
    type=click.FloatRange(0, 1),
    default=0.0,
    help="Fault: chance per frame that it arrives twice.",
)
@click.option(
    "--delay",
    type=click.FloatRange(0, 1),
    default=0.0,
    help="Fault: chance per frame that it (and what follows it) arrives late.",
)
@click.option(
    "--max-delay",
    "max_delay",
    type=click.FloatRange(0),
    default=0.05,
    show_default=True,
    help="Seconds: the longest delay of a delayed frame.",
)
@click.option(
    "--bit-flip", type=click.FloatRange(0, 1), default=0.0, help="Fault: chance per byte."
)
@click.option(
    "--drop-byte", type=click.FloatRange(0, 1), default=0.0, help="Fault: chance per byte."
)
@click.option(
    "--dir",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where the pty links go (default: a new temporary folder).",
)
@click.option("--listen", default=None, help="HOST:PORT: serve TCP instead of ptys.")
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=None,
    help="Shorthand for --listen 127.0.0.1:PORT.",
)
@click.option(
    "--duration", type=float, default=None, help="Seconds to run (default: until interrupted)."
)
def simulate(
    tables: int,
    stations: int,
    section: str,
    speed: float,
    seed: int,
    slow_tables: int,
    wrong_board_rate: float,
    correction_rate: float,
    td_call_rate: float,
    wrong_declarer_rate: float,
    hand_records: Path | None,
    corrupt: float,
    drop: float,
    duplicate: float,
    delay: float,
    max_delay: float,
    bit_flip: float,
    drop_byte: float,
    folder: Path | None,
    listen: str | None,
    port: int | None,
    duration: float | None,
) -> None:
    """Run a simulated room; prints the line (pty path or socket:// URL) of each station.
    Faults (--corrupt, --drop, --duplicate, --delay per frame; --bit-flip, --drop-byte per
    byte) hurt every line in both directions; the last line prints how many of each."""
    if port is not None:
        listen = f"127.0.0.1:{port}"
    if listen is None and not ptys_available():
        raise click.UsageError(NO_PTYS)
    try:
        deals = None if hand_records is None else read_deals(hand_records)
    except DealFileError as e:
        raise click.BadParameter(str(e), param_hint="--hand-records") from None
    if deals is not None:
        # on stderr: the first line of stdout names the first station (bridgehub demo reads it)
        click.echo(
            f"hand records {hand_records}: {len(deals)} boards; the players play them", err=True
        )
    faults = Faults(
        corrupt=corrupt,
        drop=drop,
        duplicate=duplicate,
        delay=delay,
        max_delay_s=max_delay,
        bit_flip=bit_flip,
        drop_byte=drop_byte,
        seed=seed,
    )
    folder = folder or Path(tempfile.mkdtemp(prefix="bridgehub-sim-"))
    folder.mkdir(parents=True, exist_ok=True)
    room = asyncio.run(
        run_room(
            tables,
            stations,
            section,
            speed,
            seed,
            slow_tables,
            wrong_board_rate,
            correction_rate,
            td_call_rate,
            faults,
            folder,
            listen,
            duration,
            deals,
            wrong_declarer_rate,
        )
    )
    accepted = sum(len(t.log.accepted) for s in room for t in s.terminals.values())
    pending = sum(len(t.unacked) for s in room for t in s.terminals.values())
    counts = ", ".join(f"{kind} {n}" for kind, n in faults.counts.items())
    click.echo(f"results acknowledged: {accepted}; waiting for an ACK: {pending}; faults: {counts}")
