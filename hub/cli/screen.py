"""``bridgehub screen``: the barometer on a projector, a client of the hub's feed."""

from __future__ import annotations

import os
import shlex
import sys

import click


@click.command()
@click.option(
    "--api",
    "url",
    default="ws://127.0.0.1:7170/v1",
    show_default=True,
    help="The hub's API (bridgehub run --api HOST:PORT).",
)
@click.option(
    "--pin",
    envvar="BRIDGEHUB_TD_PIN",
    default=None,
    help="The director's PIN, for a screen on another machine than the hub when the hub "
    "serves its feed to this machine only (no --allow-remote-feed). Prefer the environment "
    "variable BRIDGEHUB_TD_PIN: an option shows in process lists.",
)
@click.option(
    "--page-seconds",
    type=click.FloatRange(min=2),
    default=10.0,
    show_default=True,
    help="How long each page of the standings stays up.",
)
@click.option(
    "--serve",
    "serve_at",
    default=None,
    metavar="HOST:PORT",
    help="Serve the screen to browsers (textual-serve) instead of this terminal; "
    "each browser gets its own screen.",
)
def screen(url: str, pin: str | None, page_seconds: float, serve_at: str | None) -> None:
    """The full-screen barometer for a projector: the standings the hub last published,
    paged, with the round clock. It follows the hub's feed like the console (reconnecting
    by itself), so any number can run, in terminals or (``--serve``) in browsers."""
    if not url.startswith(("ws://", "wss://")):
        raise click.BadParameter("a WebSocket URL, e.g. ws://127.0.0.1:7170/v1", param_hint="--api")
    if serve_at is not None:
        if pin:  # each browser's screen is a child process: the PIN goes in its environment
            os.environ["BRIDGEHUB_TD_PIN"] = pin
        _serve(serve_at, url, page_seconds)
        return
    from hub.api.client import websocket_source
    from hub.result_screen.app import ScreenApp

    source, _ = websocket_source(url, pin, name="screen")
    ScreenApp(source, page_seconds).run()


def served_command(url: str, page_seconds: float) -> list[str]:
    """The command textual-serve starts for each browser: this screen on the same feed."""
    return [
        sys.executable,
        "-m",
        "hub.cli",
        "screen",
        "--api",
        url,
        "--page-seconds",
        str(page_seconds),
    ]


def _serve(at: str, url: str, page_seconds: float) -> None:
    host, _, port = at.rpartition(":")
    if not host or not port.isdigit():
        raise click.BadParameter("HOST:PORT, e.g. 0.0.0.0:8000", param_hint="--serve")
    try:
        from textual_serve.server import Server
    except ImportError:
        raise click.ClickException(
            "--serve needs textual-serve: pip install 'bridgehub[web]'"
        ) from None
    command = shlex.join(served_command(url, page_seconds))
    Server(command, host=host, port=int(port), title="bridgehub screen").serve()
