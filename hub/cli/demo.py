"""``bridgehub demo``: a whole simulated room on the embedded SQLite default: the simulator,
the hub and the TD console as separate processes (decisions D1). Without a terminal (or
with ``--no-console``) it follows the hub's API and prints the standings every round."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

import click
from websockets.asyncio.client import connect

from hub.api.sessions import new_pin

EVENT = """schema_version = 1
[event]
name = "bridgehub demo"
[rules]
scoring = "mp"
[[sessions]]
name = "Demo"
[[sessions.sections]]
letter = "A"
movement = {{ kind = "howell", tables = {tables}, boards_per_round = {boards} }}
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _exe() -> str:
    return shutil.which("bridgehub") or str(Path(sys.executable).parent / "bridgehub")


async def _follow(port: int, rounds: int, show: int) -> None:
    for _ in range(100):  # the hub may still be starting
        try:
            ws = await connect(f"ws://127.0.0.1:{port}/v1")
            break
        except OSError:
            await asyncio.sleep(0.1)
    else:
        raise click.ClickException("the hub's API did not come up")
    async with ws:
        await ws.send(json.dumps({"type": "hello", "version": 1}))
        results = 0
        async for raw in ws:
            msg = json.loads(raw)
            if msg.get("type") != "event":
                continue
            ev = msg["event"]
            if ev == "result":
                results += 1
            elif ev == "alert":
                click.echo(f"  ! {msg['text']}")
            elif ev == "standings":
                top = sorted(msg["rows"], key=lambda r: -Fraction(r["total"]))[:show]
                line = ", ".join(f"{r['rank']} pair {r['pair']} {r['text']}%" for r in top)
                click.echo(f"after round {msg['round']:>2} ({results} results): {line}")
                if msg["round"] >= rounds:
                    return


@click.command("demo")
@click.option("--tables", type=click.IntRange(3, 15), default=7, show_default=True)
@click.option("--boards-per-round", type=click.IntRange(1, 4), default=2, show_default=True)
@click.option(
    "--speed",
    type=float,
    default=300.0,
    show_default=True,
    help="Time factor for the players (300: a 7-minute board in 1.4 s).",
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
    tables: int, boards_per_round: int, speed: float, folder: Path | None, console: bool | None
) -> None:
    """A simulated room: simulator, hub and TD console as separate processes."""
    if console is None:
        console = sys.stdout.isatty()
    folder = folder or Path(tempfile.mkdtemp(prefix="bridgehub-demo-"))
    folder.mkdir(parents=True, exist_ok=True)
    event = folder / "demo.toml"
    event.write_text(EVENT.format(tables=tables, boards=boards_per_round), "utf-8")
    rounds = 2 * tables - 1
    port = _free_port()
    pin = new_pin()  # to the hub and the console in their environment, never in argv (D20)
    env = {**os.environ, "BRIDGEHUB_TD_PIN": pin}
    click.echo(f"bridgehub demo: {tables}-table Howell, {rounds} rounds, in {folder}")
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
            "--duration",
            "3600",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    hub = None
    try:
        assert sim.stdout is not None
        line = sim.stdout.readline().strip()
        click.echo(f"simulator: {line}")
        station = line.rsplit(": ", 1)[1]
        hub = subprocess.Popen(
            [
                _exe(),
                "run",
                "--event",
                str(event),
                "--station",
                station,
                "--api",
                f"127.0.0.1:{port}",
            ],
            stdout=subprocess.DEVNULL,
            env=env,
        )
        click.echo(f"hub: API ws://127.0.0.1:{port}/v1, database {event.with_suffix('.db')}")
        click.echo(f"director's PIN: {pin}")
        if console:
            subprocess.run(
                [_exe(), "console", "--api", f"ws://127.0.0.1:{port}/v1"], check=False, env=env
            )
            return
        asyncio.run(_follow(port, rounds, 3))
        click.echo(
            "session complete; final standings stored in the database "
            f"(bridgehub event standings --db sqlite:///{event.with_suffix('.db')} "
            "--event 1)"
        )
    finally:
        for proc in (hub, sim):
            if proc is not None:
                proc.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(20)
