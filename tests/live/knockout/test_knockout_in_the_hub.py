"""A knockout run by the hub (issue [KNOCKOUT]): seed 003's single elimination for 8 teams,
each match decided as its last board comes in, a level match playing an extra set at its
own tables (seed 003 §12.5), the next round appended to the movement and the tables told,
the semi-final losers playing for third place (§13.2), and the section ending with its four
places and the quarter-final losers sharing 5-8, ordered by their seeding numbers."""

from __future__ import annotations

import asyncio

import pytest
from hub_stub import wait_until
from knockout_room import KoRoom, ko_event, run_ko_room

from hub.api.server import CommandError


def test_an_eight_team_knockout_runs_to_its_places_with_an_extra_set(tmp_path):
    async def scenario(room: KoRoom) -> None:
        # the standard placing: 1 v 8, 4 v 5, 2 v 7, 3 v 6 at tables 1-2, 3-4, 5-6, 7-8
        assert room.matches() == [(1, 1, 8), (3, 4, 5), (5, 2, 7), (7, 3, 6)]
        await room.play({4: "level"})
        assert room.round == 2, "4 v 5 level: an extra set follows"
        assert room.matches() == [(3, 4, 5)], "only the level match plays it, at its tables"
        # seed 003 §12.8: an extra set has its own time (35 minutes), not its boards'
        assert room.hub.sections["A"].clock.full_seconds(2) == 35 * 60
        shown = await room.command("ko_show")
        qf2 = next(m for m in shown["matches"] if m["match"] == "QF-2")
        # seed 003 §12.6: the home team sits second in segment 1, the visitors in the next
        assert qf2["lineups"] == [
            {"segment": 1, "first": 5, "second": 4},
            {"segment": 2, "first": 4, "second": 5},
        ]
        await room.play({4: "away"})  # team 5 wins the extra set by 10 IMPs
        assert room.round == 3
        assert room.matches() == [(1, 1, 5), (3, 2, 3)], "the semi-finals, appended"
        await room.play({})
        assert room.round == 4
        assert sorted(room.matches()) == [(1, 1, 2), (3, 5, 3)], "the final and 3rd place"
        await room.play({})
        shown = await room.command("ko_show")
        places = [(p["team"], p["place"]) for p in shown["places"]]
        assert places == [(1, "1"), (2, "2"), (5, "3"), (3, "4"),
                          (4, "5-8"), (6, "5-8"), (7, "5-8"), (8, "5-8")]  # fmt: skip
        assert shown["finished"]
        assert room.events("session_complete"), "the knockout decided: the session is over"

    event = ko_event(8, 'publish = "at_once"', "extra_set_minutes = 35")
    run_ko_room(tmp_path, event, scenario)


def test_the_director_publishes_each_round_and_a_walk_over_moves_the_bracket_on(tmp_path):
    """D23: the next round is a draft until the director publishes it (``ko_publish``); a
    team that does not come (seed 003 §15) loses its match, audited, and is not seated."""

    async def scenario(room: KoRoom) -> None:
        await room.play({})  # 1, 4, 2, 3 win their quarter-finals
        assert room.round == 1, "the semi-finals wait for the director"
        shown = await room.command("ko_show")
        assert shown["proposal"]["round"] == "SF"
        pairs = [(m["home"]["team"], m["away"]["team"]) for m in shown["proposal"]["matches"]]
        assert pairs == [(1, 4), (2, 3)]
        with pytest.raises(CommandError, match="the round waiting is SF, not F"):
            await room.command("ko_publish", round="F")
        shown = await room.command("ko_walk_over", team=3)  # team 3 does not come
        sf2 = next(m for m in shown["matches"] if m["match"] == "SF-2")
        assert sf2["state"] == "decided" and sf2["walk_over"] and sf2["winner"] == 0
        assert shown["proposal"]["round"] == "SF"
        assert [m["match"] for m in shown["proposal"]["matches"]] == ["SF-1"]
        await room.command("ko_publish", round="SF")
        assert room.round == 2 and room.matches() == [(1, 1, 4)], "only SF-1 is played"
        await room.play({1: "away"})  # team 4 beats team 1
        shown = await room.command("ko_show")
        assert [(m["home"]["team"], m["away"]["team"]) for m in shown["proposal"]["matches"]] == [
            (4, 2),  # the final: SF-1's winner v SF-2's
            (1, 3),  # third place: the semi-final losers, team 3 too (it lost by walk-over)
        ]
        walk_overs = room.hub.store.audit_log(room.hub.event_id, "ko_walk_over")
        assert [e["detail"]["team"] for e in walk_overs] == ["3"]

    run_ko_room(tmp_path, ko_event(8), scenario)


