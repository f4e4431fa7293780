"""Late starts proposed from the clock (issue 29, [RULINGS]): a table's first action of the
round (a board started, a result entered) after the official start, on the clock the room
sees, gets the event's late-arrival scale's penalty proposed, once a table and round; a
table not started once the last band has passed gets the scale's ``beyond``. Seed 000 §9
"Late Start": 0~5 min 1st offence a warning, 2nd and later 0.8 VP; 5~10 1.6 VP; 10~15 2.4
VP; over 15 forfeiture. Seed 002 "Sen ankomst" (qualifying): 0-5 a warning, 5-10 1 VP,
10-15 2 VP, 15-20 3 VP, 20-25 4 VP, a repeat at least 0.5 VP. Times in seconds."""

from __future__ import annotations

import asyncio
import tomllib
from fractions import Fraction
from pathlib import Path

from event_text import one_section_event

from hub.live.rounds import round_controller as rc
from hub.live.rounds.late_start_watch import late_start, no_show_after, offence, table_action
from hub.live.rounds.slow_play import TableRound
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from scoring.penalties import PenaltyUnit, scale_from_data

MIN = 60.0
SCALES = tomllib.loads(
    (Path(__file__).parents[3] / "examples" / "penalty_scales.toml").read_text("utf-8")
)
SEED000 = scale_from_data(SCALES["seed000_late_start_swiss"])
SEED002 = scale_from_data(SCALES["seed002_late_arrival_qualifying"])
VP, WARN, FORFEIT = PenaltyUnit.VP, PenaltyUnit.WARNING, PenaltyUnit.FORFEIT


def table() -> TableRound:
    return TableRound("A", 2, 1, (1, 2), 3, 10)


def proposed(scale, minutes, offence_no):
    p = late_start(table(), scale, minutes, offence_no)
    return None if p is None else (p.penalty.amount, p.penalty.unit)


def test_seed000_late_start_warning_first_then_0_8_vp():
    """Seed 000: 3 min late is in 0~5: a warning the first time, 0.8 VP the second."""
    assert proposed(SEED000, 3, 1) == (0, WARN)
    assert proposed(SEED000, 3, 2) == (Fraction(4, 5), VP)


def test_seed000_late_start_five_to_ten_and_over_fifteen():
    """Seed 000: 7 min is in 5~10: 1.6 VP, first offence or not; 16 min is over 15:
    forfeiture, which is also what a table not started at all gets after 15 minutes."""
    assert proposed(SEED000, 7, 1) == (Fraction(8, 5), VP)
    assert proposed(SEED000, 7, 2) == (Fraction(8, 5), VP)
    assert proposed(SEED000, 16, 1) == (0, FORFEIT)
    assert no_show_after(SEED000) == 15


def test_seed002_late_arrival_warning_then_repeat_minimum():
    """Seed 002: 3 min (0-5) a warning, a repeat at least 0.5 VP; 7 min (5-10) 1 VP, above
    the minimum; not started after 25 minutes: beyond the scale (the TD decides)."""
    assert proposed(SEED002, 3, 1) == (0, WARN)
    assert proposed(SEED002, 3, 2) == (Fraction(1, 2), VP)
    assert proposed(SEED002, 7, 1) == (1, VP)
    assert proposed(SEED002, 7, 2) == (1, VP)
    assert no_show_after(SEED002) == 25


def test_on_time_is_no_proposal_and_the_text_names_the_kind():
    """0 minutes late (acted at the start) is not late; a proposal says "late arrival"."""
    assert late_start(table(), SEED000, 0, 1) is None
    p = late_start(table(), SEED000, 7, 1)
    assert p is not None and p.kind == "late_arrival"
    assert "table 2 round 1: 7.0 min late (late arrival) → 1.6 VP (NS 3, EW 10)" in p.text


def row(status, payer, reason="(late arrival)", section="A", ns=3, ew=10):
    return {
        "status": status,
        "payer": payer,
        "reason": f"section {section} table 1 round 1: 3.0 min late {reason}",
        "section": section,
        "contestants": (ns, ew),
    }


def test_offence_counts_the_late_arrivals_a_side_was_confirmed_to_pay():
    """Pair 3 paid a confirmed warning (its first offence): its next late arrival is its
    second. Pair 10 paid nothing: its first. A slow-play penalty, a waived or a pending
    proposal, and another section's pair 3 do not count. Both/shared: both sides paid."""
    assert offence([], "A", 3, 10) == 1
    assert offence([row("confirmed", "NS")], "A", 3, 10) == 2
    assert offence([row("confirmed", "NS")], "A", 10, 5) == 1  # pair 10 now NS elsewhere
    assert offence([row("confirmed", "EW")], "A", 10, 5) == 2
    assert offence([row("confirmed", "both")], "A", 5, 10) == 2
    not_counted = [
        row("confirmed", "NS", reason="(slow play)"),
        row("waived", None),
        row("proposed", None),
        row("confirmed", "NS", section="B"),
    ]
    assert offence(not_counted, "A", 3, 10) == 1


def test_a_table_action_is_a_board_started_or_a_result_entered():
    """The opponents' verification and the director's entry are not the table's start."""
    assert table_action(rc.FirstAction(2, 1, 60.0)) == (2, 1, 60.0)
    assert table_action(rc.ResultAccepted(2, 1, 3, 70.0)) == (2, 1, 70.0)
    assert table_action(rc.ResultHeld(2, 1, 3, 80.0)) == (2, 1, 80.0)
    assert table_action(rc.Verified(2, 1, 3, 90.0)) is None
    assert table_action(rc.DirectorEntered(2, 1, 3, 90.0)) is None


