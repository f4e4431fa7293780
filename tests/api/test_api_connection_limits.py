"""The API's limits on connections that have not logged in, and a connection that stays
open whatever comes before its hello ([MENDS] #25 items 1 and 6; code review turn 3 N1,
outside builders turn 3 "the API connection dies after a bad first message"; decisions D20).

A remote peer is simulated as the review did: a loopback connection with
``X-Forwarded-For``, which the hub believes from loopback (docs/api.md, the TLS proxy)."""

from __future__ import annotations

import asyncio
import json
from contextlib import AsyncExitStack
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from hub.api import connection_limits as cl
from hub.api.feed import Feed
from hub.api.server import ApiServer

PIN = "K7M4Q9TX"


async def _snapshot() -> dict[str, Any]:
    return {"event": "Limits"}


async def _dispatch(name: str, args: dict[str, Any], actor: str) -> dict[str, Any]:
    return {"name": name, "size": len(json.dumps(args))}


async def _server() -> ApiServer:
    api = ApiServer(Feed(), _snapshot, _dispatch, PIN, port=0)
    await api.start()
    return api


def _open(api: ApiServer, peer: str | None = None, **kw: Any) -> Any:
    headers = {"X-Forwarded-For": peer} if peer else None
    return connect(f"ws://127.0.0.1:{api.port}/v1", additional_headers=headers, **kw)


async def _next(ws: ClientConnection) -> dict[str, Any]:
    return json.loads(await asyncio.wait_for(ws.recv(), 10))


async def _closed(ws: ClientConnection) -> tuple[int | None, str]:
    """The close code and reason of a connection the hub closes (within 10 s)."""
    with pytest.raises(ConnectionClosed):
        async with asyncio.timeout(10):
            while True:
                await ws.recv()
    frame = ws.protocol.close_rcvd
    return (frame.code, frame.reason) if frame else (None, "")


async def _waiting(api: ApiServer, ws: ClientConnection) -> None:
    """A remote connection says hello and is told to log in: it is open, without a session."""
    await ws.send(json.dumps({"type": "hello", "version": 1}))
    assert (await _next(ws))["type"] == "login_required"


async def _login(ws: ClientConnection) -> None:
    await ws.send(json.dumps({"type": "login", "pin": PIN, "id": "1"}))
    assert (await _next(ws))["type"] == "session"


def test_mends_limits_are_those_the_review_asked_for():
    """8 per peer and 64 in all before a log-in, 64 KiB messages, a 15 s log-in window."""
    assert (cl.PEER_WAITING, cl.ROOM_WAITING) == (8, 64)
    assert cl.BEFORE_LOGIN_BYTES == 64 * 1024 and cl.LOGIN_WINDOW_S == 15.0


def test_mends_one_remote_peer_holds_at_most_8_connections_before_logging_in():
    async def scenario() -> None:
        api = await _server()
        try:
            async with AsyncExitStack() as stack:
                held = [await stack.enter_async_context(_open(api, "10.0.0.9")) for _ in range(8)]
                for ws in held:
                    await _waiting(api, ws)
                ninth = await stack.enter_async_context(_open(api, "10.0.0.9"))
                code, reason = await _closed(ninth)
                assert code == 1013  # try again later
                assert reason.startswith("8 connections from 10.0.0.9 have not logged in")
                other = await stack.enter_async_context(_open(api, "10.0.0.10"))
                await _waiting(api, other)  # another peer is not held up by this one
                local = await stack.enter_async_context(_open(api))
                await local.send(json.dumps({"type": "hello", "version": 1}))
                assert (await _next(local))["type"] == "snapshot"  # the TD's machine: in
                await _login(held[0])  # one logs in: it no longer counts as waiting
                again = await stack.enter_async_context(_open(api, "10.0.0.9"))
                await _waiting(api, again)
        finally:
            await api.stop()

    asyncio.run(scenario())


def test_mends_the_venue_network_holds_at_most_64_connections_before_logging_in():
    async def scenario() -> None:
        api = await _server()
        try:
            async with AsyncExitStack() as stack:
                for n in range(64):  # 8 peers, 8 each: no peer is over its own limit
                    ws = await stack.enter_async_context(_open(api, f"10.0.1.{n // 8}"))
                    await _waiting(api, ws)
                late = await stack.enter_async_context(_open(api, "10.0.2.1"))
                code, reason = await _closed(late)
                assert code == 1013
                assert reason.startswith("64 connections from the venue network")
        finally:
            await api.stop()

    asyncio.run(scenario())


