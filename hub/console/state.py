"""The console's picture of the room, folded from the hub's snapshot and events; the
widgets only read it, so it is testable without a screen. Each type of feed message, and
each feed event (docs/api.md), has its own handler, as a Textual app has one ``on_<name>``
method per message: a section's tables and clock in ``hub/console/section_events.py``, the
room's lists and log here, the log's wording in ``hub/console/event_log.py``."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from hub.console.event_log import event_line, where
from hub.console.knockout_events import KNOCKOUT_EVENTS
from hub.console.section_events import SECTION_EVENTS, take_publication

Msg = dict[str, Any]  # a message of the hub's feed, as JSON gives it


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

    def apply(self, msg: Msg) -> None:
        """Take one message from the hub's feed: its type's handler (``MESSAGES``); a type
        the console does not know is let by."""
        if self.lost and msg.get("type") != "link":  # the hub is heard again
            self.lost = ""
            self.dirty.add("clock")
        kind = msg.get("type")
        handler = self.MESSAGES.get(kind) if isinstance(kind, str) else None
        if handler is not None:
            handler(self, msg)

    # -- the feed's messages, by type --------------------------------------------------------

    def _on_snapshot(self, msg: Msg) -> None:
        """The whole room anew (at log-in, after a reconnection, or for a slow console)."""
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

    def _on_reply(self, msg: Msg) -> None:
        """The hub's answer to a request: told to the TD when it answers a command, or
        when it refuses (e.g. the log-in); other answers are for whoever asked."""
        if msg.get("id") in self.pending:
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
        elif not msg.get("ok"):  # e.g. the log-in
            self.warn(f"! the hub refused {msg.get('id') or 'a request'}: {msg.get('error')}")

    def _on_link(self, msg: Msg) -> None:
        """The link to the hub is down: shown on screen, as what the TD sees is not live."""
        self.lost = str(msg.get("error") or "no reason given")
        self.warn(f"! lost the hub ({self.lost}); reconnecting")
        self.dirty.add("clock")

    def _on_session(self, msg: Msg) -> None:
        """The director's log-in was taken."""
        self.note("director session opened")

    def _on_event(self, msg: Msg) -> None:
        """One event: its handler (``SECTION_EVENTS`` for a section the console knows, else
        ``ROOM_EVENTS``; an event without one is only counted), then its log line."""
        self.seq = msg["seq"]
        kind = msg["event"]
        section = self.sections.get(msg.get("section", ""), None)
        if isinstance(kind, str) and kind in SECTION_EVENTS:
            if section is not None:
                self.dirty |= SECTION_EVENTS[kind](section, msg)
        elif isinstance(kind, str) and kind in self.ROOM_EVENTS:
            self.ROOM_EVENTS[kind](self, msg)
        text = event_line(msg)
        if text:
            self.note(text)

    # -- events of the room's lists: calls, held results, flags, penalties, standings -------

    def _on_standings(self, msg: Msg) -> None:
        """A section's standings published: its round is no longer withheld."""
        section = self.sections.get(msg.get("section", ""), None)
        if section is None:
            return
        take_publication(section, msg)
        self.withheld.pop(msg["section"], None)
        self.dirty |= {"standings", "calls"}

    def _on_standings_withheld(self, msg: Msg) -> None:
        """A round's standings wait for held results or flags (Calls tab)."""
        self.withheld[msg["section"]] = msg["round"]
        self.dirty |= {"calls", "standings"}

    def _on_suspicious(self, msg: Msg) -> None:
        """A board's open suspicious-score flags, in full: the new ones are logged."""
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
            self.note(f"board {msg['board']} in section {msg['section']}: no suspicious score left")
        self.dirty.add("calls")

    def _on_alert(self, msg: Msg) -> None:
        """An alert: a held result joins the Calls tab; where the final results went."""
        if msg.get("held"):
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
        elif "final results written" in str(msg.get("text", "")).lower():
            self.final_where = str(msg["text"])
            self.dirty |= {"clock", "standings"}

    def _on_held_details(self, msg: Msg) -> None:
        """What was sent, just after the held result's alert."""
        for row in self.held:
            if row.get("id") == msg.get("id"):
                row.update({k: msg[k] for k in HELD_DETAILS if k in msg})
        self.dirty.add("calls")

    def _on_held_accepted(self, msg: Msg) -> None:
        """The director accepted a held result: off the list, a board done at its table."""
        held = self._unhold(msg)
        self._held_done(
            held | {k: msg[k] for k in ("section", "table", "round", "board") if k in msg}
        )

    def _on_held_rejected(self, msg: Msg) -> None:
        """The director rejected a held result: off the list."""
        self._unhold(msg)

    def _unhold(self, msg: Msg) -> dict[str, Any]:
        """Take the held result ``msg["result"]`` off the list; its row ({} if unknown)."""
        held = next((h for h in self.held if h["id"] == msg["result"]), {})
        self.held = [h for h in self.held if h["id"] != msg["result"]]
        self.dirty.add("calls")
        return held

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

    def _on_session_complete(self, msg: Msg) -> None:
        """A section's session is over (or every section's): final results, and where."""
        for name, sec in self.sections.items():
            if msg.get("section") in (None, name):
                sec["final"] = True
        out = msg.get("folder") or msg.get("outputs") or msg.get("paths")
        if out:
            shown = ", ".join(map(str, out)) if isinstance(out, list) else str(out)
            self.final_where = f"final results written to {shown}"
        self.dirty |= {"clock", "standings", "room"}

    def _on_td_call(self, msg: Msg) -> None:
        """A table's call for the TD, or the director's news of one: logged."""
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

    def _on_penalty_proposed(self, msg: Msg) -> None:
        """A slow-play penalty proposed, for the director to decide."""
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

    def _on_penalty_decided(self, msg: Msg) -> None:
        """The director's decision on a proposed penalty."""
        for p in self.penalties:
            if p["id"] == msg["id"]:
                p["status"] = msg["status"]
        self.dirty.add("slow")

    # the handlers, by message type and by event (the section's are SECTION_EVENTS)
    MESSAGES: ClassVar[dict[str, Callable[[RoomState, Msg], None]]] = {
        "snapshot": _on_snapshot,
        "reply": _on_reply,
        "link": _on_link,
        "session": _on_session,
        "event": _on_event,
    }
    ROOM_EVENTS: ClassVar[dict[str, Callable[[RoomState, Msg], None]]] = {
        "standings": _on_standings,
        "standings_withheld": _on_standings_withheld,
        "suspicious": _on_suspicious,
        "alert": _on_alert,
        "held_details": _on_held_details,
        "held_accepted": _on_held_accepted,
        "held_rejected": _on_held_rejected,
        "session_complete": _on_session_complete,
        "td_call": _on_td_call,
        "penalty_proposed": _on_penalty_proposed,
        "penalty_decided": _on_penalty_decided,
        **KNOCKOUT_EVENTS,
    }


# what a held result's row may tell beyond where it is (the hub adds them: render what is
# there); in an ``alert`` event ``result`` is the held row's number, not the +1/-2 form
HELD_DETAILS = (
    "contract", "declarer", "result", "tricks", "lead", "score_ns", "entered_by", "ns_pair",
    "ew_pair", "reason", "conflict", "can_accept_as_sent",
)  # fmt: skip


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
