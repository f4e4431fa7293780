"""``bridgehub run``: the hub as one process (decisions D1)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import signal
from pathlib import Path

import click

from hub.event.event_file import EventFileError
from hub.event.movement.model import MovementError
from hub.live.service import HubService
from hub.store.engine import DriverMissing, sqlite_url
from hub.store.schema_version import SchemaMismatch
from hub.store.store import Store, StoreError


async def _serve(
    store: Store,
    event_id: int,
    stations: list[str],
    clocks: list[tuple[str, str]],
    api: tuple[str, int],
    pin: str,
) -> None:
    hub = HubService(store, event_id, stations, clock_displays=clocks, api=api, td_pin=pin)
    try:
        await hub.start()
    except OSError as e:  # the API's port is taken (another hub?) or not this machine's
        raise click.ClickException(f"the API cannot listen on {api[0]}:{api[1]}: {e}") from None
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    assert hub.api is not None
    click.echo(
        f"hub running: event {event_id}, stations {', '.join(stations)}; "
        f"API ws://{hub.api.host}:{hub.api.port}/v1"
    )

    async def announce() -> None:
        await hub.session_done.wait()
        click.echo("session complete: every round played (the hub stays up for corrections)")

    announcer = asyncio.ensure_future(announce())
    await stop.wait()
    announcer.cancel()
    await hub.stop()


@click.command("run")
@click.option(
    "--event",
    "event_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    required=True,
)
@click.option(
    "--db", "url", default=None, help="Store URL (default: sqlite file beside the event file)."
)
@click.option(
    "--station",
    "stations",
    multiple=True,
    required=True,
    help="A base station line: a pyserial URL or usb:VID:PID[:SERIAL]. Repeatable.",
)
@click.option(
    "--clock",
    "clocks",
    multiple=True,
    help="A clock display: alpha:URL (Alpha sign) or panel:URL (panel line protocol). Repeatable.",
)
@click.option(
    "--api",
    "api_at",
    default="127.0.0.1:7170",
    show_default=True,
    help="HOST:PORT of the API for the console and screens (loopback or venue LAN).",
)
@click.option(
    "--td-pin",
    envvar="BRIDGEHUB_TD_PIN",
    default=None,
    help="The director's PIN for API commands (default: a new one, printed).",
)
def run(
    event_file: Path,
    url: str | None,
    stations: tuple[str, ...],
    clocks: tuple[str, ...],
    api_at: str,
    td_pin: str | None,
) -> None:
    """Run the hub: drivers, intake, store and live scoring for one event."""
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(message)s")
    try:
        store = Store.open(url or sqlite_url(event_file.with_suffix(".db")), migrate=True)
    except (SchemaMismatch, DriverMissing) as e:  # a newer store, a missing driver: say so
        raise click.ClickException(str(e)) from None
    try:
        ids = store.event_ids()
        if ids:
            event_id = ids[-1]  # a restart: continue the stored event
        else:
            event_id = store.create_event(
                event_file.read_text("utf-8"), base_dir=event_file.parent, source=str(event_file)
            )
    except (EventFileError, MovementError, StoreError) as e:
        raise click.ClickException(str(e)) from None
    displays = []
    for spec in clocks:
        protocol, _, where = spec.partition(":")
        if protocol not in ("alpha", "panel") or not where:
            raise click.BadParameter(
                f"{spec!r}: write alpha:URL or panel:URL", param_hint="--clock"
            )
        displays.append((protocol, where))
    host, _, port = api_at.rpartition(":")
    if not port.isdigit():
        raise click.BadParameter(f"{api_at!r}: write HOST:PORT", param_hint="--api")
    pin = td_pin or f"{secrets.randbelow(10_000):04d}"
    if td_pin is None:
        click.echo(f"director's PIN for this run: {pin}")
    asyncio.run(
        _serve(store, event_id, list(stations), displays, (host or "127.0.0.1", int(port)), pin)
    )
    store.close()
