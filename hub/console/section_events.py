"""The feed events of one section's tables and clock (docs/api.md), folded into the section
as the snapshot gives it: one handler per event, each returning the console's views to
redraw (``RoomState.dirty``); and a publication of its standings. Pure: the console's
``RoomState`` calls them for a section it knows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hub.standings.places import place

Msg = dict[str, Any]  # a message of the hub's feed, as JSON gives it
Section = dict[str, Any]  # a section of the room, as the snapshot gives it


def on_clock(section: Section, msg: Msg) -> set[str]:
    """The round clock's tick (once a second)."""
    section["clock"] = {"phase": msg["phase"], "seconds_left": msg["seconds_left"]}
    return {"clock"}


def on_result(section: Section, msg: Msg) -> set[str]:
    """A result: an accepted one is a board done at its table."""
    if msg.get("status") != "accepted":
        return set()
    section["between_rounds"] = False  # a board of the round is done: it is under way
    for t in section["tables"]:
        if t["table"] == msg["table"] and msg["board"] in t["boards"]:
            t["done"] = min(len(t["boards"]), t["done"] + 1)
    return {"room"}


def on_pairs_changed(section: Section, msg: Msg) -> set[str]:
    """The director changed the pairs: their directory, and the round's seats, as now."""
    if not isinstance(msg.get("pairs"), dict):
        return set()
    section["pairs"] = msg["pairs"]  # labels, names, numbers as now ([MENDS] #25 G8)
    seats = {s.get("table"): s for s in msg.get("seating") or [] if isinstance(s, dict)}
    for t in section["tables"]:  # the round's seats as now (a late pair sits at once)
        seat = seats.get(t["table"])
        if seat is not None:
            t.update(ns=seat.get("ns"), ew=seat.get("ew"), boards=seat.get("boards", []))
    return {"room", "standings"}


def on_behind(section: Section, msg: Msg) -> set[str]:
    """Tables' minutes behind an even pace, taken in the current round only."""
    minutes = {t: m for t, m in msg["tables"]}
    if msg.get("round") not in (None, section.get("round")):
        return set()
    for t in section["tables"]:
        if t["table"] in minutes:
            t["minutes_behind"] = minutes[t["table"]]
    return {"room", "slow"}


def on_break_scheduled(section: Section, msg: Msg) -> set[str]:
    """A break asked for during the round: it starts when the round ends."""
    section["break_after_round"] = {"round": msg.get("round"), "minutes": msg["minutes"]}
    return {"clock"}


def on_round_complete(section: Section, msg: Msg) -> set[str]:
    """The round is over."""
    section["between_rounds"] = True  # the round is over: a break starts now
    return {"clock"}


def on_round_started(section: Section, msg: Msg) -> set[str]:
    """A new round: its seating (with what the terminals said of each table), none done."""
    section["round"] = msg["round"]
    section["between_rounds"] = True  # until its first board is done (a break: now)
    if "tables" in msg:
        seen = {t["table"]: t for t in section["tables"]}
        section["tables"] = [
            dict(
                t,
                online=seen.get(t["table"], t).get("online"),
                battery=seen.get(t["table"], t).get("battery"),
            )
            for t in msg["tables"]
        ]
    else:
        for t in section["tables"]:
            t["done"] = 0
    return {"room", "slow"}


def on_battery(section: Section, msg: Msg) -> set[str]:
    """A table's lowest terminal battery, in percent."""
    for t in section["tables"]:
        if t["table"] == msg["table"]:
            t["battery"] = msg["percent"]
    return {"room"}


def on_table_silent(section: Section, msg: Msg) -> set[str]:
    """A table fell silent (``silent``: what it waits for) or moved again ([LIVENESS])."""
    for t in section["tables"]:
        if t["table"] == msg["table"]:
            t["silent"] = msg.get("silent")
    return {"room"}


def on_table_online(section: Section, msg: Msg) -> set[str]:
    """A terminal logged on at a table, or its line or connection went down."""
    for t in section["tables"]:
        if t["table"] == msg["table"]:
            t["online"] = msg["online"]
            if "terminal" in msg:  # which kind logged on (hardware or a browser)
                t["terminal"] = msg["terminal"]
    return {"room"}


SECTION_EVENTS: dict[str, Callable[[Section, Msg], set[str]]] = {
    "clock": on_clock,
    "result": on_result,
    "pairs_changed": on_pairs_changed,
    "behind": on_behind,
    "break_scheduled": on_break_scheduled,
    "round_complete": on_round_complete,
    "round_started": on_round_started,
    "battery": on_battery,
    "table_silent": on_table_silent,
    "table_online": on_table_online,
}


def take_publication(section: Section, pub: dict[str, Any]) -> None:
    """Published standings (a ``standings`` event, or the snapshot's ``published``) become
    the section's standings; each row moved from its ``previous_rank`` (the rank after the
    previous round, None in the first)."""
    section["standings"] = pub["rows"]
    section["published"] = {
        "round": pub.get("round"),
        "provisional": pub.get("provisional") or [],
        "released_by": pub.get("released_by"),
    }
    section["moved"] = {
        (r["pair"], r.get("direction")): place(r["previous_rank"]) - place(r["rank"])
        for r in pub["rows"]
        if r.get("previous_rank")
    }
