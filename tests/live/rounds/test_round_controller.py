"""The round controller, sans I/O (decisions D17): events in, effects out, every transition.

D10: a table's round ends when its last result is accepted (entered and verified); pace is
measured from the official start. D12: a round is complete (its standings may be published)
when every playing table has finished it, or when the director moves on.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub.event.movement.howell import howell
from hub.event.movement.mitchell import mitchell
from hub.live.rounds.round_controller import (
    BoardReopened,
    DirectorEntered,
    Erased,
    FirstAction,
    NextRound,
    PaceChanged,
    ResultAccepted,
    Resume,
    RoundComplete,
    RoundController,
    RoundRefused,
    RoundStarted,
    SessionComplete,
    TableFinished,
    Tick,
    Unplayed,
    Verified,
)

# A 3-table Mitchell, 3 rounds of 2 boards: every table plays every round (NS 1-3, EW 4-6).
MITCHELL = mitchell(3, 2)
# A 3-table Howell for 5 pairs: the phantom's table (NS pair 0) sits out every round.
PHANTOM = howell(3, 2, pairs=5)


def boards(movement, table, rnd):
    return movement.row("A", table, rnd).boards


def started(movement=MITCHELL, **options):
    """A fresh section whose round 1 the hub has just started at time 0."""
    c = RoundController("A", movement, **options)
    assert c.handle(Resume(frozenset(), None, 0.0)) == [RoundStarted(1, 0.0, resumed=True)]
    return c


def enter_table(c, table, rnd, at, movement=MITCHELL):
    effects = []
    for b in boards(movement, table, rnd):
        effects += c.handle(ResultAccepted(table, rnd, b, at))
    return effects


def kinds(effects):
    return [type(e).__name__ for e in effects]


# -- the tables ---------------------------------------------------------------------------
def test_every_playing_table_of_every_round_has_its_table_round_up_front():
    """Not created lazily at log-on: a table whose terminal never logs on is still there."""
    c = RoundController("A", MITCHELL)
    for rnd in (1, 2, 3):
        for table in (1, 2, 3):
            tr = c.table_round(table, rnd)
            row = MITCHELL.row("A", table, rnd)
            assert (tr.boards, tr.ns_pair, tr.ew_pair) == (row.boards, row.ns_pair, row.ew_pair)
            assert tr.finished_at == {} and tr.first_action_at is None
    assert c.round == 1 and c.rounds == 3


def test_a_sit_out_never_plays():
    """The phantom's table (a 0 pair) has no table round and never holds a round up."""
    c = started(PHANTOM)
    sit_out = [r.table for r in PHANTOM.round_rows(1, "A") if not (r.ns_pair and r.ew_pair)]
    assert sit_out and all(c.table_round(sit_out[0], r) is None for r in range(1, 6))
    playing = [r.table for r in PHANTOM.round_rows(1, "A") if r.ns_pair and r.ew_pair]
    effects = []
    for table in playing:
        effects += enter_table(c, table, 1, 60.0, PHANTOM)
    assert kinds(effects) == ["TableFinished"] * 2 + ["RoundComplete", "RoundStarted"]
    assert c.round == 2


# -- completion ---------------------------------------------------------------------------
def test_the_round_completes_when_the_last_table_finishes_d10():
    """Each table's TableFinished when its last board is accepted; the last one's comes just
    before RoundComplete, then the next round starts at the same moment."""
    c = started()
    assert c.handle(ResultAccepted(1, 1, boards(MITCHELL, 1, 1)[0], 100.0)) == []
    assert c.done(1) == 1
    (fin1,) = c.handle(ResultAccepted(1, 1, boards(MITCHELL, 1, 1)[1], 200.0))
    assert fin1 == TableFinished(c.table_round(1, 1)) and fin1.table_round.ended_at == 200.0
    assert kinds(enter_table(c, 2, 1, 300.0)) == ["TableFinished"]
    b1, b2 = boards(MITCHELL, 3, 1)
    assert c.handle(ResultAccepted(3, 1, b1, 350.0)) == []
    fin3, complete, start = c.handle(ResultAccepted(3, 1, b2, 400.0))
    assert fin3.table_round.table == 3 and fin3.table_round.ended_at == 400.0
    assert complete == RoundComplete(1, (), forced=False)
    assert start == RoundStarted(2, 400.0)
    assert c.round == 2 and c.is_complete(1) and not c.is_complete(2)
    assert c.done(1) == 0 and c.finished_at(3, 1, b1) == 350.0


