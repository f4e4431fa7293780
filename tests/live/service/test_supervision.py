"""Supervised tasks (issue [HOUSE], decisions D17): a background task that raises is logged,
started again with backoff, and its health reaches the director in the devices read; a
worker-thread failure and a crashed base-station driver do not stop the room.

The failures are injected into real parts (a real store, a real pty line, the real driver):
no stand-in could crash the way a bug does. Each injection is named where it is made."""

from __future__ import annotations

import asyncio
import logging
import socket

from event_text import one_section_event
from hub_stub import wait_until
from room import simulated_room

from drivers.protocol.messages import Result
from hub.live.oversight.supervisor import Supervisor
from hub.live.service.hub_service import HubService
from hub.store.store import Store

EVENT = one_section_event("Crashes", 'kind = "howell", tables = 3, boards_per_round = 2')


def test_a_task_that_raises_is_restarted_and_its_health_reported():
    """Two failures, then it runs: two restarts, the last error kept; a job that returns
    is done, not restarted."""

    async def scenario():
        sup = Supervisor(backoff=(0.01, 0.02))
        calls = []

        async def flaky() -> None:
            calls.append(1)
            if len(calls) <= 2:
                raise RuntimeError(f"failure {len(calls)}")
            await asyncio.Event().wait()  # runs until stopped

        async def once() -> None:
            return None

        sup.spawn("flaky", flaky)
        sup.spawn("once", once)
        await wait_until(lambda: len(calls) == 3, 5, "the third start of the flaky task")
        report = {h["name"]: h for h in sup.report()}
        assert report["flaky"]["restarts"] == 2 and report["flaky"]["running"]
        assert report["flaky"]["last_error"] == "RuntimeError: failure 2"
        assert report["once"]["done"] and report["once"]["restarts"] == 0
        await sup.stop()

    asyncio.run(scenario())


def test_a_crashed_driver_and_a_failing_worker_thread_are_survived_and_reported(tmp_path):
    """The base-station driver raises in the middle of the evening (injected: its link's
    decoder fails once), and the store refuses the audit trail's write of a refused result
    in its worker thread (injected: ``Store.audit`` raises once). Both tasks start again,
    the director sees the restarts in the devices read, and every round is still played to
    the end."""

    async def scenario():
        store, eid, line, station = simulated_room(tmp_path, EVENT)
        hub = HubService(store, eid, [str(line.path)])
        hub.supervisor.backoff = (0.05, 0.1)
        await hub.start()
        port = hub.ports[0]
        feed, audit = port.driver.link.feed, store.audit
        crashed, refused = [], []

        def feed_once(data: bytes) -> list:
            if not crashed:
                crashed.append(data)
                raise RuntimeError("injected: the decoder failed")
            return feed(data)

        def audit_once(*args, **kwargs) -> None:
            if not refused and args[2] == "refused":  # the audit trail's own write
                refused.append(args)
                raise OSError("injected: disk full")
            audit(*args, **kwargs)

        station.start()
        try:
            await wait_until(lambda: len(hub.gateway.seats) >= 3, 20, "the terminals' log-ons")
            port.driver.link.feed = feed_once
            store.audit = audit_once
            intruder = station.terminals[1]  # keys a table it does not hold: refused, audited
            intruder.send(Result("A", 3, 1, 1, 1, 2, "3NT", 0, "", 9, 0, 1))
            await wait_until(lambda: crashed and refused, 20, "both injected failures")
            await wait_until(hub.session_done.is_set, 120, "every round played after the crash")
            tasks = {t["name"]: t for t in hub.devices()["tasks"]}
            line_task = tasks["station-0 line"]
            assert line_task["restarts"] >= 1
            assert line_task["last_error"] == "RuntimeError: injected: the decoder failed"
            assert tasks["audit trail"]["restarts"] >= 1
            assert tasks["audit trail"]["last_error"] == "OSError: injected: disk full"
            await hub.audit.flush()
            _, actor, action, detail = refused[0]  # the refused entry was kept, written later
            assert any(
                (a["actor"], a["action"], a["detail"]) == (actor, action, detail)
                for a in store.audit_log(eid)
            )
        finally:
            await station.stop()
            await hub.stop()
            store.close()
            line.close()

    asyncio.run(scenario())


def test_an_audit_entry_the_store_refuses_is_logged_in_full_and_does_not_block_the_trail(
    tmp_path, caplog
):
    """D20 (every refusal audited, nothing silently lost) and D17 (a supervised task must
    not fail for good): an entry whose detail JSON cannot hold (a set: the real store
    refuses it, nothing is injected) is tried once more on its own, then logged at ERROR
    with its whole content and skipped. The entries around it and every later one are
    written, the audit task is not restarted, and the director gets one alert."""

    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        hub = HubService(store, eid, [])
        hub.supervisor.backoff = (0.01, 0.02)
        await hub.start()
        try:
            hub.audit.record("BM-1", "logon", {"n": 1})
            hub.audit.record("BM-2", "refused", {"serials": {"BM-9"}, "code": "TABLE_HELD"})
            hub.audit.record("BM-3", "logon", {"n": 3})
            await wait_until(
                lambda: len(store.audit_log(eid, "logon")) == 2, 10, "the entries around it"
            )
            hub.audit.record("BM-4", "logon", {"n": 4})  # the queue still moves
            await wait_until(lambda: len(store.audit_log(eid, "logon")) == 3, 10, "a later one")
            actors = [a["actor"] for a in store.audit_log(eid) if a["actor"].startswith("BM")]
            tasks = {t["name"]: t for t in hub.devices()["tasks"]}
            alerts = [e for e in hub.feed.since(0) or [] if e["event"] == "alert"]
        finally:
            await hub.stop()
            store.close()
        return actors, tasks["audit trail"], alerts

    with caplog.at_level(logging.ERROR, logger="hub.live.oversight.audit_trail"):
        actors, task, alerts = asyncio.run(scenario())
    assert actors == ["BM-1", "BM-3", "BM-4"]
    assert task["restarts"] == 0 and task["last_error"] is None, task
    [kept] = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert "'BM-2'" in kept and "'refused'" in kept
    assert "{'serials': {'BM-9'}, 'code': 'TABLE_HELD'}" in kept  # the whole detail
    assert len(alerts) == 1 and "refused 1 audit entry" in alerts[0]["text"], alerts
    assert "refused by BM-2" in alerts[0]["text"]


def test_a_port_in_use_stops_the_start_with_a_plain_message_and_no_line_open(tmp_path):
    """A second hub, or another program, on the API's port: `bridgehub run` says so (not
    "internal error") and leaves the base station's line closed for the hub that has it."""
    from click.testing import CliRunner

    from hub.cli.main import cli

    event = tmp_path / "club.toml"
    event.write_text(EVENT, "utf-8")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = CliRunner().invoke(
            cli,
            ["run", "--event", str(event), "--station", str(tmp_path / "no-line"),
             "--api", f"127.0.0.1:{port}", "--td-pin", "12345678"],
        )  # fmt: skip
    assert out.exit_code == 1, out.output
    assert f"the API cannot listen on 127.0.0.1:{port}" in out.output
    assert "internal error" not in out.output
