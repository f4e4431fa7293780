"""The projector at the end of an evening whose last rounds are hidden (TD trial F13; issue
13 "the projector honours the event's hidden rounds like the terminals do"; reviewer R1).
The session ends (``session_complete``) as the last round completes, but that round's
standings may be withheld for the director (a suspicious score, decisions D12): the
screen still holds the standings of a hidden round. Before the review it showed them, as
"Final results", because the session was over; they stay hidden until the final
standings come."""

from __future__ import annotations

from fractions import Fraction

from hub_stub import pairs_row, section_state

from hub.result_screen.barometer import played_text, screen_sections
from hub.result_screen.state import ScreenState


def rows(boards: int) -> list[dict]:
    return [
        pairs_row(1, "1", Fraction(60), boards=boards, name="Ann Berg - Bo Ek"),
        pairs_row(2, "2", Fraction(40), boards=boards, name="Cai Dahl - Dan Fors"),
    ]


def test_hidden_standings_stay_hidden_when_the_session_ends_before_the_final_standings():
    """3 rounds, the last 2 hidden: round 2's standings (hidden) are on the screen; the
    session ends with round 3's standings withheld: still no rows; the final standings
    then show both pairs."""
    state = ScreenState()
    state.apply({"type": "snapshot", "seq": 1, "state": {"event": "Club night", "sections": {
        "A": section_state(2, 3)}}}, 0.0)  # fmt: skip
    standings = {"type": "event", "event": "standings", "section": "A", "provisional": []}
    state.apply({**standings, "round": 2, "rows": rows(2), "hidden": True}, 1.0)
    state.apply({"type": "event", "event": "session_complete", "section": "A"}, 2.0)
    (page,) = screen_sections(state)
    assert page.final  # the session is over ...
    assert page.hidden and page.rows == []  # ... but round 2's standings are not shown
    state.apply({**standings, "round": 3, "rows": rows(3), "final": True}, 3.0)
    (page,) = screen_sections(state)
    assert page.final and not page.hidden
    assert [r.names for r in page.rows] == ["Ann Berg - Bo Ek", "Cai Dahl - Dan Fors"]


def test_the_screen_says_final_results_only_over_the_last_rounds_standings():
    """7 rounds, nothing hidden: the session ends while round 7's standings are withheld;
    round 6's stay on the screen as "after round 6 of 7", not as "Final results" (before
    the review: "Final results (after round 6 of 7)"). Round 7's then are the final ones."""
    state = ScreenState()
    state.apply({"type": "snapshot", "seq": 1, "state": {"event": "Club night", "sections": {
        "A": section_state(7, 7)}}}, 0.0)  # fmt: skip
    standings = {"type": "event", "event": "standings", "section": "A", "provisional": []}
    state.apply({**standings, "round": 6, "rows": rows(6)}, 1.0)
    state.apply({"type": "event", "event": "session_complete", "section": "A"}, 2.0)
    (page,) = screen_sections(state)
    assert played_text(page) == "after round 6 of 7"
    assert len(page.rows) == 2
    state.apply({**standings, "round": 7, "rows": rows(7), "final": True}, 3.0)
    (page,) = screen_sections(state)
    assert played_text(page) == "Final results (after round 7 of 7)"
