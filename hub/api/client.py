"""The client side of the hub API (docs/api.md), shared by the TD console and the result
screens: follow the feed over a WebSocket, reconnecting and resuming from the last event
seen, and send the director's commands once a PIN has opened a session."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from hub.api.json_reader import JsonRefused, read_object

Source = Callable[[], AsyncIterator[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def websocket_source(
    url: str, pin: str | None = None, *, name: str = "console", retry_s: float = 1.0
) -> tuple[Source, Send]:
    """Feed and commands over the hub API. The feed says hello (with ``resume_from``, the
    last event number seen, after a reconnect), then yields every message; when the link
    drops it yields ``{"type": "link", "up": False, "error": ...}`` once and tries again
    every ``retry_s``. With a ``pin`` it logs in as ``name`` (on every connection: a session
    is bound to its connection); a hub that serves this machine the feed only after a
    log-in, when there is no PIN, is told as a link that is down, and so is a message that
    is not a JSON object (the link is opened again). Both callables run on
    the client's asyncio loop."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import WebSocketException

    state: dict[str, Any] = {"ws": None, "token": None, "seq": None, "n": 0}

    async def source() -> AsyncIterator[dict[str, Any]]:
        while True:
            try:
                async with connect(url) as ws:
                    state["ws"] = ws
                    await ws.send(
                        json.dumps({"type": "hello", "version": 1, "resume_from": state["seq"]})
                    )
                    if pin:
                        await ws.send(
                            json.dumps({"type": "login", "pin": pin, "name": name, "id": "login"})
                        )
                    async for raw in ws:
                        msg = read_object(raw)
                        if msg.get("type") == "login_required" and not pin:  # D20: say why
                            yield {"type": "link", "up": False, "error": msg.get("error")}
                            continue
                        if msg.get("type") == "session":
                            state["token"] = msg["token"]
                        if "seq" in msg:
                            state["seq"] = msg["seq"]
                        yield msg
            except (OSError, WebSocketException, JsonRefused) as e:  # a message unread: anew
                if state["ws"] is not None:
                    yield {"type": "link", "up": False, "error": str(e) or type(e).__name__}
                state["ws"] = state["token"] = None
            else:  # the hub closed the link cleanly (it is stopping): try again all the same
                yield {"type": "link", "up": False, "error": "the hub closed the link"}
                state["ws"] = state["token"] = None
            await asyncio.sleep(retry_s)

    async def send(command: dict[str, Any]) -> None:
        ws = state["ws"]
        if ws is None or state["token"] is None:
            raise ConnectionError("not connected to the hub (or the PIN was refused)")
        state["n"] += 1
        try:
            await ws.send(
                json.dumps(
                    {"type": "command", "id": f"c{state['n']}", "token": state["token"], **command}
                )
            )
        except WebSocketException as e:  # the link dropped under us: the TD is told
            raise ConnectionError(f"lost the hub ({e})") from None

    return source, send
