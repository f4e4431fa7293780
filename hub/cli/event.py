"""``bridgehub event …``: load an event into a store, export, import, back up, show it.
Only ``create`` and ``import`` upgrade a store's schema; the readers never do (decisions D17)."""

from __future__ import annotations

from pathlib import Path

import click

from hub.event.event_file import EventFileError
from hub.event.movement.model import MovementError
from hub.standings.rebuild import rebuild
from hub.store.engine import DriverMissing, sqlite_url
from hub.store.exchange import backup_json, export_bws, import_received_data, restore_json
from hub.store.schema_version import SchemaMismatch
from hub.store.store import Store, StoreError
from scoring.numbers import display

_db = click.option(
    "--db",
    "url",
    default=None,
    help="Store URL: sqlite:///event.db (default: one file per event) or postgresql+psycopg://…",
)


def _open(url: str | None, fallback: Path | None = None, *, migrate: bool = False) -> Store:
    """The store at ``url``; ``migrate`` only for the commands that may upgrade it."""
    if url is None:
        if fallback is None:
            raise click.UsageError("give --db URL")
        url = sqlite_url(fallback)
    try:
        return Store.open(url, migrate=migrate)
    except (SchemaMismatch, DriverMissing) as e:
        raise click.ClickException(str(e)) from None
    except Exception as e:  # a bad URL or an unreachable server: one clear line
        raise click.ClickException(f"cannot open the store {url}: {e}") from None


@click.group()
def event() -> None:
    """Events in the store: create, export, import, back up, standings."""


@event.command("create")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@_db
def create_cmd(file: Path, url: str | None) -> None:
    """Validate an event file and store it (with its movements); prints the event id."""
    store = _open(url, file.with_suffix(".db"), migrate=True)
    try:
        eid = store.create_event(
            file.read_text(encoding="utf-8"), base_dir=file.parent, source=str(file)
        )
    except (EventFileError, MovementError, StoreError) as e:
        raise click.ClickException(str(e)) from None
    click.echo(
        f"event {eid}: {store.event(eid).event.name} "
        f"(sections {', '.join(store.sections(eid))}) in {store.engine.url}"
    )


@event.command("export")
@_db
@click.option("--event", "event_id", type=int, required=True)
@click.option(
    "--bws",
    "bws_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write RoundData, ReceivedData, PlayerNumbers CSVs here.",
)
@click.option(
    "--json",
    "json_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write a JSON backup of the whole event.",
)
def export_cmd(
    url: str | None, event_id: int, bws_dir: Path | None, json_file: Path | None
) -> None:
    """Export an event as BWS-shaped CSVs and/or a JSON backup."""
    if bws_dir is None and json_file is None:
        raise click.UsageError("give --bws DIR and/or --json FILE")
    store = _open(url)
    try:
        if bws_dir is not None:
            for path in export_bws(store, event_id, bws_dir):
                click.echo(f"wrote {path}")
        if json_file is not None:
            json_file.write_text(backup_json(store, event_id), encoding="utf-8")
            click.echo(f"wrote {json_file}")
    except StoreError as e:
        raise click.ClickException(str(e)) from None


@event.command("import")
@_db
@click.option(
    "--json",
    "json_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
)
@click.option(
    "--received",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="A ReceivedData.csv to add to --event.",
)
@click.option("--event", "event_id", type=int, default=None)
def import_cmd(
    url: str | None, json_file: Path | None, received: Path | None, event_id: int | None
) -> None:
    """Restore a JSON backup as a new event, or add a ReceivedData.csv to an event."""
    if json_file is None and (received is None or event_id is None):
        raise click.UsageError("give --json FILE, or --received FILE with --event ID")
    store = _open(url, migrate=True)
    try:
        if json_file is not None:
            click.echo(f"restored as event {restore_json(store, json_file.read_text('utf-8'))}")
        elif received is not None and event_id is not None:
            n = import_received_data(store, event_id, received)
            click.echo(f"added {n} results to event {event_id}")
    except StoreError as e:
        raise click.ClickException(str(e)) from None


@event.command("standings")
@_db
@click.option("--event", "event_id", type=int, required=True)
def standings_cmd(url: str | None, event_id: int) -> None:
    """Standings of every section, rebuilt from the store."""
    store = _open(url)
    try:
        views = rebuild(store, event_id)
    except StoreError as e:
        raise click.ClickException(str(e)) from None
    for section, view in views.items():
        for direction, rows in view.standings.items():
            click.echo(f"Section {section}{' ' + direction if direction else ''}")
            if not rows:
                click.echo("  (no results yet)")
            for s in rows:
                click.echo(
                    f"  {s.rank:>5} {s.total.pair.number:>5} "
                    f"{display(s.total.total, 2):>8} {s.total.boards:>4}"
                )
        for ts in view.team_standings:
            click.echo(f"  {ts.rank:>5} {ts.record.team!s:>5} {display(ts.record.vp, 2):>8}")
