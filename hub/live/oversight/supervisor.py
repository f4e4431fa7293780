"""Supervised background tasks (decisions D17): a task that raises is logged and started
again with backoff, and its health (running, restarts, last error) is visible to the
director in the devices read. Stopping cancels every task.

``Supervisor`` belongs to the hub's asyncio loop.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)
Job = Callable[[], Awaitable[None]]


@dataclass
class Health:
    """One supervised task's health, updated by the ``Supervisor`` on the hub's loop."""

    name: str
    running: bool = True
    restarts: int = 0
    last_error: str | None = None
    failed_at: float | None = None  # wall clock of the last failure
    done: bool = False  # ended by itself (a one-off job such as solving the deals)

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "running": self.running,
            "restarts": self.restarts,
            "last_error": self.last_error,
            "done": self.done,
        }


class Supervisor:
    """Runs and restarts the hub's background tasks; on the hub's asyncio loop."""

    def __init__(self, backoff: tuple[float, float] = (0.1, 10.0)) -> None:
        self.backoff = backoff
        self.health: dict[str, Health] = {}
        self._tasks: list[asyncio.Task[None]] = []

    def spawn(self, name: str, job: Job) -> None:
        """Run ``job`` until it returns (a one-off job) or the hub stops; an exception
        starts it again after a pause that doubles up to ``backoff[1]``."""
        health = self.health[name] = Health(name)
        task = asyncio.get_running_loop().create_task(self._keep(job, health), name=name)
        self._tasks.append(task)

    async def _keep(self, job: Job, health: Health) -> None:
        delay = self.backoff[0]
        while True:
            health.running = True
            try:
                await job()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                task = asyncio.current_task()
                if task is not None and task.cancelling():  # stopping: no restart
                    raise asyncio.CancelledError from e
                health.running = False
                health.restarts += 1
                health.last_error = f"{type(e).__name__}: {e}"
                health.failed_at = time.time()
                log.exception("task %s failed; restarting in %.1f s", health.name, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.backoff[1])
                continue
            health.running, health.done = False, True
            return

    def report(self) -> list[dict[str, Any]]:
        return [h.as_dict() for h in self.health.values()]

    async def stop(self, within_s: float = 10.0) -> None:
        """Cancel every task and wait for them, at most ``within_s``: a task that does not
        end by then is named in the log and left behind, so the hub still stops."""
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            _, pending = await asyncio.wait(self._tasks, timeout=within_s)
            for task in pending:
                log.error("task %s did not stop within %.0f s", task.get_name(), within_s)
        for task in self._tasks:
            if task.done() and not task.cancelled() and task.exception() is not None:
                log.error("task %s ended with %r", task.get_name(), task.exception())
        self._tasks.clear()