def test_without_auto_advance_a_complete_round_waits_for_the_director():
    c = started(auto_advance=False)
    effects = []
    for table in (1, 2, 3):
        effects += enter_table(c, table, 1, 60.0 * table)
    assert kinds(effects) == ["TableFinished"] * 3 + ["RoundComplete"]
    assert c.round == 1 and c.is_complete(1)
    assert c.handle(NextRound(500.0)) == [RoundStarted(2, 500.0)]
    assert c.round == 2


def test_the_last_round_completes_the_session():
    c = started()
    for rnd in (1, 2):
        for table in (1, 2, 3):
            enter_table(c, table, rnd, 100.0 * rnd)
    effects = enter_table(c, 1, 3, 900.0) + enter_table(c, 2, 3, 900.0)
    effects += enter_table(c, 3, 3, 950.0)
    assert effects[-2:] == [RoundComplete(3), SessionComplete()]
    assert not any(isinstance(e, RoundStarted) for e in effects)
    assert c.round == 3 and c.is_complete(3)


def test_a_td_entry_finishes_the_round_of_a_table_whose_terminal_never_logged_on():
    """D9: the TD enters the results from a paper slip; the round goes on as if the
    terminal had entered them."""
    c = started()
    enter_table(c, 1, 1, 100.0)
    enter_table(c, 2, 1, 110.0)
    b1, b2 = boards(MITCHELL, 3, 1)
    assert c.handle(DirectorEntered(3, 1, b1, 200.0)) == []
    fin, complete, start = c.handle(DirectorEntered(3, 1, b2, 210.0))
    assert fin.table_round.finished_at == {b1: 200.0, b2: 210.0}
    assert (complete, start) == (RoundComplete(1), RoundStarted(2, 210.0))


def test_a_td_accepted_held_result_finishes_the_table_without_verification():
    """A held result the TD accepts is finished at once, even where the event wants the
    opponents' verification (D9, D10)."""
    c = started(needs_verification=True)
    b1, b2 = boards(MITCHELL, 1, 1)
    c.handle(ResultAccepted(1, 1, b1, 50.0))
    assert c.handle(Verified(1, 1, b1, 55.0)) == []
    (fin,) = c.handle(DirectorEntered(1, 1, b2, 90.0))  # the held result, accepted
    assert fin.table_round.table == 1 and fin.table_round.ended_at == 90.0


# -- verification -------------------------------------------------------------------------
@pytest.mark.parametrize("verified_first", [False, True])
def test_a_board_ends_when_entered_and_verified_in_either_order_d10(verified_first):
    c = started(needs_verification=True)
    b1, _ = boards(MITCHELL, 2, 1)
    first, second = ResultAccepted(2, 1, b1, 70.0), Verified(2, 1, b1, 80.0)
    if verified_first:
        first, second = Verified(2, 1, b1, 70.0), ResultAccepted(2, 1, b1, 80.0)
    assert c.handle(first) == []
    assert c.done(2) == 0
    assert c.unverified(2) == (0 if verified_first else 1)
    assert c.handle(second) == []
    assert c.finished_at(2, 1, b1) == 80.0 and c.done(2) == 1 and c.unverified(2) == 0


def test_without_verification_a_verify_changes_nothing():
    c = started()
    b1, _ = boards(MITCHELL, 1, 1)
    assert c.handle(Verified(1, 1, b1, 10.0)) == []
    assert c.finished_at(1, 1, b1) is None and c.unverified(1) == 0


# -- the director moves on ------------------------------------------------------------------
@pytest.mark.parametrize("auto_advance", [True, False])
def test_a_forced_next_round_lists_only_the_boards_not_played(auto_advance):
    """Table 1 played both boards at its terminal; table 2 has no terminal, the TD entered
    one board; table 3 played nothing. A board accepted but not yet verified was played."""
    c = started(auto_advance=auto_advance, needs_verification=True)
    t1a, t1b = boards(MITCHELL, 1, 1)
    t2a, t2b = boards(MITCHELL, 2, 1)
    c.handle(ResultAccepted(1, 1, t1a, 10.0))
    c.handle(Verified(1, 1, t1a, 11.0))
    c.handle(ResultAccepted(1, 1, t1b, 12.0))  # the opponents have not verified it yet
    c.handle(DirectorEntered(2, 1, t2a, 20.0))
    effects = c.handle(NextRound(600.0))
    assert effects == [
        RoundComplete(1, (Unplayed(2, (t2b,)), Unplayed(3, boards(MITCHELL, 3, 1))), forced=True),
        RoundStarted(2, 600.0),
    ]
    assert c.round == 2 and c.is_complete(1)


