"""The API server: one WebSocket per client (console, screens), JSON text messages."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from hub.api.feed import Feed

log = logging.getLogger(__name__)
API_VERSION = 1


class CommandError(Exception):
    """A command the hub refuses; the message goes back to the TD."""


Snapshot = Callable[[], Awaitable[dict[str, Any]]]
Dispatch = Callable[[str, dict[str, Any], str], Awaitable[dict[str, Any]]]


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
    ) -> None:
        self.feed = feed
        self.snapshot = snapshot
        self.dispatch = dispatch
        self.pin = pin
        self.host, self.port = host, port
        self.sessions: dict[str, str] = {}
        self._server: Server | None = None

    async def start(self) -> None:
        self._server = await serve(self._client, self.host, self.port)
        self.port = self._server.sockets[0].getsockname()[1] if self.port == 0 else self.port

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

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
        queue = None
        try:
            first = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if first.get("type") != "hello" or first.get("version") != API_VERSION:
                await self._send(
                    ws, {"type": "error", "error": f"say hello with version {API_VERSION} first"}
                )
                return
            queue = self.feed.subscribe()
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
        except (ConnectionClosed, TimeoutError, json.JSONDecodeError):
            return
        finally:
            if queue is not None:
                self.feed.unsubscribe(queue)

    async def _commands(self, ws: ServerConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for raw in ws:
                try:
                    msg = json.loads(raw)
                except json.JSONDecodeError:
                    await self._send(ws, {"type": "error", "error": "not JSON"})
                    continue
                await self._send(ws, await self._answer(msg))

    async def _answer(self, msg: dict[str, Any]) -> dict[str, Any]:
        mid = msg.get("id")
        if msg.get("type") == "login":
            if hmac.compare_digest(str(msg.get("pin", "")), self.pin):
                token = secrets.token_hex(16)
                self.sessions[token] = str(msg.get("name") or "TD")
                return {"type": "session", "id": mid, "token": token}
            log.warning("API login refused: wrong PIN")
            return {"type": "reply", "id": mid, "ok": False, "error": "wrong PIN"}
        if msg.get("type") != "command":
            return {
                "type": "reply",
                "id": mid,
                "ok": False,
                "error": "messages are hello, login or command",
            }
        actor = self.sessions.get(str(msg.get("token")))
        if actor is None:
            return {
                "type": "reply",
                "id": mid,
                "ok": False,
                "error": "log in with the director's PIN first",
            }
        name = str(msg.get("name", ""))
        args = msg.get("args") or {}
        if not isinstance(args, dict):
            return {"type": "reply", "id": mid, "ok": False, "error": "args must be an object"}
        try:
            result = await self.dispatch(name, args, f"TD {actor}")
        except CommandError as e:
            return {"type": "reply", "id": mid, "ok": False, "error": str(e)}
        return {"type": "reply", "id": mid, "ok": True, **result}
