"""One hub per event and per line (issue [TRUST]): a second `bridgehub run` on the same
store or the same base station refuses to start with a plain message, and a hub killed
with -9 leaves nothing locked. Real processes, real SQLite and PostgreSQL, a real pty."""

from __future__ import annotations

import asyncio
import os
import selectors
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from event_text import one_section_event

from drivers.line_lock import LineLock, LineLocked, line_identity
from drivers.transport import LineError, SerialTransport
from hub.cli.main import cli
from hub.cli.run import _claim
from hub.store import hub_lock
from hub.store.hub_lock import HubLock, HubLocked
from hub.store.store import Store

EVENT = one_section_event("Locked", 'kind = "howell", tables = 3, boards_per_round = 2')


def _exe() -> str:
    return shutil.which("bridgehub") or str(Path(sys.executable).parent / "bridgehub")


@pytest.fixture
def env(tmp_path, monkeypatch):
    """Line locks in this test's own directory; the PIN through the environment."""
    monkeypatch.setenv("BRIDGEHUB_LOCK_DIR", str(tmp_path))
    return {**os.environ, "BRIDGEHUB_LOCK_DIR": str(tmp_path), "BRIDGEHUB_TD_PIN": "x7-lock-test"}


def _created(url: str, tmp_path: Path) -> tuple[Path, int]:
    event = tmp_path / "club.toml"
    event.write_text(EVENT, "utf-8")
    r = CliRunner().invoke(cli, ["event", "create", str(event), "--db", url])
    assert r.exit_code == 0, r.output
    return event, int(r.output.split()[1].rstrip(":"))


