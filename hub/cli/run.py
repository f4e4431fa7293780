"""``bridgehub run``: the hub as one process (decisions D1)."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import signal
from pathlib import Path

import click

from drivers.line_lock import LineLock, LineLocked
from hub.api.sessions import is_loopback
from hub.cli.director_pin import SHORT_PIN_OK, director_pin
from hub.cli.run_event import differences, event_to_run
from hub.cli.run_final import final_outputs, results_folder
from hub.event.event_diff import warning
from hub.event.event_file import EventFileError
from hub.event.movement.model import MovementError
from hub.live.rounds.clock_time_base import hub_clock
from hub.live.service.hub_lock_watch import HubLockWatch
from hub.live.service.hub_service import HubService
from hub.store.engine import DriverMissing, sqlite_url
from hub.store.hub_lock import HubLock, HubLocked, starting
from hub.store.schema_version import SchemaMismatch
from hub.store.store import Store, StoreError
from hub.web_terminal.address import TerminalsUnavailable, terminals_address


async def _warn_of_differences(store: Store, event_id: int, event_file: Path) -> None:
    """Warn the TD when the event file and the stored event differ (names edited in the
    store, or ``--event-id`` with an edited file). Compared once the hub serves, in a worker
    thread (decisions D17): it reads and builds the file's movements again, time a
    restarted hub's first ACK need not wait for (issue 12)."""
    try:
        changed = await asyncio.to_thread(differences, store, event_id, event_file)
    except Exception:  # a warning that cannot be made must not stop a running hub
        logging.getLogger(__name__).exception("cannot compare %s with the store", event_file)
        return
    if changed:
        click.echo(f"warning: {warning(changed)}", err=True)


def _claim(
    store: Store, event_file: Path, given: int | None, stations: tuple[str, ...]
) -> tuple[int, list[HubLock | LineLock]]:
    """The event to run and this hub's locks on it and its lines, chosen and taken while no
    other run is starting on the store: two runs on an empty store would otherwise both
    create the event (and on PostgreSQL each lock its own); the second finds the first's
    event and is refused its lock."""
    with starting(store.engine):
        event_id = event_to_run(store, event_file, given)
        return event_id, _locks(store, event_id, stations)


def _locks(store: Store, event_id: int, stations: tuple[str, ...]) -> list[HubLock | LineLock]:
    """One hub per event and per line: the store's lock, then each station's; all or none."""
    held: list[HubLock | LineLock] = []
    try:
        held.append(HubLock.acquire(store.engine, event_id))
        for url in dict.fromkeys(stations):
            held.append(LineLock.acquire(url))
    except BaseException:
        for lock in held:
            lock.release()
        raise
    return held


async def _serve(
    store: Store,
    event_id: int,
    stations: list[str],
    clocks: list[tuple[str, str]],
    api: tuple[str, int],
    pin: str,
    allow_remote_feed: bool = False,
    clock_speed: float = 1.0,
    results: Path | None = None,
    event_file: Path | None = None,
    hub_lock: HubLock | None = None,
    terminals: tuple[str, int] | None = None,
) -> None:
    event_dir = event_file.resolve().parent if event_file is not None else None
    hub = HubService(
        store,
        event_id,
        stations,
        clock=hub_clock(store, event_id, clock_speed),  # the stored events' time base (G3)
        clock_displays=clocks,
        api=api,
        td_pin=pin,
        allow_remote_feed=allow_remote_feed,
        wait_for_director=True,  # the room is not seated yet: the TD starts round 1 (g)
        event_dir=event_dir,  # the club roster beside the event file, wherever the store is
        terminals=terminals,  # phones and tablets at the tables (issue 15)
    )
    try:
        await hub.start()
    except TerminalsUnavailable as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:  # the API's port is taken (another hub?) or not this machine's
        why = (
            f"port {api[1]} is already in use (another hub, or another program?): stop it "
            "or give another --api HOST:PORT"
            if e.errno == errno.EADDRINUSE
            else str(e)
        )
        raise click.ClickException(f"the API cannot listen on {api[0]}:{api[1]}: {why}") from None
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    taken = _watch_lock(hub, hub_lock, event_id, stop)
    assert hub.api is not None
    click.echo(
        f"hub running: event {event_id}, stations {', '.join(stations) or 'none'}; "
        f"API ws://{hub.api.host}:{hub.api.port}/v1"
    )
    if hub.web is not None:
        click.echo(
            f"browser terminals: {hub.web.server.url} (each table's own link and code are on "
            "its table card: bridgehub movement cards)"
        )
    if clock_speed != 1:
        click.echo(
            f"REHEARSAL: the round clock runs {clock_speed:g} times faster than real time "
            "(--clock-speed); never run a real session with it"
        )
    if any(state.waiting for state in hub.sections.values()):
        click.echo("round 1 waits for the director: start its clock when the room is seated (g)")
    if not is_loopback(hub.api.host):
        click.echo(
            "the API listens beyond this machine without TLS: see docs/api.md (a TLS proxy or "
            "an SSH tunnel)" + ("; the feed needs a log-in there" if not allow_remote_feed else ""),
            err=True,
        )
    if event_file is not None:
        await _warn_of_differences(store, event_id, event_file)

    folder = results if results is not None else Path("results")  # run() always gives one
    announcer = asyncio.ensure_future(  # again after each correction, once quiet for 5 s
        final_outputs(hub, store, event_id, folder, quiet_s=5.0)
    )
    await stop.wait()
    announcer.cancel()
    await hub.stop()
    if taken:  # another hub took the event while the database server was away
        raise click.ClickException(taken[0])