def test_a_restarted_hub_offers_the_held_round_again_and_keeps_the_outcomes(tmp_path):
    """D23: every decision is in the store; a restart rebuilds the bracket from it (the
    quarter-finals' outcomes, a walk-over) and offers the round still held."""

    async def before(room: KoRoom) -> None:
        await room.play({4: "away"})  # team 5 beats team 4
        await room.command("ko_walk_over", team=3)  # SF-2: team 2 goes through

    async def after(room: KoRoom) -> None:
        await asyncio.sleep(0.2)  # the knockouts' part starts after the warm start
        shown = await room.command("ko_show")
        pairs = [(m["home"]["team"], m["away"]["team"]) for m in shown["proposal"]["matches"]]
        assert pairs == [(1, 5)], "SF-1 only: SF-2 went to team 2 by walk-over"
        sf2 = next(m for m in shown["matches"] if m["match"] == "SF-2")
        assert sf2["walk_over"] and sf2["teams"][sf2["winner"]]["team"] == 2
        await room.command("ko_publish", round="SF")
        assert room.round == 2 and room.matches() == [(1, 1, 5)]

    run_ko_room(tmp_path, ko_event(8), before, after)


CHOSEN_SEMIS = """schema_version = 1
name = "Seniors' play-off, 8 teams"
entries = 8
rounds = ["QF", "SF", "F"]

[defaults]
segments = 1
boards_per_segment = 2
tie = ["higher_placed"]

[[choice]]
name = "SF"
order = "rank"
pool = ["winner QF-1", "winner QF-2", "winner QF-3", "winner QF-4"]
matches = ["SF-1", "SF-2"]

[[match]]
name = "QF-1"
round = "QF"
teams = ["rank 1", "rank 8"]
places = ["", "5-8"]

[[match]]
name = "QF-2"
round = "QF"
teams = ["rank 2", "rank 7"]
places = ["", "5-8"]

[[match]]
name = "QF-3"
round = "QF"
teams = ["rank 3", "rank 6"]
places = ["", "5-8"]

[[match]]
name = "QF-4"
round = "QF"
teams = ["rank 4", "rank 5"]
places = ["", "5-8"]

[[match]]
name = "SF-1"
round = "SF"
teams = ["choice SF", "choice SF"]
carry_over = { higher_placed = 0.1 }

[[match]]
name = "SF-2"
round = "SF"
teams = ["choice SF", "choice SF"]
carry_over = { higher_placed = 0.1 }

[[match]]
name = "F"
round = "F"
teams = ["winner SF-1", "winner SF-2"]
places = ["1", "2"]

[[match]]
name = "3rd"
round = "F"
teams = ["loser SF-1", "loser SF-2"]
places = ["3", "4"]
"""


def test_the_best_placed_winner_chooses_its_semi_final_opponent_through_the_director(tmp_path):
    """Seed 001 I.2: "Among the winners of the Quarter-Finals, the team which was highest
    placed in the Qualification Swiss will choose the opponent of the Semifinal"; the
    choice is the director's command (``ko_choose``), audited, and 0.1 IMP goes to the
    higher-placed team in the semi-finals ("Carry over in R16, QF and SF matches is 0.1
    imp")."""

    async def scenario(room: KoRoom) -> None:
        await room.play({})  # 1, 2, 3 and 4 win; the level board rule is never needed
        shown = await room.command("ko_show")
        assert shown["proposal"] is None
        (turn,) = shown["choosing"]
        assert turn["chooser"]["team"] == 1
        assert sorted(t["team"] for t in turn["options"]) == [2, 3, 4]
        with pytest.raises(CommandError, match="has no choice to make"):
            await room.command("ko_choose", team=2, opponent=3)
        shown = await room.command("ko_choose", team=1, opponent=4)
        pairs = [(m["home"]["team"], m["away"]["team"]) for m in shown["proposal"]["matches"]]
        assert pairs == [(1, 4), (2, 3)], "1 chose 4; 2 and 3 are left to each other"
        carry = [m["carry"] for m in shown["proposal"]["matches"]]
        assert carry == [["1/10", "0"], ["1/10", "0"]]
        await room.command("ko_publish", round="SF")
        assert room.matches() == [(1, 1, 4), (3, 2, 3)]
        choices = room.hub.store.audit_log(room.hub.event_id, "ko_choice")
        assert [(e["detail"]["team"], e["detail"]["opponent"]) for e in choices] == [("1", "4")]

    event = ko_event(8).replace('knockout = "single_elimination"', 'knockout = "semis.toml"')
    run_ko_room(tmp_path, event, scenario, files={"semis.toml": CHOSEN_SEMIS})


