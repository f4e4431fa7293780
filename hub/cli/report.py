"""``bridgehub event report``: the results on the wall (ranking, travellers, personal score
cards) as PDF and/or HTML in the event's language, and the scorer's traveller CSV. A reader:
it never upgrades the store (decisions D17)."""

from __future__ import annotations

from pathlib import Path

import click

from hub.report.build import build_report
from hub.report.final import write_final_outputs
from hub.report.render import PdfUnavailable, html_to_pdf, render_html
from hub.report.words import LANGUAGES
from hub.store.engine import DriverMissing
from hub.store.exchange import write_travellers
from hub.store.schema_version import SchemaMismatch
from hub.store.store import Store, StoreError

_file = click.Path(dir_okay=False, path_type=Path)


@click.command("report")
@click.option("--db", "url", required=True, help="Store URL: sqlite:///event.db or postgresql…")
@click.option("--event", "event_id", type=int, required=True)
@click.option("--pdf", "pdf", type=_file, default=None, help="Write the report as PDF here.")
@click.option("--html", "html", type=_file, default=None, help="Write the report as HTML here.")
@click.option(
    "--travellers",
    type=_file,
    default=None,
    help="Write every result as the traveller CSV `bridgehub score` reads.",
)
@click.option(
    "--all",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write every final output (standings, report, BWS CSVs, travellers, backup) here.",
)
@click.option(
    "--lang",
    type=click.Choice(sorted(LANGUAGES)),
    default=None,
    help="The report's language (default: the event file's [event] language).",
)
def report(
    url: str,
    event_id: int,
    pdf: Path | None,
    html: Path | None,
    travellers: Path | None,
    folder: Path | None,
    lang: str | None,
) -> None:
    """The final results: ranking, every traveller and a score card per pair."""
    if not (pdf or html or travellers or folder):
        raise click.UsageError("give --pdf FILE, --html FILE, --travellers FILE or --all DIR")
    try:
        store = Store.open(url, migrate=False)
    except (SchemaMismatch, DriverMissing) as e:
        raise click.ClickException(str(e)) from None
    except Exception as e:  # a bad URL or an unreachable server: one clear line
        raise click.ClickException(f"cannot open the store {url}: {e}") from None
    try:
        if pdf or html:
            page = render_html(build_report(store, event_id, lang))
            if html:
                html.write_text(page, encoding="utf-8")
                click.echo(f"wrote {html}")
            if pdf:
                click.echo(f"wrote {html_to_pdf(page, pdf)}")
        if travellers:
            click.echo(f"wrote {write_travellers(store, event_id, travellers)}")
        if folder:
            for path in write_final_outputs(store, event_id, folder, lang):
                click.echo(f"wrote {path}")
    except (StoreError, PdfUnavailable) as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:  # a folder that is not there, a file that cannot be written
        where = e.filename or "the report"
        raise click.ClickException(f"cannot write {where}: {e.strerror or e}") from None
    finally:
        store.close()
