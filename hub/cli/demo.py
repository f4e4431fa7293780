"""``bridgehub demo``: a whole simulated room on the embedded SQLite default: the simulator,
the hub and the TD console as separate processes (decisions D1). Without a terminal (or
with ``--no-console``) it follows the hub's API and prints the standings every round."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import click

from hub.api.sessions import new_pin
from hub.cli.demo_follow import follow
from hub.cli.demo_guide import (
    KEYS,
    closing_text,
    demo_minutes,
    duration_text,
    reopen_console,
    session_state,
)
from hub.event.movement.cards import join_link

EVENT = """schema_version = 1
[event]
name = "bridgehub demo"
[rules]
scoring = "mp"
[rules.timing]
minutes_per_board = 7.5
move_minutes = 1
[rules.slow_play]
name = "club"
steps = [
  {{ above_minutes = 0, up_to_minutes = 5, penalty = 0, unit = "warning" }},
  {{ above_minutes = 5, up_to_minutes = 10, penalty = 10, unit = "percent_of_top" }},
]
[[sessions]]
name = "Demo"
[[sessions.sections]]
letter = "A"
movement = {{ kind = "howell", tables = {tables}, boards_per_round = {boards} }}
{pairs}"""
NAMES = (
    "Anna Berg", "Bo Ek", "Cilla Dahl", "Dan Ek", "Eva Falk", "Filip Gran", "Greta Holm",
    "Hans Isaksson", "Ida Jonsson", "Jan Karlsson", "Karin Lind", "Lars Moberg", "Maja Nord",
    "Nils Olsson", "Olga Persson", "Per Qvist", "Rut Sjöberg", "Sven Tell", "Tove Ulf",
    "Ulla Vik", "Viktor Wall", "Wilma Yng", "Yngve Zorn", "Åsa Ågren", "Örjan Öst",
    "Agnes Borg", "Bertil Cronholm", "Disa Engström", "Erik Frost", "Frida Gustafsson",
)  # fmt: skip
# what the simulated room does wrong now and then, and the console key that settles it
INCIDENTS = {
    "--td-call-rate": "0.04",
    "--wrong-board-rate": "0.03",
    "--wrong-declarer-rate": "0.04",
    "--slow-tables": "1",
}


def event_text(tables: int, boards: int) -> str:
    """The demo's event: a Howell of ``tables`` tables with named pairs."""
    pairs = []
    for n in range(1, 2 * tables + 1):
        a, b = NAMES[(2 * n - 2) % len(NAMES)], NAMES[(2 * n - 1) % len(NAMES)]
        pairs.append(
            f"[[sessions.sections.pairs]]\nnumber = {n}\n"
            f'players = [{{ name = "{a}" }}, {{ name = "{b}" }}]\n'
        )
    return EVENT.format(tables=tables, boards=boards, pairs="".join(pairs))


def stored_event(event: Path, phones: range, join: str) -> tuple[int, dict[str, str]]:
    """The demo's event in its SQLite file beside ``event``: stored now, or the one stored
    by an earlier demo in this folder (``bridgehub run``'s own choice); and the links of
    the tables on ``phones``, with codes made now (as ``bridgehub movement cards --db …
    --join …`` does): the simulated phones log on with them."""
    from hub.cli.run_event import event_to_run
    from hub.store.engine import sqlite_url
    from hub.store.store import Store, StoreError
    from hub.store.table_codes import ensure_codes, reissue_code

    store = Store.open(sqlite_url(event.with_suffix(".db")), migrate=True)
    try:
        eid = event_to_run(store, event, None)
        codes = ensure_codes(store, eid, [("A", t) for t in phones]) if phones else {}
        for t in phones:  # an earlier demo's phones used them: these are new devices
            if codes[("A", t)].used_by is not None:
                codes[("A", t)] = reissue_code(store, eid, "A", t)
    except StoreError as e:  # another demo's event in this folder: say what to do
        raise click.ClickException(f"{e} (or give the demo a new --dir)") from None
    finally:
        store.close()
    return eid, {f"A{t}": join_link(join, "A", t, codes[("A", t)].code) for t in phones}


def _tables(tables: range) -> str:
    return f"table {tables[0]}" if len(tables) == 1 else f"tables {tables[0]}-{tables[-1]}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _exe() -> str:
    return shutil.which("bridgehub") or str(Path(sys.executable).parent / "bridgehub")


