"""The hub lock's watch (issue 12 [FAULTS]): a PostgreSQL server that restarts forgets the
advisory lock that makes this hub the one hub of its event, without a word. Every few
seconds the watch asks the lock, on a worker thread (never blocking the loop), whether it is
still held; a lost lock is taken again as soon as the server answers. If another hub took it
meanwhile, two hubs would be running the room: the director is told plainly and
``on_taken`` is called (``bridgehub run`` stops this hub: see ``hub.cli.run``). A lock still
held by this hub's own old session is not another hub's (``LockState.LINGERING``): the
check ends that session and a later one takes the lock, so a healthy hub never stops.

``HubLockWatch`` belongs to the hub's asyncio loop; ``run`` is a supervised task.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from hub.store.hub_lock import LockState

log = logging.getLogger(__name__)
EVERY_S = 2.0


class HubLockWatch:
    """Checks the hub lock every ``every_s`` on a worker thread; reacts on the loop."""

    def __init__(
        self,
        check: Callable[[], LockState],
        event_id: int,
        alert: Callable[[str], object],
        on_taken: Callable[[str], object],
        every_s: float = EVERY_S,
    ) -> None:
        self.check = check  # blocking: ``HubLock.check``
        self.event_id = event_id
        self.alert = alert
        self.on_taken = on_taken
        self.every_s = every_s
        self.state = LockState.HELD
        self.retaken = 0  # how often the lock was lost and taken again

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.every_s)
            self.seen(await asyncio.to_thread(self.check))
            if self.state is LockState.TAKEN:
                return  # nothing more to watch: this hub is stopping

    def seen(self, state: LockState) -> None:
        """One check's finding: logged on a change; the director told when it matters."""
        was, self.state = self.state, state
        if state is LockState.UNREACHABLE and was is not LockState.UNREACHABLE:
            log.warning(
                "the database server does not answer: this hub's lock on event %d is lost "
                "with its connection, and is taken again when the server is back",
                self.event_id,
            )
        elif state is LockState.RETAKEN:
            self.retaken += 1
            log.warning(
                "the database server is back: this hub holds its lock on event %d again",
                self.event_id,
            )
        elif state is LockState.TAKEN:
            text = (
                f"another hub took event {self.event_id} while the database server was away "
                "(its lock was lost in the server's restart): this hub stops so that only one "
                "hub runs the room; keep the other one, or stop it and start this one again"
            )
            log.error("%s", text)
            self.alert(text)
            self.on_taken(text)
