"""What every part of the store works with: one engine and one clock."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from sqlalchemy import Engine


class StorePart:
    """A part of ``Store`` (events, contestants, results, the room), composed into it as a
    mixin. Like ``Store`` it runs on the hub's worker threads, never on the asyncio loop; each
    call opens and closes its own session."""

    engine: Engine
    clock: Callable[[], dt.datetime]
