"""``bridgehub simulate``: a room of virtual base stations and terminals on real ptys (or
TCP, the only choice where the platform has no ptys), printing the line each hub station
should open (decisions D8)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
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
from simulator.web_terminal import WebTerminal


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
    web: str | None = None,
    web_tables: int = 0,
    web_codes: dict[str, str] | None = None,
) -> tuple[list[VirtualBaseStation], list[WebTerminal]]:
    """The room; ``deals`` (board → PBN deal) makes the players play the real cards. The
    last ``web_tables`` tables are browser terminals on the hub's terminal server ``web``
    (each logs on with its code from ``web_codes``, by "A3"), the others hardware terminals
    spread over the base stations; a table plays the same whichever it is."""

    def bot(table: int) -> PlayerBot:
        return PlayerBot(
            seed=seed * 1000 + table,
            minutes_per_board=9.5 if table > tables - slow_tables else 7.0,
            wrong_board_rate=wrong_board_rate,
            correction_rate=correction_rate,
            td_call_rate=td_call_rate,
            wrong_declarer_rate=wrong_declarer_rate,
            deals=deals,
        )

    hardware = tables - (web_tables if web else 0)
    room: list[VirtualBaseStation] = []
    per_station = -(-hardware // stations)
    for k in range(stations if hardware else 0):
        if listen:
            host, _, port = listen.rpartition(":")
            line: PtyLine | SocketLine = SocketLine(host or "127.0.0.1", int(port) + k)
        else:
            line = PtyLine(folder / f"base-{k + 1}")
        station = VirtualBaseStation(line, serial=f"BS-{k + 1:04d}", faults=faults)
        first = k * per_station + 1
        for table in range(first, min(hardware, first + per_station - 1) + 1):
            station.add_terminal(
                VirtualTerminal(table, f"BM-{table:04d}", section, table, bot(table), speed=speed)
            )
        room.append(station)
        click.echo(
            f"base station {station.serial} ({len(station.terminals)} terminals): {line.url}",
        )
    codes = web_codes or {}
    phones = [
        WebTerminal(web, section, t, codes.get(f"{section}{t}", ""), bot(t), speed=speed)
        for t in range(hardware + 1, tables + 1)
        if web
    ]
    if phones:
        click.echo(f"browser terminals at tables {hardware + 1}-{tables}: {phones[0].url}")
    for station in room:
        station.start()
    for phone in phones:
        phone.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), timeout=duration)
    for phone in phones:
        await phone.stop()
    for station in room:
        await station.stop()
        station.line.close()
    return room, phones


TABLE_LINK = re.compile(r"/t/([A-Za-z]+)(\d+)\?c=([A-Za-z0-9]+)")  # a table card's link


def read_codes(path: Path, section: str, tables: range) -> dict[str, str]:
    """The tables' codes: a JSON file ``{"A1": "K7P2QX9M", ...}``, or any text with the
    tables' links in it (``bridgehub movement cards --join URL --db DB`` prints them:
    ``…/t/A1?c=K7P2QX9M``). Every table in ``tables`` must have one."""
    try:
        text = path.read_text("utf-8")
    except (OSError, ValueError) as e:
        raise click.BadParameter(f"cannot read {path}: {e}", param_hint="--web-codes") from None
    links = {f"{s.upper()}{t}": c for s, t, c in TABLE_LINK.findall(text)}
    try:
        codes = links or json.loads(text)
    except ValueError:
        codes = None
    if not isinstance(codes, dict) or not all(isinstance(v, str) for v in codes.values()):
        raise click.BadParameter(
            f'{path}: expected {{"{section}1": "CODE", ...}} or the table cards\' links',
            param_hint="--web-codes",
        )
    missing = [f"{section}{t}" for t in tables if f"{section}{t}" not in codes]
    if missing:
        raise click.BadParameter(
            f"{path} has no code for table {', '.join(missing)}", param_hint="--web-codes"
        )
    return {str(k): v for k, v in codes.items()}


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
@click.option(
    "--web",
    default=None,
    metavar="URL",
    help="The hub's browser-terminal server (bridgehub run --terminals), e.g. "
    "http://127.0.0.1:7180: some tables play on simulated phones there.",
)
@click.option(
    "--web-tables",
    type=click.IntRange(0),
    default=None,
    help="With --web: this many tables (the last ones) are browser terminals "
    "(default: every table).",
)
@click.option(
    "--web-codes",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=None,
    help='With --web: the tables\' codes, as JSON {"A1": "K7P2QX9M", ...} or the table '
    "cards' text with their links (bridgehub movement cards --join URL --db DB).",
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
    web: str | None,
    web_tables: int | None,
    web_codes: Path | None,
) -> None:
    """Run a simulated room; prints the line (pty path or socket:// URL) of each station.
    Faults (--corrupt, --drop, --duplicate, --delay per frame; --bit-flip, --drop-byte per
    byte) hurt every line in both directions; the last line prints how many of each."""
    if port is not None:
        listen = f"127.0.0.1:{port}"
    if (web_tables is not None or web_codes) and not web:
        raise click.UsageError("--web-tables and --web-codes need --web URL")
    if web and web_codes is None:
        raise click.UsageError("--web needs --web-codes FILE: each table logs on with its code")
    web_tables = min(tables, tables if web_tables is None else web_tables) if web else 0
    phones = range(tables - web_tables + 1, tables + 1)
    codes = read_codes(web_codes, section, phones) if web_codes else {}
    if listen is None and not ptys_available() and web_tables < tables:
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
    room, web_room = asyncio.run(
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
            web,
            web_tables,
            codes,
        )
    )
    accepted = sum(len(t.log.accepted) for s in room for t in s.terminals.values())
    accepted += sum(len(p.log.accepted) for p in web_room)
    pending = sum(len(t.unacked) for s in room for t in s.terminals.values())
    pending += sum(len(p.pending_results) for p in web_room)
    counts = ", ".join(f"{kind} {n}" for kind, n in faults.counts.items())
    click.echo(f"results acknowledged: {accepted}; waiting for an ACK: {pending}; faults: {counts}")
