"""The devices read (the console's Devices tab): base stations with their link counters,
every terminal (where it is, battery, signal, when last heard), the clock displays, and the
hub's own background tasks with their health (decisions D17)."""

from __future__ import annotations

from typing import Any

from drivers.clock.driver import ClockDriver
from hub.live.oversight.supervisor import Supervisor
from hub.live.port.gateway import TerminalGateway


def devices_read(
    gateway: TerminalGateway,
    displays: list[ClockDriver],
    supervisor: Supervisor,
    now: float,
    silent: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """``silent``: the tables silent now, with what each waits for ([LIVENESS])."""
    clocks = [
        {
            "url": d.url,
            "protocol": d.protocol,
            "connected": d.connected.is_set(),
            "reconnects": d.reconnects,
        }
        for d in displays
    ]
    devices = {**gateway.devices(now), "clocks": clocks, "tasks": supervisor.report()}
    return devices | {"silent_tables": silent or []}