def test_seed_000s_double_elimination_runs_to_the_final_with_its_three_ways(tmp_path):
    """Seed 000 §4A: the top 8 start in the upper bracket, losers drop to the lower; after
    Match 3 the unbeaten team has a bye to the final with 6.5 IMPs; Match 3's lower
    bracket is two three-ways and Match 4 one (a team winning both its matches wins);
    the final and the play-off for third (its second and third) are decided by the
    event's rule (§6-3: level → total points → boards won → 2-board sudden death).
    Every favoured team wins its board by 10 IMPs (470 points), every other board pushes."""
    event = ko_event(16, 'publish = "at_once"', "sudden_death_boards = 2")
    event = event.replace('knockout = "single_elimination"', 'knockout = "double_elimination"')
    event = event.replace("teams = 16\nsegments = 1", "teams = 16\nsegments = 2")  # 3-ways: 2

    async def scenario(room: KoRoom) -> None:
        async def match_round(favoured: set[int], segments: int = 2) -> None:
            for _ in range(segments):
                await room.favour(favoured)

        assert room.matches() == [(1, 1, 8), (3, 4, 5), (5, 2, 7), (7, 3, 6),
                                  (9, 9, 16), (11, 12, 13), (13, 10, 15), (15, 11, 14)]  # fmt: skip
        await match_round({1, 4, 2, 3, 9, 12, 10, 11})
        assert room.matches() == [(1, 1, 4), (3, 2, 3), (5, 8, 9), (7, 5, 12),
                                  (9, 7, 10), (11, 6, 11)]  # fmt: skip
        await match_round({1, 2, 9, 12, 10, 11})
        ways = room.hub.sections["A"].movement.layout.three_ways
        assert [(w.teams, w.tables) for w in ways] == [((4, 10, 11), (3, 4, 5)),
                                                       ((3, 9, 12), (6, 7, 8))]  # fmt: skip
        assert room.matches() == [(1, 1, 2)], "the upper bracket's final beside them"
        with pytest.raises(CommandError, match="plays the three-way L3-1"):
            await room.command("ko_walk_over", team=10)  # the director scores its boards
        await match_round({1, 4, 3})  # 4 and 3 win both their matches; 1 is unbeaten
        ways = room.hub.sections["A"].movement.layout.three_ways
        assert ways[-1].teams == (2, 4, 3), "Match 4: U3's loser and the two winners"
        await match_round({4})
        shown = await room.command("ko_show")
        final = next(m for m in shown["matches"] if m["match"] == "F")
        assert [t["team"] for t in final["teams"]] == [1, 4] and final["carry"] == ["13/2", "0"]
        third = next(m for m in shown["matches"] if m["match"] == "3rd")
        pair = {t["team"] for t in third["teams"]}
        assert pair == {2, 3}, "Match 4's second and third play for third place"
        await room.favour({4})  # the final: 4 wins its one segment by 10 IMPs, 10 > 6.5
        assert room.round == room.hub.sections["A"].movement.rounds
        shown = await room.command("ko_show")
        third = next(m for m in shown["matches"] if m["match"] == "3rd")
        assert third["next"] == "sudden_death", "level, equal points, equal boards won"
        home = third["teams"][0]["team"]
        await room.favour({home})  # the sudden death's two boards
        shown = await room.command("ko_show")
        places = {p["team"]: p["place"] for p in shown["places"]}
        assert places[4] == "1" and places[1] == "2" and places[home] == "3"
        assert places[({2, 3} - {home}).pop()] == "4"
        assert [t for t, p in places.items() if p == "5-8"] == [9, 10, 11, 12]
        assert [t for t, p in places.items() if p == "9-12"] == [5, 6, 7, 8]
        assert [t for t, p in places.items() if p == "13-16"] == [13, 14, 15, 16]
        assert shown["finished"] and room.events("session_complete")

    run_ko_room(tmp_path, event, scenario)


