"""``bridgehub event …``: load an event into a store, export, import, back up, show it.
Only ``create`` and ``import`` upgrade a store's schema; the readers never do (decisions D17)."""

from __future__ import annotations

from pathlib import Path

import click

from hub.cli.event_edit import edit
from hub.cli.standings_text import standings_lines
from hub.cli.store_files import new_sqlite_file, remove_sqlite_file
from hub.cli.store_files import open_store as _open
from hub.event.event_file import EventFileError
from hub.event.movement.model import MovementError
from hub.standings.rebuild import rebuild
from hub.standings.rows import names_of
from hub.store.engine import sqlite_url
from hub.store.exchange import (
    backup_json,
    export_bws,
    import_received_data,
    restore_json,
    write_travellers,
)
from hub.store.store import Store, StoreError
from scoring.numbers import display

_db = click.option(
    "--db",
    "url",
    default=None,
    help="Store URL: sqlite:///event.db (default: one file per event) or postgresql+psycopg://…",
)


@click.group()
def event() -> None:
    """Events in the store: create, edit, export, import, back up, standings."""


@event.command("create")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@_db
def create_cmd(file: Path, url: str | None) -> None:
    """Validate an event file and store it (with its movements); prints the event id."""
    fresh = new_sqlite_file(url or sqlite_url(file.with_suffix(".db")))
    store = _open(url, file.with_suffix(".db"), migrate=True)
    try:
        eid = store.create_event(
            file.read_text(encoding="utf-8"), base_dir=file.parent, source=str(file)
        )
    except BaseException as e:  # F11: a failed create leaves no empty database behind
        store.close()
        remove_sqlite_file(fresh)
        if isinstance(e, EventFileError | MovementError | StoreError):
            raise click.ClickException(str(e)) from None
        if isinstance(e, UnicodeDecodeError):
            raise click.ClickException(_not_utf8(file, e)) from None
        raise
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
@click.option(
    "--travellers",
    "travellers_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the live results as the traveller CSV `bridgehub score` reads "
    "(several sections: one file each, FILE-A.csv, FILE-B.csv …).",
)
def export_cmd(
    url: str | None,
    event_id: int,
    bws_dir: Path | None,
    json_file: Path | None,
    travellers_file: Path | None,
) -> None:
    """Export an event as BWS-shaped CSVs, a JSON backup and/or the scorer's travellers."""
    if bws_dir is None and json_file is None and travellers_file is None:
        raise click.UsageError("give --bws DIR, --json FILE and/or --travellers FILE")
    store = _open(url)
    try:
        store.event(event_id)  # an unknown event is refused before any file is written
        if bws_dir is not None:
            for path in export_bws(store, event_id, bws_dir):
                click.echo(f"wrote {path}")
        if json_file is not None:
            json_file.write_text(backup_json(store, event_id), encoding="utf-8")
            click.echo(f"wrote {json_file}")
        if travellers_file is not None:
            for path in _travellers(store, event_id, travellers_file):
                click.echo(f"wrote {path}")
    except StoreError as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:  # a destination that cannot be written: named, never a traceback
        raise click.ClickException(f"cannot write {e.filename}: {e.strerror}") from None


def _travellers(store: Store, event_id: int, file: Path) -> list[Path]:
    """One traveller CSV per section: pair numbers restart in each section."""
    sections = store.sections(event_id)
    if len(sections) <= 1:
        return [write_travellers(store, event_id, file, sections[0] if sections else None)]
    return [
        write_travellers(store, event_id, file.with_name(f"{file.stem}-{s}{file.suffix}"), s)
        for s in sections
    ]


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
            store.event(event_id)  # "no event 9", not a section it lacks
            outcome = import_received_data(store, event_id, received)
            click.echo("\n".join(outcome.lines(event_id)))  # held conflicts named (F18)
    except StoreError as e:
        raise click.ClickException(str(e)) from None
    except UnicodeDecodeError as e:
        raise click.ClickException(_not_utf8(json_file or received, e)) from None


def _not_utf8(file: Path | None, e: UnicodeDecodeError) -> str:
    """A file saved in another encoding: where, so the TD can find the character."""
    line = bytes(e.object[: e.start]).count(b"\n") + 1
    return f"{file}: not a text file in UTF-8 (line {line}): save it as UTF-8"


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
        names = names_of(store.contestants(event_id, section))
        for direction, rows in view.standings.items():
            click.echo(f"Section {section}{' ' + direction if direction else ''}")
            click.echo("\n".join(standings_lines(rows, names, store.movement(event_id, section))))
        for bad in view.left_out:  # F2: a stored line scoring cannot use, named, never a crash
            click.echo(f"  left out: {bad.text()}")
        for ts in view.team_standings:
            team = f"{ts.record.team!s:>5} {names.get(int(str(ts.record.team)), '')}"
            click.echo(f"  {ts.rank:>5} {team:<40} {display(ts.record.vp, 2):>8}")


from hub.cli.report import report  # noqa: E402  (H5: `event report`, its own module)

event.add_command(report)
event.add_command(edit)
