"""``bridgehub screen``: the barometer on a projector, from the store the hub writes."""

from __future__ import annotations

import click

from hub.event_cli import _db, _open
from hub.result_screen.app import ScreenApp
from hub.result_screen.barometer import barometer


@click.command()
@_db
@click.option("--event", "event_id", type=int, required=True)
@click.option("--page-seconds", type=click.FloatRange(min=2), default=10.0, show_default=True,
              help="How long each page of the standings stays up.")
@click.option("--refresh-seconds", type=click.FloatRange(min=1), default=5.0,
              show_default=True, help="How often the store is read again.")
def screen(url: str | None, event_id: int, page_seconds: float,
           refresh_seconds: float) -> None:
    """The full-screen barometer for a projector. It only reads the store, so any number
    can run beside the hub; to show it in a browser, serve this command with textual-serve
    (``textual serve "bridgehub screen --db … --event …"``)."""
    store = _open(url)
    try:
        name = store.event(event_id).event.name
    except Exception as e:  # no such event, or not a bridgehub store
        raise click.ClickException(f"event {event_id}: {e}") from None
    ScreenApp(lambda: barometer(store, event_id), name, page_seconds, refresh_seconds).run()
