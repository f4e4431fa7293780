"""``bridgehub movement …``: generate, check and print movements."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import click

from hub.event.movement.barometer import barometer
from hub.event.movement.cards import grid, guide_cards, table_cards
from hub.event.movement.check import check_movement, format_report
from hub.event.movement.csv_format import format_movement, not_utf8, parse_movement
from hub.event.movement.howell import howell
from hub.event.movement.mitchell import mitchell, tables_for
from hub.event.movement.model import Movement, MovementError
from hub.event.movement.teams import round_robin
from hub.event.pair_labels import PairLabels

T = TypeVar("T")


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
    except UnicodeDecodeError as e:
        raise click.ClickException(f"{path}: {not_utf8(e)}") from None
    except MovementError as e:
        raise click.ClickException(f"{path}: {e.message}") from None


def _generated(build: Callable[[], T]) -> T:
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
@click.option("--tables", type=click.IntRange(2), default=None, help="Tables (or give --pairs).")
@click.option(
    "--pairs",
    type=click.IntRange(3),
    default=None,
    help="Pairs; an odd number leaves EW n out (0: its opponents sit out each round).",
)
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
    tables: int | None,
    pairs: int | None,
    variant: str | None,
    arrow_switch: bool,
    as_barometer: bool,
    rounds: int | None,
    bpr: int,
    section: str,
    as_csv: bool,
) -> None:
    """A Mitchell movement (NS 1-n and EW 1-n; --pairs 13: 7 tables, EW 7 sits out)."""
    if tables is None and pairs is None:
        raise click.UsageError("give --tables or --pairs")
    if as_barometer:
        count = pairs or 2 * (tables or 0)
        _emit(_generated(lambda: barometer(count, bpr, rounds, section=section)), as_csv)
        return
    _emit(
        _generated(
            lambda: mitchell(
                tables,
                bpr,
                rounds,
                pairs=pairs,
                variant=variant or "auto",
                arrow_switch=arrow_switch,
                section=section,
            )
        ),
        as_csv,
    )


@movement.command("howell")
@click.option("--tables", type=click.IntRange(2), default=None, help="Tables (or give --pairs).")
@click.option(
    "--pairs",
    type=click.IntRange(3),
    default=None,
    help="Pairs (tables: half, rounded up); 2T − 1: one pair sits out each round (0).",
)
@click.option(
    "--barometer", "as_barometer", is_flag=True, help="Every table plays the round's boards."
)
@_with_common
def howell_cmd(
    tables: int | None,
    pairs: int | None,
    as_barometer: bool,
    rounds: int | None,
    bpr: int,
    section: str,
    as_csv: bool,
) -> None:
    """A complete (or, with fewer --rounds, 3/4) Howell."""
    if tables is None and pairs is None:
        raise click.UsageError("give --tables or --pairs")
    t = _generated(lambda: tables_for(tables, pairs, "Howell"))
    if as_barometer:
        _emit(_generated(lambda: barometer(pairs or 2 * t, bpr, rounds, section=section)), as_csv)
        return
    _emit(_generated(lambda: howell(t, bpr, rounds, pairs=pairs, section=section)), as_csv)


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
@click.option(
    "--pair", default=None, help='Only this pair\'s card: "3", or in a Mitchell "NS 3" / "EW 3".'
)
@click.option("--table", type=click.IntRange(1), default=None, help="Only this table's card.")
@click.option(
    "--only",
    type=click.Choice(["pairs", "tables"]),
    default=None,
    help="Pair cards or table cards only (default: both).",
)
def cards_cmd(file: Path, pair: str | None, table: int | None, only: str | None) -> None:
    """Guide cards for a movement file: per pair (where to sit, against whom, which boards;
    "sit out" rounds) and per table (each round's NS and EW pairs and boards)."""
    m = _read(file)
    parts = []
    if pair is not None or (table is None and only != "tables"):
        text = guide_cards(m, pair)
        if not text:
            raise click.ClickException(
                f"pair {pair} is not in the movement ({PairLabels.of(m).describe()})"
            )
        parts.append(text)
    if table is not None or (pair is None and only != "pairs"):
        text = table_cards(m, table)
        if not text:
            raise click.ClickException(f"table {table} is not in the movement")
        parts.append(text)
    click.echo("\n\n".join(parts))
