"""Issue 12 [FAULTS], "on PostgreSQL, a database restart": a real ``bridgehub run`` on a
private cluster (decisions D13: a test that stops PostgreSQL owns its server), a simulated
room on a pty, and the server stopped twice mid-session (``fast``, then ``immediate``, a
crash-like stop). Results that arrive while it is down are answered "busy, resend" (never
acknowledged before they are stored, D11) and the director is alerted; once it is back they
are stored, and the session completes with every acknowledged result stored exactly once.
The server's restart drops the hub's advisory lock: the hub takes it again, so a second
``bridgehub run`` on the event is still refused."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from club_evening import PIN, Director, exe, until
from event_text import one_section_event
from external_tools import POSTGRES, needs

from campaign.pg_cluster import PrivateCluster, free_port
from drivers.protocol.messages import NO_TRICKS, NakCode
from hub.store.store import Store, StoredResult
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

pytestmark = needs(POSTGRES)
EVENT = one_section_event("Restart", 'kind = "howell", tables = 4, boards_per_round = 3')
TOTAL = 4 * 7 * 3  # tables × rounds × boards
DOWN_S = 3.0  # each stop lasts this long at least: the terminals' busy backoff reaches 2 s


def _run(
    tmp_path: Path, url: str, station: str, api_port: int, log: Path
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [exe(), "run", "--event", str(tmp_path / "club.toml"), "--db", url,
         "--station", station, "--api", f"127.0.0.1:{api_port}"],
        stdout=subprocess.DEVNULL,
        stderr=log.open("a"),
        env={**os.environ, "BRIDGEHUB_TD_PIN": PIN, "BRIDGEHUB_LOCK_DIR": str(tmp_path)},
    )  # fmt: skip


@pytest.mark.slow
def test_the_hub_rides_out_two_postgresql_restarts_and_keeps_its_lock(tmp_path):
    """Issue 12 [FAULTS] and D11/D13: fast and immediate restarts mid-session; nothing lost,
    nothing doubled, the hub neither crashes nor wedges, the TD is alerted, and the hub's
    lock is taken again (a second run is refused). Each stop lasts until a result has been
    answered "busy" and for ``DOWN_S`` at least (a bounded wait); the outage and the time from the
    server's return to the first acknowledgement after it are printed."""
    (tmp_path / "club.toml").write_text(EVENT, "utf-8")
    log = tmp_path / "hub.log"

    def text() -> str:
        return log.read_text("utf-8", errors="replace") if log.exists() else ""

    def tail() -> str:
        return text()[-4000:]

    with PrivateCluster("restart") as pg:
        store = Store.open(pg.url)  # the test's own reader; the hub migrates the store

        def stored() -> list[StoredResult]:
            try:
                return store.results(1) if store.event_ids() else []
            except Exception:  # no schema yet, or the server is down just now
                return []

        async def scenario() -> dict[str, object]:
            line = PtyLine(tmp_path / "base-1")
            station = VirtualBaseStation(line)
            terminals = [
                VirtualTerminal(t, f"BM-{t}", "A", t, PlayerBot(seed=t), speed=600)
                for t in (1, 2, 3, 4)
            ]
            for terminal in terminals:
                station.add_terminal(terminal)
            station.start()
            port = free_port()
            hub = _run(tmp_path, pg.url, str(line.path), port, log)
            director = Director(f"ws://127.0.0.1:{port}/v1")
            director.start()

            def acked() -> int:
                return sum(len(t.log.accepted) + len(t.log.held) for t in terminals)

            def busy() -> int:
                return sum(
                    1 for t in terminals for _, code, _ in t.log.refused if code == NakCode.BUSY
                )

            figures: dict[str, object] = {}
            try:
                for mode, after in (("fast", 12), ("immediate", 40)):
                    await until(
                        lambda n=after: len(stored()) >= n,
                        120,
                        f"{after} results stored before the {mode} stop",
                        tail,
                    )
                    busy_before = busy()
                    await asyncio.to_thread(pg.stop, mode)
                    down = time.monotonic()
                    await until(  # down DOWN_S at least (terminals back off), and until
                        lambda b=busy_before, d=down: (  # a result was answered busy
                            busy() > b and time.monotonic() - d >= DOWN_S
                        ),
                        60,
                        f"a result answered busy while the server is down ({mode})",
                        lambda: f"{station.link.stats}\n{tail()}",
                    )
                    await asyncio.to_thread(pg.start)
                    up, acked_at_up = time.monotonic(), acked()
                    await until(
                        lambda a=acked_at_up: acked() > a,
                        60,
                        f"the first acknowledgement after the {mode} restart",
                        tail,
                    )
                    figures[mode] = (up - down, time.monotonic() - up)
                    assert hub.poll() is None, f"the hub ended after the {mode} restart\n{tail()}"
                await until(
                    lambda: len(stored()) >= TOTAL,
                    180,
                    f"all {TOTAL} results stored after the restarts",
                    lambda: f"{len(stored())} stored\n{tail()}",
                )
                await until(
                    lambda: text().count("holds its lock on event 1 again") >= 2,
                    30,
                    "the hub to take its lock again after each restart",
                    tail,
                )
                second = await asyncio.to_thread(
                    subprocess.run,
                    [exe(), "run", "--event", str(tmp_path / "club.toml"), "--db", pg.url,
                     "--station", str(tmp_path / "base-2"), "--api", "127.0.0.1:0"],
                    capture_output=True, text=True, timeout=120, check=False,
                    env={**os.environ, "BRIDGEHUB_TD_PIN": PIN,
                         "BRIDGEHUB_LOCK_DIR": str(tmp_path)},
                )  # fmt: skip
                figures["second"] = second
                figures["alerts"] = director.alerts("the store cannot record results")
                figures["acked"] = {  # a passed-out board's tricks: 255 on the wire, None stored
                    (
                        r.table,
                        r.round,
                        r.board,
                        r.contract,
                        None if r.tricks == NO_TRICKS else r.tricks,
                    )
                    for t in terminals
                    for r in t.log.accepted + t.log.held
                }
                assert hub.poll() is None, f"the hub ended\n{tail()}"
                hub.send_signal(signal.SIGTERM)
                await asyncio.to_thread(hub.wait, 30)
            finally:
                if hub.poll() is None:
                    hub.kill()
                await director.stop()
                await station.stop()
                line.close()
            return figures

        try:
            figures = asyncio.run(scenario())
            results = stored()
        finally:
            store.close()

    second = figures["second"]
    assert isinstance(second, subprocess.CompletedProcess)
    assert second.returncode == 1, (second.stdout, second.stderr)
    assert "another hub is already running event 1" in second.stderr, second.stderr
    assert figures["alerts"], "the director was not alerted while the store was down"
    keys = [(r.table, r.round, r.board) for r in results]
    assert len(keys) == len(set(keys)) == TOTAL  # nothing doubled, nothing lost
    held = {(r.table, r.round, r.board, r.contract, r.tricks) for r in results}
    acked = figures["acked"]
    assert isinstance(acked, set)
    assert acked <= held, f"acknowledged but not stored: {sorted(acked - held)}"
    for mode in ("fast", "immediate"):
        outage, first_ack = figures[mode]  # type: ignore[misc]
        print(
            f"\nPostgreSQL {mode} restart: server down {outage:.2f} s; back → first ACK "
            f"{first_ack * 1000:.0f} ms"
        )


