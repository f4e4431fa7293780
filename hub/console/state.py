"""The console's picture of the room, folded from the hub's snapshot and events; the
widgets only read it, so it is testable without a screen."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any


@dataclass
class RoomState:
    seq: int = 0
    event: str = ""
    sections: dict[str, dict[str, Any]] = field(default_factory=dict)
    held: list[dict[str, Any]] = field(default_factory=list)
    td_calls: list[dict[str, Any]] = field(default_factory=list)
    penalties: list[dict[str, Any]] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    dirty: set[str] = field(default_factory=set)

    def apply(self, msg: dict[str, Any]) -> None:
        """Take one message from the hub's feed."""
        if msg.get("type") == "snapshot":
            state = copy.deepcopy(msg["state"])  # ours to change as events arrive
            self.seq = msg["seq"]
            self.event = state.get("event", "")
            self.sections = state.get("sections", {})
            self.held = state.get("held", [])
            self.td_calls = state.get("td_calls", [])
            self.penalties = state.get("penalties", [])
            self.dirty |= {"room", "standings", "calls", "log", "clock"}
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
        elif kind == "round_started" and section is not None:
            section["round"] = msg["round"]
            if "tables" in msg:
                online = {t["table"]: t.get("online") for t in section["tables"]}
                section["tables"] = [dict(t, online=online.get(t["table"], t.get("online")))
                                     for t in msg["tables"]]
            else:
                for t in section["tables"]:
                    t["done"] = 0
            self.dirty.add("room")
        elif kind == "table_online" and section is not None:
            for t in section["tables"]:
                if t["table"] == msg["table"]:
                    t["online"] = msg["online"]
            self.dirty.add("room")
        elif kind == "standings" and section is not None:
            section["standings"] = msg["rows"]
            self.dirty.add("standings")
        elif kind == "alert" and msg.get("held"):
            self.held.append({"id": msg.get("result"), "table": msg.get("table"),
                              "round": msg.get("round"), "board": msg.get("board")})
        elif kind == "td_call":
            self.td_calls.append({"id": msg.get("call"), "table": msg.get("table"),
                                  "status": msg.get("status"), "note": msg.get("text")})
            self.dirty.add("calls")
        elif kind == "penalty_proposed":
            self.penalties.append({"id": msg["id"], "status": "proposed",
                                   "reason": msg["text"]})
            self.dirty.add("calls")
        text = self.describe(msg)
        if text:
            self.log.append(text)
            del self.log[:-500]
            self.dirty.add("log")

    @staticmethod
    def describe(msg: dict[str, Any]) -> str:
        kind = msg["event"]
        if kind == "alert":
            return f"! {msg['text']}"
        if kind == "td_call":
            return f"TD call at table {msg.get('section', '')}{msg.get('table')}: " \
                   f"{msg.get('status')}"
        if kind == "round_complete":
            return f"round {msg['round']} complete in section {msg['section']}"
        if kind == "standings_withheld":
            return f"standings withheld: held results on boards {msg['boards']}"
        if kind == "penalty_proposed":
            return f"penalty proposed: {msg['text']}"
        return ""


def clock_text(clock: dict[str, Any] | None) -> str:
    if not clock:
        return "--:--"
    s = clock["seconds_left"]
    sign = "-" if s < 0 else ""
    s = abs(s)
    return f"{clock['phase'].replace('_', ' ')} {sign}{s // 60:02d}:{s % 60:02d}"
