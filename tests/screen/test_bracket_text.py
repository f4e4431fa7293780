"""The result screen's page of a knockout (issue [KNOCKOUT]): the bracket in box-drawing
characters, a box per match, the winner marked (▶ and bold), the match in play "live",
lines from a match to the one its winner goes to; a screen narrower than the bracket shows
the rounds still to be decided.

The bracket is written by hand as ``hub/live/knockout/bracket_view.py`` gives it (docs/api.md
``ko_show``): seed 003's single elimination of 8 teams (QF, SF, F and the match for third
place, §9, §13.2) during the quarter-finals."""

from __future__ import annotations

from typing import Any

from hub.result_screen.bracket_text import bracket_lines, bracket_of, bracket_text, shown_rounds


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
        "carry": None,
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


def quarter_finals(qf4: str = "playing") -> dict[str, Any]:
    """Seed 003, 8 teams: QF-1 1 v 8 won by 1, 61-40; QF-2 4 v 5 won by 5 by walk-over;
    QF-3 2 v 7 won by 2, 50-12.5 (exact 25/2); QF-4 3 v 6 at 45.5 each: an extra set
    follows (§12.5), or over (``qf4="decided"``, 3 won); SF-1 1 v 5 in play at 13.5-9;
    SF-2, F and the match for third place waiting."""
    lions, foxes, ab = team(1, "Lions"), team(5, "Foxes"), team(2, "A&B")
    decided = {"decided_by": "imps", "winner": 0}
    return {
        "section": "A",
        "name": "8 teams",
        "rounds": ["QF", "SF", "F"],
        "matches": [
            match(
                "QF-1", "QF", [lions, team(8, "Owls")], "decided", totals=["61", "40"], **decided
            ),
            match(
                "QF-2",
                "QF",
                [team(4, "Bears"), foxes],
                "decided",
                walk_over=True,
                winner=1,
                decided_by="walk_over",
            ),
            match(
                "QF-3", "QF", [ab, team(7, "Hares")], "decided", totals=["50", "25/2"], **decided
            ),
            match(
                "QF-4",
                "QF",
                [team(3, "Wolves"), team(6, "Cats")],
                qf4,
                totals=["91/2", "91/2"],
                next="extra_set" if qf4 == "playing" else None,
                **(decided if qf4 == "decided" else {}),
            ),
            match("SF-1", "SF", [lions, foxes], "playing", totals=["27/2", "9"]),
            match("SF-2", "SF", [ab, None], "waiting"),
            match("F", "F", [None, None], "waiting"),
            match("3rd", "F", [None, None], "waiting"),
        ],
        "places": [],
    }


def test_every_match_is_a_box_with_its_teams_and_running_imps():
    """Eight boxes (eight top corners ┌ followed by the match's name); QF-3 shows 2 A&B
    with 50 and team 7 with 12.5 (25/2 as the pages write it); SF-1 13.5 and 9."""
    text = "\n".join(bracket_lines(quarter_finals()))
    for name in ("QF-1", "QF-2", "QF-3", "QF-4", "SF-1", "SF-2", "F", "3rd"):
        assert f"┌ {name} ─" in text
    assert text.count("┌ ") == 8
    lines = bracket_lines(quarter_finals())
    inside = [line[:31] for line in lines]  # the quarter-finals' boxes, inside their borders
    assert any(line.startswith("│▶ 2 A&B") and line.endswith(" 50") for line in inside)
    assert any(line.startswith("│  7 Hares") and line.endswith(" 12.5") for line in inside)
    assert any("┤  1 Lions" in line and "13.5│" in line for line in lines)  # a line comes in


def test_the_winner_is_marked_and_the_match_in_play_is_live():
    """QF-1's winner (1 Lions) has the ▶, its loser (8 Owls) none; QF-2 says "w/o", QF-4
    "extra set follows"; SF-1's top border says "live"; SF-2 waits for the winner of
    QF-4 (the consecutive rule of a single elimination)."""
    lines = bracket_lines(quarter_finals())
    text = "\n".join(lines)
    assert "│▶ 1 Lions" in text and "│  8 Owls" in text and "▶ 8 Owls" not in text
    assert "│ w/o" in text
    assert "│ extra set follows" in text
    assert any(line.startswith("┌ QF-1") for line in lines)
    sf1 = next(line for line in lines if "┌ SF-1 " in line)
    assert sf1.endswith(" live ┐")
    assert "winner of QF-4" in text


def test_lines_join_each_quarter_final_to_its_semi_final():
    """Hand working (boxes 32 wide, 5 high with two teams, 1 row between, 4 columns
    between rounds, the round names on row 0): QF-1 rows 1-5, QF-2 rows 7-11; SF-1 centred
    on their middles (3 and 9): rows 4-8. QF-1's line leaves its right border at row 3
    (├ at column 31), runs to column 34, turns down (┐), and enters SF-1's first team line
    at row 5 (└─┤, SF-1's border at column 36); QF-2's leaves at row 9 (├──┘) and comes up
    to SF-1's second team line, row 6 (┌─┤)."""
    lines = bracket_lines(quarter_finals())
    assert lines[0].split() == ["QF", "SF", "F"]
    assert lines[3][31:35] == "├──┐"
    assert lines[4][34] == "│" and lines[4][36] == "┌"
    assert lines[5][34:37] == "└─┤"
    assert lines[6][34:37] == "┌─┤"
    assert lines[9][31:35] == "├──┘"


def test_a_narrow_screen_shows_the_rounds_still_to_be_decided():
    """Two boxes fit 75 characters ((75 + 4) // 36 = 2). While QF-4 plays: QF and SF; once
    it is over (every quarter-final decided): SF and F."""
    assert shown_rounds(quarter_finals(), 75) == ["QF", "SF"]
    assert shown_rounds(quarter_finals(), None) == ["QF", "SF", "F"]
    after = quarter_finals("decided")
    assert shown_rounds(after, 75) == ["SF", "F"]
    lines = bracket_lines(after, 75)
    assert lines[0].split() == ["SF", "F"]
    assert max(len(line) for line in lines) <= 75
    assert "QF-1" not in "\n".join(lines)


def test_the_rich_text_makes_the_winner_bold_and_live_red():
    """The rich Text of the same picture: the winner's line bold, "live" bold red."""
    text = bracket_text(quarter_finals())
    plain = text.plain
    winner = plain.index("▶ 1 Lions")
    live = plain.index(" live ")
    styles = {
        (span.start, str(span.style)) for span in text.spans if span.start <= winner < span.end
    }
    assert any(style == "bold" for _, style in styles)
    assert any(
        str(span.style) == "bold red" and span.start <= live + 1 < span.end for span in text.spans
    )


def test_a_knockout_feed_event_carries_the_bracket():
    """docs/api.md: the ``knockout`` event is the bracket with the feed's own keys."""
    view = quarter_finals()
    event = {"type": "event", "seq": 7, "event": "knockout", **view}
    assert bracket_of(event) == view
