"""Issue 16 [TEAMS] "Team penalties in VP and IMP": the TD's confirmed penalties change the
team standings, live and in the rebuild alike, and are audited.

- An IMP penalty comes off the paying team's total in its match of the penalty's round,
  before the VPs (seed 000 knock-out slow play: "3 IMPs"; seed 002 KO: "1 IMP varje
  påbörjad minut"); in a match of two segments a penalty of either half is the match's.
- A VP penalty comes off the team's total (seed 000 Swiss: 0.8, 1.6, 2.4 VP; seed 002
  Gröna Hissen: 1 … 3 VP), ``shared`` half each (decisions D10).

The match is tests/segmented_match.py's Lions v Foxes: 10-1 IMPs over 4 boards, 15-5 on the
illustrative (not official) table.
"""

from __future__ import annotations

import pytest
from segmented_match import (
    PLAYED,
    halves_event,
    illustrative_scale,
    live_views,
    open_store,
    play,
    rebuilt_rows,
)

from hub.live.views import LiveViews
from hub.standings.rows import names_of
from hub.standings.team_section import TeamPenalty, team_penalties


@pytest.fixture
def scale(tmp_path):
    return illustrative_scale(tmp_path)


def _penalty(store, eid, table, rnd, amount, unit, payer):
    """Propose the penalty at ``table`` in ``rnd`` (its NS and EW teams) and confirm it with
    ``payer``, as the TD console does; returns the stored penalty."""
    row = store.movement(eid, "A").row("A", table, rnd)
    pid = store.propose_penalty(
        eid, "A", row.ns_pair, amount, unit, "slow play", table, rnd, row.ew_pair
    )
    store.decide_penalty(eid, pid, True, "TD", payer)
    return next(p for p in store.penalties(eid) if p["id"] == pid)


def _restarted(store, eid):
    views = LiveViews(
        store.event(eid),
        {"A": store.movement(eid, "A")},
        {"A": names_of(store.contestants(eid, "A"))},
    )
    views.load(store.live_lines(eid), store.penalties(eid))
    return views


def _row(views, team):
    return next(r for r in views.rows("A") if r["team"] == team)


def test_imp_penalty_comes_off_the_match_before_the_vps(tmp_path, scale):
    """Lions, EW at table 1 in the second half, are fined 4 IMPs: 10 - 4 = 6 against 1, a
    margin of 5, worth 12-8 on the 4-board row (not 15-5 less anything). Lions' IMPs: 6
    won, 1 lost (+5); the rebuild and a restarted hub say the same."""
    store, eid = open_store(tmp_path, halves_event(scale))
    views = live_views(store, eid)
    play(store, eid, views, PLAYED)
    penalty = _penalty(store, eid, 1, 2, "4", "IMP", "EW")
    assert views.apply_penalty(penalty) is True
    lions, foxes = _row(views, 1), _row(views, 4)
    assert (lions["total"], lions["imps"]) == ("12", "5")
    assert (foxes["total"], foxes["imps"]) == ("8", "-5")
    assert views.rows("A") == rebuilt_rows(store, eid) == _restarted(store, eid).rows("A")
    match = views.sections["A"].match(1, 1)
    assert (match.result.home_penalty, match.result.home_carry_over) == (4, -4)
    audit = store.audit_log(eid, "penalty_confirmed")
    assert audit[-1]["detail"] == {"penalty": penalty["id"], "payer": "EW"}


def test_imp_penalty_of_the_first_half_belongs_to_the_whole_match(tmp_path, scale):
    """A penalty of round 1 (the first half) is the match's too: Foxes, EW at table 1 in
    round 1, lose 2 IMPs: 10 against 1 - 2 = -1, a margin of 11: still 15-5, but Foxes'
    IMP total is now -1 (won -1, lost 10)."""
    store, eid = open_store(tmp_path, halves_event(scale))
    views = live_views(store, eid)
    play(store, eid, views, PLAYED)
    views.apply_penalty(_penalty(store, eid, 1, 1, "2", "IMP", "EW"))
    assert (_row(views, 4)["total"], _row(views, 4)["imps"]) == ("5", "-11")
    assert views.rows("A") == rebuilt_rows(store, eid)


def test_vp_penalty_shared_by_both_teams_of_a_table(tmp_path, scale):
    """Seed 000 Swiss slow play 5-10 minutes: 1.6 VP; the TD shares it (0.8 each)."""
    store, eid = open_store(tmp_path, halves_event(scale))
    views = live_views(store, eid)
    play(store, eid, views, PLAYED)
    assert views.apply_penalty(_penalty(store, eid, 2, 2, "1.6", "VP", "shared"))
    assert (_row(views, 1)["total"], _row(views, 4)["total"]) == ("71/5", "21/5")  # 14.2, 4.2
    assert views.rows("A") == rebuilt_rows(store, eid) == _restarted(store, eid).rows("A")


def test_penalty_arrives_before_the_match_is_played(tmp_path, scale):
    """A penalty confirmed before its match has a result waits for it: the IMPs come off
    as soon as the match is scored."""
    store, eid = open_store(tmp_path, halves_event(scale))
    views = live_views(store, eid)
    assert views.apply_penalty(_penalty(store, eid, 1, 1, "4", "IMP", "NS"))
    assert views.rows("A") == []
    play(store, eid, views, PLAYED)
    assert _row(views, 1)["total"] == "12"
    assert views.rows("A") == rebuilt_rows(store, eid)


def test_units_team_standings_do_not_carry_are_not_applied():
    """A warning, the TD's own decision or percent of a top changes no team standing; an
    IMP penalty needs its round (the match it comes off)."""
    base = {"contestants": (1, 4), "amount": "1", "payer": "NS", "round": 1}
    for unit in ("warning", "td_decides", "percent_of_top"):
        assert team_penalties({**base, "unit": unit}) == []
    assert team_penalties({**base, "unit": "IMP", "round": None}) == []
    assert team_penalties({**base, "unit": "VP", "payer": "both"}) == [
        TeamPenalty(1, "VP", 1, 1),
        TeamPenalty(4, "VP", 1, 1),
    ]
