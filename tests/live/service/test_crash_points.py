"""Crash points (issue 12 [FAULTS]: "3 hub kill -9s ... one during a group commit, one
during a round change"): a real ``bridgehub run`` with ``BRIDGEHUB_CRASH_AT`` kills itself
by SIGKILL at that exact moment; every result a terminal had acknowledged is then in the
store (decisions D11), and a restart without the variable completes the session with every
result stored once (D21)."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from event_text import one_section_event

from hub.live.oversight import crash_points
from hub.store.store import Store
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

EVENT = one_section_event("Crash points", 'kind = "howell", tables = 4, boards_per_round = 3')
TOTAL = 4 * 7 * 3  # tables × rounds × boards
Key = tuple[int, int, int, str | None, int | None]


def _exe() -> str:
    return shutil.which("bridgehub") or str(Path(sys.executable).parent / "bridgehub")


class Room:
    """One event, its store, a hub process at a time and the log of every hub's stderr."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.event = folder / "club.toml"
        self.event.write_text(EVENT, "utf-8")
        self.db = f"sqlite:///{folder / 'club.db'}"
        self.log = folder / "hub.log"

    def start_hub(self, station: str, crash_at: str | None) -> subprocess.Popen[bytes]:
        env = dict(os.environ)
        env.pop(crash_points.ENV, None)
        if crash_at is not None:
            env[crash_points.ENV] = crash_at
        cmd = [_exe(), "run", "--event", str(self.event), "--db", self.db]
        cmd += ["--station", station, "--api", "127.0.0.1:0", "--td-pin", "test-pin-1111"]
        with self.log.open("ab") as err:
            return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, env=env)

    def stored(self) -> list:
        if not (self.folder / "club.db").exists():
            return []
        s = Store.open(self.db)
        try:
            return s.results(1) if s.event_ids() else []
        finally:
            s.close()

    def clock_starts(self) -> set[int]:
        s = Store.open(self.db)
        try:
            return {c["round"] for c in s.clock_events(1) if c["kind"] == "start"}
        finally:
            s.close()

    def tail(self) -> str:
        return self.log.read_text("utf-8", "replace")[-3000:] if self.log.exists() else ""


def _acked(terminals: list[VirtualTerminal]) -> set[Key]:
    return {
        (r.table, r.round, r.board, r.contract, r.tricks)
        for t in terminals
        for r in t.log.accepted + t.log.held
    }


def _kept(results: list) -> set[Key]:
    return {(r.table, r.round, r.board, r.contract, r.tricks) for r in results}


async def _died(hub: subprocess.Popen[bytes], room: Room, timeout: float, what: str) -> int:
    end = time.monotonic() + timeout
    while hub.poll() is None:
        if time.monotonic() > end:
            hub.kill()
            raise AssertionError(f"the hub did not die {what} within {timeout} s\n{room.tail()}")
        await asyncio.sleep(0.005)
    return hub.returncode


