"""Browser terminals on a real hub (issue 15, docs/web-terminal.md): HubService on SQLite
with its web terminals on a free port, and real `websockets` clients speaking the page's
JSON. A table logs on with the code of its card, plays, is verified, erases and enters again;
the code is one device's (another is refused, a reload and a restarted hub log on without
it); the director's new code takes a lost phone's table; a table held by a hardware
terminal stays held; bad messages are answered ``bad_request`` and the connection stays
open; the page is served with no-store and an own-origin policy, nothing else."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from hub_stub import wait_until
from web_terminal_hub import PIN, WsTerminal, web_event, web_terminal_hub

from hub.store.table_codes import table_codes
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

PHONE = "phoneAAAAAAAAAAAAAAAAA"  # the page's random device id: 22 characters
OTHER = "phoneBBBBBBBBBBBBBBBBB"


def serial(device: str) -> str:
    return "web-" + hashlib.sha256(device.encode()).hexdigest()[:12]


def result(a: dict[str, Any], board: int, revision: int = 1, **changes: Any) -> dict[str, Any]:
    """A result for ``board`` of the assignment ``a``: 3NT by North, nine tricks."""
    fields = {
        "section": a["section"],
        "table": a["table"],
        "round": a["round"],
        "board": board,
        "ns": a["ns"],
        "ew": a["ew"],
        "contract": "3NT",
        "declarer": "N",
        "lead": "S4",
        "tricks": 9,
        "revision": revision,
        "no_play": False,
    }
    return fields | changes


def logon(code: str = "", pin: str = "", table: int = 1) -> dict[str, Any]:
    return {"section": "A", "table": table, "code": code, "pin": pin}


async def code_user(room: Any, key: tuple[str, int], device: str) -> None:
    """The store records who used a table's code after the log-on is answered (the hub
    knows at once): a bounded wait for the stored record."""
    for _ in range(200):
        stored = (await asyncio.to_thread(table_codes, room.store, room.event_id))[key]
        if stored.used_by == serial(device):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"after 10 s the store still says {stored}, not used by {device}")


def test_a_table_logs_on_with_its_code_plays_verifies_and_corrects(tmp_path: Path) -> None:
    """docs/web-terminal.md: hello → welcome (serial web- + sha256, the event and its key,
    its language); log-on with the card's code → ok, the session and the assignment with the
    room's labels (a Mitchell: NS 1, EW 1); a result → accepted, the traveller; the
    opponents verify; the table erases its result and enters it again (revision 2)."""

    async def scenario() -> None:
        async with web_terminal_hub(tmp_path, tables=3) as room:
            phone = WsTerminal(room.ws_url, PHONE)
            welcome = await phone.connect()
            assert welcome == {
                "type": "welcome",
                "serial": serial(PHONE),
                "event": "Web terminals, 3 tables",
                "event_key": room.store.event_key(room.event_id),
                "language": "en",
                "version": 1,
            }
            answer = await phone.ask("logon", **logon(room.codes[("A", 1)]))
            assert answer["outcome"] == "ok" and answer["reason"] is None, answer
            a = await phone.wait_for("assignment")
            assert (a["section"], a["table"], a["round"]) == ("A", 1, 1)
            assert (a["ns_label"], a["ew_label"]) == ("NS 1", "EW 1")
            assert a["ns"] == 1 and a["ew"] == 4  # the hub's numbers: EW 1 is pair 4
            session = await phone.wait_for("session")
            assert session["rounds"] == 3 and session["final"] is False
            board = a["boards"][0]
            assert (await phone.ask("started", section="A", table=1, round=1, board=None))[
                "outcome"
            ] == "ok"
            answer = await phone.ask("result", **result(a, board))
            assert answer["outcome"] == "accepted", answer
            view = await phone.wait_for("traveller", lambda m: m["board"] == board)
            assert view["own_score_ns"] == 400 and view["imps"] is False
            row = view["rows"][0]
            assert (row["ns_label"], row["ew_label"], row["contract"]) == ("NS 1", "EW 1", "3NT")
            assert view["own_value"] == row["value"] and view["own_text"] == "50.00"
            verify = {"section": "A", "table": 1, "round": 1, "board": board, "agreed": True}
            assert (await phone.ask("verify", **verify))["outcome"] == "ok"
            erase = {"section": "A", "table": 1, "round": 1, "board": board, "revision": 1}
            assert (await phone.ask("erase", **erase))["outcome"] == "ok"
            again = result(a, board, revision=2, contract="4S", declarer="S", tricks=10)
            assert (await phone.ask("result", **again))["outcome"] == "accepted"
            devices = room.hub.devices()  # the console's Devices tab: the port and the phone
            assert [s["url"] for s in devices["stations"] if s["kind"] == "web"] == [room.url]
            seen = [t for t in devices["terminals"] if t["serial"] == serial(PHONE)]
            assert [(t["section"], t["table"], t["online"]) for t in seen] == [("A", 1, True)]
            await phone.close()  # the table is off line until the phone speaks again
            await wait_until(lambda: not room.hub.gateway.online("A", 1), 5, "A1 off line")
            stored = await asyncio.to_thread(room.store.live_results, room.event_id)
            assert [(r.contract, r.entered_by) for r in stored] == [("4S", serial(PHONE))]

    asyncio.run(scenario())


def test_a_code_is_one_devices_and_it_logs_on_again_without_it(tmp_path: Path) -> None:
    """docs/web-terminal.md "Table codes": no code, or a wrong one, is ``bad_code``; the
    first device uses the code up, another device with it is refused ``code_used`` with the
    spec's text; the first device's reload (a new connection) logs on without the code and
    sends its unanswered result again with the same id (a duplicate, decisions D21); after a
    restart of the hub the store still knows the device, and the code stays used."""

    async def scenario() -> None:
        async with web_terminal_hub(tmp_path, tables=3) as room:
            code = room.codes[("A", 1)]
            phone = WsTerminal(room.ws_url, PHONE)
            await phone.connect()
            answer = await phone.ask("logon", **logon())
            assert (answer["outcome"], answer["reason"]) == ("refused", "bad_code"), answer
            assert "table A1 needs its code" in answer["text"]
            wrong = "23456789" if code != "23456789" else "98765432"
            answer = await phone.ask("logon", **logon(wrong))
            assert (answer["reason"], answer["text"][:30]) == (
                "bad_code",
                "this is not the code of table ",
            )
            assert (await phone.ask("logon", **logon(code.lower())))["outcome"] == "ok"
            a = await phone.wait_for("assignment")
            first = await phone.ask("result", **result(a, a["boards"][0]))
            assert first["outcome"] == "accepted"

            other = WsTerminal(room.ws_url, OTHER)
            await other.connect()
            answer = await other.ask("logon", **logon(code))
            assert (answer["outcome"], answer["reason"]) == ("refused", "code_used")
            assert answer["text"] == (
                "the code of table A1 was used by another device: ask the director"
            )
            await other.close()

            await phone.close()  # a reload: a new connection, the same device
            seen = len(phone.received)
            await phone.connect()
            assert (await phone.ask("logon", **logon()))["outcome"] == "ok"
            assert (await phone.wait_for("assignment", since=seen))["table"] == 1
            again = await phone.ask("result", first["id"], **result(a, a["boards"][0]))
            assert again["outcome"] == "duplicate"
            await phone.close()
            await code_user(room, ("A", 1), PHONE)

        async with web_terminal_hub(tmp_path, tables=3) as room:  # the hub restarted
            assert room.codes[("A", 1)] == code  # the printed card stays good
            phone = WsTerminal(room.ws_url, PHONE)
            await phone.connect()
            assert (await phone.ask("logon", **logon()))["outcome"] == "ok"
            await phone.wait_for("assignment")
            other = WsTerminal(room.ws_url, OTHER)
            await other.connect()
            assert (await other.ask("logon", **logon(code)))["reason"] == "code_used"
            await other.close()
            await phone.close()

    asyncio.run(scenario())


def test_the_directors_new_code_takes_a_lost_phones_table(tmp_path: Path) -> None:
    """docs/web-terminal.md: ``reissue_table_code`` makes a new code and forgets the device;
    the old phone keeps the table until a device logs on with the new code (a takeover):
    the old one is told and its next request refused; the old code is refused."""

    async def scenario() -> None:
        async with web_terminal_hub(tmp_path, tables=3) as room:
            old_code = room.codes[("A", 2)]
            lost = WsTerminal(room.ws_url, PHONE)
            await lost.connect()
            assert (await lost.ask("logon", **logon(old_code, table=2)))["outcome"] == "ok"
            a = await lost.wait_for("assignment")
            reply = await room.command("reissue_table_code", section="A", table=2)
            assert reply["generation"] == 2 and reply["code"] != old_code
            assert room.hub.web is not None
            started = {"section": "A", "table": 2, "round": 1, "board": None}
            assert (await lost.ask("started", **started))["outcome"] == "ok"  # still its table

            spare = WsTerminal(room.ws_url, OTHER)
            await spare.connect()
            answer = await spare.ask("logon", **logon(old_code, table=2))
            assert answer["reason"] == "bad_code", answer
            answer = await spare.ask("logon", **logon(reply["code"], table=2))
            assert answer["outcome"] == "ok", answer
            await spare.wait_for("assignment")
            told = await lost.wait_for("message")
            assert "table A2 was taken over by another terminal" in told["text"]
            answer = await lost.ask("result", **result(a, a["boards"][0]))
            assert answer["reason"] == "not_logged_on", answer
            await code_user(room, ("A", 2), OTHER)
            await lost.close()
            await spare.close()

    asyncio.run(scenario())


def test_a_table_held_by_a_hardware_terminal_stays_held(tmp_path: Path) -> None:
    """docs/web-terminal.md: a phone with a good code is refused ``table_held`` at a table
    a base-station terminal holds, and the code is not used up; with the director's PIN it
    takes the table over (decisions D20), and the code is then the phone's."""

    async def scenario() -> None:
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line, serial="BS-1")
        terminal = VirtualTerminal(1, "BM-0001", "A", 2, PlayerBot(seed=2), speed=1)
        station.add_terminal(terminal)
        try:
            async with web_terminal_hub(tmp_path, tables=3, stations=[str(line.path)]) as room:
                station.start()
                await wait_until(lambda: terminal.assignment is not None, 20, "BM-0001's log-on")
                phone = WsTerminal(room.ws_url, PHONE)
                await phone.connect()
                answer = await phone.ask("logon", **logon(room.codes[("A", 2)], table=2))
                assert (answer["outcome"], answer["reason"]) == ("refused", "table_held"), answer
                stored = await asyncio.to_thread(table_codes, room.store, room.event_id)
                assert stored[("A", 2)].used_by is None  # not used up by a refused log-on
                answer = await phone.ask("logon", **logon(pin=PIN, table=2))
                assert answer["outcome"] == "ok", answer
                await phone.wait_for("assignment")
                await wait_until(
                    lambda: room.hub.intake.holders.get(("A", 2)) == serial(PHONE),
                    5,
                    "the phone to hold table A2",
                )
                await phone.close()
                await station.stop()
                await code_user(room, ("A", 2), PHONE)
        finally:
            line.close()

    asyncio.run(scenario())


