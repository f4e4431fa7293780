"""What the feed's tabs show, row by row: the room, the standings, the TD's calls, the
slow tables, and the clock line above them, built from the console's picture of the
room. Pure, so testable without a screen; ``hub.console.tables`` puts them on it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.text import Text

from hub.console.held import held_text
from hub.console.labels import DIRECTIONS, pair_label, pair_names, row_label
from hub.console.state import RoomState, clock_text, where
from hub.standings.places import moved_text, overall_ranking, place
from scoring.numbers import display

Row = tuple[Any, ...]
SORTS = ("table", "behind")  # the room's orders: by table, or the most behind first


def clock_line(room: RoomState) -> str:
    """The line above the tabs: the event, then each section's round and clock; a round
    waiting for the director's start says which key starts it; a finished session says
    "Final results" (and where they were written, when the hub said); a lost hub first."""
    parts = [section_clock(name, sec) for name, sec in sorted(room.sections.items())]
    if room.final_where and room.sections and all(s.get("final") for s in room.sections.values()):
        parts.append(room.final_where)
    if room.lost:  # the clock and the lists below are as last heard, not live
        parts.insert(0, f"HUB LOST ({room.lost}): reconnecting, the screen is not live")
    return f"{room.event}   " + "   ".join(parts)


def section_clock(name: str, sec: dict[str, Any]) -> str:
    """One section on the clock line."""
    if sec.get("final"):
        return f"{name}: Final results"
    clock = sec.get("clock") or {}
    if clock.get("phase") == "waiting":
        return f"{name}: round {sec.get('round')} waits: press g to start"
    text = f"{name}: round {sec.get('round')}/{sec.get('rounds')} {clock_text(sec.get('clock'))}"
    pending = sec.get("break_after_round")
    if isinstance(pending, dict) and pending.get("minutes"):
        text += f", {display_minutes(pending['minutes'])}-min break after round {pending['round']}"
    return text


def display_minutes(minutes: Any) -> str:
    """Minutes as the TD said them: 10, not 10.0."""
    return f"{float(minutes):g}"


def room_rows(room: RoomState, sort: str = "table", section: str | None = None) -> dict[str, Row]:
    """The Room tab's rows by key (section:table), as the table shows them: in table order
    or most behind first, one section or all, coloured by what needs the TD; the last
    column says which kind of terminal holds the table (hardware or a browser)."""
    calls = {
        (c.get("section"), c.get("table"))
        for c in room.td_calls
        if c.get("status") in ("launched", "in_progress")
    }
    tables = [
        (name, sec, t)
        for name, sec in sorted(room.sections.items())
        if section in (None, name)
        for t in sec.get("tables", [])
    ]
    if sort == "behind":
        tables.sort(key=lambda x: -(x[2].get("minutes_behind") or 0))
    rows = {}
    for name, sec, t in tables:
        behind = t.get("minutes_behind") or 0
        late = (
            Text(f"{behind:+.1f}", style="bold red" if behind >= 5 else "yellow")
            if behind > 0
            else Text(f"{behind:+.1f}" if behind else "", style="green")
        )
        unverified = t.get("unverified") or 0
        waiting = awaits_draw(sec)  # D19: nobody is seated yet, nobody sits out
        rows[f"{name}:{t['table']}"] = (
            name,
            t["table"],
            sec.get("round"),
            "waiting for" if waiting else pair_label(sec, t["ns"], "NS"),
            "the draw" if waiting else pair_label(sec, t["ew"], "EW"),
            "" if waiting else f"{t['done']}/{len(t['boards'])}",
            late,
            Text(str(unverified), style="cyan") if unverified else Text(""),
            online_text(t),
            Text("CALL", style="bold magenta reverse") if (name, t["table"]) in calls else Text(""),
            battery_text(t.get("battery")),
            t.get("terminal") or "",  # "terminal" (hardware) or "browser" (issue 15)
        )
    return rows


def awaits_draw(sec: dict[str, Any]) -> bool:
    """The section's current round is not drawn yet (a Swiss, Danish or Monrad before the
    director publishes its draw): its tables wait for the draw ([MENDS] #25, TD trial G9)."""
    draw = sec.get("draw")
    if not isinstance(draw, dict) or not draw.get("method"):
        return False
    return int(draw.get("drawn") or 0) < int(sec.get("round") or 1)


def online_text(t: dict[str, Any]) -> Text:
    """Whether the table's terminal is on line; SILENT when it is but the table has made
    no progress for longer than a board's time ([LIVENESS]: the alert says what it waits
    for)."""
    if not t.get("online"):
        return Text("OFF", style="bold red reverse")
    if t.get("silent"):
        return Text("SILENT", style="bold yellow reverse")
    return Text("yes")


def battery_text(percent: int | None) -> Text:
    """A terminal's battery, red below 20 %."""
    if percent is None:
        return Text("")
    return Text(f"{percent}%", style="bold red" if percent < 20 else "")


def standings_rows(room: RoomState, overall: bool, measure: str) -> list[Row]:
    """The Standings tab: each section's ranking (each direction apart) with the places
    gained or lost since the last standings, or every section in one ranking."""
    if overall:
        return [
            (
                name,
                rank,
                row_label(room.sections[name], r),
                pair_names(room.sections[name], r),
                standing_text(r, measure),
                r.get("boards", ""),
                "",
            )
            for rank, name, r in overall_rows(room)
        ]
    rows = []
    for name, sec in sorted(room.sections.items()):
        moved = sec.get("moved", {})
        for r in sorted(
            sec.get("standings", []),
            key=lambda r: (DIRECTIONS.get(r.get("direction"), 2), place(r["rank"])),
        ):
            rows.append(
                (
                    name,
                    r["rank"],
                    row_label(sec, r),
                    pair_names(sec, r),
                    standing_text(r, measure),
                    r.get("boards", ""),
                    moved_text(moved.get((r["pair"], r.get("direction")))),
                )
            )
    return rows


def standing_text(row: dict[str, Any], measure: str = "total") -> str:
    """A standings total as the hub displays it (MP %, or IMPs signed); as points, the
    matchpoints scored of the tops available (``30.5/52``) or IMPs a board, computed from
    the exact values (decisions D4)."""
    if measure == "points":
        if row.get("top"):
            return f"{_points(Fraction(row['points']))}/{row['top']}"
        if "top" in row and row.get("boards"):  # IMPs: top is None
            per_board = Fraction(row["total"]) / row["boards"]
            return f"{'+' if per_board >= 0 else ''}{display(per_board, 2)}/bd"
    return str(row["text"])


def _points(points: Fraction) -> str:
    """Matchpoints as few decimals as they need: 15, 30.5, or two for Neuberg's fractions."""
    if points.denominator == 1:
        return display(points, 0)
    return display(points, 1 if (points * 10).denominator == 1 else 2)


def overall_rows(room: RoomState) -> list[tuple[str, str, dict[str, Any]]]:
    """Every section's entrants in one ranking (``hub.standings.places.overall_ranking``:
    exact totals, level totals share the place), as (rank, section, row)."""
    ranked = overall_ranking(
        (name, sec.get("standings", [])) for name, sec in sorted(room.sections.items())
    )
    return [(p.rank, p.section, dict(p.row)) for p in ranked]


def calls_rows(room: RoomState) -> list[tuple[str, Row]]:
    """The Calls tab as (key, row), the key what:id: TD calls, held results, suspicious
    scores, then the standings withheld for them."""
    rows: list[tuple[str, Row]] = []
    for c in room.td_calls:
        if c.get("status") == "resolved":
            continue  # settled: it leaves the list (the log keeps it)
        deferred = c.get("status") == "deferred"
        row: Row = (
            "TD call",
            c.get("id"),
            where(c),
            Text("deferred", style="bold yellow") if deferred else c.get("status"),
            call_text(c),
        )
        rows.append((f"call:{c.get('id')}", row))
    for h in room.held:
        row = (
            "held",
            h.get("id"),
            where(h),
            f"board {h.get('board')}",
            held_text(room, h),
        )
        rows.append((f"held:{h.get('id')}", row))
    for (section, board), flags in sorted(room.suspicious.items()):
        for f in flags:
            row = (
                Text("suspicious", style="bold yellow"),
                f"bd {board}",
                f"{section}{f['table']}",
                f"round {f['round']}",
                f["reason"],
            )
            rows.append((f"flag:{section}:{board}:{f['table']}:{f['round']}", row))
    for section, rnd in sorted(room.withheld.items()):
        row = (
            Text("standings", style="bold"),
            section,
            "",
            f"round {rnd} withheld",
            "waiting for the held results and suspicious scores above; Enter releases them now",
        )
        rows.append((f"withheld:{section}", row))
    return rows


def call_text(call: dict[str, Any]) -> str:
    """A TD call's note and ruling, as the Calls list shows them."""
    parts = [str(call["note"])] if call.get("note") else []
    if call.get("ruling"):
        parts.append(f"ruling: {call['ruling']}")
    return "; ".join(parts)


def slow_rows(room: RoomState) -> dict[str, Row]:
    """The Slow tab: penalties waiting for the TD, then every table behind schedule, most
    behind first, then penalties already decided."""
    rows: dict[str, Row] = {}
    pens = sorted(room.penalties, key=lambda p: p.get("status") != "proposed")
    for p in (p for p in pens if p.get("status") == "proposed"):
        rows[f"penalty:{p['id']}"] = (
            Text("penalty", style="bold yellow"),
            p.get("section") or "",
            p.get("table") or "",
            p.get("round") or "",
            "",
            p["status"],
            p.get("reason", ""),
        )
    late = [
        (name, sec, t)
        for name, sec in sorted(room.sections.items())
        for t in sec.get("tables", [])
        if (t.get("minutes_behind") or 0) > 0
    ]
    late.sort(key=lambda x: -x[2]["minutes_behind"])
    for name, sec, t in late:
        behind = t["minutes_behind"]
        rows[f"late:{name}:{t['table']}"] = (
            "late",
            name,
            t["table"],
            sec.get("round"),
            Text(f"{behind:+.1f}", style="bold red" if behind >= 5 else "yellow"),
            "" if t.get("online") else Text("OFF", style="bold red reverse"),
            f"{t['done']}/{len(t['boards'])} boards, "
            f"NS {pair_label(sec, t['ns'], 'NS')} EW {pair_label(sec, t['ew'], 'EW')}",
        )
    for p in (p for p in pens if p.get("status") != "proposed"):
        rows[f"penalty:{p['id']}"] = (
            "penalty",
            p.get("section") or "",
            p.get("table") or "",
            p.get("round") or "",
            "",
            p.get("status"),
            p.get("reason", ""),
        )
    return rows
