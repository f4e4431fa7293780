"""A published or proposed draw (``draw_show``'s reply, the ``draw_*`` feed events) in the
words a director reads, for the console's ``D`` and ``bridgehub teams draw``. Pure."""

from __future__ import annotations

from typing import Any


def team_text(t: dict[str, Any]) -> str:
    """A drawn team: its number and name ("5 Fives")."""
    return f"{t['team']} {t.get('name') or ''}".strip()


def three_way_text(way: dict[str, Any]) -> str:
    """A three-way of the draw on one line: its teams A, B, C, tables, rounds and its own
    board sets X, Y, Z (the director deals them)."""
    teams = ", ".join(team_text(t) for t in way["teams"])
    tables = "/".join(str(t) for t in way["tables"])
    rounds = "-".join(str(r) for r in way["rounds"])
    sets = ", ".join(f"{b[0]}-{b[-1]}" for b in way.get("boards") or () if b)
    return f"{teams} at tables {tables}, rounds {rounds}" + (f", boards {sets}" if sets else "")