def test_bad_messages_are_answered_bad_request_and_the_connection_stays_open(
    tmp_path: Path,
) -> None:
    """docs/web-terminal.md: a message that is not JSON, has no known type, lacks a field
    or holds one of the wrong kind is answered ``refused``/``bad_request`` with its id (or
    null) and a text saying what is wrong; the hub logs and audits it; the connection stays
    open and the next good request is answered."""

    async def scenario() -> None:
        async with web_terminal_hub(tmp_path, tables=3) as room:
            phone = WsTerminal(room.ws_url, PHONE)
            await phone.connect(hello=False)

            async def refused(message: str | bytes | dict[str, Any]) -> dict[str, Any]:
                since = len(phone.received)
                if isinstance(message, bytes):
                    await phone._ws.send(message)
                else:
                    await phone.send(message)
                answer = await phone.wait_for("answer", since=since)
                assert (answer["outcome"], answer["reason"]) == ("refused", "bad_request")
                return answer

            assert (await refused("{not json"))["text"].startswith("not JSON")
            assert (await refused("[1, 2]"))["text"] == "a message is a JSON object, not list"
            assert "not a number" in (await refused('{"type": "logon", "id": NaN}'))["text"]
            assert "text frames" in (await refused(b"\x00\x01"))["text"]
            early = await refused({"type": "logon", "id": 1, **logon("X")})
            assert (early["id"], early["text"]) == (1, "say hello first (with the device id)")
            old = await refused({"type": "hello", "device": PHONE, "version": 2})
            assert "version 1" in old["text"]
            short = await refused({"type": "hello", "device": "x", "version": 1})
            assert "device must be" in short["text"]
            await phone.send({"type": "hello", "device": PHONE, "version": 1})
            await phone.wait_for("welcome")
            again = await refused({"type": "hello", "device": PHONE, "version": 1})
            assert again["text"] == "hello once per connection"

            unknown = await refused({"type": "bid", "id": 5})
            assert unknown["id"] == 5 and unknown["text"].startswith('unknown type "bid"')
            no_id = await refused({"type": "logon", **logon()})
            assert no_id["id"] is None and "carries id" in no_id["text"]
            lacking = {"type": "erase", "id": 6, "section": "A", "table": 1, "round": 1}
            assert (await refused(lacking))["text"] == "erase lacks the field 'board'"
            verify = {"section": "A", "table": 1, "round": 1, "board": 1, "agreed": "yes"}
            wrong = await refused({"type": "verify", "id": 7, **verify})
            assert wrong["text"] == 'verify: agreed must be true or false, not "yes"'
            seat = {"section": "A", "table": 1, "round": 1, "seat": 4, "number": "12"}
            assert "not a seat" in (await refused({"type": "player", "id": 8, **seat}))["text"]
            big = {**logon(), "table": 10**6}
            assert "out of range" in (await refused({"type": "logon", "id": 9, **big}))["text"]

            answer = await phone.ask("logon", **logon(room.codes[("A", 1)]))
            assert answer["outcome"] == "ok"  # the same connection, still served
            await phone.close()
            await room.hub.audit.flush()  # the minute's count, written now
            refusals = await asyncio.to_thread(
                room.store.audit_log, room.event_id, "frames_refused"
            )
            assert "BAD_REQUEST" in str(refusals), "audited, counted per terminal and minute"

    asyncio.run(scenario())


