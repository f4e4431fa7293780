"""``bridgehub run``: the hub as one process (decisions D1)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from pathlib import Path

import click

from hub.event_file import EventFileError
from hub.movement.model import MovementError
from hub.service import HubService
from hub.store.engine import sqlite_url
from hub.store.store import Store, StoreError


async def _serve(store: Store, event_id: int, stations: list[str]) -> None:
    hub = HubService(store, event_id, stations)
    await hub.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    click.echo(f"hub running: event {event_id}, stations {', '.join(stations)}")
    done = asyncio.ensure_future(hub.session_done.wait())
    stopped = asyncio.ensure_future(stop.wait())
    await asyncio.wait({done, stopped}, return_when=asyncio.FIRST_COMPLETED)
    if hub.session_done.is_set():
        click.echo("session complete: every round played")
    done.cancel()
    stopped.cancel()
    await hub.stop()


@click.command("run")
@click.option("--event", "event_file", type=click.Path(exists=True, dir_okay=False,
                                                       path_type=Path), required=True)
@click.option("--db", "url", default=None,
              help="Store URL (default: sqlite file beside the event file).")
@click.option("--station", "stations", multiple=True, required=True,
              help="A base station line: a pyserial URL or usb:VID:PID[:SERIAL]. Repeatable.")
def run(event_file: Path, url: str | None, stations: tuple[str, ...]) -> None:
    """Run the hub: drivers, intake, store and live scoring for one event."""
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(message)s")
    store = Store.open(url or sqlite_url(event_file.with_suffix(".db")))
    try:
        ids = store.event_ids()
        if ids:
            event_id = ids[-1]  # a restart: continue the stored event
        else:
            event_id = store.create_event(event_file.read_text("utf-8"),
                                          base_dir=event_file.parent, source=str(event_file))
    except (EventFileError, MovementError, StoreError) as e:
        raise click.ClickException(str(e)) from None
    asyncio.run(_serve(store, event_id, list(stations)))
    store.close()
