"""A lock-out by wrong director's PINs is told to the console ([MENDS] #25 item 5, code
review turn 3 N6; decisions D20): when wrong PINs lock a peer's API log-ins, every remote
log-in, a terminal's takeovers by PIN or every takeover by PIN, the director gets an alert
(the feed's ``alert`` event, the snapshot's ``alerts``) naming who did it, once per lock."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from web_terminal_hub import WsTerminal, web_terminal_hub
from websockets.asyncio.client import connect

from hub.api import sessions as s
from hub.live.port.terminal_port import TerminalRef
from hub.live.tables import takeover_pin as tpin
from hub.web_terminal.port import serial_of

PIN = "K7M4Q9TX"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_mends_the_5th_wrong_pin_of_a_peer_and_the_20th_of_the_lan_begin_lockouts():
    clock = Clock()
    guard = s.LoginGuard(PIN, clock)
    lockouts = []
    for _ in range(s.PEER_LIMIT):  # 1st..5th: the 5th locks the peer out (docs/api.md)
        check = guard.attempt("192.0.2.7", "WRONG")
        lockouts.append(check.lockout)
        clock.now += check.wait_s if check.wait_s < 60 else 0
    assert lockouts == ["", "", "", "", "peer"]
    assert check.lockout_text() == (
        "wrong director's PINs again and again from 192.0.2.7: its API log-ins are locked "
        "out for 15 min"
    )
    for k in range(s.ROOM_LIMIT - s.PEER_LIMIT - 1):  # one each from 14 more addresses
        assert not guard.attempt(f"198.51.100.{k}", "WRONG").lockout
    last = guard.attempt("203.0.113.5", "WRONG")  # the 20th from the LAN: every remote
    assert last.lockout == "room" and last.failures == s.ROOM_LIMIT
    assert "20 wrong director's PINs from the venue network, the last from 203.0.113.5" in (
        last.lockout_text()
    )
    assert "every remote API log-in is locked out for 15 min" in last.lockout_text()
    for _ in range(8):  # the hub's own machine is never locked out: no alert
        check = guard.attempt("127.0.0.1", "WRONG")
        assert not check.lockout
        clock.now += check.wait_s


def test_mends_wrong_takeover_pins_say_when_a_terminal_and_then_the_room_are_locked():
    clock = Clock()
    pins = tpin.TakeoverPins(PIN, clock)
    seen = []
    for n in range(tpin.ROOM_LIMIT):  # 10 terminals of 10 links, one wrong PIN each
        check = pins.check(f"T{n}", TerminalRef("web", n + 1), "WRONG")
        seen.append(check.lockout)
    assert seen == [""] * 9 + ["room"]
    assert check.lockout_text("T9", "A4") == (
        "10 wrong director's PINs from the room's terminals, the last from T9 at table A4: "
        "every takeover by PIN is locked for 30 s (allow_takeover still works); if no one "
        "of yours typed them, someone is guessing the PIN"
    )
    clock.now += 15 * 60 + 1  # forgotten
    pins = tpin.TakeoverPins(PIN, clock)
    ref = TerminalRef("web", 1)
    verdicts = [pins.check("T1", ref, "WRONG").lockout for _ in range(tpin.LIMIT)]
    assert verdicts == ["", "", "terminal"]  # the 3rd locks its serial and its link
    assert pins.check("T1", ref, PIN).verdict is tpin.PinVerdict.LOCKED  # not compared
    assert not pins.check("T1", ref, "WRONG").lockout  # during the lock: no second alert


def test_mends_a_phone_guessing_the_pin_raises_an_alert_on_the_console_feed(tmp_path):
    async def scenario() -> None:
        async with web_terminal_hub(tmp_path, tables=2, api=("127.0.0.1", 0)) as room:
            console = await connect(f"ws://127.0.0.1:{room.hub.api.port}/v1")
            await console.send(json.dumps({"type": "hello", "version": 1}))
            assert json.loads(await console.recv())["type"] == "snapshot"
            phone = WsTerminal(room.ws_url, "guessing-phone-0001")
            await phone.connect()
            for n in range(tpin.LIMIT):
                answer = await phone.ask("logon", section="A", table=2, code="", pin=f"{n}")
                assert answer["reason"] == "director_pin"
            serial = serial_of("guessing-phone-0001")
            expected = (
                f"3 wrong director's PINs from {serial} at table A2: its takeovers by PIN "
                "are locked for 30 s"
            )
            alert = await _alert(console, expected)
            assert alert["text"] == expected
            assert expected in room.hub.alerts.recent()  # and in every new snapshot
            await phone.close()
            await console.close()

    asyncio.run(scenario())


def test_mends_a_lan_peer_locked_out_of_the_api_raises_an_alert_on_the_console_feed(tmp_path):
    async def scenario() -> None:
        async with web_terminal_hub(tmp_path, tables=2, api=("127.0.0.1", 0)) as room:
            api = room.hub.api
            clock = Clock()
            api.guard.clock = clock  # the back-off's waits, passed without sleeping
            url = f"ws://127.0.0.1:{api.port}/v1"
            async with (
                connect(url) as console,
                connect(url, additional_headers={"X-Forwarded-For": "192.0.2.7"}) as stranger,
            ):
                await console.send(json.dumps({"type": "hello", "version": 1}))
                assert json.loads(await console.recv())["type"] == "snapshot"
                await stranger.send(json.dumps({"type": "hello", "version": 1}))
                assert json.loads(await stranger.recv())["type"] == "login_required"
                for n in range(s.PEER_LIMIT):
                    await stranger.send(json.dumps({"type": "login", "pin": f"guess{n}"}))
                    reply = json.loads(await stranger.recv())
                    assert reply["error"].startswith("wrong PIN")
                    clock.now += 10
                expected = (
                    "wrong director's PINs again and again from 192.0.2.7: its API log-ins "
                    "are locked out for 15 min"
                )
                assert (await _alert(console, expected))["text"] == expected

    asyncio.run(scenario())


async def _alert(ws: Any, text: str) -> dict[str, Any]:
    """The feed's ``alert`` event with ``text`` (within 10 s), the others skipped."""
    seen = []
    async with asyncio.timeout(10):
        while True:
            msg = json.loads(await ws.recv())
            if msg.get("event") == "alert":
                seen.append(msg["text"])
                if msg["text"] == text:
                    return msg
            assert len(seen) < 50, f"no such alert among {seen}"
