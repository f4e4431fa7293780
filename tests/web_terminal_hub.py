"""A real hub with browser terminals for tests (issue 15, docs/web-terminal.md): HubService
on a SQLite store in a folder, an event of N tables, its web terminals on a free port of
127.0.0.1. What a test gets: the base URL, the WebSocket URL, every table's code and link,
the hub itself (its store, its director's commands).

Two ways in:

- ``async with web_terminal_hub(tmp_path, tables=3) as room:`` on a test's own loop (a
  `websockets` client, the simulator's bot);
- ``with web_terminal_hub_thread(tmp_path, tables=3) as room:`` the hub on a loop of its own
  in a thread, for synchronous clients (selenium with chromium); ``room.run(coro)`` runs a
  coroutine on the hub's loop (``room.run(room.command("message", text="..."))``).

The same folder again is the same store (a restarted hub: same event, same codes). Extra
keyword arguments go to ``HubService`` (``clock``, ``auto_advance``, ``tick_s``...), and
``stations`` lists base-station lines for a mixed room.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import AsyncIterator, Awaitable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from event_text import one_section_event
from websockets.asyncio.client import connect

from hub.live.service.hub_service import HubService
from hub.store.store import Store
from hub.store.table_codes import table_codes

PIN = "24681357"  # the director's PIN of these hubs
T = TypeVar("T")


def web_event(tables: int, kind: str = "mitchell", boards_per_round: int = 2, **info: str) -> str:
    """An event file of one section A: ``kind`` ("mitchell", "howell") with ``tables``
    tables; ``info`` adds [event] keys (``language="sv"``)."""
    text = one_section_event(
        f"Web terminals, {tables} tables",
        f'kind = "{kind}", tables = {tables}, boards_per_round = {boards_per_round}',
    )
    extra = "".join(f'{k} = "{v}"\n' for k, v in info.items())
    return text.replace("[rules]\n", f"{extra}[rules]\n", 1)


@dataclass
class WebHub:
    """A running hub with browser terminals; ``codes`` by (section, table) as the store
    holds them when the hub started."""

    hub: HubService
    store: Store
    event_id: int
    url: str  # "http://127.0.0.1:PORT/"
    codes: dict[tuple[str, int], str]
    loop: asyncio.AbstractEventLoop | None = field(default=None, repr=False)

    @property
    def ws_url(self) -> str:
        return "ws" + self.url.removeprefix("http").rstrip("/") + "/ws"

    def link(self, section: str, table: int, code: bool = True) -> str:
        """A table's link, as its table card's QR code carries it."""
        query = f"?c={self.codes[(section, table)]}" if code else ""
        return f"{self.url}t/{section}{table}{query}"

    async def command(self, name: str, **args: Any) -> dict[str, Any]:
        """A director's command (docs/api.md), as the console sends it."""
        return await self.hub.commands.dispatch(name, args, "TD test")

    def run(self, coro: Awaitable[T], timeout: float = 30) -> T:
        """Run ``coro`` on the hub's loop from another thread (``web_terminal_hub_thread``)."""
        assert self.loop is not None, "run() is for web_terminal_hub_thread; await it instead"

        async def wrapped() -> T:
            return await coro

        return asyncio.run_coroutine_threadsafe(wrapped(), self.loop).result(timeout)


@contextlib.asynccontextmanager
async def web_terminal_hub(
    folder: Path,
    tables: int = 3,
    *,
    event: str | None = None,
    stations: list[str] | None = None,
    host: str = "127.0.0.1",
    **options: Any,
) -> AsyncIterator[WebHub]:
    """A hub serving browser terminals, on the running loop, stopped on leaving. Its store
    is ``folder/event.db``: the event of ``event`` (default ``web_event(tables)``) is
    created there the first time and run again after (a restart)."""
    store = Store.open(f"sqlite:///{folder / 'event.db'}")
    try:
        ids = store.event_ids()
        eid = ids[0] if ids else store.create_event(event or web_event(tables))
        options.setdefault("td_pin", PIN)
        hub = HubService(store, eid, stations or [], terminals=(host, 0), **options)
        await hub.start()
        try:
            assert hub.web is not None
            codes = await asyncio.to_thread(table_codes, store, eid)
            room = WebHub(
                hub, store, eid, hub.web.server.url, {k: c.code for k, c in codes.items()}
            )
            yield room
        finally:
            await hub.stop()
    finally:
        store.close()


