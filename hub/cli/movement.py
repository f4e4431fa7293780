"""``bridgehub movement …``: generate, check and print movements."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click

from hub.event.movement.barometer import barometer
from hub.event.movement.cards import grid, guide_cards
from hub.event.movement.check import check_movement, format_report
from hub.event.movement.csv_format import format_movement, parse_movement
from hub.event.movement.howell import howell
from hub.event.movement.mitchell import mitchell
from hub.event.movement.model import Movement, MovementError
from hub.event.movement.teams import round_robin


def _emit(movement: Movement, as_csv: bool) -> None:
    if as_csv:
        click.echo(format_movement(movement), nl=False)
        return
    click.echo(grid(movement))
    click.echo("")
    click.echo(format_report(check_movement(movement)))


def _read(path: Path) -> Movement:
    try:
        return parse_movement(path.read_text(encoding="utf-8-sig"))
    except OSError as e:
        raise click.ClickException(f"{path}: cannot read the file: {e}") from None
    except MovementError as e:
        raise click.ClickException(f"{path}: {e.message}") from None


def _generated(build: Callable[[], Movement]) -> Movement:
    try:
        return build()
    except MovementError as e:
        raise click.ClickException(e.message) from None


@click.group()
def movement() -> None:
    """Generate, check and print movements (RoundData CSV)."""


_common = [
    click.option(
        "--rounds",
        type=click.IntRange(1),
        default=None,
        help="Rounds to play (default: the complete movement).",
    ),
    click.option("--boards-per-round", "bpr", type=click.IntRange(1), required=True),
    click.option("--section", default="A", show_default=True),
    click.option("--csv", "as_csv", is_flag=True, help="Print the movement file."),
]


def _with_common(f: Callable[..., None]) -> Callable[..., None]:
    for opt in reversed(_common):
        f = opt(f)
    return f


@movement.command("mitchell")
@click.option("--tables", type=click.IntRange(2), required=True)
@click.option("--skip", "variant", flag_value="skip", help="Even tables: skip after half.")
@click.option(
    "--relay",
    "variant",
    flag_value="relay",
    help="Even tables: share-and-relay (the last table shares table 1's boards).",
)
@click.option("--arrow-switch", is_flag=True, help="One winner: switch the best rounds.")
@click.option(
    "--barometer",
    "as_barometer",
    is_flag=True,
    help="Every table plays the round's boards (a barometer of 2T pairs).",
)
@_with_common
def mitchell_cmd(
    tables: int,
    variant: str | None,
    arrow_switch: bool,
    as_barometer: bool,
    rounds: int | None,
    bpr: int,
    section: str,
    as_csv: bool,
) -> None:
    """A Mitchell movement."""
    if as_barometer:
        _emit(_generated(lambda: barometer(2 * tables, bpr, rounds, section=section)), as_csv)
        return
    _emit(
        _generated(
            lambda: mitchell(
                tables,
                bpr,
                rounds,
                variant=variant or "auto",
                arrow_switch=arrow_switch,
                section=section,
            )
        ),
        as_csv,
    )


@movement.command("howell")
@click.option("--tables", type=click.IntRange(2), required=True)
@click.option(
    "--pairs",
    type=click.IntRange(3),
    default=None,
    help="2T − 1 for a phantom (one pair sits out each round).",
)
@click.option(
    "--barometer", "as_barometer", is_flag=True, help="Every table plays the round's boards."
)
@_with_common
def howell_cmd(
    tables: int,
    pairs: int | None,
    as_barometer: bool,
    rounds: int | None,
    bpr: int,
    section: str,
    as_csv: bool,
) -> None:
    """A complete (or, with fewer --rounds, 3/4) Howell."""
    if as_barometer:
        _emit(
            _generated(lambda: barometer(pairs or 2 * tables, bpr, rounds, section=section)), as_csv
        )
        return
    _emit(_generated(lambda: howell(tables, bpr, rounds, pairs=pairs, section=section)), as_csv)


@movement.command("barometer")
@click.option("--pairs", type=click.IntRange(3), default=None)
@click.option("--tables", type=click.IntRange(2), default=None)
@_with_common
def barometer_cmd(
    pairs: int | None, tables: int | None, rounds: int | None, bpr: int, section: str, as_csv: bool
) -> None:
    """A barometer: all tables play the same boards each round (a phantom if odd)."""
    if pairs is None and tables is None:
        raise click.UsageError("give --pairs or --tables")
    _emit(
        _generated(lambda: barometer(pairs or 2 * (tables or 0), bpr, rounds, section=section)),
        as_csv,
    )


@movement.command("teams")
@click.option("--teams", type=click.IntRange(2), required=True)
@click.option("--double", is_flag=True, help="Double round robin.")
@click.option("--boards-per-round", "bpr", type=click.IntRange(1), required=True)
@click.option("--section", default="A", show_default=True)
@click.option("--csv", "as_csv", is_flag=True)
def teams_cmd(teams: int, double: bool, bpr: int, section: str, as_csv: bool) -> None:
    """A team round robin (Berger tables), two tables per match."""
    _emit(_generated(lambda: round_robin(teams, bpr, double=double, section=section)), as_csv)


@movement.command("check")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def check_cmd(file: Path) -> None:
    """Check a movement file: the balance report, and every hard-rule violation."""
    report = check_movement(_read(file))
    click.echo(format_report(report))
    if not report.ok:
        raise SystemExit(1)


@movement.command("cards")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--pair", type=click.IntRange(1), default=None, help="Only this pair's card.")
def cards_cmd(file: Path, pair: int | None) -> None:
    """Guide cards per pair for a movement file."""
    text = guide_cards(_read(file), pair)
    if not text:
        raise click.ClickException(f"pair {pair} is not in the movement")
    click.echo(text)