def _watch_lock(
    hub: HubService, lock: HubLock | None, event_id: int, stop: asyncio.Event
) -> list[str]:
    """Watch a lock the database server can forget (PostgreSQL's, at a restart): taken
    again when the server is back; if another hub took the event meanwhile, the director is
    told and this hub stops a second later (the alert reaches the console first) with that
    message. Stopping, rather than refusing results, is what a TD wants: two hubs on one
    room would fight for it, a hub that stays up but refuses leaves its terminals waiting
    on "busy" for ever, and a hub that exits frees its lines for the one that runs the
    event. The returned list gets the message when that happens."""
    taken: list[str] = []
    if lock is None or not lock.watched:
        return taken
    loop = asyncio.get_running_loop()

    def on_taken(text: str) -> None:
        taken.append(text)
        loop.call_later(1.0, stop.set)

    watch = HubLockWatch(lock.check, event_id, hub.alerts.raise_, on_taken)
    hub.supervisor.spawn("hub lock", watch.run)
    return taken


@click.command("run")
@click.option(
    "--event",
    "event_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    required=True,
)
@click.option(
    "--event-id",
    "event_id_given",
    type=click.IntRange(1),
    default=None,
    help="The stored event to run (default: the one stored from this event file).",
)
@click.option(
    "--db", "url", default=None, help="Store URL (default: sqlite file beside the event file)."
)
@click.option(
    "--station",
    "stations",
    multiple=True,
    help="A base station line: a pyserial URL or usb:VID:PID[:SERIAL]. Repeatable; "
    "needed unless every table scores on --terminals.",
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
    help="The director's PIN for API commands (default: 8 new random characters, printed "
    "once). Prefer the environment variable BRIDGEHUB_TD_PIN: an option shows in process lists.",
)
@click.option(
    SHORT_PIN_OK,
    "short_pin_ok",
    is_flag=True,
    help="Take a director's PIN of fewer than 8 characters (refused without it: it can be "
    "guessed within days); for a rehearsal or a room without strangers.",
)
@click.option(
    "--allow-remote-feed",
    is_flag=True,
    help="Serve the feed (snapshot and events) without a log-in to clients on the venue "
    "network too, e.g. result screens; without it only this machine gets it (decisions D20).",
)
@click.option(
    "--clock-speed",
    type=click.FloatRange(min=0.01, max=1000, min_open=False),
    default=1.0,
    show_default=True,
    help="Run the hub's round clock this many times faster (to rehearse slow play with "
    "the simulator's --speed); never for a real session.",
)
@click.option(
    "--results-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where the final outputs go at the session's end (default: <db file>-results/ "
    "beside the SQLite file).",
)
@click.option(
    "--terminals",
    "terminals_at",
    default=None,
    help="HOST:PORT where phones and tablets at the tables open their terminal page "
    "(browser terminals, docs/web-terminal.md); HOST is this machine's venue-network address.",
)
def run(
    event_file: Path,
    event_id_given: int | None,
    url: str | None,
    stations: tuple[str, ...],
    clocks: tuple[str, ...],
    api_at: str,
    td_pin: str | None,
    short_pin_ok: bool,
    allow_remote_feed: bool,
    clock_speed: float,
    results_dir: Path | None,
    terminals_at: str | None,
) -> None:
    """Run the hub: drivers, intake, store and live scoring for one event."""
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(message)s")
    if not stations and terminals_at is None:
        raise click.UsageError("give a base station line (--station) or --terminals HOST:PORT")
    pin = director_pin(td_pin, short_pin_ok)  # first: a bad PIN leaves nothing open
    url = url or sqlite_url(event_file.with_suffix(".db"))
    results = results_dir or results_folder(url, event_file)
    try:
        store = Store.open(url, migrate=True)
    except (SchemaMismatch, DriverMissing) as e:  # a newer store, a missing driver: say so
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
    try:
        terminals = None if terminals_at is None else terminals_address(terminals_at)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--terminals") from None
    try:
        event_id, locks = _claim(store, event_file, event_id_given, stations)
    except (EventFileError, MovementError, StoreError, HubLocked, LineLocked) as e:
        store.close()
        raise click.ClickException(str(e)) from None
    except OSError as e:  # a lock file that cannot be made (permissions, a read-only disk)
        store.close()
        raise click.ClickException(f"cannot lock the store or a line for this hub: {e}") from None
    try:
        asyncio.run(
            _serve(
                store,
                event_id,
                list(stations),
                displays,
                (host or "127.0.0.1", int(port)),
                pin,
                allow_remote_feed,
                clock_speed,
                results,
                event_file,
                next((lock for lock in locks if isinstance(lock, HubLock)), None),
                terminals,
            )
        )
    except StoreError as e:  # the store refused the start (its boot counter ran out, ...)
        raise click.ClickException(f"the hub cannot start: {e}") from None
    finally:
        for lock in locks:
            lock.release()
        store.close()
