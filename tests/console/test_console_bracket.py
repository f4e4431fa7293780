"""The console's bracket of a knockout section (issue [KNOCKOUT]): ``K`` shows it round by
round (teams, tables, each segment's IMPs, totals with the carry-over, the winner and how,
"extra set follows", byes and walk-overs), who chooses next and from whom, the round held
for the director and the places; from it the director makes a team's choice
(``ko_choose``), publishes the next round after confirming (``ko_publish``) and gives a
walk-over (seed 003 §15: the team picked, confirmed, ``ko_walk_over``); refusals land in
the log. The hub is the real API server with a scripted room (tests/hub_stub.py).

The knockout: 8 entries in QF, SF, F (seed 003 §13's shape, 32-board matches, 48 in the
final), 7 teams, so the top seed has a bye, and seed 001's way of choosing an opponent.
Mid-event (hand working in each bracket's comments):

- QF-1: 1 Lions, bye.
- QF-2: 4 Owls v 5 Foxes at tables 1/2, the Foxes carry 1.5 IMPs (3/2) in; segment 1
  20-12, segment 2 9-15.5: Owls 20 + 9 = 29, Foxes 1.5 + 12 + 15.5 = 29: level, and the
  event's tie rule is an extra set (seed 003 §12.5).
- QF-3: 2 Bears v 7 Cats at 3/4: 10-14 and 15-11, 25-25 level, won by the Cats on boards
  won (seed 000's tie-break).
- QF-4: 3 Wolves v 6 Hawks at 5/6: the Hawks did not come, walk-over to the Wolves.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

from console_pilot import popup_shows, popup_title, quiet
from hub_stub import ScriptedHub, section_state, wait_until
from textual.widgets import Static

from hub.api.client import websocket_source
from hub.api.server import CommandError
from hub.console.app import ConsoleApp
from hub.console.bracket import BracketScreen, bracket_lines, match_lines, walk_over_teams
from hub.console.knockout_events import KNOCKOUT_EVENTS
from hub.console.state import RoomState

PIN = "K7QX2M9P"
NAMES = {1: "Lions", 2: "Bears", 3: "Wolves", 4: "Owls", 5: "Foxes", 6: "Hawks", 7: "Cats"}


def t(n: int) -> dict[str, Any]:
    return {"team": n, "name": NAMES[n]}


def match(name: str, rnd: str, teams: list[Any], **fields: Any) -> dict[str, Any]:
    """A match of the bracket as ``ko_show`` gives it: by default one waiting for its teams."""
    out = {
        "match": name, "round": rnd, "boards": 48 if rnd == "F" else 32, "teams": teams,
        "bye": False, "tables": None, "carry": None, "segments": [], "totals": None,
        "winner": None, "decided_by": None, "next": None, "walk_over": False,
        "state": "waiting",
    }  # fmt: skip
    return out | fields


def seg(n: int, home: str, away: str) -> dict[str, Any]:
    return {"segment": n, "home": home, "away": away}


QF_1 = match("QF-1", "QF", [t(1), None], bye=True, winner=0, state="bye")
QF_2 = match(
    "QF-2", "QF", [t(4), t(5)], tables=[1, 2], carry=["0", "3/2"],
    segments=[seg(1, "20", "12"), seg(2, "9", "31/2")], totals=["29", "29"],
    next="extra_set", under_way=False, state="playing",
)  # fmt: skip
QF_3 = match(
    "QF-3", "QF", [t(2), t(7)], tables=[3, 4], carry=["0", "0"],
    segments=[seg(1, "10", "14"), seg(2, "15", "11")], totals=["25", "25"],
    winner=1, decided_by="boards_won", state="decided",
)  # fmt: skip
QF_4 = match(
    "QF-4", "QF", [t(3), t(6)], tables=[5, 6], carry=["0", "0"], walk_over=True,
    winner=0, decided_by="walk_over", state="decided",
)  # fmt: skip
LATER = [match("SF-1", "SF", [None, None]), match("SF-2", "SF", [None, None])]
FINAL = match("F", "F", [None, None])


def bracket(**fields: Any) -> dict[str, Any]:
    """The bracket mid-event: QF played, the Lions (the top seed) to choose from the two
    QF winners known (3 Wolves, 7 Cats); the QF losers share 5-8."""
    out = {
        "section": "K",
        "name": "Open K.O., 8 entries",
        "rounds": ["QF", "SF", "F"],
        "matches": [QF_1, QF_2, QF_3, QF_4, *LATER, FINAL],
        "choosing": [{"group": "SF", "chooser": t(1), "options": [t(3), t(7)], "made": []}],
        "proposal": None,
        "places": [{**t(2), "place": "5-8"}, {**t(6), "place": "5-8"}],
        "finished": False,
    }
    return out | fields


# after the Lions chose the Cats: the Owls won QF-2's extra set 4-1 (29 + 4 = 33 v
# 29 + 1 = 30); the SF drawn: Lions v Cats at 1/2, Wolves v Owls at 3/4 with a carry-over
# of 2.5 (5/2) to the Wolves
SF_DRAWN = {
    "round": "SF",
    "matches": [
        {"match": "SF-1", "home": t(1), "away": t(7), "tables": [1, 2], "carry": ["0", "0"]},
        {"match": "SF-2", "home": t(3), "away": t(4), "tables": [3, 4], "carry": ["5/2", "0"]},
    ],
}
QF_2_WON = QF_2 | {
    "segments": [*QF_2["segments"], seg(3, "4", "1")], "totals": ["33", "30"],
    "winner": 0, "decided_by": "extra_set", "next": None, "state": "decided",
}  # fmt: skip
AFTER_CHOICE = bracket(
    matches=[QF_1, QF_2_WON, QF_3, QF_4, *LATER, FINAL],
    choosing=[],
    proposal=SF_DRAWN,
    places=[{**t(2), "place": "5-8"}, {**t(5), "place": "5-8"}, {**t(6), "place": "5-8"}],
)
# the feed's ko_round_published of the SF: the teams by number (docs/api.md)
SF_PUBLISHED = [
    {"match": "SF-1", "home": 1, "away": 7, "tables": [1, 2], "carry": ["0", "0"]},
    {"match": "SF-2", "home": 3, "away": 4, "tables": [3, 4], "carry": ["5/2", "0"]},
]
SF_PLAYING = [
    match("SF-1", "SF", [t(1), t(7)], tables=[1, 2], carry=["0", "0"], state="playing"),
    match("SF-2", "SF", [t(3), t(4)], tables=[3, 4], carry=["5/2", "0"], state="playing"),
]
AFTER_PUBLISH = AFTER_CHOICE | {
    "matches": [QF_1, QF_2_WON, QF_3, QF_4, *SF_PLAYING, FINAL],
    "proposal": None,
}


def test_the_bracket_reads_round_by_round_with_how_each_match_stands():
    """Hand-worked lines of the mid-event bracket (the module's docstring): IMPs shown to
    two places as the Matches tab does (3/2 → 1.50, 31/2 → 15.50)."""
    assert bracket_lines(bracket()) == [
        "Section K: Open K.O., 8 entries",
        "QF",
        "  QF-1: 1 Lions has a bye",
        "  QF-2, 32 boards, tables 1/2: 4 Owls v 5 Foxes",
        "      carry-over 0.00 - 1.50",
        "      segment 1: 20.00 - 12.00   segment 2: 9.00 - 15.50",
        "      total 29.00 - 29.00: level, extra set follows",
        "  QF-3, 32 boards, tables 3/4: 2 Bears v 7 Cats",
        "      segment 1: 10.00 - 14.00   segment 2: 15.00 - 11.00",
        "      total 25.00 - 25.00: 7 Cats wins on boards won",
        "  QF-4, 32 boards, tables 5/6: 3 Wolves v 6 Hawks",
        "      3 Wolves wins by walk-over (6 Hawks did not come)",
        "SF",
        "  SF-1, 32 boards: waiting for its teams",
        "  SF-2, 32 boards: waiting for its teams",
        "F",
        "  F, 48 boards: waiting for its teams",
        "Choosing an opponent (c)",
        "  SF: 1 Lions chooses next, from 3 Wolves, 7 Cats",
        "Places so far",
        "    5-8  2 Bears",
        "    5-8  6 Hawks",
    ]


def test_the_proposal_and_the_choices_made_are_shown():
    """Seed 001's choosing: the Lions chose the Cats, the Wolves choose next from the
    Owls alone; the SF held for the director with the Wolves' carry-over of 2.5; a
    sudden death after a level extra set; the final places once decided."""
    choosing = [{"group": "SF", "chooser": t(3), "options": [t(4)], "made": [
        {"team": t(1), "opponent": t(7)}]}]  # fmt: skip
    lines = bracket_lines(bracket(choosing=choosing, proposal=SF_DRAWN, places=[]))
    assert lines[-6:] == [
        "Choosing an opponent (c)",
        "  SF: 3 Wolves chooses next, from 4 Owls",
        "      1 Lions chose 7 Cats",
        "SF is drawn, waiting to be published (p)",
        "  SF-1, tables 1/2: 1 Lions v 7 Cats",
        "  SF-2, tables 3/4: 3 Wolves v 4 Owls, carry-over 2.50 - 0.00",
    ]
    level = QF_2_WON | {"winner": None, "decided_by": None, "next": "sudden_death"}
    level |= {"totals": ["31", "31"], "state": "playing"}  # 29 + 2 = 31 each: level again
    assert match_lines(level)[-1] == "      total 31.00 - 31.00: level, sudden death follows"
    assert bracket_lines(bracket(places=[{**t(4), "place": "1"}], finished=True))[-2:] == [
        "Final places",
        "      1  4 Owls",
    ]


def test_a_walk_over_is_offered_for_the_teams_of_a_match_ready_or_at_the_tables():
    """Seed 003 §15: a team that does not come to a match not decided; a bye, a decided
    match and one waiting for its teams offer no one."""
    assert walk_over_teams(bracket()) == [(t(4), t(5), "QF-2"), (t(5), t(4), "QF-2")]
    assert walk_over_teams(AFTER_CHOICE) == []


def test_the_knockout_events_keep_the_bracket_and_log_a_round_published():
    """The ``knockout`` event replaces the section's bracket (the feed's own fields left
    out); ``ko_round_published`` is told in the log with the teams' names."""
    room = RoomState(stamp=lambda: "20:00:00")
    room.sections = {"K": {"knockout": AFTER_CHOICE}}
    msg = {"type": "event", "seq": 7, "event": "ko_round_published", "section": "K"}
    msg |= {"round": "SF", "matches": SF_PUBLISHED}
    KNOCKOUT_EVENTS["ko_round_published"](room, msg)
    assert room.log == [
        "section K: the knockout's SF is published",
        "  SF-1, tables 1/2: 1 Lions v 7 Cats",
        "  SF-2, tables 3/4: 3 Wolves v 4 Owls",
    ]
    KNOCKOUT_EVENTS["knockout"](
        room, {"type": "event", "seq": 8, "event": "knockout"} | AFTER_PUBLISH
    )
    assert room.sections["K"]["knockout"] == AFTER_PUBLISH


