"""Suspicious-score flags (decisions D12; Bridgemate Control Software's two checks, as its
support article "Info: suspicious contracts" describes them): the same strain by both sides
with too many tricks between them, and tricks far from double dummy. Open flags hold the
round's standings back until the director marks the result valid or corrects it."""

from __future__ import annotations

import asyncio

import pytest
from hub_stub import wait_until
from suspicious_boards import REALBRIDGE, flagged_round, optimum_tables

from drivers.protocol.messages import ResultView, TDMessage
from hub.event.double_dummy import double_dummy as solve
from hub.event.hand_records import read_hand_records
from hub.live.service.hub_service import HubService
from scoring.board import Seat
from scoring.contract import parse_contract
from scoring.suspicious import (
    PlayedResult,
    SuspicionLimits,
    double_dummy,
    opposite_sides,
)

LIMITS = SuspicionLimits()


def played(*lines: str) -> list[PlayedResult]:
    """``"4S E 11"`` → a played result keyed by its position."""
    out = []
    for k, text in enumerate(lines):
        contract, declarer, tricks = text.split()
        c = parse_contract(contract)
        assert c is not None
        out.append(PlayedResult(k, c, Seat.parse(declarer), int(tricks)))
    return out


def test_bcs_example_only_the_lone_north_declarer_is_flagged():
    """BCS article: 4S E +1 seven times, 4S E = twice, 4S N +1 once: only 4S by N."""
    board = played(*["4S E 11"] * 7, *["4S E 10"] * 2, "4S N 11")
    flags = opposite_sides(board, LIMITS)
    assert list(flags) == [9]
    assert "4S by N taking 11" in flags[9] and "EW declared spades at 9 tables" in flags[9]


def test_bcs_example_two_results_both_flagged_then_the_third_decides():
    """BCS article: 6H N = and 6H W = are both flagged; when 4H S +2 comes in, only 6H W."""
    assert set(opposite_sides(played("6H N 12", "6H W 12"), LIMITS)) == {0, 1}
    assert set(opposite_sides(played("6H N 12", "6H W 12", "4H S 12"), LIMITS)) == {1}


def test_no_trumps_have_a_higher_limit_than_suits():
    """Both sides can take many tricks in no-trumps: 8 + 7 is normal there, not in a suit."""
    assert opposite_sides(played("1NT N 8", "1NT E 7"), LIMITS) == {}
    assert set(opposite_sides(played("1S N 8", "1S E 7"), LIMITS)) == {0, 1}
    assert opposite_sides(played("4S N 10", "5D E 9"), LIMITS) == {}  # different strains


@pytest.mark.slow
def test_double_dummy_tricks_match_realbridges_optimum_result_tables():
    """endplay's DDS against the solver table RealBridge exported with the deals."""
    deals = read_hand_records(REALBRIDGE)
    reference = optimum_tables(REALBRIDGE)
    assert set(reference) == set(deals) == set(range(11, 21))
    for board, deal in deals.items():
        assert dict(solve(deal, board).tricks) == reference[board], f"board {board}"


def test_a_result_far_from_double_dummy_is_flagged():
    """Board 12 of the RealBridge file: 4H by S makes 10 double dummy."""
    dd = optimum_tables(REALBRIDGE)[12]
    flags = double_dummy(played("4H S 10", "4H S 7", "4H S 5"), dd, 3)
    assert list(flags) == [2] and "double dummy 10: 5 tricks apart" in flags[2]