def test_the_director_draws_the_first_round_again_before_a_board_is_played(tmp_path):
    """A correction after the bracket was published (the issue: "an ACBL regional saw 33
    team corrections ... after its start time"): ``ko_redraw`` with the corrected order
    seats the first round again, audited; once a board is played it is refused."""

    async def scenario(room: KoRoom) -> None:
        with pytest.raises(CommandError, match="every team 1-8 once"):
            await room.command("ko_redraw", order=[1, 2, 3])
        await room.command("ko_redraw", order=[8, 7, 6, 5, 4, 3, 2, 1])
        # rank 1 is team 8 now: 8 v 1, 5 v 4, 7 v 2, 6 v 3
        assert room.matches() == [(1, 8, 1), (3, 5, 4), (5, 7, 2), (7, 6, 3)]
        redrawn = room.hub.store.audit_log(room.hub.event_id, "ko_redrawn")
        assert [e["detail"]["after"] for e in redrawn] == [[8, 7, 6, 5, 4, 3, 2, 1]]
        await room.play({})
        with pytest.raises(CommandError, match="has begun"):
            await room.command("ko_redraw")
        shown = await room.command("ko_show")
        assert shown["proposal"]["round"] == "SF"
        pairs = [(m["home"]["team"], m["away"]["team"]) for m in shown["proposal"]["matches"]]
        assert pairs == [(8, 5), (7, 6)]

    run_ko_room(tmp_path, ko_event(8), scenario)


def test_a_level_match_whose_tie_rule_is_used_up_is_decided_by_the_director(tmp_path):
    """A knockout whose only tie rule is total points (seed 000 §6-2 without its lot): a
    match level on IMPs and on points waits for the director, who is told so; ``ko_decide``
    records the outcome, audited, and the bracket moves on."""

    async def scenario(room: KoRoom) -> None:
        await room.play({1: "level"})  # 1 v 8: every board the same in both rooms
        texts = room.hub.alerts.recent()
        assert any("QF-1 is level and the event's tie rule is used up" in t for t in texts)
        shown = await room.command("ko_show")
        assert shown["proposal"] is None
        with pytest.raises(CommandError, match="team 4 does not play QF-1"):
            await room.command("ko_decide", match="QF-1", winner=4)
        shown = await room.command("ko_decide", match="QF-1", winner=8, reason="captains agree")
        qf1 = next(m for m in shown["matches"] if m["match"] == "QF-1")
        assert qf1["state"] == "decided" and qf1["teams"][qf1["winner"]]["team"] == 8
        assert room.matches() == [(1, 8, 4), (3, 2, 3)], "the semi-finals, 8 in"
        (entry,) = [
            e for e in room.hub.store.audit_log(room.hub.event_id, "ko_outcome")
            if e["detail"]["match"] == "QF-1"
        ]  # fmt: skip
        assert entry["actor"] == "TD" and entry["detail"]["decided_by"] == "director"
        with pytest.raises(CommandError, match="QF-1 is decided already"):
            await room.command("ko_decide", match="QF-1", winner=1)

    text = ko_event(8, 'publish = "at_once"', 'tie = ["total_points"]')
    run_ko_room(tmp_path, text, scenario)


