"""The room as the console draws it (the snapshot's ``tables``): each table of a round with
its pairs, boards, progress and terminal (which kind: a hardware terminal or a browser, issue
15). A plain read of the loop's state: called on the
hub's asyncio loop."""

from __future__ import annotations

from typing import Any

from hub.event.movement.model import Movement
from hub.live.port.gateway import TerminalGateway
from hub.live.rounds.round_controller import RoundController

BROWSER_SERIALS = "web-"  # a browser terminal's serial (docs/web-terminal.md, device identity)


def terminal_kind(gateway: TerminalGateway, section: str, table: int) -> str | None:
    """Which kind of terminal holds the table: "browser" (a phone or tablet), "terminal"
    (hardware, through a base station), or None when none has logged on to it."""
    seats = gateway.at_table(section, table)
    if not seats:
        return None
    return "browser" if seats[0].serial.startswith(BROWSER_SERIALS) else "terminal"


def room_tables(
    movement: Movement,
    ctl: RoundController,
    gateway: TerminalGateway,
    section: str,
    rnd: int | None = None,
) -> list[dict[str, Any]]:
    """Each table of round ``rnd`` (default the current one) and its progress."""
    rnd = ctl.round if rnd is None else rnd
    return [
        {
            "table": row.table,
            "ns": row.ns_pair,
            "ew": row.ew_pair,
            "boards": list(row.boards),
            "done": ctl.done(row.table) if rnd == ctl.round else 0,
            "unverified": ctl.unverified(row.table) if rnd == ctl.round else 0,
            "minutes_behind": 0.0,
            "online": gateway.online(section, row.table),
            "battery": gateway.battery(section, row.table),
            "terminal": terminal_kind(gateway, section, row.table),
        }
        for row in movement.round_rows(rnd, section)
    ]
