"""Issue 16 [TEAMS]: "the result screen shows team standings and the round's match
results". The projector (``bridgehub screen``, a client of the feed) shows a teams
section's published VP standings (shared places "3=") and then a page of the current
round's matches: tables, home v away, IMPs and VPs each, the boards still out; live from
the snapshot's ``sections.<letter>.matches`` and the feed's ``matches`` / ``match`` events,
hidden in the rounds whose rankings the event hides (TD trial F13), as the standings are.

Four teams, two boards a round. Round 1: Lions (1) v Foxes (4) at tables 1/2, 10-0 IMPs
over both boards: 16.46-3.54 VP on the official WBF table (823/50, 177/50); Bears (2) v
Owls (3) at tables 3/4, 6-0 over the one board both rooms played: 15.74-4.26 VP (787/50,
213/50), board 2 out. The hub's values are given here; the screen only draws them.
"""

from __future__ import annotations

import asyncio
from fractions import Fraction
from typing import Any

from hub_stub import ScriptedHub, section_state, teams_row, wait_until
from textual.widgets import Static

from hub.api.client import websocket_source
from hub.result_screen.app import ScreenApp, pages
from hub.result_screen.barometer import MatchLine, ScreenSection, screen_sections
from hub.result_screen.state import ScreenState

NAMES = {1: "Lions", 2: "Bears", 3: "Owls", 4: "Foxes"}


def match(
    number: int,
    rnd: int,
    home: int,
    away: int,
    *,
    imps: tuple[str, str] | None = None,
    vp: tuple[str, str] | None = None,
    out: tuple[int, ...] = (),
    scored: int = 0,
) -> dict[str, Any]:
    """A match as the hub's feed carries it (docs/api.md ``sections.<letter>.matches``)."""
    return {
        "match": number,
        "round": rnd,
        "open_table": 2 * number - 1,
        "closed_table": 2 * number,
        "home": home,
        "away": away,
        "home_name": NAMES[home],
        "away_name": NAMES[away],
        "boards": [2 * rnd - 1, 2 * rnd],
        "out": list(out),
        "scored": scored,
        "home_imps": imps and imps[0],
        "away_imps": imps and imps[1],
        "home_vp": vp and vp[0],
        "away_vp": vp and vp[1],
    }


LIONS = match(1, 1, 1, 4, imps=("10", "0"), vp=("823/50", "177/50"), scored=2)
BEARS = match(2, 1, 2, 3, imps=("6", "0"), vp=("787/50", "213/50"), out=(2,), scored=1)
ROWS = [
    teams_row(1, "1", Fraction(823, 50), matches=1, boards=2, imps=Fraction(10), name="Lions"),
    teams_row(2, "2", Fraction(787, 50), matches=1, boards=1, imps=Fraction(6), name="Bears"),
    teams_row(3, "3=", Fraction(213, 50), matches=1, boards=1, imps=Fraction(-6), name="Owls"),
    teams_row(4, "3=", Fraction(213, 50), matches=1, boards=2, imps=Fraction(-6), name="Foxes"),
]


def teams_night(rnd: int = 1, matches: list | None = None, **published: Any) -> dict[str, Any]:
    section = section_state(rnd, 3, unit="VP", kind="teams", **published)
    section["matches"] = [LIONS, BEARS] if matches is None else matches
    return {"event": "Teams night", "sections": {"A": section}}


def matches_of(screen: ScreenState) -> ScreenSection:
    """The section as the screen draws its round's matches (their page)."""
    (section,) = screen_sections(screen)
    page = [sec for sec, _, _, _ in pages([section], 20) if sec.matches_page]
    assert len(page) == 1 and section.match_round, "one page of matches"
    return page[0]


def fed(state: dict[str, Any], *events: dict[str, Any]) -> ScreenState:
    screen = ScreenState()
    for m in [{"type": "snapshot", "seq": 1, "state": state}, *events]:
        screen.apply(m, 0.0)
    return screen


def screen_text(app: ScreenApp) -> str:
    """The screen as text (the screenshot's SVG writes a space as &#160;)."""
    return app.export_screenshot().replace("&#160;", " ")


def event(name: str, **fields: Any) -> dict[str, Any]:
    return {"type": "event", "seq": 2, "event": name, "section": "A", **fields}


def test_the_rounds_matches_follow_the_standings_page():
    (section,) = screen_sections(fed(teams_night(published_round=1, published_rows=ROWS)))
    cut = pages([section], 20)
    assert [(sec.matches_page, len(lines)) for sec, lines, _, _ in cut] == [(False, 4), (True, 2)]
    assert [r.rank for r in section.rows] == ["1", "2", "3=", "3="]
    matches = cut[1][0]
    assert (matches.match_round, matches.matches_hidden) == (1, False)
    assert matches.matches == (
        MatchLine("1/2", "1 Lions", "4 Foxes", "10 – 0", "16.46 – 3.54", ""),
        MatchLine("3/4", "2 Bears", "3 Owls", "6 – 0", "15.74 – 4.26", "board 2 out"),
    )