LATE = one_section_event("Late", 'kind = "howell", tables = 3, boards_per_round = 2').replace(
    'scoring = "mp"',
    """scoring = "mp"
[rules.late_arrival]
beyond = "forfeit"
steps = [
  { above_minutes = 0, up_to_minutes = 5, penalty = 0.8, unit = "VP", first_offence = "warning" },
  { above_minutes = 5, up_to_minutes = 10, penalty = 1.6, unit = "VP" },
  { above_minutes = 10, up_to_minutes = 15, penalty = 2.4, unit = "VP" },
]""",
)


def test_the_hub_proposes_seed000_late_starts_from_the_room_clock(tmp_path):
    """Seed 000's scale. Round 1 starts at 0; the director pauses the clock from 1 to 3 min
    (2 min that do not count). Table 2's first board starts at 5 min: 5 − 2 = 3 min late,
    a first offence: a warning, which the director confirms (both pay). Table 1's first
    result comes at 9 min: 9 − 2 = 7 min late, 1.6 VP; its next board starts at 10 min: no
    second proposal. Table 3 has done nothing at 18 min: 16 min used, over 15: forfeiture.
    Round 2 (the director moves on at 20 min) starts at 20; a side of table 2 of round 1
    starts 3 min late: its second offence, 0.8 VP."""
    now = [0.0]

    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(LATE)
        hub = HubService(store, eid, [], clock=lambda: now[0], auto_advance=False, tick_s=3600)
        await hub.start()
        try:
            state = hub.rounds.sections["A"]

            def proposals() -> list[dict]:
                return [e for e in hub.feed.since(0) if e["event"] == "penalty_proposed"]

            now[0] = 1 * MIN
            await hub.commands.dispatch("pause", {"section": "A"}, "TD")
            now[0] = 3 * MIN
            await hub.commands.dispatch("resume", {"section": "A"}, "TD")
            now[0] = 5 * MIN
            await hub.rounds.handle("A", rc.FirstAction(2, 1, now[0]))
            warning = proposals()
            assert [(p["table"], p["round"]) for p in warning] == [(2, 1)]
            assert "3.0 min late (late arrival) → warning" in warning[0]["text"]
            await hub.commands.dispatch(
                "confirm_penalty", {"penalty": warning[0]["id"], "payer": "both"}, "TD"
            )
            b1 = state.movement.row("A", 1, 1).boards[0]
            now[0] = 9 * MIN
            await hub.rounds.handle("A", rc.ResultAccepted(1, 1, b1, now[0]))
            now[0] = 10 * MIN
            await hub.rounds.handle("A", rc.FirstAction(1, 1, now[0]))
            assert len(proposals()) == 2
            assert "table 1 round 1: 7.0 min late (late arrival) → 1.6 VP" in proposals()[1]["text"]
            now[0] = 18 * MIN
            await hub.rounds.handle("A", rc.Tick(now[0], 0.0, 7.5 * MIN, None))
            assert len(proposals()) == 3
            assert (
                "table 3 round 1: 16.0 min late (late arrival) → forfeit" in proposals()[2]["text"]
            )
            stored = {(p["table"], p["unit"], p["amount"]) for p in store.penalties(eid)}
            assert stored == {(2, "warning", "0"), (1, "VP", "8/5"), (3, "forfeit", "0")}

            now[0] = 20 * MIN
            await hub.commands.dispatch("next_round", {"section": "A"}, "TD")
            first = state.movement.row("A", 2, 1)
            warned = {first.ns_pair, first.ew_pair} - {0}
            again = next(
                r.table
                for r in state.movement.round_rows(2, "A")
                if {r.ns_pair, r.ew_pair} & warned
            )
            now[0] = 23 * MIN
            await hub.rounds.handle("A", rc.FirstAction(again, 2, now[0]))
            assert len(proposals()) == 4
            assert (
                f"table {again} round 2: 3.0 min late (late arrival) → 0.8 VP"
                in (proposals()[3]["text"])
            )
        finally:
            await hub.stop()
            store.close()

    asyncio.run(scenario())


def test_a_round_running_at_a_restart_is_not_watched(tmp_path):
    """Who acted before a restart is not stored: in the round the restarted hub finds
    running (started at T0 = 1000 s: a start at 0 s reads as none in
    ``Rounds.resume``), a table's board started at 7 min is not proposed 1.6 VP, nor
    a table silent at 18 min a forfeit. (A missed proposal the director can still give
    with ``add_penalty``; a false one would be proposed to every table that had started.)"""
    T0 = 1000.0
    now = [T0]

    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(LATE)
        first = HubService(store, eid, [], clock=lambda: now[0], auto_advance=False, tick_s=3600)
        await first.start()
        await first.stop()
        now[0] = T0 + 6 * MIN
        hub = HubService(store, eid, [], clock=lambda: now[0], auto_advance=False, tick_s=3600)
        await hub.start()
        try:
            assert hub.rounds.sections["A"].clock.official_start(1) == T0
            now[0] = T0 + 7 * MIN
            await hub.rounds.handle("A", rc.FirstAction(1, 1, now[0]))
            now[0] = T0 + 18 * MIN
            await hub.rounds.handle("A", rc.Tick(now[0], T0, 7.5 * MIN, None))
            assert [e for e in hub.feed.since(0) if e["event"] == "penalty_proposed"] == []
            assert store.penalties(eid) == []
        finally:
            await hub.stop()
            store.close()

    asyncio.run(scenario())
