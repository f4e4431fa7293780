"""The web server's link to the hub (decisions D1): it follows the API's feed (the
published standings, the news that a result was stored) and asks the read-only ``results``
request (docs/api.md) for the released travellers and cards whenever a result, a
correction or a publication comes. Reconnects by itself, resuming from the last event."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from hub.api.json_reader import JsonRefused, read_object
from hub.report.model import ReportModel
from hub.report.model_json import model_from_json
from hub.result_screen.state import ScreenState

log = logging.getLogger(__name__)
REQUEST_TIMEOUT_S = 30.0
REFUSED_RETRY_S = 60.0  # after a wrong PIN: the hub counts each try (decisions D20)
# feed events after which the released results may have changed (docs/api.md "Events")
REFRESH = frozenset(
    {
        "result",
        "board_changed",
        "held_accepted",
        "standings",
        "session_complete",
        "pairs_changed",
        "round_started",
        "round_complete",
        "hand_records_loaded",
    }
)


def _unreadable(e: JsonRefused, raw: str | bytes) -> str:
    """Why a message from the URL is not the hub's: the decoder's own words, or (JSON but
    not an object, or with NaN or Infinity) the message's start."""
    if e.kind in ("not_object", "constant"):
        return f"not the hub's API: a message {str(raw)[:40]!r}"
    return e.reason if e.kind in ("syntax", "number") else str(e)


class PinRefused(Exception):
    """The hub refused the director's PIN: the link waits longer before trying again."""


class HubLink:
    """What the pages know of the hub: ``state`` (the feed, as a result screen folds it),
    ``report`` and ``complete`` (the last ``results`` answer), ``up`` (linked now).
    ``changed()`` is called on the loop whenever any of it changed."""

    def __init__(
        self,
        url: str,
        changed: Callable[[], None],
        *,
        pin: str | None = None,
        language: str | None = None,
        retry_s: float = 1.0,
    ) -> None:
        self.url, self.pin, self.language, self.retry_s = url, pin, language, retry_s
        self.changed = changed
        self.state = ScreenState()
        self.report: ReportModel | None = None
        self.complete: dict[str, bool] = {}
        self.up = False
        self.error = ""
        self._seq: int | None = None
        self._ws: ClientConnection | None = None
        self._replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._dirty = asyncio.Event()
        self._n = 0

    async def run(self) -> None:
        """Follow the hub until cancelled; the results are fetched by a task of their own."""
        fetcher = asyncio.ensure_future(self._fetch_loop())
        try:
            while True:
                wait = self.retry_s
                try:
                    await self._follow()
                except PinRefused as e:
                    self._lost(str(e))
                    wait = max(wait, REFUSED_RETRY_S)
                except (OSError, WebSocketException, TimeoutError, ValueError) as e:
                    # ValueError: a message that is not JSON (not the hub's API at that URL)
                    self._lost(str(e) or type(e).__name__)
                except Exception as e:  # a fault of ours: logged, and the link tried again
                    log.exception("results pages: the link to the hub failed")
                    self._lost(f"{type(e).__name__}: {e}")
                self._ws = None
                if self.up:
                    self.up = False
                    self.changed()
                await asyncio.sleep(wait)
        finally:
            fetcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await fetcher

    def _lost(self, error: str) -> None:
        if error != self.error:  # once per outage, not every second
            log.warning(
                "results pages: no link to the hub at %s (%s); trying again", self.url, error
            )
        self.error = error

    async def _follow(self) -> None:
        async with connect(self.url, max_size=None) as ws:
            hello = {"type": "hello", "version": 1, "resume_from": self._seq}
            await ws.send(json.dumps(hello))
            if self.pin:
                login = {"type": "login", "pin": self.pin, "name": "web results", "id": "login"}
                await ws.send(json.dumps(login))
            self._ws = ws
            self._dirty.set()  # whatever happened while the link was down
            async for raw in ws:
                try:
                    msg = read_object(raw)
                except JsonRefused as e:  # the link's words, for the log and the pages
                    raise ValueError(_unreadable(e, raw)) from None
                self._take(msg)
        if not self.error:  # else the reason given before (a PIN wanted) stands
            self._lost("the hub closed the link")

    def _take(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "reply" and msg.get("id") == "login" and not msg.get("ok"):
            raise PinRefused(f"the hub refused the PIN: {msg.get('error')}")
        if kind == "reply" and msg.get("id") in self._replies:
            future = self._replies.pop(msg["id"])
            if not future.done():
                future.set_result(msg)
            return
        if kind == "login_required" and not self.pin:
            self._lost(str(msg.get("error") or "the hub wants the director's PIN"))
            return
        try:
            shown = self.state.apply(msg, time.monotonic())
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            log.warning("results pages: a feed message that does not read (%r)", e)
            return
        if isinstance(msg.get("seq"), int):
            self._seq = msg["seq"]
        if kind not in ("snapshot", "event"):
            return
        self.error = ""  # the feed flows: a later outage is logged again
        if kind == "snapshot" or msg.get("event") in REFRESH:
            self._dirty.set()
        if shown == "standings" or not self.up:
            self.up = True
            self.changed()

    async def _fetch_loop(self) -> None:
        """One ``results`` request at a time; news meanwhile asks for one more after it."""
        while True:
            await self._dirty.wait()
            self._dirty.clear()
            try:
                reply = await self.request("results", self._args())
            except (ConnectionError, TimeoutError, WebSocketException) as e:
                log.warning("results pages: no results from the hub (%s)", e)
                continue  # the link's next (re)connection asks again
            if not reply.get("ok"):
                self.error = str(reply.get("error"))
                log.warning("results pages: the hub refused the results: %s", self.error)
                continue
            try:
                report = model_from_json(reply["report"])
                complete = {str(k): bool(v) for k, v in (reply.get("complete") or {}).items()}
            except (KeyError, TypeError, ValueError, AttributeError) as e:
                log.warning("results pages: the hub's results do not read (%r)", e)
                continue
            if (report, complete) == (self.report, self.complete):
                continue  # nothing new to show: the open pages need not fetch themselves
            self.report, self.complete = report, complete
            self.changed()

    def _args(self) -> dict[str, Any]:
        return {"language": self.language} if self.language else {}

    async def request(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """A read-only request on the feed's connection; its reply."""
        ws = self._ws
        if ws is None:
            raise ConnectionError("not linked to the hub")
        self._n += 1
        mid = f"r{self._n}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._replies[mid] = future
        try:
            await ws.send(json.dumps({"type": "request", "id": mid, "name": name, "args": args}))
            return await asyncio.wait_for(future, REQUEST_TIMEOUT_S)
        finally:
            self._replies.pop(mid, None)