def test_next_round_in_the_last_round_ends_the_session_once():
    """Issue 13 "the end of the evening": the director's "next round" in the last round is
    "end session" (the round ends forced, its unplayed boards reported, the session is
    complete); asked again it is refused, saying the session is over."""
    c = started()
    c.handle(NextRound(100.0))
    c.handle(NextRound(200.0))
    assert c.round == 3
    out = c.handle(NextRound(300.0))
    assert isinstance(out[-1], SessionComplete) and isinstance(out[-2], RoundComplete)
    assert out[-2].forced and out[-2].round == 3
    assert c.round == 3 and c.is_complete(3)
    with pytest.raises(
        RoundRefused, match=r"^round 3 is the last round of section A: the session is over$"
    ):
        c.handle(NextRound(400.0))
    assert issubclass(RoundRefused, ValueError)  # the TD command layer answers ValueErrors


def test_a_late_correction_for_an_earlier_round_completes_nothing_again():
    c = started()
    c.handle(NextRound(100.0))  # round 1 ends with every board unplayed
    b1, b2 = boards(MITCHELL, 1, 1)
    assert c.handle(DirectorEntered(1, 1, b1, 150.0)) == []
    late = c.handle(ResultAccepted(1, 1, b2, 160.0))  # the table is still told it finished
    assert kinds(late) == ["TableFinished"] and late[0].table_round.ended_at == 160.0  # (D10)
    assert c.finished_at(1, 1, b2) == 160.0 and c.round == 2
    assert c.handle(Erased(1, 1, b2)) == [] and c.finished_at(1, 1, b2) == 160.0


def test_results_for_a_future_round_are_recorded_and_complete_it_when_it_starts():
    c = started()
    effects = []
    for table in (1, 2, 3):
        effects += enter_table(c, table, 2, 50.0 + table)  # early, e.g. a re-keyed result
    assert effects == [] and c.finished_at(2, 2, boards(MITCHELL, 2, 2)[0]) == 52.0
    for table in (1, 2, 3):
        effects += enter_table(c, table, 1, 100.0)
    assert kinds(effects) == (
        ["TableFinished"] * 3
        + ["RoundComplete", "RoundStarted"]
        + ["TableFinished"] * 3
        + ["RoundComplete", "RoundStarted"]
    )
    assert [e.table_round.round for e in effects[5:8]] == [2, 2, 2]
    assert effects[-2:] == [RoundComplete(2), RoundStarted(3, 100.0)]


# -- restarts -------------------------------------------------------------------------------
def test_a_fresh_start_asks_the_hub_to_start_round_one():
    c = RoundController("A", MITCHELL)
    assert c.handle(Resume(frozenset(), None, 5.0)) == [RoundStarted(1, 5.0, resumed=True)]


def test_a_restart_mid_round_goes_on_from_the_store():
    """Round 1 complete and table 1 done in round 2 before the restart: nothing to do at
    the restart, and round 2 completes once tables 2 and 3 finish (table 1 is not told
    again)."""
    played = {(t, 1, b) for t in (1, 2, 3) for b in boards(MITCHELL, t, 1)}
    played |= {(1, 2, b) for b in boards(MITCHELL, 1, 2)}
    c = RoundController("A", MITCHELL)
    assert c.handle(Resume(frozenset(played), 2, 1000.0)) == []
    assert c.round == 2 and c.is_complete(1) and not c.is_complete(2)
    assert c.done(1) == 2 and c.finished_at(1, 2, boards(MITCHELL, 1, 2)[0]) == 1000.0
    effects = enter_table(c, 2, 2, 1100.0) + enter_table(c, 3, 2, 1200.0)
    assert [e.table_round.table for e in effects if isinstance(e, TableFinished)] == [2, 3]
    assert effects[-2:] == [RoundComplete(2), RoundStarted(3, 1200.0)]


def test_a_round_the_director_moved_on_from_stays_over_after_a_restart():
    played = frozenset({(1, 1, b) for b in boards(MITCHELL, 1, 1)})
    c = RoundController("A", MITCHELL)
    assert c.handle(Resume(played, 2, 50.0)) == []
    assert c.round == 2 and c.is_complete(1)


