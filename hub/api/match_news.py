"""A teams section's matches of the round as a client of the feed keeps them (the result
screen, the console's Matches tab; docs/api.md): the snapshot's
``sections.<letter>.matches``, the ``matches`` event (the whole round's list), the
``match`` event (one match, after a table's result: merged by its number) and
``round_started`` (the same tables meet again, nothing scored yet). Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Match = dict[str, Any]
SCORES = ("home_imps", "away_imps", "home_vp", "away_vp")


def take_matches(current: list[Match], msg: dict[str, Any]) -> list[Match]:
    """The matches after a ``matches`` or ``match`` event; a match of another round than
    the list's starts the list of its round."""
    if msg.get("event") == "matches":
        return list(msg.get("matches") or [])
    one = msg.get("match")
    if not isinstance(one, dict):
        return current
    kept = [m for m in current if m.get("round") == one.get("round")]
    kept = [m for m in kept if m.get("match") != one.get("match")] + [one]
    return sorted(kept, key=lambda m: int(m.get("match") or 0))


def next_round(current: list[Match], rnd: int, tables: list[dict[str, Any]]) -> list[Match]:
    """The matches of a round just started: each match's open table as the new round seats
    it (home team NS), every board out, nothing scored; names as the teams had them. A
    three-way's match whose second room plays this round stays as it was."""
    seated = {t.get("table"): t for t in tables}
    names: dict[Any, str] = {}
    for m in current:
        names[m.get("home")] = m.get("home_name") or ""
        names[m.get("away")] = m.get("away_name") or ""
    out = []
    for m in current:
        if m.get("open_round", m.get("round")) != m.get("closed_round", m.get("round")):
            if m.get("closed_round") == rnd:  # a three-way's match: its second room now
                out.append({**m, "round": rnd})
            continue
        t = seated.get(m.get("open_table"))
        if t is None or not (t.get("ns") and t.get("ew")):
            continue
        home, away = t["ns"], t["ew"]
        boards = list(t.get("boards") or [])
        out.append(
            {
                **m,
                "round": rnd,
                "home": home,
                "away": away,
                "home_name": names.get(home, ""),
                "away_name": names.get(away, ""),
                "boards": boards,
                "out": boards,
                "scored": 0,
                **dict.fromkeys(SCORES),
            }
        )
    return out


def tables_text(m: Mapping[str, Any]) -> str:
    """A match's two tables, "3/4"; with each room's round when they differ (a three-way's
    rooms are a round apart: "7 r1/8 r2")."""
    rounds = (m.get("open_round"), m.get("closed_round"))
    if rounds[0] is not None and rounds[1] is not None and rounds[0] != rounds[1]:
        return f"{m.get('open_table', '')} r{rounds[0]}/{m.get('closed_table', '')} r{rounds[1]}"
    return f"{m.get('open_table', '')}/{m.get('closed_table', '')}"
