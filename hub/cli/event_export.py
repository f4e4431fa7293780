"""``bridgehub event export``: what leaves the room after a session (issue 14 [PUBLISH]):
BWS-shaped CSVs, a JSON backup, the scorer's travellers, PBN 2.1 with every result, USEBIO
1.2 for the national body, and the results pages as static HTML for any web host."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import click

from hub.cli.store_files import open_store
from hub.store.exchange import backup_json, export_bws, write_travellers
from hub.store.store import Store, StoreError

_file = click.Path(dir_okay=False, path_type=Path)
_folder = click.Path(file_okay=False, path_type=Path)


@click.command("export")
@click.option(
    "--db",
    "url",
    default=None,
    help="Store URL: sqlite:///event.db (default: one file per event) or postgresql+psycopg://…",
)
@click.option("--event", "event_id", type=int, required=True)
@click.option(
    "--bws", "bws_dir", type=_folder, help="Write RoundData, ReceivedData, PlayerNumbers CSVs here."
)
@click.option("--json", "json_file", type=_file, help="Write a JSON backup of the whole event.")
@click.option(
    "--travellers",
    "travellers_file",
    type=_file,
    help="Write the live results as the traveller CSV `bridgehub score` reads "
    "(several sections: one file each, FILE-A.csv, FILE-B.csv …).",
)
@click.option(
    "--pbn",
    "pbn_file",
    type=_file,
    help="Write PBN 2.1: every board's deal, a ScoreTable of its results and the event's "
    "TotalScoreTable.",
)
@click.option(
    "--usebio",
    "usebio_file",
    type=_file,
    help="Write USEBIO 1.2 XML (pairs: matchpoints, cross-IMPs, Butler; teams) for the "
    "national body's masterpoint and results systems.",
)
@click.option(
    "--html",
    "html_dir",
    type=_folder,
    help="Write the results pages (rankings, travellers with the hands, each pair's card) "
    "as static HTML to upload to any web host. During the session they show what the live "
    "pages show (boards every table has played, no ranking before the final one).",
)
@click.option(
    "--all",
    "everything",
    is_flag=True,
    help="With --html during the session: every result, deal and ranking so far (for the "
    "TD, not for the wall).",
)
def export(
    url: str | None,
    event_id: int,
    bws_dir: Path | None,
    json_file: Path | None,
    travellers_file: Path | None,
    pbn_file: Path | None,
    usebio_file: Path | None,
    html_dir: Path | None,
    everything: bool,
) -> None:
    """Export an event: BWS-shaped CSVs, a JSON backup, travellers, PBN, USEBIO, HTML."""
    wanted: list[Callable[[Store], Iterable[Path]]] = []
    if bws_dir is not None:
        wanted.append(lambda store: export_bws(store, event_id, bws_dir))
    if json_file is not None:
        wanted.append(lambda store: [_backup(store, event_id, json_file)])
    if travellers_file is not None:
        wanted.append(lambda store: _travellers(store, event_id, travellers_file))
    if pbn_file is not None:
        wanted.append(lambda store: [_pbn(store, event_id, pbn_file)])
    if usebio_file is not None:
        wanted.append(lambda store: [_usebio(store, event_id, usebio_file)])
    if html_dir is not None:
        wanted.append(lambda store: _html(store, event_id, html_dir, everything))
    files = [f.resolve() for f in (json_file, travellers_file, pbn_file, usebio_file) if f]
    if len(set(files)) < len(files):  # one would overwrite the other without a word
        raise click.UsageError("give each export its own file")
    if not wanted:
        raise click.UsageError(
            "give --bws DIR, --json FILE, --travellers FILE, --pbn FILE, --usebio FILE "
            "and/or --html DIR"
        )
    store = open_store(url)
    try:
        store.event(event_id)  # an unknown event is refused before any file is written
        for write in wanted:
            for path in write(store):
                click.echo(f"wrote {path}")
    except StoreError as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:  # a destination that cannot be written: named, never a traceback
        raise click.ClickException(f"cannot write {e.filename}: {e.strerror}") from None
    finally:
        store.close()


def _backup(store: Store, event_id: int, file: Path) -> Path:
    file.write_text(backup_json(store, event_id), encoding="utf-8")
    return file


def _travellers(store: Store, event_id: int, file: Path) -> list[Path]:
    """One traveller CSV per section: pair numbers restart in each section."""
    sections = store.sections(event_id)
    if len(sections) <= 1:
        return [write_travellers(store, event_id, file, sections[0] if sections else None)]
    return [
        write_travellers(store, event_id, file.with_name(f"{file.stem}-{s}{file.suffix}"), s)
        for s in sections
    ]


def _pbn(store: Store, event_id: int, file: Path) -> Path:
    from hub.export.pbn import write_pbn

    return write_pbn(store, event_id, file)


def _usebio(store: Store, event_id: int, file: Path) -> Path:
    from hub.export.usebio import write_usebio

    return write_usebio(store, event_id, file)


def _html(store: Store, event_id: int, folder: Path, everything: bool) -> list[Path]:
    from hub.web_results.export import export_html

    return export_html(store, event_id, folder, everything=everything)
