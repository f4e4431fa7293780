"""The API server: one WebSocket per client (console, screens), JSON text messages. The
director's log-in, its limits and sessions, and who gets the feed without one are
``hub/api/sessions.py`` (decisions D20)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from hub.api import connection_limits as cl
from hub.api.feed import Feed
from hub.api.json_reader import JsonRefused, read_object
from hub.api.sessions import (
    LoginGuard,
    LoginVerdict,
    SessionRefused,
    Sessions,
    is_loopback,
    peer_of,
)

log = logging.getLogger(__name__)
API_VERSION = 1


class CommandError(Exception):
    """A command the hub refuses; the message goes back to the TD."""


def parse_message(raw: str | bytes) -> dict[str, Any]:
    """One client message: a JSON object, read by ``hub/api/json_reader.py`` (NaN and
    Infinity refused, so no command ever sees them); the ``ValueError`` says what was
    wrong, for the client's error answer."""
    try:
        return read_object(raw)
    except JsonRefused as e:  # an integer too long to read: in Python's words alone
        raise ValueError(e.reason if e.kind == "number" else str(e)) from None


def _short(e: BaseException) -> str:
    text = f"{type(e).__name__}: {e}"
    return text if len(text) <= 120 else text[:117] + "..."


Snapshot = Callable[[], Awaitable[dict[str, Any]]]
Dispatch = Callable[[str, dict[str, Any], str], Awaitable[dict[str, Any]]]
Requests = Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]  # read-only, no session


class Audit(Protocol):
    """Where log-ins and refused PINs go (the hub's ``AuditTrail``)."""

    def record(self, actor: str, action: str, detail: dict[str, Any]) -> None: ...

    def tally(self, actor: str, action: str, reason: str) -> bool: ...


