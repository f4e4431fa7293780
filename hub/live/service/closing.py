"""Closing the hub's parts at its stop: every step runs, whatever fails on the way
(logged), so no driver or port is left open because another failed to close.

Runs on the hub's asyncio loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Iterable

log = logging.getLogger(__name__)


async def close_all(steps: Iterable[Awaitable[None]]) -> None:
    """Await each closing step in order; a failure is logged and the next one runs. A
    part's own task cut short goes on closing; the stop itself cancelled stops here."""
    for step in steps:
        try:
            await step
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise
        except Exception:
            log.exception("stopping the hub")