def test_a_lost_hub_lock_is_taken_again_or_found_taken_by_another_hub():
    """Issue 12 [FAULTS]: ``HubLock.check`` against a real server that restarts: held;
    lost with its connection and taken again; unreachable while the server is down; and,
    when another hub took the event while the server was away, TAKEN (never silently)."""
    from hub.store.engine import make_engine
    from hub.store.hub_lock import HubLock, HubLocked, LockState

    with PrivateCluster("locks") as pg:
        mine, theirs = make_engine(pg.url), make_engine(pg.url)
        lock = HubLock.acquire(mine, 7)
        try:
            assert lock.watched and lock.check() is LockState.HELD
            pg.restart("fast")
            assert lock.check() is LockState.RETAKEN
            assert lock.check() is LockState.HELD
            with pytest.raises(HubLocked):
                HubLock.acquire(theirs, 7)
            pg.stop("immediate")
            assert lock.check() is LockState.UNREACHABLE
            pg.start()
            other = HubLock.acquire(theirs, 7)  # another hub, quicker than this one's watch
            assert lock.check() is LockState.TAKEN
            other.release()
        finally:
            lock.release()
            mine.dispose()
            theirs.dispose()


def test_store_connections_find_a_dead_server_in_bounded_time(pg_database, tmp_path):
    """Issue 12 [FAULTS]: a PostgreSQL store's connections carry libpq's connect timeout,
    keepalives and TCP user timeout (a worker thread, or the hub's stop, never hangs on a
    vanished server); a value the URL gives wins; SQLite gets none of them."""
    from hub.store.engine import PG_CONNECT_ARGS, make_engine

    def settings(url: str) -> dict[str, str]:
        engine = make_engine(url)
        try:
            with engine.connect() as conn:
                return dict(conn.connection.dbapi_connection.info.get_parameters())
        finally:
            engine.dispose()

    got = settings(pg_database)
    assert {k: got.get(k) for k in PG_CONNECT_ARGS} == {
        k: str(v) for k, v in PG_CONNECT_ARGS.items()
    }
    joiner = "&" if "?" in pg_database else "?"
    assert settings(f"{pg_database}{joiner}connect_timeout=3")["connect_timeout"] == "3"
    sqlite = make_engine(f"sqlite:///{tmp_path / 'x.db'}")
    with sqlite.connect() as conn:
        assert conn.exec_driver_sql("SELECT 1").scalar() == 1
    sqlite.dispose()