def test_each_request_is_answered_exactly_once(tmp_path: Path) -> None:
    """docs/web-terminal.md "Every message but hello ... gets exactly one answer": an id
    still waiting for its answer is refused if sent again on the connection (without
    taking its id), and a second answer to one request never reaches the page. The port
    over a real server and client, with nothing answering but the test."""
    from hub.live.port import terminal_port as tp
    from hub.store.store import Store
    from hub.web_terminal.codes_check import CodesCheck
    from hub.web_terminal.port import WebTerminalPort
    from hub.web_terminal.server import WebTerminalServer

    async def scenario() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        port = WebTerminalPort(CodesCheck(store, 1, []), "Test", "en")
        server = WebTerminalServer(port, "127.0.0.1", 0)
        await server.start()
        try:
            phone = WsTerminal(server.url.replace("http", "ws") + "ws", PHONE)
            await phone.connect(hello=False)
            await phone.send({"type": "hello", "device": PHONE, "version": 1})
            joined = await asyncio.wait_for(port.inbound.get(), 5)
            assert isinstance(joined, tp.Joined) and joined.serial == serial(PHONE)
            port.answer(joined, tp.Verdict.ok())
            await phone.wait_for("welcome")
            started = {"type": "started", "id": 3, "section": "A", "table": 1, "round": 1}
            await phone.send({**started, "board": None})
            request = await asyncio.wait_for(port.inbound.get(), 5)
            assert isinstance(request, tp.PlayStarted)
            since = len(phone.received)
            await phone.send({**started, "board": 2})  # id 3 again, still unanswered
            refused = await phone.wait_for("answer", since=since)
            assert refused["id"] is None and "still waiting" in refused["text"]
            port.answer(request, tp.Verdict.ok("first"))
            port.answer(request, tp.Verdict.refused(tp.Reason.BUSY, "second"))
            await phone.wait_for("answer", lambda m: m["id"] == 3)
            await phone.send({**started, "id": 4, "board": 1})  # a marker after both
            await asyncio.wait_for(port.inbound.get(), 5)  # the Rejected of the refusal
            marker = await asyncio.wait_for(port.inbound.get(), 5)
            port.answer(marker, tp.Verdict.ok())
            await phone.wait_for("answer", lambda m: m["id"] == 4)
            answers = [m for m in phone.of("answer") if m["id"] == 3]
            assert [m["text"] for m in answers] == ["first"]
            await phone.close()
        finally:
            await server.stop()
            store.close()

    asyncio.run(scenario())