class ApiServer:
    """The hub API's WebSocket server; serves every client on the hub's asyncio loop."""

    def __init__(
        self,
        feed: Feed,
        snapshot: Snapshot,
        dispatch: Dispatch,
        pin: str,
        *,
        host: str = "127.0.0.1",
        port: int = 7170,
        allow_remote_feed: bool = False,
        audit: Audit | None = None,
        clock: Callable[[], float] = time.monotonic,
        requests: Requests | None = None,
        alert: Callable[[str], None] | None = None,
    ) -> None:
        """``pin`` must not be empty (decisions D20). ``allow_remote_feed``: peers not on
        this machine get the feed without logging in (else they log in first); ``audit``
        records log-ins and refused PINs; ``requests`` answers the read-only requests
        (``hub/api/results_requests.py``) of any client that gets the feed; ``alert`` tells
        the director (the console's alerts) when wrong PINs lock log-ins out."""
        self.feed = feed
        self.requests = requests
        self.snapshot = snapshot
        self.dispatch = dispatch
        self.guard = LoginGuard(pin, clock)
        self.sessions = Sessions(clock)
        self.allow_remote_feed = allow_remote_feed
        self.audit = audit
        self.alert = alert
        self.connections = cl.ApiConnections()
        self._unlogged: dict[ServerConnection, int] = {}  # messages before the log-in
        self.windows = (cl.LOGIN_WINDOW_S, cl.HELLO_S)  # to log in, to say hello (seconds)
        self.host, self.port = host, port
        self._server: Server | None = None

    async def start(self) -> None:
        self._server = await serve(
            self._client, self.host, self.port, max_size=cl.BEFORE_LOGIN_BYTES
        )
        self.port = self._server.sockets[0].getsockname()[1] if self.port == 0 else self.port

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        self.sessions.clear()

    async def _send(self, ws: ServerConnection, message: dict[str, Any]) -> None:
        await ws.send(json.dumps(message, default=str))

    async def _send_snapshot(self, ws: ServerConnection) -> int:
        """The snapshot, numbered by the last event it surely includes. Its store reads take
        a moment; if events came meanwhile it is taken again, and if the room stays that
        busy it is numbered from before the reads: those events then come again (applied
        twice, never missed)."""
        for _ in range(3):
            before = self.feed.seq
            state = await self.snapshot()
            if self.feed.seq == before:
                break
        await self._send(ws, {"type": "snapshot", "seq": before, "state": state})
        return before

    async def _client(self, ws: ServerConnection) -> None:
        peer = self._peer(ws)
        must_log_in = not (self.allow_remote_feed or is_loopback(peer))
        refused = self.connections.admit(ws, peer, not is_loopback(peer))
        if refused:
            if self.audit is None or self.audit.tally(f"API {peer}", "api_refused", "full"):
                log.warning("API connection from %s refused: %s", peer, refused)
            with contextlib.suppress(ConnectionClosed):
                await ws.close(1013, refused[:120])
            return
        queue = None
        window = self.windows[0] if must_log_in else self.windows[1]
        deadline = asyncio.get_running_loop().time() + window
        try:
            first = await self._hello(ws, deadline, must_log_in)
            if first is None or not await self._may_follow(ws, peer, deadline):
                return
            queue = self.feed.subscribe()
            if not must_log_in:  # a follower the TD allowed (D20) no longer waits to log in
                self.connections.logged_in(ws)
            resume = first.get("resume_from")
            missed = self.feed.since(resume) if isinstance(resume, int) else None
            shown = 0  # events up to this number are in what the client has
            if missed is None:
                shown = await self._send_snapshot(ws)
            else:
                for ev in missed:
                    await self._send(ws, ev)
            reader = asyncio.ensure_future(self._commands(ws))
            while True:
                getter = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait({reader, getter}, return_when=asyncio.FIRST_COMPLETED)
                if reader in done:
                    getter.cancel()
                    return
                item = getter.result()
                if item is None:  # too slow: start over with a snapshot
                    queue = self.feed.subscribe()
                    shown = await self._send_snapshot(ws)
                    continue
                if item["seq"] > shown:
                    await self._send(ws, item)
        except (ConnectionClosed, TimeoutError):
            return
        finally:
            self.connections.closed(ws)
            self._unlogged.pop(ws, None)
            if queue is not None:
                self.feed.unsubscribe(queue)
            if self.sessions.end(ws):
                log.info("API session of %s ended with its connection", peer)

    async def _before_session(self, ws: ServerConnection, deadline: float) -> dict[str, Any]:
        """The next message of a connection that has no session yet, by ``deadline``
        (``TimeoutError`` after it); of a peer that must log in, at most LOGIN_MESSAGES
        (closed with 1008 past them). Not JSON or not an object: answered, and the next."""
        while True:
            left = deadline - asyncio.get_running_loop().time()
            raw = await asyncio.wait_for(ws.recv(), max(0.0, left))
            if ws in self.connections.waiting:
                counted = self._unlogged.get(ws, 0) + 1
                self._unlogged[ws] = counted
                if counted > cl.LOGIN_MESSAGES:
                    why = f"{cl.LOGIN_MESSAGES} messages without a log-in: log in first"
                    await ws.close(1008, why)
                    raise ConnectionClosed(ws.protocol.close_rcvd, ws.protocol.close_sent)
            try:
                return parse_message(raw)
            except ValueError as e:
                await self._send(ws, {"type": "error", "error": str(e)})

    async def _hello(
        self, ws: ServerConnection, deadline: float, must_log_in: bool
    ) -> dict[str, Any] | None:
        """The client's ``hello``: whatever comes before it is answered with an error and
        the connection stays open for it (docs/api.md), until the deadline."""
        try:
            while True:
                msg = await self._before_session(ws, deadline)
                if msg.get("type") == "hello" and msg.get("version") == API_VERSION:
                    return msg
                why = f"say hello with version {API_VERSION} first"
                await self._send(ws, {"type": "error", "error": why})
        except TimeoutError:
            if must_log_in:
                log.warning("API peer %s did not say hello: connection closed", self._peer(ws))
            return None

    async def _commands(self, ws: ServerConnection) -> None:
        """Every message gets an answer and the connection stays open, whatever it holds:
        a bad message an error, a command that fails (even by a fault of the hub) a reply
        that says so."""
        with contextlib.suppress(ConnectionClosed):
            async for raw in ws:
                try:
                    msg = parse_message(raw)
                except ValueError as e:
                    log.warning("API message refused: %s", e)
                    await self._send(ws, {"type": "error", "error": str(e)})
                    continue
                try:
                    answer = await self._answer(msg, ws)
                except Exception as e:
                    log.exception("API message %r failed", msg.get("type"))
                    answer = {
                        "type": "reply",
                        "id": msg.get("id"),
                        "ok": False,
                        "error": f"internal error: {_short(e)}",
                    }
                await self._send(ws, answer)

    def _peer(self, ws: ServerConnection) -> str:
        address = ws.remote_address
        host = str(address[0]) if isinstance(address, tuple) and address else None
        return peer_of(host, ws.request.headers.get("X-Forwarded-For") if ws.request else None)

    async def _may_follow(self, ws: ServerConnection, peer: str, deadline: float) -> bool:
        """The feed without a session is for this machine only, unless the TD allowed it
        (decisions D20): a remote peer logs in first, by the deadline of its log-in window;
        the snapshot follows its session."""
        if self.allow_remote_feed or is_loopback(peer):
            return True
        why = (
            "the feed is served without a session only on the hub's machine: log in with "
            "the director's PIN (or the TD starts the hub with --allow-remote-feed)"
        )
        await self._send(ws, {"type": "login_required", "error": why})
        while True:
            try:
                msg = await self._before_session(ws, deadline)
            except TimeoutError:
                log.warning("API peer %s did not log in: connection closed", peer)
                await self._send(ws, {"type": "error", "error": why})
                return False
            if msg.get("type") != "login":
                answer = {"type": "reply", "id": msg.get("id"), "ok": False, "error": why}
                await self._send(ws, answer)
                continue
            answer = self._login(msg, ws)
            await self._send(ws, answer)
            if answer["type"] == "session":
                return True

    def _login(self, msg: dict[str, Any], ws: ServerConnection) -> dict[str, Any]:
        """A log-in: the PIN checked under the attempt limits; a session for this connection,
        or a refusal that is logged with the peer and audited (decisions D20)."""
        mid, peer = msg.get("id"), self._peer(ws)
        name = str(msg.get("name") or "TD")[:40]
        pin = msg.get("pin")
        check = self.guard.attempt(peer, pin if isinstance(pin, str) else "")
        if check.ok:
            token = self.sessions.open(name, ws)
            self.connections.logged_in(ws)
            self._unlogged.pop(ws, None)
            ws.protocol.max_message_size = cl.SESSION_BYTES  # hand records' PBN may follow
            log.info("API login: %s from %s", name, peer)
            if self.audit is not None:
                self.audit.record(f"TD {name}", "api_login", {"peer": peer})
            return {"type": "session", "id": mid, "token": token}
        detail = {"peer": peer, "name": name, "failures": check.failures}
        if check.wait_s > 0:
            detail["wait_s"] = round(check.wait_s)
        if check.verdict is LoginVerdict.WRONG:
            log.warning("API login from %s refused: %s", peer, check.text())
            if check.lockout and self.alert is not None:
                self.alert(check.lockout_text())
            if self.audit is not None:
                self.audit.record(f"API {peer}", "api_login_refused", detail)
        elif self.audit is None or self.audit.tally(f"API {peer}", "api_login_waiting", "wait"):
            # attempts during a wait, not compared: counted per peer and minute, so a
            # flood of them costs neither a disk write nor a log line each
            log.warning("API login from %s refused: %s", peer, check.text())
        return {"type": "reply", "id": mid, "ok": False, "error": check.text()}

    async def _answer(self, msg: dict[str, Any], ws: ServerConnection) -> dict[str, Any]:
        mid = msg.get("id")
        if msg.get("type") == "login":
            return self._login(msg, ws)
        if msg.get("type") == "request":
            return await self._request(msg)
        if msg.get("type") != "command":
            return {
                "type": "reply",
                "id": mid,
                "ok": False,
                "error": "messages are hello, login or command",
            }
        try:
            actor = self.sessions.actor(msg.get("token"), ws)
        except SessionRefused as e:
            return {"type": "reply", "id": mid, "ok": False, "error": str(e)}
        name = str(msg.get("name", ""))
        args = msg.get("args") or {}
        if not isinstance(args, dict):
            return {"type": "reply", "id": mid, "ok": False, "error": "args must be an object"}
        try:
            result = await self.dispatch(name, args, f"TD {actor}")
        except CommandError as e:
            log.warning("command %.40s refused: %s", name, e)
            return {"type": "reply", "id": mid, "ok": False, "error": str(e)}
        except Exception as e:  # a fault of the hub: said, logged, and the hub goes on
            log.exception("command %.40s failed", name)
            error = f"internal error in {name[:40]}: {_short(e)}"
            return {"type": "reply", "id": mid, "ok": False, "error": error}
        return {"type": "reply", "id": mid, "ok": True, **result}

    async def _request(self, msg: dict[str, Any]) -> dict[str, Any]:
        """A read-only request (docs/api.md): no session, since only a client that gets the
        feed reads messages here; its refusal (``CommandError``) goes back as the error."""
        mid, name, args = msg.get("id"), str(msg.get("name", "")), msg.get("args") or {}
        if self.requests is None:
            return {"type": "reply", "id": mid, "ok": False, "error": "this hub serves no requests"}
        if not isinstance(args, dict):
            return {"type": "reply", "id": mid, "ok": False, "error": "args must be an object"}
        try:
            result = await self.requests(name, args)
        except CommandError as e:
            return {"type": "reply", "id": mid, "ok": False, "error": str(e)}
        return {"type": "reply", "id": mid, "ok": True, **result}