def test_mends_before_its_session_a_message_is_at_most_64_kib_after_it_a_pbn_fits():
    async def scenario() -> None:
        api = await _server()
        try:
            async with _open(api, "10.0.0.9", max_size=None) as ws:
                await _waiting(api, ws)
                await ws.send(json.dumps({"type": "login", "pin": "x" * (65 * 1024)}))
                code, _ = await _closed(ws)
                assert code == 1009  # message too big
            async with _open(api, max_size=None) as ws:
                await ws.send(json.dumps({"type": "hello", "version": 1}))
                assert (await _next(ws))["type"] == "snapshot"
                await _login(ws)
                pbn = "x" * (300 * 1024)  # hand records with their analysis
                command = {"type": "command", "id": "2", "token": "?", "name": "load", "args": {}}
                await ws.send(json.dumps({**command, "args": {"pbn": pbn}}))
                reply = await _next(ws)
                assert reply["id"] == "2" and "log in" in reply["error"]  # read, and answered
        finally:
            await api.stop()

    asyncio.run(scenario())


def test_mends_a_remote_peer_that_does_not_log_in_in_its_window_is_closed():
    async def scenario() -> None:
        api = await _server()
        api.windows = (0.5, cl.HELLO_S)  # the 15 s window, shortened for the test
        try:
            async with _open(api, "10.0.0.9") as ws:
                await _waiting(api, ws)
                closing = await _next(ws)
                assert closing["type"] == "error" and "log in" in closing["error"]
                await _closed(ws)
        finally:
            await api.stop()

    asyncio.run(scenario())


def test_mends_a_remote_peer_sends_at_most_10_messages_before_its_log_in():
    async def scenario() -> None:
        api = await _server()
        try:
            async with _open(api, "10.0.0.9") as ws:
                await _waiting(api, ws)  # the hello: 1
                for n in range(cl.LOGIN_MESSAGES - 1):
                    await ws.send(json.dumps({"type": "command", "id": str(n)}))
                    assert (await _next(ws))["ok"] is False
                await ws.send("one too many")
                code, reason = await _closed(ws)
                assert code == 1008 and reason == "10 messages without a log-in: log in first"
        finally:
            await api.stop()

    asyncio.run(scenario())


def test_mends_a_bad_first_message_is_answered_and_the_connection_waits_for_hello():
    """docs/api.md: "whatever the message, the answer comes and the connection stays open",
    before the hello as after it: `[]`, `{}`, not JSON and a login each get an error, and
    the hello that follows gets the snapshot."""

    async def scenario() -> None:
        api = await _server()
        try:
            async with _open(api) as ws:
                expected = {
                    "[]": "a message is a JSON object, not list",
                    "{}": "say hello with version 1 first",
                    "hello?": "not JSON",
                    json.dumps({"type": "login", "pin": PIN}): "say hello with version 1 first",
                    json.dumps({"type": "hello", "version": 2}): "say hello with version 1 first",
                }
                for raw, error in expected.items():
                    await ws.send(raw)
                    answer = await _next(ws)
                    assert answer["type"] == "error" and answer["error"].startswith(error)
                await ws.send(json.dumps({"type": "hello", "version": 1}))
                assert (await _next(ws))["type"] == "snapshot"
                await _login(ws)
        finally:
            await api.stop()

    asyncio.run(scenario())


def test_mends_followers_the_director_allowed_are_not_capped_as_waiting():
    """Review of [MENDS]: with ``--allow-remote-feed`` (D20: the TD allows the feed without
    a session) a remote result screen never logs in; past its hello it follows the feed
    and no longer counts among a peer's 8 connections waiting to log in."""

    async def scenario() -> None:
        api = ApiServer(Feed(), _snapshot, _dispatch, PIN, port=0, allow_remote_feed=True)
        await api.start()
        try:
            async with AsyncExitStack() as stack:
                for _ in range(cl.PEER_WAITING + 2):
                    ws = await stack.enter_async_context(_open(api, "10.0.0.9"))
                    await ws.send(json.dumps({"type": "hello", "version": 1}))
                    assert (await _next(ws))["type"] == "snapshot"
                assert not api.connections.waiting
        finally:
            await api.stop()

    asyncio.run(scenario())
