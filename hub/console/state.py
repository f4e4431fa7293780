"""The console's picture of the room, folded from the hub's snapshot and events; the
widgets only read it, so it is testable without a screen."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
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
    times: list[str] = field(default_factory=list)  # HH:MM:SS of each log line
    logged: int = 0  # log lines ever written (the log view appends what is new)
    warnings: list[str] = field(default_factory=list)  # refusals to show where the TD looks
    news: list[str] = field(default_factory=list)  # answers to show where the TD looks
    final_where: str = ""  # where the final results were written, as the hub said
    lost: str = ""  # why the link to the hub is down (until its snapshot comes again)
    stamp: Callable[[], str] = field(default=lambda: time.strftime("%H:%M:%S"))  # log times

    def warn(self, text: str) -> None:
        """A refusal or failure of the TD's own command: logged, and shown on screen (a
        notification and the status line), not only in the log (TD trial F12)."""
        self.note(text)
        self.warnings.append(text)

    def tell(self, text: str) -> None:
        """An answer the TD waits for (a break that starts when the round ends): logged,
        and shown on screen."""
        self.note(text)
        self.news.append(text)

    def sent(self, command_id: str, what: str, quiet: bool = False) -> None:
        """Remember a command so its reply can be told to the TD."""
        self.pending[command_id] = what
        if quiet:
            self.quiet.add(command_id)

    def apply(self, msg: dict[str, Any]) -> None:
        """Take one message from the hub's feed."""
        if self.lost and msg.get("type") != "link":  # the hub is heard again
            self.lost = ""
            self.dirty.add("clock")
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
            if msg.get("ok"):
                said = msg.get("text") or msg.get("message")
                self.note(f"{what}: done" + (f" ({said})" if isinstance(said, str) else ""))
            else:
                self.warn(f"! {what} refused: {msg.get('error', 'no reason given')}")
            return
        if msg.get("type") == "reply" and not msg.get("ok"):  # e.g. the log-in
            self.warn(f"! the hub refused {msg.get('id') or 'a request'}: {msg.get('error')}")
            return
        if msg.get("type") == "link":  # shown on screen: what the TD sees is not live
            self.lost = str(msg.get("error") or "no reason given")
            self.warn(f"! lost the hub ({self.lost}); reconnecting")
            self.dirty.add("clock")
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
            section["between_rounds"] = False  # a board of the round is done: it is under way
            for t in section["tables"]:
                if t["table"] == msg["table"] and msg["board"] in t["boards"]:
                    t["done"] = min(len(t["boards"]), t["done"] + 1)
            self.dirty.add("room")
        elif kind == "pairs_changed" and section is not None and isinstance(msg.get("pairs"), dict):
            section["pairs"] = msg["pairs"]  # labels, names, numbers as now ([MENDS] #25 G8)
            seats = {s.get("table"): s for s in msg.get("seating") or [] if isinstance(s, dict)}
            for t in section["tables"]:  # the round's seats as now (a late pair sits at once)
                seat = seats.get(t["table"])
                if seat is not None:
                    t.update(ns=seat.get("ns"), ew=seat.get("ew"), boards=seat.get("boards", []))
            self.dirty |= {"room", "standings"}
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
        elif kind == "break_scheduled" and section is not None:
            section["break_after_round"] = {"round": msg.get("round"), "minutes": msg["minutes"]}
            self.dirty.add("clock")
        elif kind == "round_complete" and section is not None:
            section["between_rounds"] = True  # the round is over: a break starts now
            self.dirty.add("clock")
        elif kind == "standings_withheld":
            self.withheld[msg["section"]] = msg["round"]
            self.dirty |= {"calls", "standings"}
        elif kind == "round_started" and section is not None:
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
            self.dirty |= {"room", "slow"}
        elif kind == "battery" and section is not None:
            for t in section["tables"]:
                if t["table"] == msg["table"]:
                    t["battery"] = msg["percent"]
            self.dirty.add("room")
        elif kind == "table_silent" and section is not None:  # [LIVENESS]
            for t in section["tables"]:
                if t["table"] == msg["table"]:
                    t["silent"] = msg.get("silent")
            self.dirty.add("room")
        elif kind == "table_online" and section is not None:
            for t in section["tables"]:
                if t["table"] == msg["table"]:
                    t["online"] = msg["online"]
                    if "terminal" in msg:  # which kind logged on (hardware or a browser)
                        t["terminal"] = msg["terminal"]
            self.dirty.add("room")
        elif kind == "standings" and section is not None:
            take_publication(section, msg)
            self.withheld.pop(msg["section"], None)
            self.dirty |= {"standings", "calls"}
        elif kind == "alert" and msg.get("held"):
            self.held.append(
                {
                    **{k: msg[k] for k in HELD_DETAILS if k in msg and k != "result"},
                    "id": msg.get("result"),
                    "section": msg.get("section"),
                    "table": msg.get("table"),
                    "round": msg.get("round"),
                    "board": msg.get("board"),
                    "text": msg.get("text"),
                }
            )
            self.dirty.add("calls")
        elif kind == "held_details":  # what was sent, just after the held result's alert
            for row in self.held:
                if row.get("id") == msg.get("id"):
                    row.update({k: msg[k] for k in HELD_DETAILS if k in msg})
            self.dirty.add("calls")
        elif kind == "alert" and "final results written" in str(msg.get("text", "")).lower():
            self.final_where = str(msg["text"])
            self.dirty |= {"clock", "standings"}
        elif kind == "session_complete":
            for name, sec in self.sections.items():
                if msg.get("section") in (None, name):
                    sec["final"] = True
            out = msg.get("folder") or msg.get("outputs") or msg.get("paths")
            if out:
                shown = ", ".join(map(str, out)) if isinstance(out, list) else str(out)
                self.final_where = f"final results written to {shown}"
            self.dirty |= {"clock", "standings", "room"}
        elif kind in ("held_accepted", "held_rejected"):
            held = next((h for h in self.held if h["id"] == msg["result"]), {})
            self.held = [h for h in self.held if h["id"] != msg["result"]]
            self.dirty.add("calls")
            if kind == "held_accepted":
                self._held_done(
                    held | {k: msg[k] for k in ("section", "table", "round", "board") if k in msg}
                )
        elif kind == "td_call":
            known = next((c for c in self.td_calls if c["id"] == msg.get("call")), None)
            if known is None:
                known = {
                    "id": msg.get("call"),
                    "section": msg.get("section"),
                    "table": msg.get("table"),
                    "status": msg.get("status"),
                    "note": msg.get("text"),
                }
                self.td_calls.append(known)
            known["status"] = msg.get("status")
            for part in ("note", "ruling"):
                if msg.get(part):
                    known[part] = msg[part]
            self.dirty |= {"calls", "room"}
            self.note(f"TD call {known['id']} at table {where(known)}: {known['status']}")
            return
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

    def _held_done(self, where: dict[str, Any]) -> None:
        """A held result the director accepted is a board done at its table, as one the
        table entered is ([MENDS] #25, TD trial G9: the Room stayed at 5/6)."""
        sec = self.sections.get(str(where.get("section")))
        if sec is None or where.get("round") != sec.get("round"):
            return
        for t in sec["tables"]:
            if t["table"] == where.get("table") and where.get("board") in t["boards"]:
                t["done"] = min(len(t["boards"]), t["done"] + 1)
                self.dirty.add("room")

    def note(self, text: str) -> None:
        """A line in the event log with its time (the last 500 are kept)."""
        self.log.append(text)
        self.times.append(self.stamp())
        del self.log[:-500]
        del self.times[:-500]
        self.logged += 1
        self.dirty.add("log")

    def log_lines(self, last: int) -> list[str]:
        """The last ``last`` log lines, each after its time (HH:MM:SS)."""
        last = min(last, len(self.log))
        return [f"{t} {x}" for t, x in zip(self.times[-last:], self.log[-last:], strict=True)]

    @staticmethod
    def describe(msg: dict[str, Any]) -> str:
        kind = msg["event"]
        if kind == "alert":
            return f"! {msg['text']}"
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


