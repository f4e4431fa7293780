"""The console's room state has one handler per feed event ([ROOMS] #26): every event the
API documents (docs/api.md) is folded in by one, or deliberately left to another part of
the console; and what has no handler is let by as before."""

from __future__ import annotations

import re
from pathlib import Path

from hub.console.event_log import event_line
from hub.console.section_events import SECTION_EVENTS
from hub.console.state import RoomState

API = Path(__file__).parents[2] / "docs" / "api.md"

# events the room state does not fold in, and who reads them instead
LEFT_TO_OTHERS = {
    "board_changed": "the app fetches the traveller again; the desk's list of boards to check",
    "matches": "the Matches tab (hub/console/matches.py)",
    "match": "the Matches tab (hub/console/matches.py)",
    "draw_proposed": "its alert says so; the D key asks the hub for the draw (draw_show)",
    "draw_published": "the Matches tab; the round_started that follows",
    "hand_records_loaded": "its alert says what was replaced and accepted",
}


def documented_events() -> set[str]:
    """The names in docs/api.md's table of feed events."""
    text = API.read_text("utf-8")
    table = text.split("\nEvents:\n", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z_]+)` \|", table, re.MULTILINE))


def test_every_documented_event_has_a_handler_or_is_left_to_another_part():
    handled = set(SECTION_EVENTS) | set(RoomState.ROOM_EVENTS)
    documented = documented_events()
    assert len(documented) > 20, documented  # the table was found
    assert not set(SECTION_EVENTS) & set(RoomState.ROOM_EVENTS)  # one handler each
    assert not handled & set(LEFT_TO_OTHERS)
    assert documented - handled - set(LEFT_TO_OTHERS) == set()
    assert (handled | set(LEFT_TO_OTHERS)) - documented == set()  # no handler of a stale name


def test_every_message_type_has_its_handler():
    assert set(RoomState.MESSAGES) == {"snapshot", "reply", "link", "session", "event"}


def room() -> RoomState:
    r = RoomState(stamp=lambda: "20:00:00")
    r.apply(
        {
            "type": "snapshot",
            "seq": 4,
            "state": {
                "sections": {
                    "A": {
                        "round": 1,
                        "tables": [{"table": 1, "boards": [1, 2], "done": 0, "online": True}],
                    }
                }
            },
        }
    )
    r.dirty.clear()
    return r


def test_a_message_or_event_without_a_handler_is_let_by():
    r = room()
    before = (r.sections, r.held, r.td_calls, r.log)
    r.apply({"type": "hello", "version": 1})
    r.apply({"type": ["not", "a", "name"]})
    r.apply({"type": "event", "seq": 5, "event": "draw_proposed", "section": "A"})
    r.apply({"type": "event", "seq": 6, "event": "something_new"})
    assert r.seq == 6  # an event is counted all the same
    assert (r.sections, r.held, r.td_calls, r.log) == before
    assert r.dirty == set()


def test_a_section_event_of_a_section_not_known_is_only_logged():
    r = room()
    r.apply({"type": "event", "seq": 5, "event": "round_complete", "section": "B", "round": 1})
    r.apply({"type": "event", "seq": 6, "event": "battery", "section": "B", "table": 1})
    assert r.log == ["round 1 complete in section B"]
    assert r.dirty == {"log"}


def test_a_section_event_changes_its_section_and_says_what_to_redraw():
    r = room()
    r.apply({"type": "event", "seq": 5, "event": "result", "section": "A", "table": 1, "board": 2})
    assert r.sections["A"]["tables"][0]["done"] == 0  # not accepted: not a board done
    assert r.dirty == set()
    r.apply(
        {
            "type": "event",
            "seq": 6,
            "event": "result",
            "section": "A",
            "table": 1,
            "board": 2,
            "status": "accepted",
        }
    )
    assert r.sections["A"]["tables"][0]["done"] == 1
    assert r.sections["A"]["between_rounds"] is False
    assert r.dirty == {"room"}


def test_the_log_says_what_the_director_should_hear_of():
    assert event_line({"event": "table_online", "section": "A", "table": 3, "online": False}) == (
        "table A3 is off line"
    )
    assert event_line({"event": "table_online", "section": "A", "table": 3, "online": True}) == ""
    assert event_line({"event": "clock", "section": "A"}) == ""
    assert event_line({"event": "held_rejected", "result": 7}) == "held result 7 rejected"
