"""Tie-break rules by round (issue [RULINGS]): seed 000 §6-1 breaks ties "during the event"
by IMP quotient, then total point quotient, then a draw (``yeh_swiss``), and "after round
10" by (a) IMP quotient (b) head-to-head IMPs (c) head-to-head total points (d) total point
quotient (e) a one-board play-off (``yeh_swiss_final``). The event file says so with
``tie_breaks = "yeh_swiss"`` and ``[[rules.tie_breaks_after]] round = 10, tie_breaks =
"yeh_swiss_final"``; the standings after a round use the rule in force then.

The worked event (a Monrad of 4 teams, two boards a round, both rounds drawn beforehand):

- round 1, boards 1-2: 1 v 2 at tables 1-2, 3 v 4 at tables 3-4;
- round 2, boards 3-4: 3 v 1 at tables 1-2, 2 v 4 at tables 3-4.

On the first board of each match the home team, NS at the open table, scores and the
closed table's NS passes it out (0); the second board is passed out in both rooms:

- 1 v 2: team 1 +400 (3NT, board 1 not vulnerable): 400 points is 9 IMPs to team 1;
- 3 v 4: team 3 +400: 9 IMPs to team 3;
- 3 v 1: team 3 +400 (board 3, NS not vulnerable): 9 IMPs to team 3;
- 2 v 4: team 2 +420 (4S): 420 points is 9 IMPs too (370-420), to team 2.

After round 2, on a continuous scale where a margin's VPs and its loser's sum to 20:

- team 1: VP(9) + (20 − VP(9)) = 20 VP; IMPs 9 won, 9 lost: quotient 1; total points
  400 won, 400 lost: quotient 1; beat team 2 head-to-head, 9 IMPs to 0;
- team 2: (20 − VP(9)) + VP(9) = 20 VP; IMPs 9 and 9: quotient 1; points 420 won, 400
  lost: quotient 21/20;
- team 3: 2·VP(9) > 20 VP (it won both); team 4: 2·(20 − VP(9)) < 20 VP.

So teams 1 and 2 are level on VP and on IMP quotient. The "during" chain goes on to the
total point quotient: 2 (21/20) before 1 (1), standings 3, 2, 1, 4. The final chain goes on
to head-to-head IMPs (they have met): 1 (9) before 2 (0), standings 3, 1, 2, 4.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from team_events import drawn_event

from hub.event.event_file import EventFileError, parse_event
from hub.event.movement.model import Layout, MovementKind
from hub.live.views.teams import TeamsLive
from hub.standings.rebuild import rebuild
from hub.standings.team_section import tie_rule
from hub.store.store import ResultEntry, Store
from scoring.team_standings import TeamStanding

BOTH_ROUNDS = "first_rounds = [[[1, 2], [3, 4]], [[3, 1], [2, 4]]]"

# (table, round, board, NS score): the open tables' first boards; every other room passes
SCORES = [(1, 1, 1, 400), (3, 1, 1, 400), (1, 2, 3, 400), (3, 2, 3, 420)]


def seed_000_rules(*after: tuple[int, str]) -> str:
    """``[rules]`` lines: seed 000's "during the event" chain, then ``after`` entries
    (round, rule)."""
    entries = ", ".join(f'{{ round = {r}, tie_breaks = "{name}" }}' for r, name in after)
    return f'tie_breaks = "yeh_swiss"\ntie_breaks_after = [{entries}]'


def event_text(*after: tuple[int, str]) -> str:
    return drawn_event("monrad", 4, 2, BOTH_ROUNDS, rules=seed_000_rules(*after))


def standings(tmp_path: Path, event: str, rounds: int = 2) -> tuple[list[TeamStanding], list[int]]:
    """The event stored with ``SCORES`` of rounds 1 … ``rounds`` (every other room of them
    passed out): the rebuild's standings and the team order of the live view's rows."""
    store = Store.open(f"sqlite:///{tmp_path / 'ties.db'}")
    try:
        eid = store.create_event(event)
        movement = store.movement(eid, "A")
        score = {(t, r, b): s for t, r, b, s in SCORES}
        store.record(
            eid,
            [
                ResultEntry(
                    "A", row.table, row.round, b, row.ns_pair, row.ew_pair,
                    score_ns=score.get((row.table, row.round, b), 0),
                )
                for row in movement.rows
                if row.round <= rounds
                for b in row.boards
            ],
        )  # fmt: skip
        rebuilt = rebuild(store, eid)["A"].team_standings
        live = TeamsLive(store.event(eid), "A", movement, {})
        for line in store.live_lines(eid):
            live.put(line)
        return rebuilt, [row["team"] for row in live.rows()]
    finally:
        store.close()


def test_seed_000_after_round_10_head_to_head_imps_order_teams_level_on_imp_quotient(tmp_path):
    """From the entry's round on (here round 2 is reached), the final chain: teams 1 and 2
    are level on VP (20) and IMP quotient (1); team 1 beat team 2 by 9 IMPs to 0."""
    rebuilt, live = standings(tmp_path, event_text((2, "yeh_swiss_final")))
    assert [s.record.team for s in rebuilt] == live == [3, 1, 2, 4]
    sums = {
        s.record.team: (s.record.vp, s.record.imps_won, s.record.imps_lost, s.record.points_won,
                        s.record.points_lost)
        for s in rebuilt
    }  # fmt: skip
    assert sums[1] == (20, 9, 9, 400, 400)
    assert sums[2] == (20, 9, 9, 420, 400)
    assert [s.rank for s in rebuilt] == ["1", "2", "3", "4"]


def test_seed_000_during_the_event_total_point_quotient_orders_them(tmp_path):
    """Before the entry's round (round 3 not reached), the "during" chain: team 2's total
    point quotient 420/400 = 21/20 beats team 1's 400/400 = 1."""
    rebuilt, live = standings(tmp_path, event_text((3, "yeh_swiss_final")))
    assert [s.record.team for s in rebuilt] == live == [3, 2, 1, 4]
    assert [s.rank for s in rebuilt] == ["1", "2", "3", "4"]


