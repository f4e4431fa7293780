"""The feed's knockout events (docs/api.md) folded into the console's room (issue
[KNOCKOUT]): ``knockout`` brings a section's whole bracket, kept as the snapshot's
``sections.<letter>.knockout`` is (the bracket screen, ``K``, redraws from it);
``ko_round_published`` is told in the log, match by match. Room events of
``RoomState.ROOM_EVENTS`` (``KNOCKOUT_EVENTS``): each takes the room and the message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from hub.api.draw_lines import team_text


class RoomState(Protocol):
    """What the handlers use of the console's room (``hub.console.state.RoomState``,
    which imports this module for its table of handlers)."""

    sections: dict[str, dict[str, Any]]

    def note(self, text: str) -> None: ...


Msg = dict[str, Any]  # a message of the hub's feed, as JSON gives it

FEED_FIELDS = ("type", "seq", "event")  # the feed's own fields, not the bracket's


def on_knockout(room: RoomState, msg: Msg) -> None:
    """A knockout section's bracket as it is now (a new dict each time, so a view that
    drew the last one knows to redraw)."""
    section = room.sections.get(str(msg.get("section")))
    if section is not None:
        section["knockout"] = {k: v for k, v in msg.items() if k not in FEED_FIELDS}


def on_ko_round_published(room: RoomState, msg: Msg) -> None:
    """The knockout's next round joined the movement: one log line a match."""
    section = str(msg.get("section"))
    names = team_names((room.sections.get(section) or {}).get("knockout") or {})
    room.note(f"section {section}: the knockout's {msg.get('round')} is published")
    for m in msg.get("matches") or []:
        tables = "/".join(map(str, m.get("tables") or []))
        home, away = (names.get(int(m[side]), str(m[side])) for side in ("home", "away"))
        room.note(f"  {m.get('match')}, tables {tables}: {home} v {away}")


def team_names(bracket: dict[str, Any]) -> dict[int, str]:
    """Each team of the bracket by its number, as the TD reads it ("3 Owls")."""
    names: dict[int, str] = {}
    teams = [t for m in bracket.get("matches") or [] for t in m.get("teams") or []]
    for m in (bracket.get("proposal") or {}).get("matches") or []:
        teams += [m.get("home"), m.get("away")]
    for t in teams:
        if isinstance(t, dict) and isinstance(t.get("team"), int):
            names[t["team"]] = team_text(t)
    return names


KNOCKOUT_EVENTS: dict[str, Callable[[RoomState, Msg], None]] = {
    "knockout": on_knockout,
    "ko_round_published": on_ko_round_published,
}