@contextlib.contextmanager
def web_terminal_hub_thread(folder: Path, tables: int = 3, **kwargs: Any) -> Iterator[WebHub]:
    """``web_terminal_hub`` on a loop of its own in a thread (for synchronous clients);
    stopped, and the thread joined, on leaving."""
    loop = asyncio.new_event_loop()
    started: list[WebHub] = []
    failed: list[BaseException] = []
    ready = threading.Event()
    done: asyncio.Event | None = None

    async def main() -> None:
        nonlocal done
        done = asyncio.Event()
        try:
            async with web_terminal_hub(folder, tables, **kwargs) as room:
                room.loop = loop
                started.append(room)
                ready.set()
                await done.wait()
        except BaseException as e:
            failed.append(e)
            raise
        finally:
            ready.set()

    thread = threading.Thread(
        target=lambda: loop.run_until_complete(main()), name="web terminal hub", daemon=True
    )
    thread.start()
    try:
        if not ready.wait(60) or not started:
            raise RuntimeError(f"the hub did not start: {failed[0] if failed else 'timed out'}")
        yield started[0]
    finally:
        if done is not None:
            loop.call_soon_threadsafe(done.set)
        thread.join(30)
        if not thread.is_alive():
            loop.close()


class WsTerminal:
    """A browser terminal as the page speaks to the hub (docs/web-terminal.md "The
    protocol"): a real `websockets` client; everything the hub sends is kept in
    ``received``. On the test's asyncio loop."""

    def __init__(self, ws_url: str, device: str) -> None:
        self.ws_url, self.device = ws_url, device
        self.received: list[dict[str, Any]] = []
        self.next_id = 1
        self._ws: Any = None
        self._reader: asyncio.Task[None] | None = None

    async def connect(self, hello: bool = True) -> dict[str, Any] | None:
        """A new connection (a page load); with ``hello``, the hub's ``welcome``."""
        self._ws = await connect(self.ws_url)
        self._reader = asyncio.ensure_future(self._read())
        if not hello:
            return None
        start = len(self.received)
        await self.send({"type": "hello", "device": self.device, "version": 1})
        return await self.wait_for("welcome", since=start)

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for raw in self._ws:
                self.received.append(json.loads(raw))

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            await self._reader

    async def send(self, message: dict[str, Any] | str) -> None:
        await self._ws.send(message if isinstance(message, str) else json.dumps(message))

    async def ask(self, kind: str, request_id: int | None = None, **fields: Any) -> dict[str, Any]:
        """Send a request and wait for its answer (``request_id``: send one again)."""
        mid = request_id if request_id is not None else self.next_id
        self.next_id = max(self.next_id, mid + 1)
        since = len(self.received)
        await self.send({"type": kind, "id": mid, **fields})
        return await self.wait_for("answer", lambda m: m["id"] == mid, since=since)

    async def wait_for(
        self,
        kind: str,
        match: Any = None,
        timeout: float = 10,
        since: int = 0,
    ) -> dict[str, Any]:
        """The first message of type ``kind`` (that ``match`` accepts) received at or after
        index ``since``; fails after ``timeout`` seconds naming what came."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            for m in self.received[since:]:
                if m.get("type") == kind and (match is None or match(m)):
                    return m
            if asyncio.get_running_loop().time() > deadline:
                kinds = [m.get("type") for m in self.received[since:]]
                raise AssertionError(f"no {kind} within {timeout} s; received {kinds}")
            await asyncio.sleep(0.02)

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.received if m.get("type") == kind]
