"""The campaign's view of what the hub published: a client of the hub API's feed
(decisions D1, docs/api.md) that keeps each section's latest published standings, across
hub restarts.

Every connection says hello without ``resume_from`` and so starts from a snapshot: a
restarted hub numbers its events afresh, so a number from the hub before the kill would
resume from the wrong place. The snapshot carries the last publication
(``sections.X.published``, recorded in the store and reloaded by the restarted hub), so
after a ``kill -9`` the watch holds what the new hub shows, not what the old one said.
The feed needs no PIN on loopback (decisions D20).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)


class FeedWatch:
    """Follows ``ws://HOST:PORT/v1`` on the campaign's asyncio loop (start, stop and every
    read on that loop); reconnects by itself every ``retry_s`` while the hub is down.

    ``published``: section → the rows of its latest publication (``standings`` event, or the
    snapshot's ``published`` rows); ``final``: sections whose published standings are the
    final ones; ``complete``: sections whose session is over (``session_complete`` seen, or
    a snapshot's section ``final``); ``last_round``: section → the round last published."""

    def __init__(self, api_url: str, retry_s: float = 0.2) -> None:
        self.api_url = api_url
        self.retry_s = retry_s
        self.published: dict[str, list[dict]] = {}
        self.final: set[str] = set()
        self.complete: set[str] = set()
        self.last_round: dict[str, int] = {}
        self.connected = False
        self.snapshots = 0  # snapshots taken (one per connection, more if too slow)
        self.publications = 0  # ``standings`` events seen
        self.errors: list[str] = []  # why the link went down, the latest last (kept short)
        self._task: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()

    async def start(self) -> None:
        """Start following (returns at once; the first connection may come later)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(
                self._follow(), name=f"feed watch {self.api_url}"
            )

    async def stop(self) -> None:
        """Stop following and close the connection."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.connected = False

    async def wait_for(self, check: Callable[[], bool], timeout: float, what: str) -> None:
        """Wait until ``check()`` holds (tested after every message); on timeout raise
        ``TimeoutError`` naming ``what`` and what the watch holds."""
        end = time.monotonic() + timeout
        while not check():
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"timed out after {timeout} s waiting for {what}: {self}")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(left, 0.5))

    def __str__(self) -> str:
        rounds = ", ".join(f"{s} round {r}" for s, r in sorted(self.last_round.items()))
        return (
            f"feed {self.api_url}: {'connected' if self.connected else 'down'}, "
            f"{self.snapshots} snapshots, {self.publications} publications, "
            f"published {rounds or 'nothing'}, final {sorted(self.final)}, "
            f"complete {sorted(self.complete)}"
            + (f", last error {self.errors[-1]}" if self.errors else "")
        )

    # -- the link ------------------------------------------------------------------------
    async def _follow(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import WebSocketException

        while True:
            try:
                async with connect(self.api_url, open_timeout=5, max_size=2**26) as ws:
                    await ws.send(json.dumps({"type": "hello", "version": 1}))
                    async for raw in ws:
                        self.take(json.loads(raw))
                self._down("the hub closed the link")
            except (OSError, WebSocketException, TimeoutError, ValueError) as e:
                self._down(str(e) or type(e).__name__)
            await asyncio.sleep(self.retry_s)

    def _down(self, why: str) -> None:
        if self.connected:
            log.info("feed %s down: %s", self.api_url, why)
        self.connected = False
        self.errors = [*self.errors[-9:], why]
        self._changed.set()

    # -- messages ------------------------------------------------------------------------
    def take(self, msg: dict[str, Any]) -> None:
        """Apply one feed message (sans-I/O: tests hand messages in directly)."""
        kind = msg.get("type")
        if kind == "snapshot":
            self.connected = True
            self.snapshots += 1
            self._snapshot(msg.get("state") or {})
        elif kind == "event":
            self._event(msg)
        elif kind in ("login_required", "error"):
            self._down(f"{kind}: {msg.get('error')}")
        self._changed.set()

    def _snapshot(self, state: dict[str, Any]) -> None:
        """The hub as it is now: its last publication per section replaces what we had."""
        for letter, section in (state.get("sections") or {}).items():
            if section.get("final"):
                self.complete.add(letter)
            shown = section.get("published") or {}
            rnd = int(shown.get("round") or 0)
            if rnd > 0:
                self._publication(letter, rnd, shown.get("rows") or [], bool(shown.get("final")))
            else:  # the hub shows nothing published (yet, or any more)
                self.published.pop(letter, None)
                self.last_round.pop(letter, None)
                self.final.discard(letter)

    def _event(self, msg: dict[str, Any]) -> None:
        name = msg.get("event")
        if name == "standings":
            self.publications += 1
            self._publication(
                str(msg.get("section")),
                int(msg.get("round") or 0),
                msg.get("rows") or [],
                bool(msg.get("final")),
            )
        elif name == "session_complete":
            self.complete.add(str(msg.get("section")))

    def _publication(self, section: str, rnd: int, rows: list[dict], final: bool) -> None:
        self.published[section] = list(rows)
        self.last_round[section] = rnd
        if final:
            self.final.add(section)
        else:
            self.final.discard(section)