async def _all_stored(room: Room, timeout: float, station: VirtualBaseStation) -> None:
    end = time.monotonic() + timeout
    while len(await asyncio.to_thread(room.stored)) < TOTAL:
        if time.monotonic() > end:
            raise AssertionError(
                f"timed out after {timeout} s waiting for all {TOTAL} results after the "
                f"restart\n{station.link.stats}\n{room.tail()}"
            )
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("crash_at", ["group_commit:2", "after_commit:2", "round_change:2"])
@pytest.mark.slow
def test_kill_9_at_a_crash_point_loses_nothing_and_a_restart_completes(tmp_path, crash_at):
    """Issue 12 [FAULTS], D11, D21: the hub dies by SIGKILL (returncode -9) at the named
    moment, saying so on stderr; what a terminal was told is stored is in the store at that
    moment; a restart without the variable completes the session, each result stored once.
    The terminals play fast, so results arrive together and commits are grouped."""
    room = Room(tmp_path)
    kind = crash_at.partition(":")[0]

    async def scenario() -> tuple[set[Key], list]:
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        terminals = [
            VirtualTerminal(t, f"BM-{t}", "A", t, PlayerBot(seed=t), speed=1e6)
            for t in (1, 2, 3, 4)
        ]
        for terminal in terminals:
            station.add_terminal(terminal)
        station.start()
        hub = room.start_hub(str(line.path), crash_at)
        try:
            code = await _died(hub, room, 90, f"at {crash_at}")
            acked = _acked(terminals)  # no await between the death and the reading
            after_kill = await asyncio.to_thread(room.stored)
            assert code == -9, f"returncode {code}, not SIGKILL\n{room.tail()}"
            assert f"crash point {kind} reached" in room.tail()
            assert acked <= _kept(after_kill), (
                f"acknowledged, not stored: {acked - _kept(after_kill)}"
            )
            if kind == "after_commit":  # committed, nobody answered: at least 2 unanswered
                assert len(_kept(after_kill) - acked) >= 2, (len(after_kill), len(acked))
            if kind == "round_change":  # the new round was told, its start never recorded
                assert 3 not in await asyncio.to_thread(room.clock_starts)
            hub = room.start_hub(str(line.path), None)
            await _all_stored(room, 120, station)
            hub.kill()  # its shutdown is not under test (it may be writing the final PDF)
            await asyncio.to_thread(hub.wait, 20)
            return acked, after_kill
        finally:
            if hub.poll() is None:
                hub.kill()
            await station.stop()
            line.close()

    acked, after_kill = asyncio.run(scenario())
    results = room.stored()
    keys = [(r.table, r.round, r.board) for r in results]
    assert len(after_kill) < TOTAL
    assert len(keys) == len(set(keys)) == TOTAL, "a result lost or stored twice"
    assert acked <= _kept(results)
    assert {r.revision for r in results} == {1}
    assert room.tail().count("crash point") == 1, "the restarted hub must not crash again"


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("group_commit", "N must be a whole number"),
        ("group_commit:0", "N must be a whole number"),
        ("commit:2", "unknown crash point 'commit'"),
    ],
)
def test_a_crash_point_that_does_not_parse_is_refused_by_name(spec, problem):
    """Bad input names what is wrong: the spelling of issue 12's crash points."""
    with pytest.raises(ValueError, match=problem):
        crash_points.parse(spec)


def test_crash_point_counts_its_own_kind_only():
    """``group_commit:2`` fires at the second group commit, not at a round change."""
    plan = crash_points.parse("round_change:5")
    plan.reached(crash_points.CrashKind.GROUP_COMMIT)
    plan.reached(crash_points.CrashKind.ROUND_CHANGE)
    assert plan.seen == 1 and plan.kind is crash_points.CrashKind.ROUND_CHANGE


def test_a_second_different_result_is_held_while_the_restarted_hub_still_loads(tmp_path):
    """Issue 12 (the lines open before the live results are loaded) keeps D21: while
    intake holds none of the stored results yet, the writer reads the live result of each
    key of its batch first, so another terminal's different result for a stored key is
    still held for the director, never accepted over it."""
    from drivers.protocol.link import Received
    from drivers.protocol.messages import Result
    from hub.live.port.base_station import request
    from hub.live.port.terminal_port import Outcome, ResultSubmission
    from hub.live.results.intake import Intake
    from hub.live.results.result_writer import Queued, ResultWriter
    from hub.live.service.warm_start import merge_live
    from hub.store.store import ResultEntry

    store = Store.open(f"sqlite:///{tmp_path / 'club.db'}")
    try:
        eid = store.create_event(EVENT)
        row = store.movement(eid, "A").row("A", 1, 1)
        assert row is not None
        board = row.boards[0]
        first = ResultEntry(
            "A", 1, 1, board, row.ns_pair, row.ew_pair, "3NT", "N", None, 9, entered_by="BM-1",
            submission_key=f"BM-1:A:1:1:{board}:1",
        )  # fmt: skip
        store.record(eid, [first])  # before the kill
        intake = Intake({"A": store.movement(eid, "A")}, lambda *_: None)
        intake.load([], {})  # as the restarted hub opens its lines
        assert intake.logon("BM-2", "A", 1).outcome is Outcome.OK
        answers: list = []

        async def then(*_: object) -> None:
            return None

        async def priors(keys: list) -> None:
            merge_live(intake.live, await asyncio.to_thread(store.live_at, eid, keys))

        writer = ResultWriter(store, eid, intake, lambda s, out: answers.append(out), then)
        writer.priors = priors
        msg = Result("A", 1, 1, board, row.ns_pair, row.ew_pair, "4S", 1, "HA", 10, 0, 1)
        sub = request("line", Received(1, 1, 1, msg))
        assert isinstance(sub, ResultSubmission)
        asyncio.run(writer.write([Queued("BM-2", sub)]))
        (out,) = answers
        assert out.outcome is Outcome.HELD, out
        assert [r.status for r in store.results(eid)] == ["accepted", "held"]
    finally:
        store.close()