class KnockoutHub(ScriptedHub):
    """The scripted room answers the knockout commands as the hub does: the bracket
    again on the feed after a choice and a publication; a walk-over refused."""

    async def _dispatch(self, name: str, args: dict[str, Any], actor: str) -> dict[str, Any]:
        self.commands.append((name, args))
        if name == "ko_choose":
            self.show(AFTER_CHOICE)
        elif name == "ko_publish":
            self.feed.publish("ko_round_published", section="K", round="SF", matches=SF_PUBLISHED)
            self.show(AFTER_PUBLISH)
        elif name == "ko_walk_over":
            raise CommandError("section K: team 4 has no match in play or ready")
        return {}

    def show(self, shown: dict[str, Any]) -> None:
        self.state["sections"]["K"]["knockout"] = copy.deepcopy(shown)
        self.feed.publish("knockout", **copy.deepcopy(shown))


def bracket_text(app: ConsoleApp) -> str:
    if not isinstance(app.screen, BracketScreen):
        return ""
    return str(app.screen.query_one("#bracket-text", Static).content)


def test_the_director_chooses_publishes_and_gives_a_walk_over_from_the_bracket():
    """K shows the bracket; c: the Lions choose the Cats (ko_choose K 1 7); the bracket
    follows (QF-2 won after the extra set, the SF held); p: publish the SF after
    confirming (ko_publish K SF), told in the log; w: the Owls do not come, confirmed
    (ko_walk_over K 4), the hub's refusal in the log."""
    state = {"event": "Open K.O.", "sections": {"K": section_state(1, 3, kind="teams")}}
    state["sections"]["K"]["knockout"] = bracket()

    async def scenario():
        hub = KnockoutHub(state, pin=PIN)
        await hub.start()
        try:
            app = ConsoleApp(*websocket_source(hub.url, PIN), refresh_s=0.05)
            async with app.run_test(size=(120, 40)) as pilot:
                await wait_until(lambda: "director session opened" in app.room.log, 10, "TD")
                await pilot.press("K")
                await wait_until(lambda: "QF-4" in bracket_text(app), 5, "the bracket")
                shown = bracket_text(app)
                assert "      total 29.00 - 29.00: level, extra set follows" in shown
                assert "      total 25.00 - 25.00: 7 Cats wins on boards won" in shown
                assert "  QF-1: 1 Lions has a bye" in shown
                assert "  SF: 1 Lions chooses next, from 3 Wolves, 7 Cats" in shown
                await pilot.press("c")
                await popup_shows(app, "Section K, SF: the opponent 1 Lions chooses")
                await pilot.press("down", "enter")  # 7 Cats
                choice = ("ko_choose", {"section": "K", "team": 1, "opponent": 7})
                await wait_until(lambda: choice in hub.commands, 5, "ko_choose")
                said = "team 1 Lions chooses team 7 Cats in section K: done"
                await wait_until(lambda: said in app.room.log, 5, "the hub's answer")
                await wait_until(
                    lambda: "SF is drawn, waiting to be published" in bracket_text(app), 5, "SF"
                )
                assert "total 33.00 - 30.00: 4 Owls wins after an extra set" in bracket_text(app)
                await pilot.press("p")
                await popup_shows(app, "SF is drawn, waiting to be published (p)")
                assert "SF-2, tables 3/4: 3 Wolves v 4 Owls, carry-over 2.50" in popup_title(app)
                await pilot.press("enter")  # "Publish SF"
                publish = ("ko_publish", {"section": "K", "round": "SF"})
                await wait_until(lambda: publish in hub.commands, 5, "ko_publish")
                await wait_until(
                    lambda: "  SF-2, tables 3/4: 3 Wolves v 4 Owls" in app.room.log, 5, "the log"
                )
                assert "the knockout's SF in section K: done" in app.room.log
                await wait_until(lambda: "is drawn" not in bracket_text(app), 5, "SF published")
                await pilot.press("w")
                await popup_shows(app, "Section K: which team does not come?")
                await pilot.press("down", "down", "down", "enter")  # 4 Owls (SF-2)
                await popup_shows(app, "SF-2: 4 Owls does not come; the match goes to 3 Wolves")
                await pilot.press("enter")  # "Walk-over to 3 Wolves"
                walk_over = ("ko_walk_over", {"section": "K", "team": 4})
                await wait_until(lambda: walk_over in hub.commands, 5, "ko_walk_over")
                refused = (
                    "! walk-over to team 3 Wolves (4 Owls does not come) in section K refused: "
                    "section K: team 4 has no match in play or ready"
                )
                await wait_until(lambda: refused in app.room.log, 5, "the refusal")
                await pilot.press("escape")
                await wait_until(lambda: not isinstance(app.screen, BracketScreen), 5, "back")
                await quiet(app, pilot)
        finally:
            await hub.stop()

    asyncio.run(scenario())