def fetch(url: str, origin: str | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"Origin": origin} if origin else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def test_the_page_is_served_with_no_store_and_its_own_origin_only(tmp_path: Path) -> None:
    """docs/web-terminal.md "What the server serves": /, a table's link and the page's
    static files with their types, ``Cache-Control: no-store`` and a policy of the hub's
    own origin; anything else (a path out of the page folder, an unknown file) 404; a
    WebSocket from another site's page is refused."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    from hub.web_terminal.server import PAGE

    async def scenario() -> None:
        async with web_terminal_hub(tmp_path, tables=2) as room:
            page = (PAGE / "index.html").read_bytes()
            for url in (room.url, room.link("A", 1), room.link("A", 2, code=False)):
                status, headers, body = await asyncio.to_thread(fetch, url)
                assert (status, body) == (200, page), url
                assert headers["Content-Type"] == "text/html; charset=utf-8"
                assert headers["Cache-Control"] == "no-store"
                assert "default-src 'self'" in headers["Content-Security-Policy"]
            for name, kind in (
                ("terminal.js", "text/javascript; charset=utf-8"),
                ("terminal.css", "text/css; charset=utf-8"),
                ("strings.json", "application/json; charset=utf-8"),
            ):
                status, headers, body = await asyncio.to_thread(fetch, f"{room.url}static/{name}")
                assert (status, headers["Content-Type"]) == (200, kind), name
                assert body == (PAGE / name).read_bytes()
            for path in (
                "static/../server.py",
                "static/..%2fserver.py",
                "static/%2e%2e/server.py",
                "static/.hidden.js",
                "static/missing.js",
                "static/port.py",
                "t/A1/../../server.py",
                "etc/passwd",
                "index.html",
            ):
                status, headers, _ = await asyncio.to_thread(fetch, room.url + path)
                assert status == 404, path
                assert headers["Cache-Control"] == "no-store", path
            try:
                async with connect(room.ws_url, origin="http://elsewhere.example"):
                    raise AssertionError("a page of another site was let in")
            except InvalidStatus as e:
                assert e.response.status_code == 403

    asyncio.run(scenario())


@pytest.mark.slow
def test_the_thread_helper_serves_a_synchronous_client(tmp_path: Path) -> None:
    """tests/web_terminal_hub.py for a synchronous client (selenium): the hub on a loop of
    its own; a table's link is served and a director's command runs on the hub's loop."""
    from web_terminal_hub import web_terminal_hub_thread

    with web_terminal_hub_thread(tmp_path, tables=2) as room:
        status, _, body = fetch(room.link("A", 2))
        assert status == 200 and b"<html" in body.lower()
        reply = room.run(room.command("message", text="Last round: ten minutes"))
        assert reply == {"terminals": 0}
        assert room.hub.web is not None and len(room.codes) == 2


