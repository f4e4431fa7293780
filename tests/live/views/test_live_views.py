"""Live scores per kind of section (decisions D17): the pairs and teams strategies, fed result
by result as the hub feeds them, agree with the batch rebuild of the store and with values
counted by hand (Law 78B IMPs, the official Danish WBF VP table, matchpoints on a top)."""

from __future__ import annotations

from fractions import Fraction

from event_text import one_section_event
from hypothesis.stateful import run_state_machine_as_test
from live_against_rebuild import STATEFUL, PairsMachine, TeamsMachine, entry, hub_views, rows_of
from team_events import TEAMS_EVENT, danish_vp

from hub.live.views.base import TravellerRow
from hub.standings.rebuild import rebuild
from hub.standings.rows import names_of
from hub.store.store import Store

BAROMETER = 'kind = "barometer", tables = 2, boards_per_round = 1'


def open_event(tmp_path, text):
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    return store, store.create_event(text)


def rebuilt_rows(store, eid, section="A"):
    """The rows a full rebuild of the store gives (the batch reference)."""
    view = rebuild(store, eid)[section]
    return rows_of(store.event(eid), view, names_of(store.contestants(eid, section)))


def played(views, store, eid, entries):
    """Store results as a terminal does, then hand each to the live views."""
    for stored in store.record(eid, entries):
        views.result_stored(stored.line())


def confirmed(store, eid, ns, ew, amount, unit, payer):
    pid = store.propose_penalty(eid, "A", ns, amount, unit, "slow play", table=1, rnd=1, other=ew)
    store.decide_penalty(eid, pid, True, "TD", payer)
    return next(p for p in store.penalties(eid) if p["id"] == pid)


# -- pairs --------------------------------------------------------------------------------
def _barometer_rounds(store, eid, views, rounds):
    """Table 1's N makes 4S (board 1: +420 not vulnerable; board 2: +620 vulnerable), table
    2's N goes one down: on each board table 1's NS and table 2's EW get the top."""
    for rnd in range(1, rounds + 1):
        for table, tricks in ((1, 10), (2, 9)):
            played(views, store, eid, [entry(store, eid, table, rnd, rnd, "4S", "N", tricks)])


def test_mp_rows_are_matchpoints_over_tops_counted_by_hand(tmp_path):
    """Two results a board: a top is 2 MPs (2 × (2 − 1)). Round 1 (board 1): NS 4 v EW 1 at
    table 1, NS 3 v EW 2 at table 2; round 2 (board 2): NS 1 v EW 3, NS 2 v EW 4. Pair 4
    tops both boards (100 %), pairs 1 and 2 one each (50 %, shared 2nd), pair 3 none."""
    store, eid = open_event(tmp_path, one_section_event("Barometer", BAROMETER))
    views = hub_views(store, eid)
    _barometer_rounds(store, eid, views, 2)
    store.set_player(eid, "A", 1, 0, name="Ann Ek", number=None)  # the TD names pair 1
    store.set_player(eid, "A", 1, 1, name="Bo Lind", number=None)
    views.set_names("A", names_of(store.contestants(eid, "A")))
    common = {"direction": None, "boards": 2, "top": 4}
    assert views.unit("A") == "%"
    assert [r["label"] for r in views.rows("A")] == ["4", "1", "2", "3"]  # a barometer: "7"
    assert [{k: v for k, v in r.items() if k != "label"} for r in views.rows("A")] == [
        {"pair": 4, "name": "", "rank": "1", "total": "100", "text": "100.00", "points": "4"}
        | common,
        {"pair": 1, "name": "Ann Ek & Bo Lind", "rank": "2=", "total": "50", "text": "50.00"}
        | {"points": "2"}
        | common,
        {"pair": 2, "name": "", "rank": "2=", "total": "50", "text": "50.00", "points": "2"}
        | common,
        {"pair": 3, "name": "", "rank": "4", "total": "0", "text": "0.00", "points": "0"} | common,
    ]
    assert views.rows("A") == rebuilt_rows(store, eid)
    assert hub_views(store, eid).rows("A") == rebuilt_rows(store, eid)


def test_pairs_traveller_shows_each_line_with_ns_percentage(tmp_path):
    """A table sees its own score and every line of the board with NS's percentage; a
    board with one result so far scores an average (50 %)."""
    store, eid = open_event(tmp_path, one_section_event("Barometer", BAROMETER))
    views = hub_views(store, eid)
    played(views, store, eid, [entry(store, eid, 1, 1, 1, "4S", "N", 10)])
    alone = views.traveller("A", 1, 1, 1)
    assert alone is not None and alone.own_value == 50 and not alone.imps
    played(views, store, eid, [entry(store, eid, 2, 1, 1, "4S", "N", 9)])
    view = views.traveller("A", 1, 2, 1)
    assert view is not None
    assert (view.section, view.board, view.own_score_ns, view.own_value) == ("A", 1, -50, 0)
    assert view.rows == (
        TravellerRow(4, 1, "4S", "N", 10, 420, Fraction(100)),
        TravellerRow(3, 2, "4S", "N", 9, -50, Fraction(0)),
    )
    assert views.traveller("A", 1, 1, 2) is None  # table 1 plays board 2 in round 2
    assert views.scored_board("A", 1) is not None and views.scored_board("A", 2) is None


