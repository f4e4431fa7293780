"""The end of an evening in ``bridgehub run`` (issue 13): when every section's session is
complete the final outputs (standings, the report, exports: ``hub.report.final``) are
written in a worker thread and where they are is printed and told to the director; a
failure is an alert, never a crash. And the rehearsal clock of ``--clock-speed``.

The worker is a daemon thread: a TD who stops the hub while a large event's report is
still being drawn (minutes for 100,000 results) is not kept waiting; the next start writes
the outputs again (issue 12 [FAULTS]: the campaign's hub took more than 15 s to stop)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import click
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from hub.live.service.hub_service import HubService
from hub.store.store import Store

log = logging.getLogger(__name__)
T = TypeVar("T")


async def in_daemon_thread(work: Callable[[], T], name: str) -> T:
    """``work()`` in a daemon thread, awaited: unlike ``asyncio.to_thread``, the process
    does not wait for it to end when the hub stops."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[T] = loop.create_future()

    def settle(outcome: Callable[[], None]) -> None:
        if not done.done():
            outcome()

    def run() -> None:
        try:
            value = work()
        except BaseException as e:  # handed to the awaiting task, not lost in the thread
            error = e
            with contextlib.suppress(RuntimeError):  # the loop closed: the hub has stopped
                loop.call_soon_threadsafe(settle, lambda: done.set_exception(error))
        else:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(settle, lambda: done.set_result(value))

    threading.Thread(target=run, name=name, daemon=True).start()
    return await done


def results_folder(url: str, event_file: Path) -> Path:
    """Where the final outputs go by default: ``<db file stem>-results/`` beside the
    SQLite file; for a server database, beside the event file."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        parsed = None
    if parsed is not None and parsed.get_backend_name() == "sqlite" and parsed.database:
        db = Path(parsed.database)
        return db.with_name(db.stem + "-results")
    return event_file.with_name(event_file.stem + "-results")


# feed events after which the final results differ: a score, the names, a penalty
CORRECTIONS = frozenset(
    {"result", "board_changed", "held_accepted", "pairs_changed", "penalty_decided"}
)


async def final_outputs(
    hub: HubService, store: Store, event_id: int, folder: Path, *, quiet_s: float | None = None
) -> None:
    """Wait for the end of the session, then write the final outputs (a hub restarted
    after the end writes them again: the same files). With ``quiet_s`` (``run``), every
    correction after the end (the hub stays up for them) writes them again once the desk
    has been quiet that long, so the files on the wall are never older than the store."""
    await hub.session_done.wait()
    click.echo("session complete: every round played (the hub stays up for corrections)")
    events = hub.feed.subscribe() if quiet_s is not None else None
    try:
        if not await _write(hub, store, event_id, folder, "final results written"):
            return
        while events is not None:
            ev = await events.get()
            if ev is not None and ev.get("event") not in CORRECTIONS:
                continue
            while True:  # a batch of corrections: written once, when they stop
                try:
                    await asyncio.wait_for(events.get(), quiet_s)
                except TimeoutError:
                    break
            if ev is None:  # the feed dropped this slow reader: take a new subscription
                hub.feed.unsubscribe(events)
                events = hub.feed.subscribe()
            await _write(hub, store, event_id, folder, "final results written again")
    finally:
        if events is not None:
            hub.feed.unsubscribe(events)


async def _write(hub: HubService, store: Store, event_id: int, folder: Path, said: str) -> bool:
    """The final outputs written in a worker thread; where, printed and told to the
    director. False when there is no report writer (nothing more to do)."""
    try:
        from hub.report.final import write_final_outputs
    except ImportError as e:
        log.warning("final outputs not written: %s", e)
        click.echo(f"final outputs not written: this hub has no report writer ({e})", err=True)
        return False
    try:
        paths = await in_daemon_thread(
            lambda: write_final_outputs(store, event_id, folder), "final-outputs"
        )
    except Exception as e:
        log.exception("writing the final outputs to %s", folder)
        text = f"the final results could not be written to {folder}: {type(e).__name__}: {e}"
        click.echo(text, err=True)
        hub.alerts.raise_(text)
        return True
    names = ", ".join(p.name for p in paths) or "nothing"
    click.echo(f"{said} to {folder}: {names}")
    hub.alerts.raise_(f"{said} to {folder} ({len(paths)} files)")
    return True
