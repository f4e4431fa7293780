"""``bridgehub movement …``: generate, check and print movements."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

import click

from hub.cli.store_files import open_store
from hub.event.movement.barometer import barometer
from hub.event.movement.cards import grid, guide_cards, join_link, table_card, table_cards_html
from hub.event.movement.check import check_movement, format_report
from hub.event.movement.csv_format import format_movement, not_utf8, parse_movement
from hub.event.movement.howell import howell
from hub.event.movement.mitchell import mitchell, tables_for
from hub.event.movement.model import Movement, MovementError
from hub.event.movement.teams import round_robin
from hub.event.pair_labels import PairLabels
from hub.store.store import StoreError
from hub.store.table_codes import ensure_codes

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
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path), required=False)
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
@click.option(
    "--db",
    "url",
    default=None,
    help="The event's store (instead of FILE): every section's movement, and with --join "
    "the tables' codes (made here when the event has none yet).",
)
@click.option("--event", "event_id", type=int, default=None, help="The event in --db.")
@click.option(
    "--join",
    default=None,
    help="The web terminals' address, http://HOST:PORT (bridgehub run --terminals): each "
    "table card gets its link for phones and its code (needs --db).",
)
@click.option(
    "--html",
    "html_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the table cards as a page to print (with --join: each with its QR code).",
)
def cards_cmd(
    file: Path | None,
    pair: str | None,
    table: int | None,
    only: str | None,
    url: str | None,
    event_id: int | None,
    join: str | None,
    html_file: Path | None,
) -> None:
    """Guide cards for a movement FILE or an event's store (--db): per pair (where to sit,
    against whom, which boards; "sit out" rounds) and per table (each round's NS and EW
    pairs and boards). With --join, each table card carries the table's link and code for
    the players' phones (docs/web-terminal.md); --html writes the table cards as a page to
    print, one card per table, with the link as a QR code."""
    if join is not None and url is None:
        raise click.UsageError("--join needs --db: the tables' codes are kept in the store")
    if file is None and url is None:
        raise click.UsageError("give a movement FILE or --db URL (the event's store)")
    if file is not None and url is not None:
        raise click.UsageError("give a movement FILE or --db URL, not both")
    if html_file is not None and pair is not None:
        raise click.UsageError("--html prints the table cards; leave out --pair")
    codes: dict[tuple[str, int], str] = {}
    if file is not None:
        movements, title, language = [_read(file)], file.name, "en"
    else:
        assert url is not None
        movements, title, language, codes = _from_store(url, event_id, join)
    if table is not None and not any(table in m.tables(s) for m in movements for s in m.sections):
        raise click.ClickException(f"table {table} is not in the movement")
    if html_file is not None:
        wanted = [_only_table(m, table) for m in movements]
        page = table_cards_html(wanted, title, _join_base(join), codes, language)
        try:
            html_file.write_text(page, encoding="utf-8")
        except OSError as e:
            raise click.ClickException(f"cannot write {html_file}: {e.strerror}") from None
        count = sum(len(m.tables(s)) for m in wanted for s in m.sections)
        click.echo(f"wrote {html_file}: {count} table cards")
        return
    if pair is not None and not any(guide_cards(m, pair) for m in movements):
        raise click.ClickException(
            f"pair {pair} is not in the movement "
            f"({'; '.join(PairLabels.of(m).describe() for m in movements)})"
        )
    texts = (_text_cards(m, pair, table, only, join, codes) for m in movements)
    click.echo("\n\n".join(text for text in texts if text))


def _text_cards(
    m: Movement,
    pair: str | None,
    table: int | None,
    only: str | None,
    join: str | None,
    codes: dict[tuple[str, int], str],
) -> str:
    """One movement's pair cards and table cards as text; with ``join`` each table card
    ends with the table's link and code for phones."""
    parts = []
    if pair is not None or (table is None and only != "tables"):
        parts.append(guide_cards(m, pair))
    if table is not None or (pair is None and only != "pairs"):
        for s in m.sections:
            for t in m.tables(s):
                if table not in (None, t):
                    continue
                card = table_card(m, s, t)
                if join is not None and (s, t) in codes:
                    link = join_link(_join_base(join) or "", s, t, codes[(s, t)])
                    card += f"\n  phones: {link}  (code {codes[(s, t)]})"
                parts.append(card)
    return "\n\n".join(p for p in parts if p)


def _only_table(m: Movement, table: int | None) -> Movement:
    """The movement with only ``table``'s rows (every table's when None)."""
    if table is None:
        return m
    return replace(m, rows=tuple(r for r in m.rows if r.table == table))


def _join_base(join: str | None) -> str | None:
    """``--join`` checked: the web terminals' address as ``http://HOST:PORT``."""
    if join is None:
        return None
    parsed = urlsplit(join.strip())
    if parsed.scheme not in ("http", "https") or not parsed.hostname or parsed.query:
        raise click.BadParameter(
            f"{join!r}: give the web terminals' address as http://HOST:PORT "
            "(as bridgehub run --terminals HOST:PORT serves it)",
            param_hint="--join",
        )
    return join.strip().rstrip("/")


def _from_store(
    url: str, event_id: int | None, join: str | None
) -> tuple[list[Movement], str, str, dict[tuple[str, int], str]]:
    """Each section's movement of the event in the store, its name and language, and with
    ``join`` the tables' codes (made for the tables that have none: the cards are printed
    before the hub first runs with --terminals)."""
    _join_base(join)  # a wrong address is refused before anything is stored
    store = open_store(url)
    try:
        ids = store.event_ids()
        if event_id is None:
            if len(ids) != 1:
                held = ", ".join(map(str, ids)) if ids else "none"
                raise click.UsageError(f"the store holds events {held}: choose one with --event ID")
            event_id = ids[0]
        info = store.event(event_id).event
        movements = [store.movement(event_id, s) for s in store.sections(event_id)]
        codes: dict[tuple[str, int], str] = {}
        if join is not None:
            tables = [(s, t) for m in movements for s in m.sections for t in m.tables(s)]
            made = ensure_codes(store, event_id, tables)
            codes = {key: made[key].code for key in tables}
        return movements, info.name, info.language, codes
    except StoreError as e:
        raise click.ClickException(str(e)) from None
    finally:
        store.close()