def _bridgehub() -> str:
    return shutil.which("bridgehub") or str(Path(sys.executable).parent / "bridgehub")


def _lines_until(hub: subprocess.Popen[str], prefix: str, timeout: float = 60) -> list[str]:
    """The hub's output lines up to the one starting with ``prefix`` (bounded wait). Read
    from the pipe's file descriptor: a buffered ``readline`` can take two lines at once and
    leave ``select`` waiting for the second, already read (a race with the hub's output)."""
    assert hub.stdout is not None
    fd = hub.stdout.fileno()
    sel = selectors.DefaultSelector()
    sel.register(fd, selectors.EVENT_READ)
    lines: list[str] = []
    pending = b""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if not sel.select(timeout=0.2):
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        *complete, pending = (pending + chunk).split(b"\n")
        for raw in complete:
            lines.append(raw.decode() + "\n")
            if lines[-1].startswith(prefix):
                return lines
    hub.kill()
    _, err = hub.communicate(timeout=30)
    raise AssertionError(f"no {prefix!r} line in {timeout} s: {lines} {err}")


@pytest.mark.slow
def test_bridgehub_run_serves_browser_terminals_and_says_where(tmp_path: Path) -> None:
    """``bridgehub run --terminals HOST:PORT`` (no base station needed): the URL is printed
    at the start and serves the page; a second hub asking for the same port is refused
    with a plain message."""
    event = tmp_path / "club.toml"
    event.write_text(web_event(2), "utf-8")
    env = {**os.environ, "BRIDGEHUB_LOCK_DIR": str(tmp_path), "BRIDGEHUB_TD_PIN": PIN}

    def run(db: str, terminals: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [_bridgehub(), "run", "--event", str(event), "--db", f"sqlite:///{tmp_path / db}",
             "--api", "127.0.0.1:0", "--terminals", terminals],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )  # fmt: skip

    hub = run("one.db", "127.0.0.1:0")
    try:
        said = _lines_until(hub, "browser terminals: ")[-1]
        url = said.split()[2]
        assert url.startswith("http://127.0.0.1:") and url.endswith("/"), said
        status, headers, _ = fetch(url)
        assert (status, headers["Cache-Control"]) == (200, "no-store")
        port = url.rstrip("/").rsplit(":", 1)[1]
        second = run("two.db", f"127.0.0.1:{port}")
        out, err = second.communicate(timeout=60)
        assert second.returncode == 1, (out, err)
        assert f"port {port} is already in use" in err and "--terminals" in err, err
        assert "Traceback" not in err, err
    finally:
        hub.send_signal(signal.SIGTERM)
        hub.communicate(timeout=30)


