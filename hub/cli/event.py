"""``bridgehub event …``: load an event into a store, export, import, back up, show it.
Only ``create`` and ``import`` upgrade a store's schema; the readers never do (decisions D17)."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import click

from hub.cli.event_edit import edit
from hub.cli.event_stored import already_stored
from hub.cli.standings_text import standings_lines, team_standings_lines
from hub.cli.store_files import new_sqlite_file, remove_sqlite_file
from hub.cli.store_files import open_store as _open
from hub.event.bws_event import bws_event_text
from hub.event.event_file import EventFileError
from hub.event.event_rules import Scoring
from hub.event.movement.model import MovementError
from hub.event.movement.round_data import Kind, read_round_data
from hub.event.player_numbers import PlayerNumbersError, read_player_numbers
from hub.live.teams.bye_warning import bye_warnings
from hub.report.team_results import section_team_results
from hub.standings.rebuild import rebuild
from hub.standings.rows import names_of
from hub.store.engine import sqlite_url
from hub.store.exchange import import_received_data, restore_json
from hub.store.store import StoreError

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
    """Validate an event file and store it (with its movements); prints the event id. A
    file the store already holds is named, not stored a second time."""
    fresh = new_sqlite_file(url or sqlite_url(file.with_suffix(".db")))
    store = _open(url, file.with_suffix(".db"), migrate=True)
    try:
        stored = already_stored(store, file)
        if stored is not None:
            click.echo(stored)
            store.close()
            return
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
    movements = {s: store.movement(eid, s) for s in store.sections(eid)}
    for _, text in bye_warnings(store.event(eid), movements):  # [MENDS] #25
        click.echo(f"warning: {text}", err=True)


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
@click.option(
    "--round-data",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="A BWS-shaped RoundData.csv: a new event with its movement.",
)
@click.option(
    "--player-numbers",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="With --round-data: a PlayerNumbers.csv naming the players in their seats.",
)
@click.option("--name", default=None, help="With --round-data: the event's name.")
@click.option(
    "--scoring",
    type=click.Choice(["mp", "ximp", "butler"]),
    default="mp",
    show_default=True,
    help="With --round-data: the pairs scoring (the event file's rules.scoring).",
)
@click.option(
    "--kind",
    type=click.Choice(["auto", "mitchell", "howell", "barometer"]),
    default="auto",
    show_default=True,
    help="With --round-data: the movement's kind (auto: read from the rows).",
)
def import_cmd(
    url: str | None,
    json_file: Path | None,
    received: Path | None,
    event_id: int | None,
    round_data: Path | None,
    player_numbers: Path | None,
    name: str | None,
    scoring: str,
    kind: str,
) -> None:
    """Restore a JSON backup as a new event, make a new event from a BWS-shaped
    RoundData.csv (and PlayerNumbers.csv), or add a ReceivedData.csv to an event."""
    if round_data is not None:
        if json_file is not None or received is not None or event_id is not None:
            raise click.UsageError(
                "--round-data makes a new event: give it without --json, --received or --event"
            )
        _import_round_data(url, round_data, player_numbers, name, scoring, kind)
        return
    if player_numbers is not None:
        raise click.UsageError("--player-numbers goes with --round-data")
    if json_file is None and (received is None or event_id is None):
        raise click.UsageError(
            "give --json FILE, --round-data FILE, or --received FILE with --event ID"
        )
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


def _import_round_data(
    url: str | None,
    round_data: Path,
    player_numbers: Path | None,
    name: str | None,
    scoring: str,
    kind: str,
) -> None:
    """A new event from a RoundData (and PlayerNumbers) CSV: the event file
    ``bws_event_text`` writes, stored as ``event create`` stores one; prints the event id.
    Without --db the store is a file beside the RoundData (RoundData.db)."""
    try:
        movements = read_round_data(round_data, cast(Kind, kind))
        players = read_player_numbers(player_numbers, movements) if player_numbers else {}
    except (MovementError, PlayerNumbersError) as e:
        raise click.ClickException(str(e)) from None
    title = name or f"{round_data.resolve().parent.name or 'BWS'} (imported)"
    text = bws_event_text(
        round_data.name,
        movements,
        players,
        name=title,
        scoring=Scoring(scoring),
        kind=cast(Kind, kind),
    )
    target = round_data.with_suffix(".db")
    fresh = new_sqlite_file(url or sqlite_url(target))
    store = _open(url, target, migrate=True)
    try:
        eid = store.create_event(text, base_dir=round_data.parent, source=str(round_data))
    except BaseException as e:  # a failed import leaves no empty database behind (F11)
        store.close()
        remove_sqlite_file(fresh)
        if isinstance(e, EventFileError | MovementError | StoreError):
            raise click.ClickException(str(e)) from None
        raise
    sections = store.sections(eid)
    listed = sum(len(v) for v in players.values())
    click.echo(
        f"event {eid}: {title} (sections {', '.join(sections)}; {listed} pairs named; "
        f"{scoring} scoring) in {store.engine.url}"
    )


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
        event = store.event(event_id)
    except StoreError as e:
        raise click.ClickException(str(e)) from None
    for section, view in views.items():
        names = names_of(store.contestants(event_id, section))
        for direction, rows in view.standings.items():
            click.echo(f"Section {section}{' ' + direction if direction else ''}")
            click.echo("\n".join(standings_lines(rows, names, store.movement(event_id, section))))
        for bad in view.left_out:  # F2: a stored line scoring cannot use, named, never a crash
            click.echo(f"  left out: {bad.text()}")
        if event.rules.scoring is Scoring.TEAMS:  # the ranking, then the matches ([MENDS] #25)
            click.echo(f"Section {section}")
            results = section_team_results(store, event_id, section, view.movement)
            click.echo("\n".join(team_standings_lines(view.team_standings, results, names)))


from hub.cli.event_export import export  # noqa: E402  (each its own module)
from hub.cli.report import report  # noqa: E402  (H5: `event report`, its own module)

event.add_command(export)
event.add_command(report)
event.add_command(edit)