def test_percent_of_top_penalty_shared_comes_off_both_sides_points(tmp_path):
    """Decisions D10: the TD sets who pays; "shared" is half each. 50 % of a top of 2 MPs
    is 1 MP: NS 4 keeps 1.5 of 2 MPs (75 %), EW 1 goes to −0.5 (−25 %). A restarted hub
    applies the stored confirmed penalty the same way."""
    store, eid = open_event(tmp_path, one_section_event("Barometer", BAROMETER))
    views = hub_views(store, eid)
    _barometer_rounds(store, eid, views, 1)
    penalty = confirmed(store, eid, 4, 1, "50", "percent_of_top", "shared")
    assert views.apply_penalty(penalty)
    totals = {r["pair"]: Fraction(r["total"]) for r in views.rows("A")}
    assert totals == {4: 75, 2: 100, 3: 0, 1: -25}
    assert hub_views(store, eid).rows("A") == views.rows("A")
    for unit in ("VP", "IMP", "warning"):  # not what matchpoint standings carry
        assert not views.apply_penalty(penalty | {"unit": unit})
    assert not views.apply_penalty(penalty | {"payer": None})
    assert {r["pair"]: Fraction(r["total"]) for r in views.rows("A")} == totals


def test_percent_of_top_follows_the_board_top_so_a_restart_agrees(tmp_path):
    """A penalty confirmed while board 1 has two results (top 2) is 50 % of the top the
    section has when the standings are drawn: after the third result (top 4) it is 2 MPs,
    the same a restarted hub takes. Pair 6 (NS, table 1) +420 against −50 and +420: 3 of
    4 MPs, less 2: 25 %."""
    howell = 'kind = "howell", tables = 3, boards_per_round = 2'
    store, eid = open_event(tmp_path, one_section_event("Howell", howell))
    views = hub_views(store, eid)
    played(views, store, eid, [entry(store, eid, 1, 1, 1, "4S", "N", 10)])
    played(views, store, eid, [entry(store, eid, 2, 1, 1, "4S", "N", 9)])
    assert views.apply_penalty(confirmed(store, eid, 6, 1, "50", "percent_of_top", "NS"))
    assert {r["pair"]: r["total"] for r in views.rows("A")}[6] == "50"  # (2 - 1) of 2
    played(views, store, eid, [entry(store, eid, 3, 1, 1, "4S", "N", 10)])
    assert {r["pair"]: r["total"] for r in views.rows("A")}[6] == "25"
    assert hub_views(store, eid).rows("A") == views.rows("A")


def test_cross_imps_rows_are_signed_and_take_imp_penalties(tmp_path):
    """Cross-IMPs with two results: +420 against −50 is 470 points, 10 IMPs (Law 78B:
    430-490). An IMP penalty of 3 paid by EW takes pair 1 from −10 to −13."""
    store, eid = open_event(tmp_path, one_section_event("Butlerless", BAROMETER, "ximp"))
    views = hub_views(store, eid)
    _barometer_rounds(store, eid, views, 1)
    assert views.unit("A") == "IMPs"
    view = views.traveller("A", 1, 1, 1)
    assert view is not None and view.imps and view.own_value == 10
    assert views.apply_penalty(confirmed(store, eid, 4, 1, "3", "IMP", "EW"))
    rows = {r["pair"]: r for r in views.rows("A")}
    assert {p: r["text"] for p, r in rows.items()} == {
        4: "+10.00",
        2: "+10.00",
        3: "-10.00",
        1: "-13.00",
    }
    assert rows[1]["total"] == "-13" and rows[4]["top"] is None
    assert hub_views(store, eid).rows("A") == views.rows("A")


# -- teams --------------------------------------------------------------------------------
# (table, round, board) → NS score; round 1: 1 v 4 at tables 1-2, 2 v 3 at tables 3-4;
# round 2: 1 v 2 at tables 1-2, 4 v 3 at tables 3-4 (home team NS at the odd table)
TEAM_SCORES = {
    (1, 1, 1): 420, (2, 1, 1): -50, (1, 1, 2): 100, (2, 1, 2): 100,  # 1 v 4: 10-0
    (3, 1, 1): 110, (4, 1, 1): 140, (3, 1, 2): -200, (4, 1, 2): 300,  # 2 v 3: 0-12
    (1, 2, 3): 50, (2, 2, 3): 50, (1, 2, 4): -100, (2, 2, 4): -100,  # 1 v 2: 0-0
    (3, 2, 3): 600, (4, 2, 3): -100, (3, 2, 4): -420, (4, 2, 4): 420,  # 4 v 3: 12-13
}  # fmt: skip


