"""Decisions D19 in the round controller and the movement: a team event drawn while it
runs. A round's matches join the movement only when its draw is published, earlier rounds
untouched; the section waits at the end of the round before, and moves on by itself once
the draw is out (a Swiss one round delayed never waits: its draw is out before)."""

from __future__ import annotations

import pytest

from hub.event.event_file import EventFileError, parse_event
from hub.event.movement.check import check_movement
from hub.event.movement.drawn import drawn_teams, with_round
from hub.event.movement.model import MovementError
from hub.live.rounds.round_controller import (
    Drawn,
    NextRound,
    ResultAccepted,
    Resume,
    RoundComplete,
    RoundController,
    RoundRefused,
    RoundStarted,
    SessionComplete,
    TableFinished,
)

# 4 teams, 3 rounds of 2 boards: match 1 at tables 1 (open) and 2 (closed), match 2 at 3-4
ROUND_1 = [(1, 2), (3, 4)]


def play_round(c, movement, rnd, at):
    effects = []
    for row in movement.round_rows(rnd, "A"):
        for b in row.boards:
            effects += c.handle(ResultAccepted(row.table, rnd, b, at))
    return effects


def kinds(effects):
    return [type(e).__name__ for e in effects]


def test_the_movement_of_a_drawn_event_holds_tables_and_boards_before_any_draw():
    """Every round's tables and boards are known at the start (the clock's round length,
    the board sets); no team sits until its round is drawn."""
    m = drawn_teams(4, 3, 2, "swiss")
    assert m.rounds == 3 and m.layout.draw == "swiss" and m.layout.drawn == 0
    assert [r.boards for r in m.round_rows(3, "A")] == [(5, 6)] * 4
    assert all(r.ns_pair == r.ew_pair == 0 for r in m.rows)
    assert check_movement(m).ok


def test_publishing_a_round_fills_its_rows_and_never_touches_an_earlier_one():
    """Match m at tables 2m-1 (home team NS: the open room) and 2m (home team EW)."""
    m = drawn_teams(4, 3, 2, "danish", [ROUND_1])
    after = with_round(m, "A", 2, [(1, 3), (2, 4)], teams=4)
    assert after.layout.drawn == 2
    assert [(r.table, r.ns_pair, r.ew_pair, r.boards) for r in after.round_rows(2, "A")] == [
        (1, 1, 3, (3, 4)),
        (2, 3, 1, (3, 4)),
        (3, 2, 4, (3, 4)),
        (4, 4, 2, (3, 4)),
    ]
    assert after.round_rows(1, "A") == m.round_rows(1, "A")
    assert check_movement(after).ok


@pytest.mark.parametrize(
    ("rnd", "pairs", "says"),
    [
        (3, [(1, 3), (2, 4)], "the next round to draw is 2"),
        (2, [(1, 3), (3, 4)], "team 3 is drawn twice"),
        (2, [(1, 5), (2, 4)], "no team 5 (teams are numbered 1-4)"),
        (2, [(1, 2), (3, 4), (5, 6)], "3 matches, but the room has tables for 2"),
        (2, [], "no match to draw (fewer than two teams play)"),
    ],
)
def test_a_draw_that_does_not_fit_is_refused_saying_why(rnd, pairs, says):
    m = drawn_teams(4, 3, 2, "swiss", [ROUND_1])
    with pytest.raises(MovementError) as e:
        with_round(m, "A", rnd, pairs, teams=4)
    assert says in e.value.message


def test_the_section_waits_for_the_next_draw_and_moves_on_when_it_is_published():
    m = drawn_teams(4, 3, 2, "swiss", [ROUND_1])
    c = RoundController("A", m)
    assert c.handle(Resume(frozenset(), None, 0.0)) == [RoundStarted(1, 0.0, resumed=True)]
    effects = play_round(c, m, 1, 10.0)
    assert kinds(effects)[-1] == "RoundComplete"  # and no RoundStarted(2): not drawn yet
    assert c.round == 1 and c.waits_for_draw()
    with pytest.raises(RoundRefused, match="round 2 of section A is not drawn yet"):
        c.handle(NextRound(11.0))
    m2 = with_round(m, "A", 2, [(1, 3), (2, 4)], teams=4)
    assert c.handle(Drawn(m2, 20.0)) == [RoundStarted(2, 20.0)]
    assert c.table_round(1, 2).ns_pair == 1 and c.table_round(1, 2).ew_pair == 3


def test_a_draw_published_during_the_round_before_lets_the_room_move_on_by_itself():
    """Seed 000, one round delayed: round 3's draw is out while round 2 is played."""
    m = drawn_teams(4, 3, 2, "swiss", [ROUND_1, [(1, 3), (2, 4)]])
    c = RoundController("A", m)
    c.handle(Resume(frozenset(), None, 0.0))
    play_round(c, m, 1, 5.0)
    m3 = with_round(m, "A", 3, [(1, 4), (2, 3)], teams=4)
    assert c.handle(Drawn(m3, 6.0)) == []  # round 2 is at the tables
    effects = play_round(c, m3, 2, 10.0)
    assert kinds(effects)[-2:] == ["RoundComplete", "RoundStarted"]
    assert effects[-1] == RoundStarted(3, 10.0)
    effects = play_round(c, m3, 3, 20.0)
    assert isinstance(effects[-1], SessionComplete)


