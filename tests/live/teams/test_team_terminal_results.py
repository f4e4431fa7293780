"""Issue 16 [TEAMS] "Team matches in the running hub": "Terminals show their own result and,
once the other room has played the board, the comparison and the IMPs; at the end of a
segment the running match score in IMPs and VPs (events can hide these as they hide
travellers) ... ranking pages reach team terminals" (docs/protocol.md §4.6).

Four teams, two boards a round; round 1: team 1 (Lions) v team 4 (Foxes) at tables 1
(open room, Lions NS) and 2 (closed room, Lions EW); team 2 (Bears) v team 3 (Owls) at
tables 3 and 4. The hub runs whole behind a recording terminal port (tests/team_room.py);
each table's terminal enters its own results.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hub_stub import wait_until
from team_events import danish_vp
from team_room import BEARS_OWLS, LIONS_FOXES, Room, run_room


def lines_of(view: Any) -> set[tuple[int, int, int, Fraction]]:
    """A traveller's lines: (NS, EW, NS score, IMPs to NS)."""
    return {(r.ns_pair, r.ew_pair, r.score_ns, r.value) for r in view.rows}


def test_the_other_room_sees_the_comparison_and_the_imps_once_both_have_played(tmp_path):
    """Board 1: the open room alone sees its own line (nothing to compare, 0 IMPs); when
    the closed room plays it, both tables see both lines: Lions +420 (open) and -50 for
    Foxes NS (closed), 470 to the Lions: 10 IMPs (Law 78B)."""

    async def scenario(room: Room) -> None:
        port = room.port
        await room.play(*LIONS_FOXES[0])
        (first,) = port.got(1, "result_view")
        assert lines_of(first) == {(1, 4, 420, Fraction(0))} and first.imps
        assert port.got(2, "result_view") == []
        await room.play(*LIONS_FOXES[1])
        (closed,) = port.got(2, "result_view")
        both = {(1, 4, 420, Fraction(10)), (4, 1, -50, Fraction(-10))}
        assert lines_of(closed) == both and closed.own_value == -10
        again = port.got(1, "result_view")
        assert len(again) == 2 and again[1].board == 1
        assert lines_of(again[1]) == both and again[1].own_value == 10
        assert port.got(3, "result_view") == port.got(4, "result_view") == []  # another match

    run_room(tmp_path, scenario)


def test_a_table_that_finished_its_boards_sees_the_running_match_score(tmp_path):
    """The open room finishes first: 10-0 over the one board both rooms played (1 board's
    VPs), board 2 still out. When the closed room finishes, both tables see 10-0 over 2
    boards, 16.46-3.54 VP (the official table), nothing out. The other match's tables are
    not told; the feed's ``match`` event carries only the match a result touched."""
    w1, l1 = danish_vp(1, 10)
    w2, l2 = danish_vp(2, 10)

    async def scenario(room: Room) -> None:
        port = room.port
        for result in (LIONS_FOXES[0], LIONS_FOXES[2]):  # the open room's two boards
            await room.play(*result)
        (early,) = port.got(1, "match_score")
        assert (early.home, early.away, early.home_name, early.away_name) == (
            1,
            4,
            "Lions",
            "Foxes",
        )
        # nothing compared yet: the closed room has played no board
        assert (early.scored, early.out, early.home_imps, early.home_vp) == (0, 2, 0, 0)
        await room.play(*LIONS_FOXES[1])
        one = port.got(1, "match_score")[-1]
        assert (one.scored, one.out, one.home_imps, one.away_imps) == (1, 1, 10, 0)
        assert (one.home_vp, one.away_vp) == (w1, l1)
        assert port.got(2, "match_score") == []  # the closed room has a board to play
        await room.play(*LIONS_FOXES[3])
        for table in (1, 2):
            last = port.got(table, "match_score")[-1]
            assert (last.round, last.scored, last.out) == (1, 2, 0)
            assert (last.home_imps, last.away_imps, last.home_vp, last.away_vp) == (10, 0, w2, l2)
        assert port.got(3, "match_score") == port.got(4, "match_score") == []
        news = room.events("match")
        assert len(news) == 4 and {e["match"]["match"] for e in news} == {1}
        assert (news[-1]["match"]["home_vp"], news[-1]["hidden"]) == (str(w2), False)

    run_room(tmp_path, scenario)


def test_an_event_without_travellers_shows_neither_comparison_nor_match_score(tmp_path):
    """``travellers = "never"``: the issue's "events can hide these as they hide
    travellers"."""

    async def scenario(room: Room) -> None:
        for result in LIONS_FOXES:
            await room.play(*result)
        for table in (1, 2):
            assert room.port.got(table, "result_view") == []
            assert room.port.got(table, "match_score") == []

    run_room(tmp_path, scenario, 'travellers = "never"')


def test_no_match_score_in_the_rounds_whose_rankings_are_hidden(tmp_path):
    """``hide_rankings_last_rounds`` (TD trial F13) hides the running match score of those
    rounds (here every round of the three); the comparison of a board still shows, as
    travellers do. The feed tells the result screens the round is hidden."""

    async def scenario(room: Room) -> None:
        for result in LIONS_FOXES:
            await room.play(*result)
        assert len(room.port.got(1, "result_view")) == 4  # each board: its own, then compared
        assert room.port.got(1, "match_score") == room.port.got(2, "match_score") == []
        assert all(e["hidden"] for e in room.events("match"))

    run_room(tmp_path, scenario, "hide_rankings_last_rounds = 3")


def test_team_standings_reach_every_team_table_as_ranking_pages(tmp_path):
    """Once round 1 is complete, every table of both rooms gets the VP standings as a
    ranking page, as pairs get theirs: Lions 16.46 (10-0 over 2 boards), Bears 14.39
    (6-0), Owls 5.61, Foxes 3.54; the team's number and name."""
    w10, l10 = danish_vp(2, 10)
    w6, l6 = danish_vp(2, 6)

    async def scenario(room: Room) -> None:
        for result in LIONS_FOXES + BEARS_OWLS:
            await room.play(*result)
        await wait_until(
            lambda: all(room.port.got(t, "ranking") for t in (1, 2, 3, 4)), 10, "ranking pages"
        )
        expected = [
            ("1", 1, int(w10 * 100), "Lions"),
            ("2", 2, int(w6 * 100), "Bears"),
            ("3", 3, int(l6 * 100), "Owls"),
            ("4", 4, int(l10 * 100), "Foxes"),
        ]
        for table in (1, 2, 3, 4):
            (page,) = room.port.got(table, "ranking")
            assert (page.round, page.page, page.pages) == (1, 1, 1)
            got = [(x.rank, x.entrant, x.total_hundredths, x.names) for x in page.lines]
            assert got == expected

    run_room(tmp_path, scenario)


@pytest.mark.parametrize(
    "display", ["hide_rankings_last_rounds = 3", "rankings_after_each_round = false"]
)
def test_hidden_rankings_send_no_ranking_pages_to_team_tables(tmp_path, display):
    """As at pairs: an event that hides its rankings (its last rounds, or after each
    round) keeps the pages back from the tables until the final results."""

    async def scenario(room: Room) -> None:
        for result in LIONS_FOXES + BEARS_OWLS:
            await room.play(*result)
        await wait_until(lambda: room.events("standings"), 10, "the round's standings")
        assert all(room.port.got(t, "ranking") == [] for t in (1, 2, 3, 4))

    run_room(tmp_path, scenario, display)
