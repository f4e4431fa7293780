"""The console's picture of the room, folded from the hub's snapshot and events; the
widgets only read it, so it is testable without a screen."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from hub.standings.places import place


@dataclass
class RoomState:
    """The room as the console last heard it, and what needs redrawing. Lives on the
    Textual app's event loop: the feed's worker folds messages in, the redraw reads them."""

    seq: int = 0
    event: str = ""
    sections: dict[str, dict[str, Any]] = field(default_factory=dict)
    held: list[dict[str, Any]] = field(default_factory=list)
    td_calls: list[dict[str, Any]] = field(default_factory=list)
    penalties: list[dict[str, Any]] = field(default_factory=list)
    suspicious: dict[tuple[str, int], list[dict[str, Any]]] = field(default_factory=dict)
    withheld: dict[str, int] = field(default_factory=dict)  # section → round
    log: list[str] = field(default_factory=list)
    dirty: set[str] = field(default_factory=set)
    pending: dict[str, str] = field(default_factory=dict)  # command id -> what the TD asked
    quiet: set[str] = field(default_factory=set)  # ids whose success is not logged

    def sent(self, command_id: str, what: str, quiet: bool = False) -> None:
        """Remember a command so its reply can be told to the TD."""
        self.pending[command_id] = what
        if quiet:
            self.quiet.add(command_id)

    def apply(self, msg: dict[str, Any]) -> None:
        """Take one message from the hub's feed."""
        if msg.get("type") == "snapshot":
            state = copy.deepcopy(msg["state"])  # ours to change as events arrive
            self.seq = msg["seq"]
            self.event = state.get("event", "")
            self.sections = state.get("sections", {})
            for sec in self.sections.values():
                if (sec.get("published") or {}).get("round"):
                    take_publication(sec, sec["published"])
                else:  # nothing published yet: the live standings, "as of now"
                    sec.pop("published", None)
            self.held = state.get("held", [])
            self.td_calls = state.get("td_calls", [])
            self.penalties = state.get("penalties", [])
            self.suspicious = {}
            for f in state.get("suspicious", []):
                self.suspicious.setdefault((f["section"], f["board"]), []).append(f)
            self.withheld = dict(state.get("withheld", {}))
            self.dirty |= {"room", "standings", "calls", "slow", "log", "clock"}
            return
        if msg.get("type") == "reply" and msg.get("id") in self.pending:
            what = self.pending.pop(msg["id"])
            if msg["id"] in self.quiet:
                self.quiet.discard(msg["id"])
                if msg.get("ok"):
                    return
            self.note(
                f"{what}: done"
                if msg.get("ok")
                else f"! {what} refused: {msg.get('error', 'no reason given')}"
            )
            return
        if msg.get("type") == "reply" and not msg.get("ok"):  # e.g. the log-in
            self.note(f"! the hub refused {msg.get('id') or 'a request'}: {msg.get('error')}")
            return
        if msg.get("type") == "link":
            self.note(f"! lost the hub ({msg.get('error')}); reconnecting")
            return
        if msg.get("type") == "session":
            self.note("director session opened")
            return
        if msg.get("type") != "event":
            return
        self.seq = msg["seq"]
        kind = msg["event"]
        section = self.sections.get(msg.get("section", ""), None)
        if kind == "clock" and section is not None:
            section["clock"] = {"phase": msg["phase"], "seconds_left": msg["seconds_left"]}
            self.dirty.add("clock")
            return
        if kind == "result" and section is not None and msg.get("status") == "accepted":
            for t in section["tables"]:
                if t["table"] == msg["table"] and msg["board"] in t["boards"]:
                    t["done"] = min(len(t["boards"]), t["done"] + 1)
            self.dirty.add("room")
        elif kind == "behind" and section is not None:
            minutes = {t: m for t, m in msg["tables"]}
            if msg.get("round") in (None, section.get("round")):
                for t in section["tables"]:
                    if t["table"] in minutes:
                        t["minutes_behind"] = minutes[t["table"]]
                self.dirty |= {"room", "slow"}
        elif kind == "suspicious":
            key = (msg["section"], msg["board"])
            flagged = {(f["table"], f["round"]) for f in self.suspicious.get(key, [])}
            for f in msg["flags"]:  # only what is new: a flag's text changes as results come
                if (f["table"], f["round"]) not in flagged:
                    self.note(
                        f"! suspicious score at table {f['section']}{f['table']} board "
                        f"{f['board']}: {f['reason']}"
                    )
            if msg["flags"]:
                self.suspicious[key] = msg["flags"]
            elif self.suspicious.pop(key, None):
                self.note(
                    f"board {msg['board']} in section {msg['section']}: no suspicious score left"
                )
            self.dirty.add("calls")
        elif kind == "standings_withheld":
            self.withheld[msg["section"]] = msg["round"]
            self.dirty |= {"calls", "standings"}
        elif kind == "round_started" and section is not None:
            section["round"] = msg["round"]
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
            self.dirty |= {"room", "slow"}
        elif kind == "battery" and section is not None:
            for t in section["tables"]:
                if t["table"] == msg["table"]:
                    t["battery"] = msg["percent"]
            self.dirty.add("room")
        elif kind == "table_online" and section is not None:
            for t in section["tables"]:
                if t["table"] == msg["table"]:
                    t["online"] = msg["online"]
            self.dirty.add("room")
        elif kind == "standings" and section is not None:
            take_publication(section, msg)
            self.withheld.pop(msg["section"], None)
            self.dirty |= {"standings", "calls"}
        elif kind == "alert" and msg.get("held"):
            self.held.append(
                {
                    "id": msg.get("result"),
                    "section": msg.get("section"),
                    "table": msg.get("table"),
                    "round": msg.get("round"),
                    "board": msg.get("board"),
                    "text": msg.get("text"),
                }
            )
            self.dirty.add("calls")
        elif kind in ("held_accepted", "held_rejected"):
            self.held = [h for h in self.held if h["id"] != msg["result"]]
            self.dirty.add("calls")
        elif kind == "td_call":
            known = next((c for c in self.td_calls if c["id"] == msg.get("call")), None)
            if known is None:
                self.td_calls.append(
                    {
                        "id": msg.get("call"),
                        "section": msg.get("section"),
                        "table": msg.get("table"),
                        "status": msg.get("status"),
                        "note": msg.get("text"),
                    }
                )
            else:
                known["status"] = msg.get("status")
            self.dirty.add("calls")
        elif kind == "penalty_proposed":
            self.penalties.append(
                {
                    "id": msg["id"],
                    "status": "proposed",
                    "section": msg.get("section"),
                    "table": msg.get("table"),
                    "round": msg.get("round"),
                    "reason": msg["text"],
                }
            )
            self.dirty.add("slow")
        elif kind == "penalty_decided":
            for p in self.penalties:
                if p["id"] == msg["id"]:
                    p["status"] = msg["status"]
            self.dirty.add("slow")
        text = self.describe(msg)
        if text:
            self.note(text)

    def note(self, text: str) -> None:
        """A line in the event log (the last 500 are kept)."""
        self.log.append(text)
        del self.log[:-500]
        self.dirty.add("log")

    @staticmethod
    def describe(msg: dict[str, Any]) -> str:
        kind = msg["event"]
        if kind == "alert":
            return f"! {msg['text']}"
        if kind == "td_call":
            return (
                f"TD call at table {msg.get('section', '')}{msg.get('table')}: {msg.get('status')}"
            )
        if kind == "round_complete":
            return f"round {msg['round']} complete in section {msg['section']}"
        if kind == "standings_withheld":
            return (
                f"standings of round {msg['round']} in section {msg['section']} withheld: "
                f"held results or suspicious scores on boards {msg['boards']} "
                "(Calls tab)"
            )
        if kind == "penalty_proposed":
            return f"penalty proposed: {msg['text']}"
        if kind == "held_accepted":
            return f"held result {msg['result']} accepted as board {msg['board']}"
        if kind == "held_rejected":
            return f"held result {msg['result']} rejected"
        if kind == "penalty_decided":
            return f"penalty {msg['id']} {msg['status']}"
        if kind == "table_online" and not msg["online"]:
            return f"table {msg['section']}{msg['table']} is off line"
        return ""


def take_publication(section: dict[str, Any], pub: dict[str, Any]) -> None:
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


def standings_note(room: RoomState) -> str:
    """Above the standings: which round each section's are after, boards released as
    provisional (decisions D12), and rounds still withheld."""
    parts = []
    for name, sec in sorted(room.sections.items()):
        pub = sec.get("published")
        text = f"{name}: after round {pub['round']}" if pub else f"{name}: as of now"
        if pub and pub["provisional"]:
            boards = ", ".join(map(str, pub["provisional"]))
            text += f", PROVISIONAL on board{'s' * (len(pub['provisional']) > 1)} {boards}"
            if pub.get("released_by"):
                text += f" (released by {pub['released_by']})"
        if name in room.withheld:
            text += f"; round {room.withheld[name]} withheld (Calls)"
        parts.append(text)
    return "   ".join(parts)


def clock_text(clock: dict[str, Any] | None) -> str:
    if not clock:
        return "--:--"
    s = clock["seconds_left"]
    sign = "-" if s < 0 else ""
    s = abs(s)
    return f"{clock['phase'].replace('_', ' ')} {sign}{s // 60:02d}:{s % 60:02d}"
