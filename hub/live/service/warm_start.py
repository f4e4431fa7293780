"""The second step of the hub's start (issue 12: the first ACK in under 2 s after a
``kill -9`` with 100,000 results stored). The lines open once the hub knows the event, the
movements, the clock and the key of every live result (``Stored.first``); the live results
themselves, the live scores, the suspicious-score flags and the publication state are
loaded after, while the terminals are already answered:

- intake: until every live result is loaded, the writer reads the live result of each key
  of its batch from the store before checking it (a second, different result is still held,
  D21); the full read then fills in the rest, never replacing a newer revision;
- live scores: results accepted meanwhile are scored once the views are built (in slices,
  so the loop keeps answering the lines); a round completed meanwhile is decided once the
  flags are known (decisions D12: standings are never published from half-built views);
- the API's snapshots, double dummy and the publication of settled rounds wait for
  ``ready``; a director's command waits at most ``COMMAND_WAIT_S``, then is refused by
  name; a table's own erasure is refused at once, "again in a moment"
  (hub.live.tables.table_erasures).

``WarmStart`` belongs to the hub's asyncio loop; its store reads run in worker threads.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, TypeVar

from hub.api.server import CommandError
from hub.live.oversight.alerts import Alerts
from hub.live.results.intake import Intake
from hub.live.results.scores import Scores
from hub.live.rounds.publication import Publication
from hub.store.store import Store, StoredResult

log = logging.getLogger(__name__)
T = TypeVar("T")
Key = tuple[str, int, int, int]
COMMAND_WAIT_S = 10.0  # a director's command waits this long for the load, then is refused


def merge_live(live: dict[Key, StoredResult], found: Iterable[StoredResult]) -> None:
    """Results read from the store into intake's live map; a key that has a newer revision
    there already (stored since the read began) keeps it."""
    for r in found:
        known = live.get(r.key)
        if known is None or known.revision < r.revision:
            live[r.key] = r


class WarmStart:
    """Loads what the hub reads after its lines open; on the hub's loop, store reads in
    worker threads."""

    def __init__(
        self,
        store: Store,
        event_id: int,
        intake: Intake,
        scores: Scores,
        publication: Publication,
        alerts: Alerts,
    ) -> None:
        self.store = store
        self.event_id = event_id
        self.intake = intake
        self.scores = scores
        self.publication = publication
        self.alerts = alerts
        self.intake_loaded = asyncio.Event()  # every live result is in intake
        self.ready = asyncio.Event()  # scores, flags and publication state too
        self._told: str | None = None  # the last failure told to the director
        scores.begin_loading()
        publication.begin_loading()

    async def priors(self, keys: Sequence[Key]) -> None:
        """Before intake checks a batch: the live result of each of its keys, from the
        store while intake does not hold them all yet."""
        if self.intake_loaded.is_set() or not keys:
            return
        found = await asyncio.to_thread(self.store.live_at, self.event_id, keys)
        merge_live(self.intake.live, found)

    async def run(self) -> None:
        """The second step, once (a supervised task: a failed read is told to the
        director and tried again)."""
        try:
            live = await asyncio.to_thread(self.store.live_results, self.event_id)
            merge_live(self.intake.live, live)
            self.intake_loaded.set()
            lines = [r.line() for r in live]
            penalties = await asyncio.to_thread(self.store.penalties, self.event_id)
            await self.publication.load(lines)
            await self.scores.load_soon(lines, penalties)
            await self.publication.finish_loading()
        except Exception as e:
            text = (
                f"the hub could not load its live scores after starting ({type(e).__name__}: "
                f"{str(e).strip()[:200]}); it tries again: results are still taken and stored"
            )
            if text != self._told:  # once per cause, not at each try (the supervisor's
                self._told = text  # backoff: every 10 s would push out the other alerts)
                self.alerts.raise_(text)
            raise
        self.ready.set()
        log.info("live scores loaded: %d results", len(live))

    async def settle(
        self,
        deals: dict[tuple[str, int], str],
        tricks: dict[tuple[str, int], str] | None = None,
        lines_open: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """Once ready and the lines are open: the deals' double dummy first (the file's
        ``tricks`` where it has them; a round withheld since a restart is checked in full),
        then the rounds that ended before the restart are published."""
        await self.ready.wait()
        if deals:
            if lines_open is not None:
                await lines_open()
            await self.scores.solve_deals(deals, tricks)
        await self.publication.publish_settled()

    def after(self, job: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
        """``job`` once the hub is ready (the API's snapshots)."""

        async def when_ready(*args: Any, **kwargs: Any) -> T:
            await self.ready.wait()
            return await job(*args, **kwargs)

        return when_ready

    def command(self, job: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
        """A director's command once the hub is ready, waiting at most ``COMMAND_WAIT_S``:
        then refused by name (a console's commands are answered in turn: one left waiting
        for a load that keeps failing would silence every later one)."""

        async def when_ready(*args: Any, **kwargs: Any) -> T:
            try:
                await asyncio.wait_for(self.ready.wait(), COMMAND_WAIT_S)
            except TimeoutError:
                raise CommandError(
                    "the hub is still loading its stored results after its start: try again "
                    "in a moment (the alerts say if the load failed)"
                ) from None
            return await job(*args, **kwargs)

        return when_ready
