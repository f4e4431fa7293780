"""The bracket as a picture on the web results pages (issue [KNOCKOUT]): every match a box
in its round's column, no two boxes overlapping, a line from a match to the one its winner
goes to (and only there), and the SVG the pages show: well-formed XML, every name escaped,
the winner marked, byes, walk-overs and extensions said.

The brackets are written here by hand as ``hub/live/knockout/bracket_view.py`` gives them
(docs/api.md ``ko_show``): seed 003's single elimination of 8 (QF, SF, F and the match
for third place, §9, §13.2) half-way through the quarter-finals, and a small double
elimination in the manner of seed 000 §4A (an upper and a lower bracket sharing the round
names M1, M2 …, a three-way in the lower bracket)."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from hub.report.bracket_picture import PIXELS, Box, bracket_layout, bracket_svg, feeds_of
from hub.report.words import words
from hub.web_results.bracket_page import bracket_html

SVG = "{http://www.w3.org/2000/svg}"


def team(n: int, name: str) -> dict[str, Any]:
    return {"team": n, "name": name}


def match(name: str, rnd: str, teams: list[Any], state: str, **more: Any) -> dict[str, Any]:
    out = {
        "match": name,
        "round": rnd,
        "boards": 32,
        "teams": teams,
        "bye": False,
        "tables": None,
        "carry": ["0", "0"] if all(t is not None for t in teams) else None,
        "segments": [],
        "totals": None,
        "winner": None,
        "decided_by": None,
        "next": None,
        "walk_over": False,
        "state": state,
    }
    out.update(more)
    return out


def seg(n: int, home: str, away: str) -> dict[str, Any]:
    return {"segment": n, "home": home, "away": away}


def eight_teams() -> dict[str, Any]:
    """Seed 003, 7 teams entered in a bracket of 8 (§9), during the quarter-finals:
    QF-1 1 v (no 8th team): a bye; QF-2 4 v 5: 4 did not come, 5 wins by walk-over;
    QF-3 2 v 7 over: 30-21 and 31-19, 2 wins 61-40; QF-4 3 v 6 level at 45.5 after
    20-25 and 25.5-20.5: an extra set follows (§12.5); SF-1 1 v 5 in play, 13.5-9 after
    its first segment; SF-2 2 v the winner of QF-4; the final and the match for third
    place still waiting."""
    lions, foxes, ab = team(1, "Lions"), team(5, "Foxes"), team(2, "A&B <x>")
    return {
        "section": "A",
        "name": "Czech KO, 8 teams",
        "rounds": ["QF", "SF", "F"],
        "matches": [
            match("QF-1", "QF", [lions, None], "bye", bye=True, carry=None),
            match(
                "QF-2",
                "QF",
                [team(4, "Owls"), foxes],
                "decided",
                walk_over=True,
                winner=1,
                decided_by="walk_over",
            ),
            match(
                "QF-3",
                "QF",
                [ab, team(7, "Bears")],
                "decided",
                tables=[5, 6],
                segments=[seg(1, "30", "21"), seg(2, "31", "19")],
                totals=["61", "40"],
                winner=0,
                decided_by="imps",
            ),
            match(
                "QF-4",
                "QF",
                [team(3, "Hares"), team(6, "Wolves")],
                "playing",
                tables=[7, 8],
                segments=[seg(1, "20", "25"), seg(2, "51/2", "41/2")],
                totals=["91/2", "91/2"],
                next="extra_set",
            ),
            match(
                "SF-1",
                "SF",
                [lions, foxes],
                "playing",
                tables=[1, 2],
                segments=[seg(1, "27/2", "9")],
                totals=["27/2", "9"],
            ),
            match("SF-2", "SF", [ab, None], "waiting"),
            match("F", "F", [None, None], "waiting", boards=48),
            match("3rd", "F", [None, None], "waiting"),
        ],
        "choosing": [],
        "proposal": None,
        "places": [],
        "finished": False,
    }


def eight_feeds() -> dict[str, list[dict[str, Any] | None]]:
    """Who feeds what in seed 003's bracket of 8, as the bracket's slots say."""
    w = lambda m: {"match": m, "place": 1}  # noqa: E731
    lo = lambda m: {"match": m, "place": 2}  # noqa: E731
    return {
        "QF-1": [None, None], "QF-2": [None, None], "QF-3": [None, None], "QF-4": [None, None],
        "SF-1": [w("QF-1"), w("QF-2")], "SF-2": [w("QF-3"), w("QF-4")],
        "F": [w("SF-1"), w("SF-2")], "3rd": [lo("SF-1"), lo("SF-2")],
    }  # fmt: skip


def double_elimination(with_feeds: bool = True) -> dict[str, Any]:
    """Six teams in the manner of seed 000 §4A: M1 upper U1-1 1 v 4, U1-2 2 v 3, lower
    L1-1 5 v 6; M2 upper U2 (the M1 upper winners), lower three-way L2 (both upper losers
    and the winner of L1-1); M3 L3 (the loser of U2 v the winner of L2); F the winner of
    U2 v the winner of L3. Every M1 match is over (1, 3 and 5 won)."""
    w = lambda m: {"match": m, "place": 1}  # noqa: E731
    lo = lambda m: {"match": m, "place": 2}  # noqa: E731
    t = {n: team(n, name) for n, name in enumerate(["", "Ace", "Two", "Tri", "Four", "V", "VI"])}
    done = {"state": "decided", "decided_by": "imps", "totals": ["40", "30"]}
    matches = [
        match("U1-1", "M1", [t[1], t[4]], winner=0, **done),
        match("U1-2", "M1", [t[2], t[3]], winner=1, **done),
        match("L1-1", "M1", [t[5], t[6]], winner=0, **done),
        match("U2", "M2", [t[1], t[3]], "ready"),
        match("L2", "M2", [t[4], t[2], t[5]], "ready", carry=["0", "0", "0"]),
        match("L3", "M3", [None, None], "waiting"),
        match("F", "F", [None, None], "waiting", boards=48),
    ]
    feeds = {
        "U1-1": [None, None], "U1-2": [None, None], "L1-1": [None, None],
        "U2": [w("U1-1"), w("U1-2")], "L2": [lo("U1-1"), lo("U1-2"), w("L1-1")],
        "L3": [lo("U2"), w("L2")], "F": [w("U2"), w("L3")],
    }  # fmt: skip
    if with_feeds:
        for m in matches:
            m["feeds"] = feeds[m["match"]]
    return {
        "section": "B",
        "name": "Double elimination",
        "rounds": ["M1", "M2", "M3", "F"],
        "matches": matches,
        "choosing": [],
        "proposal": None,
        "places": [team(6, "VI") | {"place": "6"}],
        "finished": False,
    }


def single_elimination(size: int, decided: set[int]) -> dict[str, Any]:
    """A bracket of ``size`` teams, 2^k, matches named ``R<r>-<k>``; the first-round
    matches numbered in ``decided`` are over (home won), the others in play."""
    rounds, matches, n, r = [], [], size, 1
    while n >= 2:
        rnd = f"R{r}"
        rounds.append(rnd)
        for k in range(1, n // 2 + 1):
            if r == 1:
                teams = [team(2 * k - 1, f"T{2 * k - 1}"), team(2 * k, f"T{2 * k}")]
                state = "decided" if k in decided else "playing"
                matches.append(
                    match(f"{rnd}-{k}", rnd, teams, state, winner=0 if k in decided else None)
                )
            else:
                matches.append(match(f"{rnd}-{k}", rnd, [None, None], "waiting"))
        n, r = n // 2, r + 1
    return {"section": "A", "name": "", "rounds": rounds, "matches": matches, "places": []}


def overlap(a: Box, b: Box) -> bool:
    return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h


def joins(picture: Any) -> set[tuple[str, str, int]]:
    return {(ln.source, ln.target, ln.slot) for ln in picture.lines}


# -- the layout -----------------------------------------------------------------------------


def test_every_match_is_a_box_in_its_rounds_column_without_overlap():
    """Seed 003 (8 teams): 8 matches, 8 boxes; QF in column 0, SF in 1, the final and the
    match for third place in 2; no two boxes share a point."""
    p = bracket_layout(eight_teams())
    assert [(b.match, b.column) for b in p.boxes] == [
        ("QF-1", 0), ("QF-2", 0), ("QF-3", 0), ("QF-4", 0),
        ("SF-1", 1), ("SF-2", 1), ("F", 2), ("3rd", 2),
    ]  # fmt: skip
    assert not any(overlap(a, b) for a, b in itertools.combinations(p.boxes, 2))
    assert p.columns == (("QF", 0), ("SF", 272), ("F", 544))


def test_the_tree_places_each_match_between_the_two_it_takes_its_winners_from():
    """Hand working (232 px boxes, 20 px rows, 4 px below them, gaps 40 and 14, 28 px for
    the round names): a box of two teams is 20 × 4 + 4 = 84 high; the quarter-finals at
    y 28, 126, 224, 322 (centres 70, 168, 266, 364); SF-1 centred on (70 + 168) / 2 = 119:
    y 77; SF-2 on 315: y 273; the final on (119 + 315) / 2 = 217: y 175; the match for
    third place takes no winner: below the final, 175 + 84 + 14 = 273. The whole picture
    776 × 406 (544 + 232 wide; as high as QF-4's bottom, 322 + 84)."""
    p = bracket_layout(eight_teams())
    assert [b.y for b in p.boxes] == [28, 126, 224, 322, 77, 273, 175, 273]
    assert {b.h for b in p.boxes} == {84}
    assert (p.width, p.height) == (776, 406)


def test_lines_join_a_match_to_the_one_its_winner_goes_to():
    """Single elimination (seed 003), by the consecutive rule: QF-1, QF-2 → SF-1; QF-3,
    QF-4 → SF-2; SF-1, SF-2 → F; nothing into the match for third place (losers go there).
    QF-1 → SF-1's first slot: from QF-1's right edge at its middle (232, 70), across to
    half the gap before SF-1 (252), down to SF-1's first team line (77 + 20 + 10 = 107)
    and into its left edge (272, 107)."""
    p = bracket_layout(eight_teams())
    assert joins(p) == {
        ("QF-1", "SF-1", 0), ("QF-2", "SF-1", 1), ("QF-3", "SF-2", 0), ("QF-4", "SF-2", 1),
        ("SF-1", "F", 0), ("SF-2", "F", 1),
    }  # fmt: skip
    first = next(ln for ln in p.lines if ln.source == "QF-1")
    assert first.points == ((232, 70), (252, 70), (252, 107), (272, 107))


def test_feeds_given_name_the_losers_slots_but_draw_no_line_for_them():
    """With the bracket's own feeds, the match for third place waits for "loser of SF-1"
    and "loser of SF-2"; the lines stay the winners' six."""
    p = bracket_layout(eight_teams(), eight_feeds())
    third = next(b for b in p.boxes if b.match == "3rd")
    assert [t.text for t in third.teams] == ["loser of SF-1", "loser of SF-2"]
    assert len(p.lines) == 6 and all(ln.target != "3rd" for ln in p.lines)


def test_waiting_slots_byes_walk_overs_and_extensions_are_said():
    """QF-1 has no 8th team: "bye", team 1 marked through; QF-2 a walk-over: "w/o", 5
    marked; QF-4 level at 45.5: "extra set follows", no winner; SF-2 waits for the winner
    of QF-4; the final for the winners of SF-1 and SF-2 (consecutive rule); the match for
    third place, whose feeders the rule does not know, says "—"."""
    boxes = {b.match: b for b in bracket_layout(eight_teams()).boxes}
    assert [(t.text, t.winner) for t in boxes["QF-1"].teams] == [("1 Lions", True), ("bye", False)]
    assert boxes["QF-1"].note == "bye"
    assert [t.winner for t in boxes["QF-2"].teams] == [False, True]
    assert boxes["QF-2"].note == "w/o"
    assert boxes["QF-4"].note == "extra set follows"
    assert [t.score for t in boxes["QF-4"].teams] == ["45.5", "45.5"]
    assert not any(t.winner for t in boxes["QF-4"].teams)
    assert [t.text for t in boxes["SF-2"].teams] == ["2 A&B <x>", "winner of QF-4"]
    assert [t.text for t in boxes["F"].teams] == ["winner of SF-1", "winner of SF-2"]
    assert [t.text for t in boxes["3rd"].teams] == ["—", "—"]


def test_a_match_shows_its_running_total_its_segments_and_that_it_is_live():
    """QF-3: 30-21 and 31-19, 61-40, team 2 marked; SF-1 in play at 13.5-9 after 27/2-9
    (exact IMPs shown as the pages show points), "live"; QF-3's tables 5 and 6."""
    boxes = {b.match: b for b in bracket_layout(eight_teams()).boxes}
    qf3 = boxes["QF-3"]
    assert [(t.score, t.winner) for t in qf3.teams] == [("61", True), ("40", False)]
    assert qf3.segments == "30–21 · 31–19"
    assert bracket_layout(double_elimination()).boxes[0].segments == ""
    assert qf3.info == "32 boards · tables 5/6"
    assert [t.score for t in boxes["SF-1"].teams] == ["13.5", "9"]
    assert boxes["SF-1"].badge == "live" and boxes["SF-2"].badge == ""


def test_double_elimination_lays_out_each_round_as_a_column_with_lines_for_winners_only():
    """Seed 000 style: M1 holds the upper and the lower matches (U1-1, U1-2, L1-1) in
    bracket order; lines only where a winner goes on: U1-1, U1-2 → U2; L1-1 → L2's third
    slot; L2 → L3's second; U2, L3 → F. The losers' ways (U1-k → L2, U2 → L3) have none.
    The three-way L2 is a row taller: 20 × 5 + 4 = 104."""
    p = bracket_layout(double_elimination())
    assert [(b.match, b.column) for b in p.boxes] == [
        ("U1-1", 0),
        ("U1-2", 0),
        ("L1-1", 0),
        ("U2", 1),
        ("L2", 1),
        ("L3", 2),
        ("F", 3),
    ]
    assert joins(p) == {
        ("U1-1", "U2", 0), ("U1-2", "U2", 1), ("L1-1", "L2", 2), ("L2", "L3", 1),
        ("U2", "F", 0), ("L3", "F", 1),
    }  # fmt: skip
    assert next(b for b in p.boxes if b.match == "L2").h == 104
    assert not any(overlap(a, b) for a, b in itertools.combinations(p.boxes, 2))
    l3 = next(b for b in p.boxes if b.match == "L3")
    assert [t.text for t in l3.teams] == ["loser of U2", "winner of L2"]


def test_double_elimination_without_feeds_draws_no_wrong_line():
    """The consecutive rule does not fit seed 000's rounds (3 matches in M1, a three-way in
    M2): no line is drawn, and the waiting slots say "—" (the view should carry feeds)."""
    view = double_elimination(with_feeds=False)
    assert feeds_of(view) == {}
    p = bracket_layout(view)
    assert p.lines == ()
    assert [t.text for t in next(b for b in p.boxes if b.match == "F").teams] == ["—", "—"]


@given(st.integers(1, 6), st.sets(st.integers(1, 32)))
def test_any_single_elimination_has_a_box_per_match_no_overlap_and_a_line_per_winner(k, done):
    """A bracket of 2^k teams has 2^k - 1 matches: one box each, none overlapping, every
    match after the first round fed by two lines from the round before it."""
    size = 2**k
    view = single_elimination(size, done)
    p = bracket_layout(view)
    assert len(p.boxes) == size - 1
    assert not any(overlap(a, b) for a, b in itertools.combinations(p.boxes, 2))
    assert len(p.lines) == size - 2
    column = {b.match: b.column for b in p.boxes}
    assert all(column[ln.target] == column[ln.source] + 1 for ln in p.lines)
    assert all(b.y >= PIXELS.head for b in p.boxes)


# -- the SVG --------------------------------------------------------------------------------


def test_the_svg_parses_as_xml_and_escapes_the_names():
    """The team "A&B <x>" is written escaped and reads back as it was entered; the SVG has
    no script and no style element (the pages' policy allows neither inline)."""
    svg = bracket_svg(eight_teams())
    assert "A&amp;B &lt;x&gt;" in svg and "A&B <x>" not in svg
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert "2 A&B <x>" in texts
    assert not list(root.iter(f"{SVG}script")) and not list(root.iter(f"{SVG}style"))
    assert "<script" not in svg and " style=" not in svg


def test_the_svg_marks_the_winner_and_says_bye_walk_over_and_extra_set():
    """QF-3's winner (team 2) is bold with a ▶ on a marked row; team 7 is not; QF-1 says
    "bye", QF-2 "w/o", QF-4 "extra set follows"; SF-1 is "live"."""
    root = ET.fromstring(bracket_svg(eight_teams()))
    group = {g.get("data-match"): g for g in root.iter(f"{SVG}g")}
    qf3 = group["QF-3"]
    winners = [t for t in qf3.iter(f"{SVG}text") if "winner" in (t.get("class") or "")]
    assert ["".join(t.itertext()) for t in winners] == ["▶ 2 A&B <x>"]
    assert winners[0].get("font-weight") == "bold"
    assert len([r for r in qf3.iter(f"{SVG}rect") if r.get("class") == "winner"]) == 1

    def words_in(name: str) -> str:
        return " ".join("".join(t.itertext()) for t in group[name].iter(f"{SVG}text"))

    assert "bye" in words_in("QF-1")
    assert "w/o" in words_in("QF-2")
    assert "extra set follows" in words_in("QF-4")
    assert "live" in words_in("SF-1") and "live" not in words_in("SF-2")
    assert "winner of QF-4" in words_in("SF-2")


def test_the_svg_draws_one_polyline_per_winners_way():
    """The six winners' ways of the 8-team bracket, each a polyline named by its ends."""
    root = ET.fromstring(bracket_svg(eight_teams()))
    ways = {(p.get("data-from"), p.get("data-to")) for p in root.iter(f"{SVG}polyline")}
    assert ways == {
        ("QF-1", "SF-1"), ("QF-2", "SF-1"), ("QF-3", "SF-2"), ("QF-4", "SF-2"),
        ("SF-1", "F"), ("SF-2", "F"),
    }  # fmt: skip


def test_an_empty_bracket_is_still_a_picture():
    """No match yet: a valid SVG with only its title."""
    view = {"section": "A", "name": "", "rounds": [], "matches": [], "places": []}
    assert ET.fromstring(bracket_svg(view)).tag == f"{SVG}svg"


# -- the page's partial ---------------------------------------------------------------------


def test_the_partial_shows_the_picture_and_the_places_as_a_ranking():
    """The section's partial holds the SVG unescaped (its own text escaped once) and the
    places so far as a ranking: place 6, team 6 "VI"."""
    html = str(bracket_html(double_elimination(), words("en")))
    assert '<section class="bracket" id="bracket-B">' in html
    assert "<svg" in html and "&lt;svg" not in html
    assert '<td class="n">6</td><td class="lbl">6</td><td class="names">VI</td>' in html
    view = eight_teams()
    assert "A&amp;B &lt;x&gt;" in str(bracket_html(view, words("en")))
    assert "&amp;amp;" not in str(bracket_html(view, words("en")))
    assert str(bracket_html(None, words("en"))) == ""


def test_the_carry_over_is_shown_and_counted_in_the_running_total():
    """Seed 000 §4A: the unbeaten team starts the final with 6.5 IMPs carried over (the
    view's exact 13/2): the box says "c/o 6.5–0" and, before a board, 6.5 to 0."""
    view = double_elimination()
    final = next(m for m in view["matches"] if m["match"] == "F")
    final.update(
        teams=[team(1, "Ace"), team(5, "V")], carry=["13/2", "0"], totals=["13/2", "0"],
        state="ready",
    )  # fmt: skip
    box = next(b for b in bracket_layout(view).boxes if b.match == "F")
    assert box.segments == "c/o 6.5–0"
    assert [t.score for t in box.teams] == ["6.5", "0"]


def test_the_picture_draws_a_view_whose_first_round_is_fed_by_ranks():
    """The hub's view names where every slot comes from: a first round's slots are ranks
    (``{"rank": 1}``), which feed no line; the picture is drawn all the same (a defect
    found end to end: it raised KeyError on them)."""
    view = {
        "section": "A",
        "name": "Two teams",
        "rounds": ["F"],
        "matches": [
            {
                "match": "F", "round": "F", "boards": 32, "bye": False, "tables": [1, 2],
                "teams": [{"team": 1, "name": "Lions"}, {"team": 2, "name": "Bears"}],
                "feeds": [{"rank": 1}, {"rank": 2}], "carry": ["0", "0"], "segments": [],
                "totals": None, "winner": None, "decided_by": None, "next": None,
                "walk_over": False, "state": "playing",
            }
        ],
        "choosing": [], "proposal": None, "places": [], "finished": False,
    }  # fmt: skip
    svg = bracket_svg(view)
    assert "Lions" in svg and "Bears" in svg