def test_merge_live_keeps_a_newer_revision_stored_while_the_hub_loaded():
    """The full read of the live results started before a commit: its older revision of a
    key never replaces the one intake took from that commit."""
    from hub.live.service.warm_start import merge_live
    from hub.store.store import StoredResult

    old = StoredResult("A", 1, 1, 1, 1, 2, "3NT", "N", None, 9, revision=1)
    new = StoredResult("A", 1, 1, 1, 1, 2, "4S", "E", None, 10, revision=2)
    other = StoredResult("A", 2, 1, 2, 3, 4, "1C", "S", None, 7, revision=1)
    live = {new.key: new}
    merge_live(live, [old, other])
    assert live == {new.key: new, other.key: other}


class HeldBackStore(Store):
    """A real store whose full read of the live results waits until the test lets it go:
    the restarted hub's lines are open and answering meanwhile (issue 12)."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.go = threading.Event()

    def live_results(self, event_id, section=None):  # type: ignore[no-untyped-def]
        if section is None:
            self.go.wait(60)
        return super().live_results(event_id, section)


def test_results_and_a_round_that_end_while_the_hub_loads_are_scored_and_published(tmp_path):
    """Issue 12, D12, D17: the lines open before the live scores are built. Results the
    hub takes meanwhile are scored once the scores are loaded, and a round that ends
    meanwhile is published then (never from half-built views); the live standings then
    equal a full load of the store."""
    from hub_stub import wait_until

    from hub.live.service.hub_service import HubService
    from hub.live.views import LiveViews
    from hub.standings.rows import names_of

    event = one_section_event("Warm", 'kind = "howell", tables = 3, boards_per_round = 2')

    async def scenario() -> tuple[list, list, set[int]]:
        engine_store = Store.open(f"sqlite:///{tmp_path / 'club.db'}")
        eid = engine_store.create_event(event)
        store = HeldBackStore(engine_store.engine)
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        for t in (1, 2, 3):
            station.add_terminal(
                VirtualTerminal(t, f"BM-{t}", "A", t, PlayerBot(seed=t), speed=1e6)
            )
        hub = HubService(store, eid, [str(line.path)])
        starting = asyncio.ensure_future(hub.start())
        station.start()
        try:
            await wait_until(lambda: hasattr(hub, "warm"), 20, "the hub's parts")
            await wait_until(lambda: hub.sections["A"].round >= 2, 60, "round 1 to end")
            published_early = set(hub.publication.published.values())
            assert not hub.warm.ready.is_set() and not starting.done()
            store.go.set()
            await asyncio.wait_for(starting, 60)
            await wait_until(lambda: hub.publication.published.get("A", 0) >= 1, 30, "round 1 out")
            await wait_until(hub.session_done.is_set, 120, "the session's end")
            await wait_until(
                lambda: all(not t.unacked for t in station.terminals.values()), 30, "last ACKs"
            )
            live = hub.standings_rows("A")
        finally:
            store.go.set()
            await station.stop()
            await hub.stop()
            line.close()
        full = LiveViews(
            store.event(eid),
            {"A": store.movement(eid, "A")},
            {"A": names_of(store.contestants(eid, "A"))},
        )
        full.load(store.live_lines(eid), store.penalties(eid))
        engine_store.close()
        return live, full.rows("A"), published_early

    live, full, published_early = asyncio.run(scenario())
    assert published_early == set(), "standings went out before the live scores were loaded"
    assert live == full and live, "the live standings differ from a full load of the store"
