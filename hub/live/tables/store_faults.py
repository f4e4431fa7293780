"""The director is told when the store will not take results: terminals are answered "busy,
resend" and keep trying, so without this a store that stays down (a full disk, a lost
database server) would only show in the log.

``StoreFaults`` belongs to the hub's asyncio loop; it is sans-I/O apart from the alert.
"""

from __future__ import annotations

from collections.abc import Callable

from hub.live.oversight.alerts import Alerts
from hub.live.port.terminal_port import ResultSubmission

EVERY_S = 60.0


class StoreFaults:
    """One alert a minute at most while results cannot be stored, naming the tables that
    wait; on the hub's asyncio loop."""

    def __init__(self, alerts: Alerts, clock: Callable[[], float]) -> None:
        self.alerts = alerts
        self.clock = clock
        self._next = float("-inf")

    def __call__(self, waiting: list[ResultSubmission]) -> None:
        now = self.clock()
        if now < self._next or not waiting:
            return
        self._next = now + EVERY_S
        tables = sorted({f"{s.section}{s.table}" for s in waiting})
        sections = {s.section for s in waiting}
        self.alerts.raise_(
            f"the store cannot record results just now (tables {', '.join(tables)} wait and "
            "resend): check the disk or the database server; the hub's log has the error",
            section=sections.pop() if len(sections) == 1 else None,
        )