def test_the_last_entry_from_a_round_at_or_before_the_one_reached_is_in_force():
    """Entries from rounds 3 and 10 (seed 000's "after round 10", with one more step
    before it): rounds 0-2 use ``tie_breaks``, 3-9 the round-3 entry, 10 on the last."""
    event = parse_event(event_text((3, "wbf"), (10, "yeh_swiss_final")))
    layout = Layout(MovementKind.TEAMS, copies=2, matches=((1, 2), (3, 4)))
    names = [tie_rule(event, layout, reached).name for reached in (0, 2, 3, 9, 10, 11)]
    assert names == ["yeh_swiss", "yeh_swiss", "wbf", "wbf", "yeh_swiss_final", "yeh_swiss_final"]


@pytest.mark.parametrize(
    ("after", "reason"),
    [
        ("{ round = 10, tie_breaks = 'coin' }", "'coin', is not a tie-break for teams scoring"),
        ("{ round = 10, tie_breaks = [] }", "at least 1 item"),
        ("{ round = 0, tie_breaks = 'wbf' }", "greater than or equal to 1"),
        (
            "{ round = 10, tie_breaks = 'wbf' }, { round = 10, tie_breaks = 'yeh_swiss_final' }",
            "entry 1: round 10 is not after round 10; give the entries in strictly increasing",
        ),
        (
            "{ round = 10, tie_breaks = 'wbf' }, { round = 4, tie_breaks = 'yeh_swiss_final' }",
            "entry 1: round 4 is not after round 10",
        ),
        ("{ round = 10, tie_breaks = 'yeh_swiss', when = 1 }", "unknown key"),
    ],
)
def test_an_event_file_tie_breaks_after_is_refused_naming_the_key(after, reason):
    """Each entry's rule is checked as ``tie_breaks`` is; rounds from 1, strictly
    increasing."""
    text = drawn_event(
        "monrad", 4, 2, BOTH_ROUNDS, rules=f'tie_breaks = "yeh_swiss"\ntie_breaks_after = [{after}]'
    )
    with pytest.raises(EventFileError) as e:
        parse_event(text)
    assert any(p.startswith("rules.tie_breaks_after") and reason in r for p, r in e.value.problems)


def test_a_pairs_event_is_refused_a_tie_breaks_after():
    """Pairs standings have one rule for the event: the key is for teams scoring only."""
    text = """schema_version = 1
[event]
name = "Pairs"
[rules]
scoring = "mp"
tie_breaks_after = [{ round = 2, tie_breaks = "lot" }]
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = { kind = "howell", tables = 2, boards_per_round = 2 }
"""
    with pytest.raises(EventFileError) as e:
        parse_event(text)
    assert ("rules.tie_breaks_after", "is for teams scoring only") in [
        (p, r.split(";")[0]) for p, r in e.value.problems
    ]