@pytest.mark.parametrize("auto_advance", [True, False])
def test_a_round_complete_before_the_restart_ends_by_itself_once(auto_advance):
    """The hub stopped after round 1's last result, before round 2 started (or while the
    complete round waited for the director): the restart ends round 1, once, and goes on
    as the section would have."""
    played = frozenset({(t, 1, b) for t in (1, 2, 3) for b in boards(MITCHELL, t, 1)})
    c = RoundController("A", MITCHELL, auto_advance=auto_advance)
    fin, complete, *start = c.handle(Resume(played, 1, 70.0))
    assert isinstance(fin, TableFinished) and fin.table_round.round == 1
    assert complete == RoundComplete(1)
    assert start == ([RoundStarted(2, 70.0)] if auto_advance else [])
    b1 = boards(MITCHELL, 1, 1)[0]
    assert c.handle(ResultAccepted(1, 1, b1, 80.0)) == []  # a terminal resending
    assert c.handle(DirectorEntered(1, 1, b1, 90.0)) == []
    assert c.round == (2 if auto_advance else 1)


def test_rounds_stored_complete_with_no_clock_started_are_over_without_effects():
    """No clock event yet: the first round not complete starts (the hub starts its clock)."""
    played = frozenset({(t, 1, b) for t in (1, 2, 3) for b in boards(MITCHELL, t, 1)})
    c = RoundController("A", MITCHELL)
    assert c.handle(Resume(played, None, 70.0)) == [RoundStarted(2, 70.0, resumed=True)]
    assert c.is_complete(1) and c.round == 2


def test_a_restart_after_the_last_round_ends_the_session():
    played = frozenset(
        {(t, r, b) for r in (1, 2, 3) for t in (1, 2, 3) for b in boards(MITCHELL, t, r)}
    )
    c = RoundController("A", MITCHELL)
    effects = c.handle(Resume(played, 3, 10.0))
    assert kinds(effects) == ["TableFinished", "RoundComplete", "SessionComplete"]
    assert effects[1] == RoundComplete(3)


# -- erasure and late arrival ---------------------------------------------------------------
def test_an_erased_board_is_open_again_at_its_table():
    c = started()
    b1, b2 = boards(MITCHELL, 1, 1)
    enter_table(c, 1, 1, 100.0)
    assert c.handle(Erased(1, 1, b1)) == [BoardReopened(1, 1, b1)]
    assert c.done(1) == 1 and c.finished_at(1, 1, b1) is None
    assert c.handle(Erased(1, 1, b1)) == []  # nothing left to erase
    enter_table(c, 2, 1, 110.0)
    enter_table(c, 3, 1, 120.0)
    assert c.round == 1  # table 1 holds the round up again
    effects = c.handle(ResultAccepted(1, 1, b1, 300.0))
    assert effects == [RoundComplete(1), RoundStarted(2, 300.0)]  # table 1 was told once
    assert c.finished_at(1, 1, b2) == 100.0


def test_an_erased_board_waiting_for_verification_needs_entering_again():
    c = started(needs_verification=True)
    b1, _ = boards(MITCHELL, 1, 1)
    c.handle(ResultAccepted(1, 1, b1, 10.0))
    assert c.handle(Erased(1, 1, b1)) == [BoardReopened(1, 1, b1)]
    assert c.unverified(1) == 0
    assert c.handle(Verified(1, 1, b1, 20.0)) == []
    assert c.finished_at(1, 1, b1) is None


def test_late_arrival_is_the_first_action_at_the_table():
    c = started()
    assert c.handle(FirstAction(2, 1, 240.0)) == []
    assert c.handle(FirstAction(2, 1, 300.0)) == []
    assert c.table_round(2, 1).first_action_at == 240.0


# -- pace -----------------------------------------------------------------------------------
def test_pace_reports_only_the_tables_whose_minutes_changed_d10():
    """7.5 minutes a board from the official start at 0. At 10 minutes table 1, which
    finished its first board at 6 minutes, is 1.5 minutes ahead (due at 7.5); tables 2
    and 3 are 2.5 minutes behind on their first board (due at 7.5)."""
    c = started()
    assert c.handle(Tick(0.0, 0.0, 450.0)) == []  # every table starts reported on time
    c.handle(ResultAccepted(1, 1, boards(MITCHELL, 1, 1)[0], 360.0))
    assert c.handle(Tick(600.0, 0.0, 450.0)) == [PaceChanged(1, ((1, -1.5), (2, 2.5), (3, 2.5)))]
    assert c.handle(Tick(600.0, 0.0, 450.0)) == []
    assert c.handle(Tick(630.0, 0.0, 450.0)) == [PaceChanged(1, ((2, 3.0), (3, 3.0)))]
    assert c.handle(Tick(640.0, None, 450.0)) == []  # no official start: no pace
    c.handle(NextRound(700.0))
    assert c.handle(Tick(700.0, 700.0, 450.0)) == []  # the new round starts on time