def test_flags_hold_the_standings_until_the_director_settles_them(tmp_path):
    """Round 1 (``flagged_round``) ends with two flags at table 1. The round's standings
    wait; a TD correction at table 2 reaches all three terminals' travellers; after a
    restart the same questions are open; "contract is valid" on both flags publishes the
    standings; and a restarted hub keeps the director's marks and what it published."""

    async def scenario():
        store, eid, line, station, hub, b, b2 = await flagged_round(tmp_path)
        try:
            flags = {(f.board, f.table): f for f in hub.suspicious.all_flags()}
            assert set(flags) == {(b, 1), (b2, 1)}
            assert "EW declared spades at 2 tables" in flags[(b, 1)].reason
            assert "double dummy 10: 5 tricks apart" in flags[(b2, 1)].reason
            assert hub.publication.withheld == {"A": 1}
            assert "standings" not in [e["event"] for e in hub.feed.since(0)]

            row2 = hub.sections["A"].movement.row("A", 2, 1)
            await hub.commands.dispatch(
                "enter_result",
                {
                    "section": "A",
                    "table": 2,
                    "round": 1,
                    "board": b,
                    "ns_pair": row2.ns_pair,
                    "ew_pair": row2.ew_pair,
                    "contract": "2S",
                    "declarer": "E",
                    "result": "+1",
                },
                "TD Anna",
            )

            def corrected(t: int) -> bool:
                views = [
                    m
                    for m in station.terminals[t].log.received
                    if isinstance(m, ResultView) and m.board == b
                ]
                return any(x.tricks == 9 for v in views[-1:] for x in v.lines)

            await wait_until(
                lambda: all(corrected(t) for t in (1, 2, 3)),
                10,
                "the corrected traveller at the three tables",
            )
            told = [m.text for m in station.terminals[2].log.received if isinstance(m, TDMessage)]
            assert f"The director entered a result on board {b}" in told
            assert hub.publication.withheld == {"A": 1}  # table 1's 2S by N is still suspicious
        finally:
            await station.stop()
            await hub.stop()
            line.close()
        again = HubService(store, eid, [])  # a restart: the same questions are open
        await again.start()
        try:
            await wait_until(
                lambda: len(again.suspicious.all_flags()) == 2,
                20,
                "both flags again once double dummy is solved",
            )
            assert again.publication.withheld == {"A": 1}
            for board in (b, b2):
                await again.commands.dispatch(
                    "contract_valid",
                    {"section": "A", "board": board, "table": 1, "round": 1},
                    "TD Anna",
                )
            events = again.feed.since(0)
            published = [e for e in events if e["event"] == "standings"]
            assert again.publication.withheld == {} and published and published[-1]["round"] == 1
            assert [e for e in events if e["event"] == "suspicious"][-1]["flags"] == []
        finally:
            await again.stop()
        third = HubService(store, eid, [])  # the director's marks and the publication stay
        await third.start()
        try:
            await wait_until(lambda: len(third.suspicious.makeable) == 2, 20, "double dummy")
            assert (await third.snapshot())["suspicious"] == []
            assert third.publication.published == {"A": 1} and third.publication.withheld == {}
        finally:
            await third.stop()
            store.close()

    asyncio.run(scenario())


def test_standings_released_over_open_flags_are_provisional_everywhere(tmp_path):
    """Decisions D12: the director may release the standings with flags open; the boards
    are marked provisional in the feed, in the store (for the screens) and at the tables.
    Then an erasure in the current round reopens the board at its table."""

    async def scenario():
        store, _eid, line, station, hub, b, b2 = await flagged_round(tmp_path)
        try:
            out = await hub.commands.dispatch("release_standings", {"section": "A"}, "TD Anna")
            assert out == {"provisional": sorted([b, b2])}
            standings = [e for e in hub.feed.since(0) if e["event"] == "standings"]
            assert standings[-1]["provisional"] == sorted([b, b2])
            assert standings[-1]["released_by"] == "TD Anna" and hub.publication.withheld == {}
            text = (
                f"Standings after round 1 are provisional: boards "
                f"{', '.join(map(str, sorted([b, b2])))} under review"
            )
            await wait_until(
                lambda: all(
                    any(isinstance(m, TDMessage) and m.text == text for m in t.log.received)
                    for t in station.terminals.values()
                ),
                10,
                "the notice at every table",
            )
            published = (await hub.snapshot())["sections"]["A"]["published"]  # what screens show
            assert published["round"] == 1 and published["provisional"] == sorted([b, b2])

            # the director erases table 3's board b (still its round): the table must play
            # or enter it again, and is told so
            await hub.commands.dispatch(
                "erase_result", {"section": "A", "table": 3, "round": 1, "board": b}, "TD Anna"
            )
            assert b not in hub.sections["A"].controller.table_round(3, 1).finished_at
            await wait_until(
                lambda: any(
                    isinstance(m, TDMessage)
                    and m.text == f"The director erased board {b}: enter it again"
                    for m in station.terminals[3].log.received
                ),
                10,
                "the erasure told at table 3",
            )
        finally:
            await station.stop()
            await hub.stop()
            line.close()
            store.close()

    asyncio.run(scenario())


def test_a_restart_does_not_publish_a_round_held_by_a_double_dummy_flag(tmp_path):
    """D12 after a restart: round 1 is complete and withheld for one double-dummy flag (4H
    by S five tricks short). The restarted hub has not solved the deals yet, so it cannot
    see the flag: it must wait for them, not publish; once solved, the round stays held."""

    async def scenario():
        store, eid, line, station, hub, _, b2 = await flagged_round(tmp_path, True)
        assert hub.publication.withheld == {"A": 1}
        await station.stop()
        await hub.stop()
        line.close()
        again = HubService(store, eid, [], auto_advance=False)
        await again.start()
        try:
            decided = [e["event"] for e in again.feed.since(0) or []]
            assert "standings" not in decided and again.publication.withheld == {"A": 1}
            await wait_until(lambda: len(again.suspicious.makeable) == 2, 20, "double dummy")
            await wait_until(
                lambda: again.supervisor.health["double dummy"].done, 20, "the settled check"
            )
            assert [(f.board, f.table) for f in again.suspicious.all_flags()] == [(b2, 1)]
            assert "standings" not in [e["event"] for e in again.feed.since(0) or []]
            assert again.publication.withheld == {"A": 1}
        finally:
            await again.stop()
            store.close()

    asyncio.run(scenario())