def test_four_teams_two_rounds_imps_vps_and_places_by_hand(tmp_path):
    """Law 78B: 470 → 10 IMPs, 30 → 1, 500 → 11, 700 → 12, 840 → 13. Round 1: team 1 beats
    4 by 10, team 3 beats 2 by 12 (1 + 11); round 2: 1 and 2 draw, team 3 beats 4 by 1
    (13 − 12). VPs over 2 boards from the official table."""
    store, eid = open_event(tmp_path, TEAMS_EVENT)
    views = hub_views(store, eid)
    for (table, rnd, board), score in TEAM_SCORES.items():
        played(views, store, eid, [entry(store, eid, table, rnd, board, score_ns=score)])
    w10, l10 = danish_vp(2, 10)
    w12, l12 = danish_vp(2, 12)
    w1, l1 = danish_vp(2, 1)
    draw, _ = danish_vp(2, 0)
    vp = {1: w10 + draw, 2: l12 + draw, 3: w12 + w1, 4: l10 + l1}
    net = {1: 10, 2: -12, 3: 13, 4: -11}
    names = {1: "Lions", 2: "Bears", 3: "Owls", 4: "Foxes"}
    rows = views.rows("A")
    assert views.unit("A") == "VP"
    assert [r["team"] for r in rows] == sorted(vp, key=lambda t: -vp[t])
    for r in rows:
        t = r["team"]
        assert r["rank"] == str(1 + sum(1 for v in vp.values() if v > vp[t]))
        assert (Fraction(r["total"]), Fraction(r["imps"]), r["name"]) == (vp[t], net[t], names[t])
        assert (r["pair"], r["direction"], r["matches"], r["boards"]) == (t, None, 2, 4)
    assert rows == rebuilt_rows(store, eid)
    assert hub_views(store, eid).rows("A") == rows


def test_teams_traveller_is_the_match_on_the_board_in_imps_to_each_ns(tmp_path):
    """Board 1 of 1 v 4: the open room (team 1 NS) +420, the closed room (team 4 NS) −50:
    10 IMPs to team 1, so −10 to the closed room's NS; 0 while the other room is out."""
    store, eid = open_event(tmp_path, TEAMS_EVENT)
    views = hub_views(store, eid)
    played(views, store, eid, [entry(store, eid, 1, 1, 1, "4S", "N", 10)])
    early = views.traveller("A", 1, 1, 1)
    assert early is not None and early.rows == (TravellerRow(1, 4, "4S", "N", 10, 420, 0),)
    assert views.rows("A") == []  # no board scored in both rooms yet
    played(views, store, eid, [entry(store, eid, 2, 1, 1, score_ns=-50)])
    view = views.traveller("A", 1, 2, 1)
    assert view is not None and view.imps
    assert (view.own_score_ns, view.own_value) == (-50, -10)
    assert view.rows == (
        TravellerRow(1, 4, "4S", "N", 10, 420, Fraction(10)),
        TravellerRow(4, 1, "", None, None, -50, Fraction(-10)),
    )
    assert views.traveller("A", 1, 3, 1) is None  # the other match has not played it
    assert views.scored_board("A", 1) is None


def test_teams_vp_penalty_comes_off_the_payers_total(tmp_path):
    store, eid = open_event(tmp_path, TEAMS_EVENT)
    views = hub_views(store, eid)
    for (table, rnd, board), score in TEAM_SCORES.items():
        played(views, store, eid, [entry(store, eid, table, rnd, board, score_ns=score)])
    before = {r["team"]: Fraction(r["total"]) for r in views.rows("A")}
    penalty = confirmed(store, eid, 1, 4, "1.5", "VP", "NS")
    assert views.apply_penalty(penalty)
    assert not views.apply_penalty(penalty | {"unit": "percent_of_top"})
    after = {r["team"]: Fraction(r["total"]) for r in views.rows("A")}
    assert after == before | {1: before[1] - Fraction(3, 2)}
    assert hub_views(store, eid).rows("A") == views.rows("A")


# -- every step against a full rebuild ------------------------------------------------------
MITCHELL = 'kind = "mitchell", tables = 3, boards_per_round = 2'
HOWELL = 'kind = "howell", tables = 3, boards_per_round = 2'
PAIR_TIES = 'scoring = "mp"\ntie_breaks = ["boards_won_between", "h2h_score"]'


def test_mp_mitchell_live_rows_equal_a_rebuild_after_every_step(tmp_path):
    """Two winners (NS and EW ranked apart), matchpoints with Neuberg, seed 004's pair
    tie-breaks."""
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    text = one_section_event("Mitchell", MITCHELL).replace('scoring = "mp"', PAIR_TIES)
    run_state_machine_as_test(lambda: PairsMachine(store, text), settings=STATEFUL)


def test_cross_imp_howell_live_rows_equal_a_rebuild_after_every_step(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    text = one_section_event("Howell", HOWELL, "ximp")
    run_state_machine_as_test(lambda: PairsMachine(store, text), settings=STATEFUL)


def test_teams_live_rows_equal_a_rebuild_after_every_step(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    run_state_machine_as_test(lambda: TeamsMachine(store, TEAMS_EVENT), settings=STATEFUL)
