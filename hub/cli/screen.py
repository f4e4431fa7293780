"""``bridgehub screen``: the barometer on a projector, from the store the hub writes."""

from __future__ import annotations

import shlex
import sys

import click

from hub.cli.event import _db, _open
from hub.result_screen.app import ScreenApp
from hub.result_screen.barometer import barometer


@click.command()
@_db
@click.option("--event", "event_id", type=int, required=True)
@click.option(
    "--page-seconds",
    type=click.FloatRange(min=2),
    default=10.0,
    show_default=True,
    help="How long each page of the standings stays up.",
)
@click.option(
    "--refresh-seconds",
    type=click.FloatRange(min=1),
    default=5.0,
    show_default=True,
    help="How often the store is read again.",
)
@click.option(
    "--serve",
    "serve_at",
    default=None,
    metavar="HOST:PORT",
    help="Serve the screen to browsers (textual-serve) instead of this terminal; "
    "each browser gets its own screen.",
)
def screen(
    url: str | None,
    event_id: int,
    page_seconds: float,
    refresh_seconds: float,
    serve_at: str | None,
) -> None:
    """The full-screen barometer for a projector. It only reads the store, so any number
    can run beside the hub, in terminals or (``--serve``) in browsers."""
    if serve_at is not None:
        _serve(serve_at, url, event_id, page_seconds, refresh_seconds)
        return
    store = _open(url)
    try:
        name = store.event(event_id).event.name
    except Exception as e:  # no such event, or not a bridgehub store
        raise click.ClickException(f"event {event_id}: {e}") from None
    ScreenApp(lambda: barometer(store, event_id), name, page_seconds, refresh_seconds).run()


def _serve(
    at: str, url: str | None, event_id: int, page_seconds: float, refresh_seconds: float
) -> None:
    host, _, port = at.rpartition(":")
    if not host or not port.isdigit():
        raise click.BadParameter("HOST:PORT, e.g. 0.0.0.0:8000", param_hint="--serve")
    try:
        from textual_serve.server import Server
    except ImportError:
        raise click.ClickException(
            "--serve needs textual-serve: pip install 'bridgehub[web]'"
        ) from None
    _open(url).close()  # a bad store URL fails here, once, not in every browser
    command = [
        sys.executable,
        "-m",
        "hub.cli",
        "screen",
        "--event",
        str(event_id),
        "--page-seconds",
        str(page_seconds),
        "--refresh-seconds",
        str(refresh_seconds),
    ] + (["--db", url] if url else [])
    Server(shlex.join(command), host=host, port=int(port), title="bridgehub screen").serve()
