"""The Devices tab, from the hub's answer to a ``devices`` read: each base station with its
link counters, each clock display, each terminal with its table, battery, signal and when
it was last heard. A link that is down is shown in red."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rich.text import Text

from hub.console.rows import Row, battery_text

DOWN = "bold red reverse"


def device_rows(reply: dict[str, Any]) -> Iterator[Row]:
    """Base stations, then clock displays, then terminals, one row each."""
    for st in reply["stations"]:
        yield (
            "base station",
            st["url"],
            Text("up") if st["connected"] else Text("DOWN", style=DOWN),
            "",
            "",
            f"{st['reconnects']} reconnects",
            f"{st['frames_in']}/{st['frames_out']}",
            st["retransmits"],
            st["garbage"],
            st["refused"],
        )
    for ck in reply.get("clocks", []):
        yield (
            f"clock ({ck['protocol']})",
            ck["url"],
            Text("up") if ck["connected"] else Text("DOWN", style=DOWN),
            "",
            "",
            f"{ck['reconnects']} reconnects",
            "",
            "",
            "",
            "",
        )
    for tm in reply["terminals"]:
        where = f"{tm['section']}{tm['table']}" if tm["table"] is not None else "-"
        heard = "" if tm["seconds_ago"] is None else f"{tm['seconds_ago']:.0f} s ago"
        yield (
            tm["serial"],
            where,
            Text("on line") if tm["online"] else Text("OFF", style=DOWN),
            battery_text(tm["battery"]),
            "" if tm["signal"] is None else f"{tm['signal']}%",
            heard,
            "",
            "",
            "",
            "",
        )
