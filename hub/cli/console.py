"""``bridgehub console``: the TD console, a client of a running hub."""

from __future__ import annotations

import click


@click.command("console")
@click.option("--api", "url", default="ws://127.0.0.1:7170/v1", show_default=True)
@click.option(
    "--pin",
    envvar="BRIDGEHUB_TD_PIN",
    default=None,
    help="The director's PIN (for commands such as pausing the clock). Prefer the "
    "environment variable BRIDGEHUB_TD_PIN: an option shows in process lists.",
)
def console(url: str, pin: str | None) -> None:
    """The TD console (keys: r room, s standings, c calls, l log, p pause, ? help, q quit)."""
    from hub.api.client import websocket_source
    from hub.console.app import ConsoleApp

    source, send = websocket_source(url, pin)
    ConsoleApp(source, send).run()
