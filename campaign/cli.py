"""``bridgehub campaign``: the whole room under every fault at once, with the figures that
show nothing was lost (issue 12 [FAULTS]); the command line and the run's two sizes."""

from __future__ import annotations

import asyncio
import dataclasses
import sys
import tempfile
from pathlib import Path

import click

from campaign.plan import Counts
from campaign.progress import report
from campaign.room import FrameFaults, Size
from campaign.run import Campaign, Options

CI_SIZE = Size(sections=3, tables=13, rounds=13, boards=10, stations=4)  # 5,070 results
FULL_SIZE = Size(sections=12, tables=25, rounds=25, boards=14, stations=5)  # 105,000
CI_COUNTS = Counts(unplugs=4, reboots=8, kills=3, clock_unplugs=1, unplug_s=(1.0, 3.0))
FULL_COUNTS = Counts(unplugs=10, reboots=30, kills=3, clock_unplugs=1, unplug_s=(2.0, 5.0))


@click.command("campaign")
@click.option(
    "--ci", is_flag=True, help="The CI-sized run: about 5,000 results, a few of each fault."
)
@click.option(
    "--seed", type=int, default=1, show_default=True, help="The same seed, the same faults."
)
@click.option("--sections", type=click.IntRange(1, 26), default=None)
@click.option("--tables", type=click.IntRange(3, 99), default=None, help="Tables a section (odd).")
@click.option("--rounds", type=click.IntRange(1, 99), default=None)
@click.option("--boards", type=click.IntRange(1, 36), default=None, help="Boards a round.")
@click.option("--stations", type=click.IntRange(1, 16), default=None)
@click.option("--corrupt", type=float, default=0.01, show_default=True, help="Chance per frame.")
@click.option("--drop", type=float, default=0.01, show_default=True, help="Chance per frame.")
@click.option("--duplicate", type=float, default=0.01, show_default=True, help="Chance per frame.")
@click.option("--delay", type=float, default=0.01, show_default=True, help="Chance per frame.")
@click.option("--unplugs", type=click.IntRange(0), default=None, help="Station unplugs.")
@click.option("--reboots", type=click.IntRange(0), default=None, help="Terminal reboots.")
@click.option("--kills", type=click.IntRange(0, 30), default=None, help="Hub kill -9s.")
@click.option(
    "--db", type=click.Choice(["sqlite", "postgres"]), default="sqlite", show_default=True
)
@click.option(
    "--speed", type=float, default=None, help="Time factor of the players (default: by size)."
)
@click.option("--timeout", "timeout_s", type=float, default=None, help="Seconds the room may take.")
@click.option("--dir", "folder", type=click.Path(file_okay=False, path_type=Path), default=None)
@click.option("--no-usb", is_flag=True, help="No emulated USB station (a pty instead).")
@click.option("--json", "json_file", type=click.Path(dir_okay=False, path_type=Path), default=None)
def campaign(
    ci: bool,
    seed: int,
    sections: int | None,
    tables: int | None,
    rounds: int | None,
    boards: int | None,
    stations: int | None,
    corrupt: float,
    drop: float,
    duplicate: float,
    delay: float,
    unplugs: int | None,
    reboots: int | None,
    kills: int | None,
    db: str,
    speed: float | None,
    timeout_s: float | None,
    folder: Path | None,
    no_usb: bool,
    json_file: Path | None,
) -> None:
    """Run a whole room against `bridgehub run` under every fault at once; print the
    figures and the invariants (each must be 0; the exit status says whether they were)."""
    base = CI_SIZE if ci else FULL_SIZE
    size = Size(
        sections or base.sections,
        tables or base.tables,
        rounds or base.rounds,
        boards or base.boards,
        stations or base.stations,
    )
    if size.rounds > size.tables:
        raise click.BadParameter(
            f"a {size.tables}-table Mitchell plays at most {size.tables} rounds",
            param_hint="--rounds",
        )
    if size.tables % 2 == 0:
        raise click.BadParameter(
            "a Mitchell here has an odd number of tables", param_hint="--tables"
        )
    counts = CI_COUNTS if ci else FULL_COUNTS
    counts = dataclasses.replace(
        counts,
        unplugs=counts.unplugs if unplugs is None else unplugs,
        reboots=counts.reboots if reboots is None else reboots,
        kills=counts.kills if kills is None else kills,
        pg_restarts=1 if db == "postgres" else 0,
    )
    folder = folder or Path(tempfile.mkdtemp(prefix="bridgehub-campaign-"))
    folder.mkdir(parents=True, exist_ok=True)
    opts = Options(
        size=size,
        counts=counts,
        rates=FrameFaults(corrupt, drop, duplicate, delay),
        seed=seed,
        speed=speed if speed is not None else (3000.0 if ci else 1500.0),
        db=db,
        timeout_s=timeout_s if timeout_s is not None else (270.0 if ci else 3600.0),
        folder=folder,
        usb=not no_usb,
        json_file=json_file,
    )
    fig = asyncio.run(Campaign(opts).run())
    for line in report(fig):
        click.echo(line)
    if json_file is not None:
        fig.write_json(json_file)
    sys.exit(0 if fig.ok else 1)
