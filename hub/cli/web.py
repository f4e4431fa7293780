"""``bridgehub web``: the live results pages for phones and laptops on the venue network,
a client of the hub's API (decisions D1; docs/web-results.md)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import click


def _address(at: str) -> tuple[str, int]:
    host, _, port = at.rpartition(":")
    if not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise click.BadParameter("HOST:PORT, e.g. 0.0.0.0:8080", param_hint="--listen")
    return host.strip("[]"), int(port)


def _hub_url(url: str) -> None:
    """A WebSocket URL with a host and a port that can be (else the link would fail on
    every try, for ever)."""
    from websockets.exceptions import InvalidURI
    from websockets.uri import parse_uri

    why = "a WebSocket URL, e.g. ws://127.0.0.1:7170/v1"
    if not url.startswith(("ws://", "wss://")):
        raise click.BadParameter(why, param_hint="--hub")
    try:
        parse_uri(url)
    except (InvalidURI, ValueError) as e:
        raise click.BadParameter(f"{why} ({e})", param_hint="--hub") from None


@click.command()
@click.option(
    "--hub",
    "url",
    default="ws://127.0.0.1:7170/v1",
    show_default=True,
    help="The hub's API (bridgehub run --api HOST:PORT).",
)
@click.option(
    "--listen",
    "at",
    default="127.0.0.1:8080",
    show_default=True,
    metavar="HOST:PORT",
    help="Where the pages are served: 0.0.0.0:8080 (or the venue LAN's address) for the "
    "players' phones.",
)
@click.option(
    "--pin",
    envvar="BRIDGEHUB_TD_PIN",
    default=None,
    help="The director's PIN, when this runs on another machine than the hub and the hub "
    "serves its feed to its own machine only (no --allow-remote-feed). Prefer the "
    "environment variable BRIDGEHUB_TD_PIN.",
)
@click.option(
    "--language",
    type=click.Choice(["cs", "en", "pl", "sv"]),  # the report's words (hub/report/words)
    default=None,
    help="The pages' language (default: the event's).",
)
def web(url: str, at: str, pin: str | None, language: str | None) -> None:
    """Serve the live results: the rankings the hub published, each finished board's
    traveller with the hands, and each pair's score card, updated as results come in.
    What the event hides (its last rounds' rankings, boards still in play) stays hidden."""
    _hub_url(url)
    host, port = _address(at)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(message)s")
    from hub.web_results.server import ResultsServer
    from hub.web_terminal.address import listen_error

    async def serve() -> None:
        server = ResultsServer(url, host, port, pin=pin, language=language)
        try:
            await server.start()
        except OSError as e:
            why = listen_error(host, port, e, "the results pages", "--listen")
            raise click.ClickException(why) from None
        click.echo(f"results pages at {server.url} (following the hub at {url})")
        try:
            await asyncio.Event().wait()
        finally:
            await server.stop()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve())