def test_the_director_sees_who_hands_in_the_line_up_first_in_each_segment():
    """Seed 003 §12.6: the home team sits second in segment 1 (so the visitors hand in
    their line-up first), the visitors in segment 2, and so on."""
    from hub.console.bracket import match_lines

    m = {
        "match": "QF-2", "round": "QF", "boards": 32, "bye": False, "tables": [3, 4],
        "teams": [{"team": 4, "name": "Owls"}, {"team": 5, "name": "Hawks"}],
        "carry": ["0", "0"], "segments": [], "totals": None, "winner": None,
        "decided_by": None, "next": None, "walk_over": False, "state": "playing",
        "lineups": [{"segment": 1, "first": 5, "second": 4},
                    {"segment": 2, "first": 4, "second": 5}],
    }  # fmt: skip
    assert match_lines(m)[-1] == "      line-up first in segment 1: 5 Hawks, 2: 4 Owls"


def test_the_matches_the_director_may_decide_are_those_at_the_tables():
    """``d`` offers the matches being played (a level one whose tie rule is used up is
    one of them), not those decided, waiting or byes."""
    from hub.console.bracket import undecided

    def match(name: str, state: str) -> dict:
        teams = [{"team": 1, "name": "A"}, {"team": 2, "name": "B"}]
        return {"match": name, "state": state, "teams": teams}

    bracket = {"matches": [match("QF-1", "playing"), match("QF-2", "decided"),
                           match("SF-1", "waiting"), match("QF-3", "bye")]}  # fmt: skip
    assert [m["match"] for m in undecided(bracket)] == ["QF-1"]


def test_the_director_sees_whose_seating_choice_is_due():
    """Seed 000 §8: the captains' lot winner chooses the segment it sits first in."""
    from hub.console.bracket import match_lines

    m = {
        "match": "F", "round": "F", "boards": 48, "segment_count": 3, "bye": False,
        "tables": [1, 2], "teams": [{"team": 1, "name": "Yeh"}, {"team": 4, "name": "Lavazza"}],
        "carry": ["13/2", "0"], "segments": [], "totals": None, "winner": None,
        "decided_by": None, "next": None, "walk_over": False, "state": "ready",
        "lineups": [], "seating_turn": {"team": 4, "name": "Lavazza"},
    }  # fmt: skip
    assert match_lines(m)[-1] == "      seating: 4 Lavazza chooses a segment to sit first in"
