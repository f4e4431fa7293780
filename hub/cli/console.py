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
    "environment variable BRIDGEHUB_TD_PIN: an option shows in process lists. Without "
    "it the console asks for it, and asks again when the hub refuses it.",
)
def console(url: str, pin: str | None) -> None:
    """The TD console (keys: r room, s standings, c calls and held results, w slow tables,
    t traveller, e scores, a pairs, d devices, l log, g start the clock, p pause, i log
    in, ? every key, q quit)."""
    from hub.api.client import Send, Source, websocket_source
    from hub.console.app import ConsoleApp

    def connect(typed: str) -> tuple[Source, Send]:  # a PIN typed in the console: a new connection
        return websocket_source(url, typed)

    source, send = websocket_source(url, pin)
    ConsoleApp(source, send if pin else None, connect=connect, ask_pin=not pin).run()