@click.command("demo")
@click.option("--tables", type=click.IntRange(3, 15), default=7, show_default=True)
@click.option("--boards-per-round", type=click.IntRange(1, 4), default=2, show_default=True)
@click.option(
    "--speed",
    type=float,
    default=6.0,
    show_default=True,
    help="Time factor for the players and the hub's round clock (6: a 7.5-minute board "
    "in 75 s, a round in about 3 minutes; 300 plays an evening in a few minutes).",
)
@click.option("--seed", type=int, default=1, show_default=True, help="The simulated room's luck.")
@click.option(
    "--phones",
    type=click.IntRange(0),
    default=None,
    help="How many tables (the last ones) score on simulated phones, through the hub's "
    "browser terminals (default: a third of the tables; 0: every table on a base station).",
)
@click.option(
    "--incidents/--no-incidents",
    default=True,
    show_default=True,
    help="TD calls, held results, suspicious scores and a slow table for the director.",
)
@click.option(
    "--dir",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where the event, its database and the lines go.",
)
@click.option(
    "--console/--no-console",
    default=None,
    help="Run the TD console (default: when the output is a terminal); without "
    "it the demo prints the standings after every round.",
)
def demo(
    tables: int,
    boards_per_round: int,
    speed: float,
    seed: int,
    phones: int | None,
    incidents: bool,
    folder: Path | None,
    console: bool | None,
) -> None:
    """A simulated room: simulator, hub and TD console as separate processes."""
    if console is None:
        console = sys.stdout.isatty()
    folder = folder or Path(tempfile.mkdtemp(prefix="bridgehub-demo-"))
    folder.mkdir(parents=True, exist_ok=True)
    event = folder / "demo.toml"
    event.write_text(event_text(tables, boards_per_round), "utf-8")
    rounds = 2 * tables - 1
    port = _free_port()
    phones = min(tables, tables // 3 if phones is None else phones)
    web = f"http://127.0.0.1:{_free_port()}"
    on_phones = range(tables - phones + 1, tables + 1)
    eid, links = stored_event(event, on_phones, web)
    (folder / "table-links.txt").write_text("".join(f"{v}\n" for v in links.values()), "utf-8")
    pin = new_pin()  # to the hub and the console in their environment, never in argv (D20)
    env = {**os.environ, "BRIDGEHUB_TD_PIN": pin}
    click.echo(f"bridgehub demo: {tables}-table Howell, {rounds} rounds, in {folder}")
    minutes = demo_minutes(rounds, boards_per_round, speed, incidents)
    click.echo(
        f"it runs {duration_text(minutes)} at --speed {speed:g} ({rounds} rounds of "
        f"{boards_per_round} boards; a higher --speed plays it faster, e.g. --speed 300)"
    )
    if phones:
        click.echo(
            f"{_tables(on_phones)} on simulated phones at {web}/ "
            f"(their links: {folder / 'table-links.txt'})"
        )
    sim = subprocess.Popen(
        [
            _exe(),
            "simulate",
            "--tables",
            str(tables),
            "--speed",
            str(speed),
            "--dir",
            str(folder),
            "--seed",
            str(seed),
            "--duration",
            str(max(3600, int(rounds * boards_per_round * 600 / speed) + 600)),
            *(a for pair in INCIDENTS.items() if incidents for a in pair),
            *(("--web", web, "--web-tables", str(phones)) if phones else ()),
            *(("--web-codes", str(folder / "table-links.txt")) if phones else ()),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    hub = None
    try:
        assert sim.stdout is not None
        line = sim.stdout.readline().strip()  # the first station, or the phones' server
        click.echo(f"simulator: {line}")
        station = line.rsplit(": ", 1)[1] if line.startswith("base station") else None
        hub = subprocess.Popen(
            [
                _exe(),
                "run",
                "--event",
                str(event),
                "--event-id",
                str(eid),
                *(("--station", station) if station else ()),
                "--api",
                f"127.0.0.1:{port}",
                "--clock-speed",
                f"{min(speed, 1000):g}",  # the round clock at the players' pace (run's limit)
                *(("--terminals", web.removeprefix("http://")) if phones else ()),
            ],
            stdout=subprocess.DEVNULL,
            env=env,
        )
        click.echo(f"hub: API ws://127.0.0.1:{port}/v1, database {event.with_suffix('.db')}")
        click.echo(f"director's PIN: {pin}")
        standings = (
            f"bridgehub event standings --db sqlite:///{event.with_suffix('.db')} --event {eid}"
        )
        api = f"ws://127.0.0.1:{port}/v1"
        if console:
            guide = folder / "demo-guide.txt"  # the console shows it in its log (G13)
            guide.write_text("".join(f"{t}\n" for t in (KEYS if incidents else KEYS[:1])))
            for text in KEYS if incidents else KEYS[:1]:
                click.echo(f"  {text}")
            while True:  # q in the console asks before the hub and the room stop (G13)
                command = [_exe(), "console", "--api", api, "--guide", str(guide)]
                subprocess.run(command, check=False, env=env)
                if not reopen_console():
                    break
            click.echo(closing_text(asyncio.run(session_state(api)), standings, str(folder)))
            results = folder / f"{event.with_suffix('.db').stem}-results"
            click.echo(f"the report and exports: {results} (at the session's end)")
            return
        asyncio.run(follow(port, rounds, 3, pin))
        click.echo(closing_text(asyncio.run(session_state(api)), standings, str(folder)))
    finally:
        for proc in (hub, sim):
            if proc is not None:
                proc.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(20)
