"""What the console's event log says of a feed event (docs/api.md), in the TD's words: one
line per event kind that the director should hear of, nothing for the others. Pure."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# an event's log line, by its kind (the fields are the hub's: a field left out is a KeyError)
EVENT_LINES: dict[str, Callable[[dict[str, Any]], str]] = {
    "alert": lambda m: f"! {m['text']}",
    "round_complete": lambda m: f"round {m['round']} complete in section {m['section']}",
    "standings_withheld": lambda m: (
        f"standings of round {m['round']} in section {m['section']} withheld: "
        f"held results or suspicious scores on boards {m['boards']} "
        "(Calls tab)"
    ),
    "penalty_proposed": lambda m: f"penalty proposed: {m['text']}",
    "held_accepted": lambda m: f"held result {m['result']} accepted as board {m['board']}",
    "held_rejected": lambda m: f"held result {m['result']} rejected",
    "penalty_decided": lambda m: f"penalty {m['id']} {m['status']}",
    "table_online": lambda m: (
        "" if m["online"] else f"table {m['section']}{m['table']} is off line"
    ),
}


def event_line(msg: dict[str, Any]) -> str:
    """The log line of a feed event (``msg["event"]`` its kind); "" for one the log leaves
    out (the events a view shows by itself, as a clock's tick)."""
    kind = msg["event"]
    line = EVENT_LINES.get(kind) if isinstance(kind, str) else None
    return line(msg) if line is not None else ""


def where(row: dict[str, Any]) -> str:
    """A table as the TD names it: its section letter and number (A2)."""
    return f"{row.get('section') or ''}{row.get('table') if row.get('table') is not None else '?'}"
