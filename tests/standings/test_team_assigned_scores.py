"""Issue 29 [RULINGS] "Assigned scores at teams": a board where a room has the director's
adjusted score is scored with assigned IMPs for the home team, live and in the rebuild alike.

The rules (docs/scoring.md, "Assigned scores at teams"; scoring-rules.md §4.2 and §6):

- Law 86A: an artificial average-plus / average-minus is +3 / −3 IMPs unless the event says
  otherwise (``[rules.teams] assigned_imps``); a percentage goes linearly, 60 % = A+.
- An artificial score in a room replaces the comparison: the other room's result is not
  compared with anything. The room gives the home team half its own side's award less half
  the other side's: ±3 for a balanced A+/A−; Law 86B's average of the two teams' separate
  results when the awards do not balance. With both rooms artificial the rooms add up.
- A weighted score (Law 12C1(c)) is compared, weighted: Σ wᵢ·IMP(netᵢ).

The worked event: four teams, two boards a round; round 1 Lions (1) v Foxes (4) at tables 1
(open, Lions NS) and 2 (closed, Foxes NS); Bears (2) v Owls (3) at tables 3 (Bears NS) and
4 (Owls NS). Scored on an illustrative VP table (not official).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hub.event.event_file import EventFileError, parse_event
from hub.event.team_rules import RoomResult, TeamRules
from hub.live.views import LiveViews
from hub.standings.rebuild import rebuild
from hub.standings.rows import boards_played, names_of, teams_rows
from hub.store.store import ResultEntry, Store
from scoring.traveller import Artificial

ILLUSTRATIVE = """# illustrative, not official
boards,imps_from,imps_to,winner,loser
1-,0,0,10,10
1-,1,2,12,8
1-,3,5,13,7
1-,6,10,15,5
1-,11,,18,2
"""

# (table, board, NS score or adjusted score); round 1
ROUND_ONE: list[tuple[int, int, int | str]] = [
    (1, 1, "A+/A-"),  # open room: Lions NS not at fault: +3 to Lions (Law 86A)
    (2, 1, 420),  # closed room's result: nothing to compare with, not counted
    (1, 2, 420),  # Lions NS +420
    (2, 2, -50),  # Foxes NS -50: Lions +470, 10 IMPs; Lions 13-0
    (3, 1, 140),  # Bears NS: nothing to compare with
    (4, 1, "60/40"),  # Owls NS 60 %: as A+, +3 to Owls (−3 to Bears)
    (3, 2, "A+/A-"),  # Bears NS A+: +3 to Bears
    (4, 2, "A+/A-"),  # Owls NS A+: −3 to Bears; the rooms add up to 0; Owls 3-0
]


def _event(tmp_path: Path, teams_rules: str = "") -> str:
    scale = tmp_path / "illustrative.csv"
    scale.write_text(ILLUSTRATIVE)
    return f"""schema_version = 1
[event]
name = "Four teams"
[rules]
scoring = "teams"
vp_scale = '{scale}'
[rules.teams]
{teams_rules}
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = {{ kind = "teams", teams = 4, boards_per_round = 2 }}
teams = [
  {{ number = 1, name = "Lions" }},
  {{ number = 2, name = "Bears" }},
  {{ number = 3, name = "Owls" }},
  {{ number = 4, name = "Foxes" }},
]
"""


def _played(tmp_path: Path, teams_rules: str = "") -> tuple[Store, int, LiveViews]:
    """Round 1 stored and handed to the live views as the TD enters it."""
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(_event(tmp_path, teams_rules))
    movement = store.movement(eid, "A")
    views = LiveViews(
        store.event(eid), {"A": movement}, {"A": names_of(store.contestants(eid, "A"))}
    )
    for table, board, result in ROUND_ONE:
        row = movement.row("A", table, 1)
        adjusted, score = (result, None) if isinstance(result, str) else (None, result)
        entry = ResultEntry(
            "A", table, 1, board, row.ns_pair, row.ew_pair, score_ns=score, adjusted=adjusted
        )
        for stored in store.record(eid, [entry]):
            views.result_stored(stored.line())
    return store, eid, views


def _rebuilt_rows(store: Store, eid: int) -> list[dict[str, object]]:
    view = rebuild(store, eid)["A"]
    names = names_of(store.contestants(eid, "A"))
    return teams_rows(view.team_standings, boards_played(view.matches), names)


def _summary(rows: list[dict[str, object]]) -> list[tuple[object, object, object, object]]:
    return [(r["name"], r["total"], r["imps"], r["boards"]) for r in rows]


def test_two_matches_with_artificial_scores_live_and_rebuild_agree(tmp_path):
    """Lions v Foxes: board 1 A+/A− in the open room (+3 to Lions, the closed room's 420 not
    compared), board 2 +470 = 10 IMPs: 13-0, 11+ IMPs on the table: 18-2. Bears v Owls:
    board 1 60/40 to Owls NS in the closed room (= A+: −3 to Bears), board 2 A+/A− to NS in
    both rooms (+3 − 3 = 0): Owls 3-0, 3-5 IMPs: 13-7. Every board is scored (2 each)."""
    store, eid, views = _played(tmp_path)
    live = views.rows("A")
    assert _summary(live) == [
        ("Lions", "18", "13", 2),
        ("Owls", "13", "3", 2),
        ("Bears", "7", "-3", 2),
        ("Foxes", "2", "-13", 2),
    ]
    assert live == _rebuilt_rows(store, eid)
    lions = views.sections["A"].match(1, 1)
    assert (lions.result.home_imps, lions.result.away_imps) == (13, 0)
    assert (lions.result.boards_scored, lions.result.home_boards_won) == (2, 1)  # board 2 only
    assert [m.result for m in rebuild(store, eid)["A"].matches] == [
        m.result for m in views.sections["A"].matches()
    ]


def test_event_sets_another_amount_for_average_plus(tmp_path):
    """``assigned_imps = 2`` (Law 86A: "unless the regulations say otherwise"): Lions 2 + 10
    = 12-0, still 18-2; Owls' 60 % is 2 IMPs (2 for each 10 % above 50): 2-0, 12-8."""
    store, eid, views = _played(tmp_path, "assigned_imps = 2")
    assert _summary(views.rows("A")) == [
        ("Lions", "18", "12", 2),
        ("Owls", "12", "2", 2),
        ("Bears", "8", "-2", 2),
        ("Foxes", "2", "-12", 2),
    ]
    assert views.rows("A") == _rebuilt_rows(store, eid)