def test_a_correction_after_a_match_is_decided_is_shown_not_applied(tmp_path):
    """D23: "A later correction never re-moves contestants by itself: the hub shows what
    it would change and the director decides." QF-1 went to team 1; the director's
    correction of its first board makes team 8 the better: the bracket stands, the view
    says what the result would give, and the director is told once."""

    async def scenario(room: KoRoom) -> None:
        await room.play({})
        assert room.round == 2
        # the closed room (table 2, team 8 NS) made 4S instead of going one down: a push
        await room.command(
            "enter_result", table=2, round=1, board=1, contract="4S", declarer="N", result="+1"
        )
        await wait_until(
            lambda: any("correction changed QF-1" in t for t in room.hub.alerts.recent()),
            10,
            "the director told of the correction",
        )
        shown = await room.command("ko_show")
        qf1 = next(m for m in shown["matches"] if m["match"] == "QF-1")
        assert qf1["teams"][qf1["winner"]]["team"] == 1, "the bracket stands as decided"
        assert qf1["would_change"] == {"winner": 1, "next": None}, qf1
        assert room.matches() == [(1, 1, 4), (3, 2, 3)]
        told = [t for t in room.hub.alerts.recent() if "correction changed QF-1" in t]
        assert len(told) == 1 and "Team 8" in told[0]

    run_ko_room(tmp_path, ko_event(8, 'publish = "at_once"'), scenario)


def test_a_chooser_not_there_is_passed_over_and_plays_who_is_left(tmp_path):
    """Seed 002 §17: the team whose turn it is to choose is not there: the turn passes to
    the next (``ko_absent``, audited); once every team there has chosen, the absent one
    plays the team left."""

    async def scenario(room: KoRoom) -> None:
        await room.play({})  # 1, 2, 3 and 4 win; 1 would choose first
        shown = await room.command("ko_absent", team=1)
        (turn,) = shown["choosing"]
        assert turn["chooser"]["team"] == 2 and [t["team"] for t in turn["absent"]] == [1]
        shown = await room.command("ko_choose", team=2, opponent=4)
        pairs = {(m["home"]["team"], m["away"]["team"]) for m in shown["proposal"]["matches"]}
        assert {frozenset(p) for p in pairs} == {frozenset((2, 4)), frozenset((1, 3))}
        steps = room.hub.store.audit_log(room.hub.event_id, "ko_choice")
        assert [(e["detail"]["team"], e["detail"]["opponent"]) for e in steps] == [
            ("1", "(absent)"),
            ("2", "4"),
        ]
        with pytest.raises(CommandError, match="has no choice of opponent to make"):
            await room.command("ko_absent", team=1)

    event = ko_event(8).replace('knockout = "single_elimination"', 'knockout = "semis.toml"')
    run_ko_room(tmp_path, event, scenario, files={"semis.toml": CHOSEN_SEMIS})


def test_the_captains_draw_for_the_finals_seating_then_the_choice_alternates(tmp_path):
    """Seed 000 §8: "Prior to the start of the final and 3rd place playoff, the team
    captains will draw to determine choice of seating right. The winner of the draw may
    choose to sit first in any of the three stanzas, then the choice alternates." Earlier
    rounds are blind (no line-up order). The lot winner chooses segment 2, the other
    captain segment 3, the last (1) goes to the lot winner: it sits first in 1 and 2."""

    async def scenario(room: KoRoom) -> None:
        shown = await room.command("ko_show")
        qf1 = next(m for m in shown["matches"] if m["match"] == "QF-1")
        assert qf1["lineups"] == [] and "seating_turn" not in qf1, "blind seating"
        await room.play({})
        await room.play({})  # the semi-finals: 1 and 2 reach the final
        shown = await room.command("ko_show")
        final = next(m for m in shown["matches"] if m["match"] == "F")
        winner = final["seating_turn"]["team"]
        other = 3 - winner  # the final is 1 v 2
        with pytest.raises(CommandError, match="give 1-3"):
            await room.command("ko_seating", match="F", segment=4)
        await room.command("ko_seating", match="F", segment=2)
        shown = await room.command("ko_show")
        final = next(m for m in shown["matches"] if m["match"] == "F")
        assert final["seating_turn"]["team"] == other, "then the choice alternates"
        assert final["lineups"] == [], "not known until the choices are made"
        await room.command("ko_seating", match="F", segment=3)
        shown = await room.command("ko_show")
        final = next(m for m in shown["matches"] if m["match"] == "F")
        assert "seating_turn" not in final
        assert [u["first"] for u in final["lineups"]] == [winner, winner, other]
        with pytest.raises(CommandError, match="no seating choice to make"):
            await room.command("ko_seating", match="F", segment=1)

    text = ko_event(8, 'publish = "at_once"', 'seating = "captains_draw"')
    text = text.replace("final_segments = 1", "final_segments = 3")
    run_ko_room(tmp_path, text, scenario)