def test_a_lock_still_held_by_the_hubs_own_old_session_is_not_another_hubs():
    """Issue 12 [FAULTS], "never falsely stop a healthy hub": the lock's connection failed
    on the hub's side while the server keeps its session (a cut cable, not a restart). The
    check finds the lock held by that old session: LINGERING (never TAKEN), the session is
    ended, and a later check takes the lock again; a second hub is still refused."""
    from hub.store.engine import make_engine
    from hub.store.hub_lock import HubLock, HubLocked, LockState

    with PrivateCluster("linger") as pg:
        engine, theirs = make_engine(pg.url), make_engine(pg.url)
        lock = HubLock.acquire(engine, 5)
        old = lock._conn
        try:
            # the hub's side lost the lock's connection: it now has one that holds nothing,
            # while the server still keeps the old session and the lock with it
            lock._conn = engine.connect()
            assert lock.check() is LockState.LINGERING
            deadline = time.monotonic() + 30
            state = lock.check()
            while state is LockState.LINGERING and time.monotonic() < deadline:
                time.sleep(0.05)  # the server ends the old session: a bounded wait
                state = lock.check()
            assert state is LockState.RETAKEN, state
            assert lock.check() is LockState.HELD
            with pytest.raises(HubLocked):
                HubLock.acquire(theirs, 5)
        finally:
            lock.release()
            if old is not None:
                old.invalidate()
            engine.dispose()
            theirs.dispose()


def test_the_lock_watch_tells_the_director_and_stops_the_hub_when_another_took_it():
    """Issue 12 [FAULTS]: the watch checks on a worker thread; a lost-then-retaken lock is
    only logged, a lock another hub took is told to the director (a plain alert) and stops
    this hub (``on_taken``), and the watch ends."""
    from hub.live.service.hub_lock_watch import HubLockWatch
    from hub.store.hub_lock import LockState

    found = iter([LockState.HELD, LockState.UNREACHABLE, LockState.RETAKEN, LockState.TAKEN])
    alerts: list[str] = []
    stopped: list[str] = []
    watch = HubLockWatch(lambda: next(found), 3, alerts.append, stopped.append, every_s=0.001)
    asyncio.run(asyncio.wait_for(watch.run(), 10))
    assert watch.retaken == 1 and watch.state is LockState.TAKEN
    assert len(alerts) == 1 and stopped == alerts
    assert "another hub took event 3" in alerts[0] and "this hub stops" in alerts[0]