def test_a_restarted_hub_scores_the_adjusted_boards_as_before(tmp_path):
    """The store is the truth: a hub loading round 1 afresh shows the same standings."""
    store, eid, views = _played(tmp_path)
    again = LiveViews(
        store.event(eid),
        {"A": store.movement(eid, "A")},
        {"A": names_of(store.contestants(eid, "A"))},
    )
    again.load(store.live_lines(eid), store.penalties(eid))
    assert again.rows("A") == views.rows("A")


# -- the rule board by board (TeamRules.board_imps: home NS room, home EW room) --------------

RULES = TeamRules()


def _adj(text: str) -> Artificial:
    return Artificial.parse(text)


def test_law_86a_artificial_in_one_room_replaces_the_comparison():
    """A+/A− where the home team sits NS: +3 whatever the other room scored; in the room
    where it sits EW the award to EW is the home team's: A-/A+ there is +3 too."""
    assert RULES.board_imps(1, _adj("A+/A-"), 420) == 3
    assert RULES.board_imps(1, _adj("A+/A-"), -1430) == 3
    assert RULES.board_imps(1, 420, _adj("A-/A+")) == 3
    assert RULES.board_imps(1, 420, _adj("A+/A-")) == -3


def test_percentages_and_average():
    """60/40 = A+/A− (3 IMPs for each 10 % from 50 %); 50/50 and A/A are 0; 70/30 is 6."""
    assert RULES.board_imps(1, _adj("60/40"), 0) == 3
    assert RULES.board_imps(1, _adj("50/50"), 0) == 0
    assert RULES.board_imps(1, _adj("A/A"), 0) == 0
    assert RULES.board_imps(1, _adj("70/30"), 0) == 6


def test_law_86b_unequal_awards_are_averaged():
    """A+/A (home NS not at fault, away partly): home's own result +3, away's 0; each team
    gets the average of the two, 3/2 to the home team (Law 86B). A/A−: also 3/2. A−/A−
    (both at fault): −3 and −3 average to 0."""
    assert RULES.board_imps(1, _adj("A+/A"), 0) == Fraction(3, 2)
    assert RULES.board_imps(1, _adj("A/A-"), 0) == Fraction(3, 2)
    assert RULES.board_imps(1, _adj("A-/A-"), 0) == 0


def test_both_rooms_artificial_add_up():
    """A+/A− to the home team in both rooms (home NS A+ in the open room, home EW A+ in the
    closed): 3 + 3 = 6; A+/A− to NS in both rooms: 3 − 3 = 0."""
    assert RULES.board_imps(1, _adj("A+/A-"), _adj("A-/A+")) == 6
    assert RULES.board_imps(1, _adj("A+/A-"), _adj("A+/A-")) == 0


def test_weighted_score_is_compared_weighted():
    """Law 12C1(c): board 1 (nobody vulnerable), 1/2 4S N = (+420) and 1/2 4S N −1 (−50) in
    the open room against +420 in the closed: 1/2·IMP(0) + 1/2·IMP(−470) = 0 − 5 = −5. An
    artificial score in the other room outweighs it: A−/A+ where the home team sits EW is
    +3 alone."""
    weighted = _adj("1/2 4S N =; 1/2 4S N -1")
    assert RULES.board_imps(1, weighted, 420) == -5
    assert RULES.board_imps(1, weighted, _adj("A-/A+")) == 3


_RESULTS = st.one_of(
    st.integers(-250, 250).map(lambda x: 10 * x),
    st.sampled_from(["A+/A-", "A/A", "A-/A+", "A+/A", "60/40", "45/55", "A-/A-", "70/A-"]).map(
        _adj
    ),
)


@given(_RESULTS, _RESULTS)
def test_the_two_teams_imps_balance_whoever_is_home(home_ns: RoomResult, home_ew: RoomResult):
    """Seen from the away team (it sits NS in the other room), the board is worth the
    negative: what one team gains on a board the other loses."""
    assert RULES.board_imps(1, home_ew, home_ns) == -RULES.board_imps(1, home_ns, home_ew)


@pytest.mark.parametrize(
    ("value", "says"),
    [("-3", "0 or more"), ('"three"', "is not an amount")],
)
def test_assigned_imps_must_be_an_amount_of_0_or_more(value, says):
    """The event file's ``[rules.teams] assigned_imps``: an exact amount, 0 or more."""
    text = f"""schema_version = 1
[event]
name = "x"
[rules]
scoring = "teams"
[rules.teams]
assigned_imps = {value}
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = {{ kind = "teams", teams = 4, boards_per_round = 2 }}
"""
    with pytest.raises(EventFileError) as e:
        parse_event(text, "event.toml")
    assert says in str(e.value) and "assigned_imps" in str(e.value)


def test_assigned_imps_read_exactly():
    """``assigned_imps = 2.5``: A+ is exactly 5/2 IMPs."""
    assert TeamRules(assigned_imps="2.5").board_imps(1, _adj("A+/A-"), 0) == Fraction(5, 2)
