"""The Devices tab, from the hub's answer to a ``devices`` read: each base station with its
link counters, each clock display, each terminal with its kind (a hardware terminal, or a
browser on a phone or tablet: issue 15), its table, battery, signal and when it was last
heard. A link that is down is shown in red."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rich.text import Text

from hub.console.rows import Row, battery_text

DOWN = "bold red reverse"
BROWSER_SERIALS = "web-"  # a browser terminal's serial (docs/web-terminal.md, device identity)


def terminal_kind(serial: str) -> str:
    """ "browser" for a phone or tablet's page, "terminal" for a hardware terminal."""
    return "browser" if serial.startswith(BROWSER_SERIALS) else "terminal"


def device_rows(reply: dict[str, Any]) -> Iterator[Row]:
    """Base stations (and any other terminal port the hub reports), then clock displays,
    then terminals, one row each; a port's counter the hub does not give is left blank."""
    for st in reply["stations"]:
        kind = str(st.get("kind") or "base station")
        yield (
            kind,
            st.get("url", ""),
            Text("up") if st.get("connected") else Text("DOWN", style=DOWN),
            kind,
            "",
            "",
            _counted(st, "reconnects", " reconnects"),
            f"{st['frames_in']}/{st['frames_out']}" if "frames_in" in st else "",
            st.get("retransmits", ""),
            st.get("garbage", ""),
            st.get("refused", ""),
        )
    for ck in reply.get("clocks", []):
        yield (
            f"clock ({ck['protocol']})",
            ck["url"],
            Text("up") if ck["connected"] else Text("DOWN", style=DOWN),
            "clock",
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
            terminal_kind(tm["serial"]),
            battery_text(tm["battery"]),
            "" if tm["signal"] is None else f"{tm['signal']}%",
            heard,
            "",
            "",
            "",
            "",
        )


def _counted(status: dict[str, Any], key: str, unit: str) -> str:
    return f"{status[key]}{unit}" if key in status else ""