def _hub(event: Path, url: str, eid: int, station: Path, env: dict) -> subprocess.Popen:
    return subprocess.Popen(
        [_exe(), "run", "--event", str(event), "--db", url, "--event-id", str(eid),
         "--station", str(station), "--api", "127.0.0.1:0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip


def _wait_running(hub: subprocess.Popen, timeout: float = 60) -> str:
    """The hub's first line, "hub running: …", within a bounded wait."""
    assert hub.stdout is not None
    sel = selectors.DefaultSelector()
    sel.register(hub.stdout, selectors.EVENT_READ)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if sel.select(timeout=0.2):
            line = hub.stdout.readline()
            if line.startswith("hub running"):
                return line
            if not line:
                break
    hub.kill()
    raise AssertionError(f"the hub did not start in {timeout} s: {hub.stderr.read()}")  # type: ignore[union-attr]


def _refused(event: Path, url: str, eid: int, station: Path, env: dict) -> str:
    second = _hub(event, url, eid, station, env)
    out, err = second.communicate(timeout=60)
    assert second.returncode == 1, (out, err)
    assert "internal error" not in err and "Traceback" not in err, err
    return err


def _stop(hub: subprocess.Popen) -> None:
    hub.send_signal(signal.SIGTERM)
    hub.communicate(timeout=30)


@pytest.mark.slow
def test_a_second_hub_on_the_same_event_refuses_to_start_until_the_first_dies(
    store_url, tmp_path, env
):
    """Issue [TRUST] "one hub per event": hub B on hub A's event stops at once with a plain
    message (exit 1), even on another line and port; after `kill -9` of A the OS (SQLite's
    flock) or the server (PostgreSQL's session advisory lock) has released it, and B starts."""
    event, eid = _created(store_url, tmp_path)
    first = _hub(event, store_url, eid, tmp_path / "line-a", env)
    try:
        assert f"event {eid}" in _wait_running(first)
        err = _refused(event, store_url, eid, tmp_path / "line-b", env)
        assert "another hub is already running" in err, err
        assert "one hub per event" in err, err
        first.kill()  # kill -9: no clean-up runs
        first.communicate(timeout=30)
        again = _hub(event, store_url, eid, tmp_path / "line-b", env)
        try:
            assert f"event {eid}" in _wait_running(again)
        finally:
            _stop(again)
    finally:
        if first.poll() is None:
            first.kill()
            first.communicate(timeout=30)


def test_a_second_hub_on_the_same_station_refuses_to_start(tmp_path, env):
    """Issue [TRUST] "one hub per line": two events in two stores, one base station (named
    once through a link and once by its real path): the second hub refuses, naming the line."""
    station = tmp_path / "ttyBASE"
    station.write_text("")
    alias = tmp_path / "base-1"
    alias.symlink_to(station)
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    event_a, eid_a = _created(f"sqlite:///{one / 'a.db'}", one)
    event_b, eid_b = _created(f"sqlite:///{two / 'b.db'}", two)
    first = _hub(event_a, f"sqlite:///{one / 'a.db'}", eid_a, alias, env)
    try:
        _wait_running(first)
        err = _refused(event_b, f"sqlite:///{two / 'b.db'}", eid_b, station, env)
        assert f"the base station {station} is already in use by another hub" in err, err
    finally:
        _stop(first)
    assert not (two / "b.db.hub-lock").exists() or (two / "b.db.hub-lock").read_text() == ""


def test_the_store_lock_is_per_event_and_released(store_url, tmp_path):
    """Two real hub locks in one process: the second on the same event is refused, another
    event of a PostgreSQL store is not (halls run their own events), and a release frees it."""
    store = Store.open(store_url)
    try:
        eid = store.create_event(EVENT)
        other = store.create_event(EVENT.replace("Locked", "Other"))
        first = HubLock.acquire(store.engine, eid)
        with pytest.raises(HubLocked, match="another hub is already running"):
            HubLock.acquire(store.engine, eid)
        if store.engine.dialect.name == "postgresql":
            HubLock.acquire(store.engine, other).release()
        first.release()
        first.release()  # twice is harmless
        HubLock.acquire(store.engine, eid).release()
    finally:
        store.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_store_url(request, tmp_path):
    """An empty store of its own: a SQLite file, or a new PostgreSQL database (the
    session's database holds the other tests' events)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'event.db'}"
        return
    from conftest import PG_URL
    from external_tools import PG_SERVER, need
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    need(PG_SERVER)
    name = f"bridgehub_empty_{os.getpid()}_{time.monotonic_ns()}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def test_two_runs_on_an_empty_store_store_one_event_and_the_second_is_refused(
    empty_store_url, tmp_path, monkeypatch
):
    """Issue [TRUST] "one hub per event": two `bridgehub run` of one file on an empty store
    at the same moment (two stores on one database, two threads). Run A is held inside the
    creation of its event until run B has either read the store's events (then, unguarded,
    B finds none, creates a second event and, on PostgreSQL, locks and runs that one) or
    waits for A to finish starting. Exactly one event is stored, A holds it, and B is
    refused with the plain message of a second hub."""
    event = tmp_path / "club.toml"
    event.write_text(EVENT, "utf-8")
    a, b = Store.open(empty_store_url), Store.open(empty_store_url)
    a_inside, b_moved = threading.Event(), threading.Event()
    create, read, pause = a.create_event, b.event_ids, hub_lock._wait

    def held_create(*args, **kwargs):  # run A, inside the creation of the event
        a_inside.set()
        assert b_moved.wait(10), "run B neither read the store nor waited for run A"
        return create(*args, **kwargs)

    def b_reads() -> list[int]:
        ids = read()
        b_moved.set()
        return ids

    def b_waits(seconds: float) -> None:
        b_moved.set()
        pause(seconds)

    a.create_event = held_create  # type: ignore[method-assign]
    b.event_ids = b_reads  # type: ignore[method-assign]
    monkeypatch.setattr(hub_lock, "_wait", b_waits)
    got: dict[str, object] = {}

    def run(name: str, store: Store) -> None:
        try:
            got[name] = _claim(store, event, None, ())
        except HubLocked as e:
            got[name] = e

    first = threading.Thread(target=run, args=("A", a))
    second = threading.Thread(target=run, args=("B", b))
    try:
        first.start()
        assert a_inside.wait(10), "run A never began to create its event"
        second.start()
        first.join(30)
        second.join(30)
        assert not first.is_alive() and not second.is_alive(), got
        assert a.event_ids() == [1]  # one event, not one per run
        eid, locks = got["A"]  # type: ignore[misc]
        assert eid == 1
        assert isinstance(got["B"], HubLocked), got
        assert "another hub is already running" in str(got["B"])
        for lock in locks:
            lock.release()
    finally:
        a.close()
        b.close()


def test_a_line_is_one_line_whatever_path_names_it(tmp_path, monkeypatch):
    monkeypatch.setenv("BRIDGEHUB_LOCK_DIR", str(tmp_path))
    (tmp_path / "ttyX").write_text("")
    (tmp_path / "link").symlink_to(tmp_path / "ttyX")
    assert line_identity(str(tmp_path / "link")) == line_identity(str(tmp_path / "ttyX"))
    assert line_identity("SOCKET://Host:7000") == line_identity("socket://host:7000")
    held = LineLock.acquire(str(tmp_path / "link"))
    with pytest.raises(LineLocked, match="already in use by another hub"):
        LineLock.acquire(str(tmp_path / "ttyX"))
    held.release()
    LineLock.acquire(str(tmp_path / "ttyX")).release()


def test_a_serial_port_is_opened_exclusively():
    """Another program cannot open the hub's serial line beside it (pyserial's exclusive
    lock on the device, a real pseudo-terminal here)."""
    master, slave = os.openpty()
    path = os.ttyname(slave)

    async def both() -> None:
        first = await SerialTransport.open(path)
        try:
            with pytest.raises(LineError, match="lock"):
                await SerialTransport.open(path)
        finally:
            await first.close()
        again = await SerialTransport.open(path)  # closed: free again
        await again.close()

    try:
        asyncio.run(both())
    finally:
        os.close(master)
        os.close(slave)


def test_an_api_port_in_use_is_named_plainly(tmp_path, env):
    """Issue [TRUST]: a port already in use says so, not "internal error"."""
    import socket

    event = tmp_path / "club.toml"
    event.write_text(EVENT, "utf-8")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = CliRunner().invoke(
            cli,
            ["run", "--event", str(event), "--station", str(tmp_path / "no-line"),
             "--api", f"127.0.0.1:{port}"],
            env={"BRIDGEHUB_TD_PIN": "x7-lock-test"},
        )  # fmt: skip
    assert out.exit_code == 1, out.output
    assert f"port {port} is already in use (another hub, or another program?)" in out.output
    # the locks went with the refused start: the same hub starts at once afterwards
    store = Store.open(f"sqlite:///{tmp_path / 'club.db'}")
    try:
        HubLock.acquire(store.engine, 1).release()
        LineLock.acquire(str(tmp_path / "no-line")).release()
    finally:
        store.close()