async def _raw_http(url: str, request: bytes) -> bytes:
    """``request`` as bytes on a TCP connection to the hub's terminal server: its reply."""
    parts = urllib.parse.urlsplit(url)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    try:
        writer.write(request)
        await writer.drain()
        return await asyncio.wait_for(reader.read(), 10)
    finally:
        writer.close()


def test_hostile_http_requests_are_refused_400_with_a_text(tmp_path: Path) -> None:
    """ "Bad input never crashes the hub: every refusal gets a clear, specific text"
    (notes): two Host headers, a path or an Origin that is no URL (``//[x``) are answered
    400 with what is wrong, not 500 with a traceback in the hub's log."""
    upgrade = (
        b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    )

    async def scenario() -> None:
        async with web_terminal_hub(tmp_path, tables=2) as room:
            for request in (
                b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
                b"GET //[x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://[x\r\n" + upgrade + b"\r\n",
            ):
                reply = await _raw_http(room.url, request)
                assert reply.startswith(b"HTTP/1.1 400 "), (request, reply[:80])
                assert b"bad request: one Host and one Origin header" in reply, reply

    asyncio.run(scenario())


def test_a_flood_of_connections_or_device_ids_is_refused_with_a_text(tmp_path: Path) -> None:
    """A script on the venue network must not fill the hub (notes: "a flood of
    connections"): one network address keeps at most 16 connections open and brings at
    most 16 device ids in the hub's run (each plus 2 a table: the simulator drives a whole
    room from one machine); the next is refused with a text saying why, and a device the
    hub knows still connects and is welcomed."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    from hub.web_terminal.port import PEER_CONNECTIONS, PEER_DEVICES

    async def scenario() -> None:
        async with web_terminal_hub(tmp_path, tables=3) as room:
            assert room.hub.web is not None
            port = room.hub.web.port
            most = PEER_CONNECTIONS + 2 * 3
            open_ = [await connect(room.ws_url) for _ in range(most)]
            try:
                async with connect(room.ws_url):
                    raise AssertionError(f"connection {most + 1} from one address let in")
            except InvalidStatus as e:
                assert e.response.status_code == 503
                assert b"too many connections from this device" in e.response.body
            for ws in open_:
                await ws.close()
            await wait_until(lambda: not port.connections, 10, "the connections closed")

            devices = [f"flood{i:017d}" for i in range(PEER_DEVICES + 2 * 3)]
            for device in devices:
                phone = WsTerminal(room.ws_url, device)
                assert (await phone.connect()) is not None
                await phone.close()
            stranger = WsTerminal(room.ws_url, "flood" + "x" * 17)
            await stranger.connect(hello=False)
            await stranger.send({"type": "hello", "device": stranger.device, "version": 1})
            refused = await stranger.wait_for("answer")
            assert (refused["id"], refused["reason"]) == (None, "not_allowed")
            assert refused["text"].startswith("too many new devices from this network address")
            assert not stranger.of("welcome")
            await stranger.close()
            known = WsTerminal(room.ws_url, devices[0])  # a reload of a device it knows
            assert (await known.connect()) is not None
            await known.close()
            assert len(port.addresses) == len(devices)

    asyncio.run(scenario())


def test_the_hub_stops_promptly_with_pages_that_do_not_answer(tmp_path: Path) -> None:
    """The hub's stop closes every browser connection; a page that does not answer the
    close (a phone asleep, a dead network) holds the stop 2 s at most, not 10."""
    from websockets.asyncio.client import connect

    async def scenario() -> float:
        async with web_terminal_hub(tmp_path, tables=2) as room:
            pages = [await connect(room.ws_url) for _ in range(3)]
            for ws in pages:
                ws.transport.pause_reading()  # reads nothing more: never answers the close
            started = time.monotonic()
        took = time.monotonic() - started
        for ws in pages:
            ws.transport.abort()
        return took

    took = asyncio.run(scenario())
    assert took < 6, f"the hub took {took:.1f} s to stop with three silent pages"


def test_a_refusal_never_echoes_a_code_a_pin_or_a_device_id(tmp_path: Path) -> None:
    """Refusals are logged and audited (``frames_refused``): a code, a PIN or a device id
    of the wrong kind is named by its kind, never shown (decisions D20: no secret in the
    audit trail)."""

    async def scenario() -> None:
        async with web_terminal_hub(tmp_path, tables=2) as room:
            phone = WsTerminal(room.ws_url, PHONE)
            await phone.connect(hello=False)
            await phone.send({"type": "hello", "device": 918273645546372819, "version": 1})
            hello = await phone.wait_for("answer")
            assert hello["text"] == "hello: device must be text, not int"
            await phone.send({"type": "hello", "device": PHONE, "version": 1})
            await phone.wait_for("welcome")
            for field, value in (("pin", 73194682), ("code", [8, 2, 7, 4])):
                answer = await phone.ask("logon", **{**logon(), field: value})
                assert answer["reason"] == "bad_request"
                assert json.dumps(value)[:4] not in answer["text"], answer
                assert answer["text"].startswith(f"logon: {field} must be text, not ")
            await phone.close()

    asyncio.run(scenario())


def test_a_flood_of_requests_waits_busy_beyond_256_unanswered(tmp_path: Path) -> None:
    """A connection that sends request after request faster than the hub answers keeps at
    most 256 waiting (the hub's queue stays bounded); the next is answered ``busy`` with
    its id (the page sends it again after a pause, docs/web-terminal.md). The port over a
    real server and client, with nothing answering but the test."""
    from hub.store.store import Store
    from hub.web_terminal.codes_check import CodesCheck
    from hub.web_terminal.message_rate import MessageRate
    from hub.web_terminal.port import PENDING, WebTerminalPort
    from hub.web_terminal.server import WebTerminalServer

    async def scenario() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        port = WebTerminalPort(CodesCheck(store, 1, []), "Test", "en")
        port.rate = MessageRate(connection=(20, 1000), device=(20, 1000))  # not what's tested
        server = WebTerminalServer(port, "127.0.0.1", 0)
        await server.start()
        try:
            phone = WsTerminal(server.url.replace("http", "ws") + "ws", PHONE)
            await phone.connect(hello=False)
            await phone.send({"type": "hello", "device": PHONE, "version": 1})
            started = {"type": "started", "section": "A", "table": 1, "round": 1, "board": 1}
            for mid in range(1, PENDING + 2):
                await phone.send({**started, "id": mid})
            busy = await phone.wait_for("answer", lambda m: m["id"] == PENDING + 1)
            assert (busy["outcome"], busy["reason"]) == ("refused", "busy")
            assert busy["text"] == (
                f"{PENDING} requests are waiting for the hub: this one goes again in a moment"
            )
            assert [m["id"] for m in phone.of("answer")] == [PENDING + 1], "the rest wait"
            await phone.close()
        finally:
            await server.stop()
            store.close()

    asyncio.run(scenario())


def test_wrong_table_codes_are_rate_limited_per_device_address(tmp_path: Path) -> None:
    """Decisions D20 "failed log-ins are rate-limited per peer": after 5 wrong codes from
    one network address, a log-on with a code from there waits 2 s (doubling with each
    wrong one) and is told so; the right code is taken again once the wait is over. The
    hub's clock is the test's (no timing luck)."""

    async def scenario() -> None:
        async with web_terminal_hub(tmp_path, tables=2) as room:
            assert room.hub.web is not None
            now = [1000.0]
            room.hub.web.port.wrong_codes.clock = lambda: now[0]
            phone = WsTerminal(room.ws_url, PHONE)
            await phone.connect()
            for _ in range(5):
                wrong = await phone.ask("logon", **logon("ZZZZZZZZ"))
                assert wrong["text"].startswith("this is not the code of table A1"), wrong
            waits = await phone.ask("logon", **logon(room.codes[("A", 1)]))
            assert (waits["outcome"], waits["reason"]) == ("refused", "bad_code")
            assert waits["text"] == (
                "too many wrong table codes from this device: try again in 2 s, or ask the director"
            )
            now[0] += 2.5
            right = await phone.ask("logon", **logon(room.codes[("A", 1)]))
            assert right["outcome"] == "ok", right
            await phone.close()

    asyncio.run(scenario())