def test_a_match_not_yet_compared_shows_no_score_and_its_boards_out():
    fresh = match(1, 1, 1, 4, out=(1, 2))
    matches = matches_of(fed(teams_night(matches=[fresh])))
    assert matches.matches == (MatchLine("1/2", "1 Lions", "4 Foxes", "", "", "2 boards out"),)


def test_a_match_event_replaces_its_own_match_only():
    """After a table's result the hub sends the one match it touched."""
    done = {**BEARS, "out": [], "scored": 2, "home_imps": "16", "home_vp": "889/50"}
    done["away_vp"] = "111/50"  # 16-0 over 2 boards: 17.78-2.22
    state = fed(teams_night(), event("match", round=1, match=done, hidden=False))
    matches = matches_of(state)
    assert [m.home for m in matches.matches] == ["1 Lions", "2 Bears"]
    assert matches.matches[1] == MatchLine("3/4", "2 Bears", "3 Owls", "16 – 0", "17.78 – 2.22", "")


def test_a_new_round_shows_its_matches_as_seated_and_unplayed():
    """``round_started``: the same tables meet; the seating and boards the event gives."""
    tables = [
        {"table": 1, "ns": 1, "ew": 2, "boards": [3, 4]},
        {"table": 2, "ns": 2, "ew": 1, "boards": [3, 4]},
        {"table": 3, "ns": 3, "ew": 4, "boards": [3, 4]},
        {"table": 4, "ns": 4, "ew": 3, "boards": [3, 4]},
    ]
    state = fed(teams_night(), event("round_started", round=2, tables=tables))
    matches = matches_of(state)
    assert matches.match_round == 2
    assert matches.matches == (
        MatchLine("1/2", "1 Lions", "2 Bears", "", "", "2 boards out"),
        MatchLine("3/4", "3 Owls", "4 Foxes", "", "", "2 boards out"),
    )
    first = match(1, 2, 1, 2, imps=("3", "0"), vp=("583/50", "417/50"), out=(4,), scored=1)
    state.apply(event("match", round=2, match=first, hidden=False), 0.0)
    matches = matches_of(state)
    assert [(m.home, m.imps, m.out) for m in matches.matches] == [
        ("1 Lions", "3 – 0", "board 4 out"),
        ("3 Owls", "", "2 boards out"),
    ]


def test_a_hidden_rounds_matches_are_not_shown_until_the_final_standings():
    """TD trial F13: a round whose rankings the event hides shows no match results on the
    projector (the hub says so in its events) until the standings after the last round
    are published."""
    hidden = fed(teams_night(), event("match", round=1, match=LIONS, hidden=True))
    matches = matches_of(hidden)
    assert matches.matches_hidden and matches.matches == ()
    hidden.apply(event("standings", round=3, rows=ROWS, provisional=[], final=True), 0.0)
    matches = matches_of(hidden)
    assert not matches.matches_hidden and len(matches.matches) == 2


def test_a_snapshot_says_whether_the_rounds_matches_are_hidden():
    state = teams_night()
    state["sections"]["A"]["matches_hidden"] = True
    matches = matches_of(fed(state))
    assert matches.matches_hidden
    # an older hub without the key: hidden as its published standings are
    state = teams_night(published_round=2, published_rows=ROWS)
    state["sections"]["A"]["published"]["hidden"] = True
    matches = matches_of(fed(state))
    assert matches.matches_hidden


def test_the_screen_pages_from_the_vp_standings_to_the_rounds_matches():
    """Over the real API: the standings page (places "3=", a VP column), then, a page on,
    the matches; a ``match`` event from the hub redraws them."""

    async def scenario() -> None:
        hub = ScriptedHub(teams_night(published_round=1, published_rows=ROWS))
        await hub.start()
        try:
            source, _ = websocket_source(hub.url, name="screen", retry_s=0.05)
            app = ScreenApp(source, page_s=3600, now=lambda: 1000.0, redraw_s=0.05)
            async with app.run_test(size=(100, 24)) as pilot:
                title = app.query_one("#title", Static)
                await wait_until(lambda: "after round 1" in str(title.render()), 10, "snapshot")
                await pilot.pause(0.1)
                shown = screen_text(app)
                assert "3=" in shown and "VP" in shown and "16.46" in shown and "Foxes" in shown
                await pilot.press("space")
                await wait_until(lambda: "matches of round 1" in str(title.render()), 10, "page")
                assert "1 of 2 matches complete" in str(title.render())
                await pilot.pause(0.1)
                shown = screen_text(app)
                for text in ("Lions", "Foxes", "10 – 0", "16.46 – 3.54", "board 2 out"):
                    assert text in shown, text
                done = {**BEARS, "out": [], "scored": 2, "home_imps": "16"}
                done |= {"home_vp": "889/50", "away_vp": "111/50"}
                hub.feed.publish("match", section="A", round=1, match=done, hidden=False)
                await wait_until(
                    lambda: "2 of 2 matches complete" in str(title.render()), 10, "the match"
                )
                await pilot.pause(0.1)
                shown = screen_text(app)
                assert "17.78 – 2.22" in shown and "board 2 out" not in shown
                await pilot.press("q")
        finally:
            await hub.stop()

    asyncio.run(scenario())