def test_round_1_waits_for_its_draw_without_ending_at_once():
    """A Danish or Monrad round 1 is drawn at the start (by masterpoints, by lot): an
    undrawn round is not a round with every table done."""
    m = drawn_teams(4, 3, 2, "monrad")
    c = RoundController("A", m)
    effects = c.handle(Resume(frozenset(), None, 0.0))
    assert effects == [RoundStarted(1, 0.0, resumed=True)]
    assert not c.is_complete(1)
    with pytest.raises(RoundRefused, match="round 1 of section A is not drawn yet"):
        c.handle(NextRound(1.0))
    m1 = with_round(m, "A", 1, ROUND_1, teams=4)
    assert c.handle(Drawn(m1, 2.0)) == [RoundStarted(1, 2.0)]
    assert len(c.playing(1)) == 4


def test_a_restarted_hub_waits_at_the_last_drawn_round_already_played():
    m = drawn_teams(4, 3, 2, "swiss", [ROUND_1])
    played = frozenset((r.table, 1, b) for r in m.round_rows(1, "A") for b in r.boards)
    c = RoundController("A", m)
    effects = c.handle(Resume(played, None, 0.0))
    assert kinds(effects) == ["RoundStarted", "TableFinished", "RoundComplete"]
    assert not any(isinstance(e, RoundStarted) and e.round == 2 for e in effects)
    assert c.round == 1 and c.waits_for_draw()
    assert isinstance(effects[-1], RoundComplete)
    assert all(isinstance(e, RoundStarted | TableFinished | RoundComplete) for e in effects)


@pytest.mark.parametrize(
    ("movement", "says"),
    [
        ('kind = "howell", tables = 3, boards_per_round = 2, draw = "swiss"', "teams movement"),
        ('kind = "teams", teams = 8, boards_per_round = 2, draw = "swiss"', "give kind"),
        (
            'kind = "teams", teams = 8, rounds = 5, boards_per_round = 2, draw = "danish", '
            "delayed = true",
            "only a Swiss is drawn one round delayed",
        ),
        (
            'kind = "teams", teams = 8, boards_per_round = 2, delayed = true',
            "for a drawn event: add draw",
        ),
        (
            'kind = "teams", teams = 8, rounds = 5, boards_per_round = 2, draw = "knockout"',
            "swiss",
        ),
    ],
)
def test_a_draw_key_that_does_not_fit_names_the_key_path(movement, says):
    text = f"""schema_version = 1
[event]
name = "Teams"
[rules]
scoring = "teams"
[[sessions]]
name = "Day"
[[sessions.sections]]
letter = "A"
movement = {{ {movement} }}
"""
    with pytest.raises(EventFileError) as e:
        parse_event(text)
    assert any(path.startswith("sessions[0].sections[0].movement") for path, _ in e.value.problems)
    assert says in str(e.value)


def test_a_draw_in_an_event_not_scored_as_teams_is_refused_naming_the_key():
    """A Swiss of teams ranks by VPs: with ``scoring = "mp"`` the draw has no standing."""
    text = """schema_version = 1
[event]
name = "Teams"
[rules]
scoring = "mp"
[[sessions]]
name = "Day"
[[sessions.sections]]
letter = "A"
movement = { kind = "teams", teams = 8, rounds = 5, boards_per_round = 2, draw = "swiss" }
"""
    with pytest.raises(EventFileError) as e:
        parse_event(text)
    assert e.value.problems == [
        (
            "sessions[0].sections[0].movement.draw",
            'a draw is made for a teams event: give rules.scoring = "teams" (not "mp")',
        )
    ]


def test_the_event_names_the_home_team_of_a_drawn_match():
    """``home``: seed 000 seats the higher team number at home (§8); a Danish seats the
    higher-ranked by default (seed 001 is silent; seed 002's play-off rule). Round 1 of a
    Danish by masterpoints, here in team-number order (1 before 2 before 3 before 4):
    1 v 2 and 3 v 4 with the higher-ranked at home, 2 v 1 and 4 v 3 with the higher
    number."""
    from hub.event.movement.build import build_movement
    from hub.live.teams.draw_proposal import draw_spec, propose
    from hub.live.views.teams import TeamsLive

    def round_1(home: str) -> list[tuple[str, str]]:
        text = f"""schema_version = 1
[event]
name = "Danish"
[rules]
scoring = "teams"
[[sessions]]
name = "Day"
[[sessions.sections]]
letter = "A"
movement = {{ kind = "teams", teams = 4, rounds = 3, boards_per_round = 2, draw = "danish"{home} }}
teams = [
  {{ number = 1, name = "Lions", players = [{{ name = "a", masterpoints = 40 }}] }},
  {{ number = 2, name = "Bears", players = [{{ name = "b", masterpoints = 30 }}] }},
  {{ number = 3, name = "Owls", players = [{{ name = "c", masterpoints = 20 }}] }},
  {{ number = 4, name = "Foxes", players = [{{ name = "d", masterpoints = 10 }}] }},
]
"""
        event = parse_event(text)
        movement = build_movement(event.sessions[0].sections[0].movement, "A")
        spec = draw_spec(event, "A")
        assert spec is not None
        live = TeamsLive(event, "A", movement, {})
        draw = propose(spec, movement, "A", live, lambda r: False, 1)
        return [(p.home, p.away) for p in draw.matches]

    assert round_1("") == [("1", "2"), ("3", "4")]  # the higher-ranked at home
    assert round_1(', home = "higher-ranked"') == [("1", "2"), ("3", "4")]
    assert round_1(', home = "higher-number"') == [("2", "1"), ("4", "3")]