# what a held result's row may tell beyond where it is (the hub adds them: render what is
# there); in an ``alert`` event ``result`` is the held row's number, not the +1/-2 form
HELD_DETAILS = (
    "contract", "declarer", "result", "tricks", "lead", "score_ns", "entered_by", "ns_pair",
    "ew_pair", "reason", "conflict", "can_accept_as_sent",
)  # fmt: skip


def where(row: dict[str, Any]) -> str:
    """A table as the TD names it: its section letter and number (A2)."""
    return f"{row.get('section') or ''}{row.get('table') if row.get('table') is not None else '?'}"


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
        if sec.get("final"):  # the session is over
            text = (
                f"{name}: after round {pub['round']}: Final results"
                if pub
                else f"{name}: Final results"
            )
        if pub and pub["provisional"]:
            boards = ", ".join(map(str, pub["provisional"]))
            text += f", PROVISIONAL on board{'s' * (len(pub['provisional']) > 1)} {boards}"
            if pub.get("released_by"):
                text += f" (released by {pub['released_by']})"
        if name in room.withheld:
            text += f"; round {room.withheld[name]} withheld (Calls)"
        parts.append(text)
    if room.final_where:
        parts.append(room.final_where)
    return "   ".join(parts)


def clock_text(clock: dict[str, Any] | None) -> str:
    """A section's clock as the room sees it: phase and time left (``play 12:05``)."""
    if not clock:
        return "--:--"
    s = clock.get("seconds_left")
    if s is None:
        return str(clock.get("phase", "")).replace("_", " ")
    sign = "-" if s < 0 else ""
    s = abs(s)
    return f"{clock['phase'].replace('_', ' ')} {sign}{s // 60:02d}:{s % 60:02d}"