def test_after_a_restart_the_first_tick_reports_every_table():
    c = RoundController("A", MITCHELL)
    c.handle(Resume(frozenset(), 1, 0.0))
    assert c.handle(Tick(60.0, 0.0, 450.0)) == [PaceChanged(1, ((1, 0.0), (2, 0.0), (3, 0.0)))]


# -- any order ----------------------------------------------------------------------------
def round_events(rnd, draw):
    """Every event of a round of MITCHELL with verification: per board an accept and a
    verification, or a director's entry, some sent twice."""
    events = []
    for table in (1, 2, 3):
        for b in boards(MITCHELL, table, rnd):
            if draw(st.booleans()):
                events.append(DirectorEntered(table, rnd, b, 0.0))
            else:
                events += [ResultAccepted(table, rnd, b, 0.0), Verified(table, rnd, b, 0.0)]
    return events + draw(st.lists(st.sampled_from(events), max_size=4))


@settings(max_examples=200, deadline=None)
@given(data=st.data(), auto_advance=st.booleans())
def test_each_round_completes_exactly_once_in_any_order_of_events(data, auto_advance):
    """D12: whatever order the results of rounds 1 and 2 arrive in (round 2's may come
    first, duplicates included), each round completes once, each table finishes once per
    round, and a board ends at the second of its accept and verification (D10) or at the
    director's entry, whichever is first."""
    events = round_events(1, data.draw) + round_events(2, data.draw)
    order = data.draw(st.permutations(events))
    timed = [type(e)(e.table, e.round, e.board, float(i + 1)) for i, e in enumerate(order)]
    c = started(auto_advance=auto_advance, needs_verification=True)
    effects = []
    for e in timed:
        effects += c.handle(e)
    if not auto_advance:
        effects += c.handle(NextRound(1000.0))
    assert [e for e in effects if isinstance(e, RoundComplete)] == [
        RoundComplete(1),
        RoundComplete(2),
    ]
    assert [e.round for e in effects if isinstance(e, RoundStarted)] == (
        [2, 3] if auto_advance else [2]
    )
    finished = [e.table_round for e in effects if isinstance(e, TableFinished)]
    assert sorted((tr.round, tr.table) for tr in finished) == [
        (r, t) for r in (1, 2) for t in (1, 2, 3)
    ]
    at = {type(e).__name__ + str(getattr(e, "round", "")): i for i, e in enumerate(effects)}
    for i, e in enumerate(effects):  # each table finishes after its round began, before it ends
        if isinstance(e, TableFinished):
            rnd = e.table_round.round
            assert at.get(f"RoundStarted{rnd}", -1) < i < at[f"RoundComplete{rnd}"]
    for table in (1, 2, 3):
        for rnd in (1, 2):
            for b in boards(MITCHELL, table, rnd):
                first = {}
                for e in timed:
                    if (e.table, e.round, e.board) == (table, rnd, b):
                        first.setdefault(type(e), e.at)
                pair = max(first.get(ResultAccepted, math.inf), first.get(Verified, math.inf))
                expected = min(first.get(DirectorEntered, math.inf), pair)
                assert c.finished_at(table, rnd, b) == expected


def test_a_board_erased_and_entered_again_in_a_waiting_round_does_not_end_it_twice():
    """D12: a round ends once. The section waits for the director (no auto-advance); the
    director erases a board and enters it again: the table finishes again, but the round is
    not complete a second time (no second publication, no second session end)."""
    c = started(auto_advance=False)
    for table in (1, 2, 3):
        enter_table(c, table, 1, 10.0)
    assert c.is_complete(1) and c.round == 1
    b1 = boards(MITCHELL, 2, 1)[0]
    assert c.handle(Erased(2, 1, b1)) == [BoardReopened(2, 1, b1)]
    again = c.handle(DirectorEntered(2, 1, b1, 20.0))
    assert "RoundComplete" not in kinds(again) and "SessionComplete" not in kinds(again)
