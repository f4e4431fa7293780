"""The campaign's invariants (issue 12 [FAULTS]): lost, doubled, stuck, incomplete and
standings differ are zero for a clean store and count each planted fault; the offline
rescore (the batch path of ``bridgehub score``) gives hand-worked totals; the feed watch
keeps the final standings a real ``bridgehub run`` published, again after a kill -9."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import signal
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest
from club_evening import exe
from event_text import one_section_event
from sqlalchemy.orm import Session

from campaign.feed_watch import FeedWatch
from campaign.invariants import Confirmed, Invariants, check
from campaign.pg_cluster import free_port
from campaign.rescore import RescoreError, rescore
from hub.live.views.published import published_rows
from hub.store import schema as t
from hub.store.store import ResultEntry, Store
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

# A 3-table Mitchell, one board a round (NS 1-3 are pairs 1-3, EW 1-3 are pairs 4-6):
#   board 1: NS1 v EW4 (table 1 round 1), NS3 v EW5 (3/2), NS2 v EW6 (2/3)
#   board 2: NS2 v EW5 (2/1), NS1 v EW6 (1/2), NS3 v EW4 (3/3)
#   board 3: NS3 v EW6 (3/1), NS2 v EW4 (2/2), NS1 v EW5 (1/3)
TINY = one_section_event("Tiny", 'kind = "mitchell", tables = 3, boards_per_round = 1')
# (table, round, board, ns, ew, contract, declarer, tricks, adjusted)
PLAYED = [
    (1, 1, 1, 1, 4, "4S", "N", 10, None),  # +420 (board 1: nobody vulnerable)
    (3, 2, 1, 3, 5, "4S", "N", 11, None),  # +450
    (2, 3, 1, 2, 6, "4S", "N", 9, None),  # -50
    (2, 1, 2, 2, 5, "3NT", "N", 9, None),  # +600 (board 2: NS vulnerable)
    (1, 2, 2, 1, 6, "3NT", "N", 9, None),  # +600
    (3, 3, 2, 3, 4, "3NT", "N", 8, None),  # -100
    (3, 1, 3, 3, 6, None, None, None, "60/40"),  # artificial: left out of the comparisons
    (2, 2, 3, 2, 4, "2H", "E", 8, None),  # -110 (board 3: EW vulnerable)
    (1, 3, 3, 1, 5, "2H", "E", 9, None),  # -140
]
# Worked by hand, matchpoints 2 a beaten score, 1 a tie, top 4 (three results a board):
#   board 1: NS3 4, NS1 2, NS2 0; EW5 0, EW4 2, EW6 4
#   board 2: NS2 3, NS1 3, NS3 0; EW5 1, EW6 1, EW4 4
#   board 3: two results compared, Neuberg to three: (mp + 1) * 3/2 - 1, so the -110 gets
#            (2+1)*3/2-1 = 3.5 and the -140 0.5 (EW4 0.5, EW5 3.5); 60/40 is 60 % of the
#            top to NS3 (2.4) and 40 % to EW6 (1.6)
#   totals over 3 tops of 4 (12): NS1 2+3+0.5, NS2 0+3+3.5, NS3 4+0+2.4,
#                                 EW4 2+4+0.5, EW5 0+1+3.5, EW6 4+1+1.6
BY_HAND = {
    1: Fraction(55, 10) * 100 / 12,
    2: Fraction(65, 10) * 100 / 12,
    3: Fraction(64, 10) * 100 / 12,
    4: Fraction(65, 10) * 100 / 12,
    5: Fraction(45, 10) * 100 / 12,
    6: Fraction(66, 10) * 100 / 12,
}


def _entry(row: tuple, serial: str | None = None, revision: int = 1) -> ResultEntry:
    table, rnd, board, ns, ew, contract, declarer, tricks, adjusted = row
    key = f"{serial}:A:{table}:{rnd}:{board}:{revision}" if serial else None
    return ResultEntry(
        "A",
        table,
        rnd,
        board,
        ns,
        ew,
        contract=contract,
        declarer=declarer,
        tricks=tricks,
        adjusted=adjusted,
        entered_by=serial or "TD",
        submission_key=key,
    )


def _tiny(tmp_path: Path, rows: list[tuple] = PLAYED) -> tuple[str, int]:
    url = f"sqlite:///{tmp_path / 'tiny.db'}"
    store = Store.open(url)
    try:
        eid = store.create_event(TINY)
        played = [_entry(r, f"BM-{r[0]}") for r in rows]
        store.record(eid, played)
    finally:
        store.close()
    return url, eid


def _confirmed(rows: list[tuple] = PLAYED) -> list[Confirmed]:
    return [
        Confirmed("A", tb, rnd, b, contract, declarer, tricks, ns_pair=ns, ew_pair=ew)
        for tb, rnd, b, ns, ew, contract, declarer, tricks, adjusted in rows
        if adjusted is None
    ]


def _published(url: str, eid: int) -> dict[str, list[dict]]:
    """What the hub publishes after the last round (its own publication code, the live
    views: ``hub/live/views/published.py``), the reference the rescore is checked against."""
    store = Store.open(url, migrate=False)
    try:
        event, movement = store.event(eid), store.movement(eid, "A")
        lines = store.live_lines(eid, "A")
        return {"A": published_rows(event, "A", movement, lines, movement.rounds, {})}
    finally:
        store.close()


def _counts(found: Invariants) -> tuple[int, int, int, int, int]:
    return (found.lost, found.doubled, found.stuck, found.incomplete, found.standings_differ)


def test_rescore_gives_the_hand_worked_matchpoints_with_neuberg(tmp_path):
    """Issue 12: the offline rescore (``bridgehub score``'s batch path) of a tiny
    Mitchell equals totals worked by hand, Neuberg and an artificial score included."""
    url, eid = _tiny(tmp_path)
    assert rescore(url, eid) == {"A": BY_HAND}


def test_a_clean_store_has_every_invariant_at_zero(tmp_path):
    """Issue 12: every count zero when nothing was lost, doubled, stuck or left unplayed,
    and the published final standings equal the rescore."""
    url, eid = _tiny(tmp_path)
    published = _published(url, eid)
    assert {int(r["pair"]): Fraction(r["total"]) for r in published["A"]} == BY_HAND
    found = check(url, eid, _confirmed(), 0, published, {"A"})
    assert _counts(found) == (0, 0, 0, 0, 0), found.details
    assert found.ok and found.lines()[:5] == [
        "lost 0",
        "doubled 0",
        "stuck 0",
        "incomplete 0",
        "standings differ 0",
    ]


def test_a_confirmed_result_missing_from_the_store_is_lost(tmp_path):
    """Issue 12 "lost": a result a terminal was told is stored but the store lacks it (not
    stored at all, or stored with other content) counts once each, named."""
    played = [r for r in PLAYED if r[:3] != (2, 3, 1)]
    url, eid = _tiny(tmp_path, played)
    confirmed = _confirmed()
    confirmed.append(Confirmed("A", 1, 1, 1, "4S", 0, 9))  # the store has 4S N 10 there
    found = check(url, eid, confirmed, 0, _published(url, eid), {"A"})
    assert found.lost == 2
    assert found.incomplete == 1  # the missing one's table-round did not complete
    assert "A2 round 3 board 1: confirmed 4S N 9, not in the store" in found.details
    assert any(
        d.startswith("A1 round 1 board 1: confirmed 4S N 9, the store has only 4S N 10")
        for d in found.details
    ), found.details
    assert not found.ok


def test_a_held_or_superseded_revision_still_counts_as_stored(tmp_path):
    """D21: a result told "held" or later corrected is still stored: not lost."""
    url, eid = _tiny(tmp_path)
    store = Store.open(url)
    try:
        store.record(eid, [_entry((1, 1, 101, 1, 4, "1NT", "S", 7, None), "BM-1")], "held")
        fix = _entry((1, 1, 1, 1, 4, "4S", "N", 11, None), "BM-1", revision=2)
        store.record(eid, [fix])
    finally:
        store.close()
    confirmed = [
        *_confirmed(),
        Confirmed("A", 1, 1, 101, "1NT", "S", 7),
        Confirmed("A", 1, 1, 1, "4S", "N", 11, None, 1, 4),
    ]
    found = check(url, eid, confirmed, 0, _published(url, eid), {"A"})
    assert _counts(found) == (0, 0, 0, 0, 0), found.details


def test_a_result_stored_twice_is_doubled(tmp_path):
    """Issue 12 "doubled", D21: the same submission with the same content as a second
    revision (what ``record`` must answer "duplicate"), planted past the store's checks;
    a correction with other content is not a double."""
    url, eid = _tiny(tmp_path)
    store = Store.open(url)
    try:
        with Session(store.engine) as db, db.begin():
            db.add(
                t.ResultRecord(
                    event_id=eid, section="A", table_no=2, round=1, board=2, revision=2,
                    status="accepted", ns_pair=2, ew_pair=5, contract="3NT", declarer="N",
                    tricks=9, entered_by="BM-2", submission_key="BM-2:A:2:1:2:1#2",
                    received_at=dt.datetime.now(dt.UTC),
                )
            )  # fmt: skip
    finally:
        store.close()
    found = check(url, eid, _confirmed(), 0, _published(url, eid), {"A"})
    assert _counts(found) == (0, 1, 0, 0, 0), found.details
    assert "A2 round 1 board 2: 3NT N 9 (accepted) stored twice" in found.details[0]


def test_a_pair_with_two_live_results_on_a_board_is_doubled(tmp_path):
    """Issue 12 "doubled": the same pairs' result live at two tables of one board (a held
    result accepted at the wrong table) scores the board twice for them."""
    url, eid = _tiny(tmp_path)
    store = Store.open(url)
    try:  # NS1 v EW4 played board 1 at table 1; the same again at table 3 round 2
        with Session(store.engine) as db, db.begin():
            db.add(
                t.ResultRecord(
                    event_id=eid, section="A", table_no=3, round=2, board=1, revision=2,
                    status="accepted", ns_pair=1, ew_pair=4, contract="4S", declarer="N",
                    tricks=10, entered_by="TD", received_at=dt.datetime.now(dt.UTC),
                )
            )  # fmt: skip
    finally:
        store.close()
    found = check(url, eid, _confirmed(), 0, _published(url, eid), {"A"})
    assert found.doubled == 2, found.details  # NS 1 and EW 1 each twice on board 1
    assert "section A board 1: pair NS 1 has 2 live results" in " ".join(found.details)


def test_unacknowledged_results_are_stuck(tmp_path):
    """Issue 12 "stuck": what the terminals still hold unacknowledged, as counted."""
    url, eid = _tiny(tmp_path)
    found = check(url, eid, _confirmed(), 3, _published(url, eid), {"A"})
    assert _counts(found) == (0, 0, 3, 0, 0)


def test_an_unplayed_board_leaves_its_table_round_incomplete_sit_outs_excluded(tmp_path):
    """Issue 12 "incomplete": each table-round with a pair on both sides must have all
    its boards live; an erased board counts as unplayed."""
    played = [r for r in PLAYED if r[:3] != (3, 3, 2)]
    url, eid = _tiny(tmp_path, played)
    store = Store.open(url)
    try:
        erase = ResultEntry("A", 2, 1, 2, 2, 5, erased=True)
        store.record(eid, [erase])
    finally:
        store.close()
    confirmed = [c for c in _confirmed() if (c.table, c.round) not in ((3, 3), (2, 1))]
    found = check(url, eid, confirmed, 0, _published(url, eid), {"A"})
    assert (found.lost, found.doubled, found.incomplete) == (0, 0, 2), found.details
    assert "A2 round 1: board 2 without a live result" in found.details
    assert "A3 round 3: board 2 without a live result" in found.details


def test_a_published_total_that_differs_from_the_rescore_is_counted(tmp_path):
    """Issue 12 "standings differ": a changed total, a pair missing from the published
    rows, and standings that are not the final ones each count."""
    url, eid = _tiny(tmp_path)
    rows = _published(url, eid)["A"]
    changed = [dict(r, total="56") if r["pair"] == 6 else r for r in rows]
    found = check(url, eid, _confirmed(), 0, {"A": changed}, {"A"})
    assert _counts(found) == (0, 0, 0, 0, 1)
    assert found.details == ["section A pair EW 3: published 56 (56.0000), rescored 55 (55.0000)"]
    missing = [r for r in rows if r["pair"] != 2]
    assert check(url, eid, _confirmed(), 0, {"A": missing}, {"A"}).standings_differ == 1
    assert check(url, eid, _confirmed(), 0, {"A": rows}, set()).standings_differ == 1
    nothing = check(url, eid, _confirmed(), 0, {}, set())
    assert nothing.standings_differ == 1 + 6  # not final, and no pair published


@pytest.mark.slow
def test_the_feed_watch_keeps_the_final_standings_across_kill_9(tmp_path):
    """Issue 12: the campaign's feed client follows a real ``bridgehub run`` to the final
    standings, through a kill -9 mid-session, and takes them again from the snapshot of a
    hub restarted after another kill -9 (same API port); they equal the offline rescore
    and every invariant is zero."""
    event = tmp_path / "club.toml"
    event.write_text(
        one_section_event("Watch", 'kind = "mitchell", tables = 3, boards_per_round = 2'), "utf-8"
    )
    db = f"sqlite:///{tmp_path / 'club.db'}"
    log = tmp_path / "hub.log"
    port = free_port()
    total = 3 * 3 * 2

    def start_hub(station: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [exe(), "run", "--event", str(event), "--db", db, "--station", station,
             "--api", f"127.0.0.1:{port}", "--td-pin", "test-pin-2222"],
            stdout=subprocess.DEVNULL,
            stderr=log.open("a"),
        )  # fmt: skip

    def stored() -> int:
        if not (tmp_path / "club.db").exists():
            return 0
        try:
            s = Store.open(db, migrate=False)
        except Exception:
            return 0  # the hub has not made its tables yet
        try:
            return len(s.results(1)) if s.event_ids() else 0
        finally:
            s.close()

    async def until_stored(n: int, timeout: float) -> None:
        end = asyncio.get_running_loop().time() + timeout
        while await asyncio.to_thread(stored) < n:
            if asyncio.get_running_loop().time() > end:
                raise AssertionError(f"fewer than {n} results stored after {timeout} s\n"
                                     f"{log.read_text('utf-8')[-2000:]}")  # fmt: skip
            await asyncio.sleep(0.05)

    def kill(hub: subprocess.Popen[bytes]) -> None:
        os.kill(hub.pid, signal.SIGKILL)
        hub.wait(10)

    async def scenario() -> tuple[list, int, dict[str, list[dict]]]:
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        terminals = [
            VirtualTerminal(n, f"BM-{n}", "A", n, PlayerBot(seed=n), speed=600) for n in (1, 2, 3)
        ]
        for terminal in terminals:
            station.add_terminal(terminal)
        station.start()
        watch = FeedWatch(f"ws://127.0.0.1:{port}/v1", retry_s=0.1)
        await watch.start()
        hub = start_hub(str(line.path))
        try:
            await until_stored(4, 60)
            await asyncio.to_thread(kill, hub)  # mid-session
            hub = start_hub(str(line.path))
            await watch.wait_for(lambda: "A" in watch.final and "A" in watch.complete, 120,
                                 "the final standings")  # fmt: skip
            first = {k: list(v) for k, v in watch.published.items()}
            snapshots = watch.snapshots
            await asyncio.to_thread(kill, hub)  # after the end: the restart must tell again
            watch.published.clear()
            watch.final.clear()
            watch.complete.clear()
            hub = start_hub(str(line.path))
            await watch.wait_for(lambda: watch.snapshots > snapshots and "A" in watch.final, 60,
                                 "the final standings from the restarted hub")  # fmt: skip
            assert watch.published == first
            assert "A" in watch.complete and watch.last_round == {"A": 3}
            hub.send_signal(signal.SIGTERM)
            await asyncio.to_thread(hub.wait, 20)
            confirmed = [Confirmed.of(r) for x in terminals for r in (*x.log.accepted, *x.log.held)]
            unacked = sum(len(x.unacked) for x in terminals)
            return confirmed, unacked, first
        finally:
            await watch.stop()
            if hub.poll() is None:
                hub.kill()
            await station.stop()
            line.close()

    confirmed, unacked, first = asyncio.run(scenario())
    assert len(confirmed) >= total
    rescored = rescore(db, 1)
    assert {int(r["pair"]): Fraction(r["total"]) for r in first["A"]} == rescored["A"]
    found = check(db, 1, confirmed, unacked, first, {"A"})
    assert _counts(found) == (0, 0, 0, 0, 0), found.details


ROW_50 = {"pair": 1, "total": "50"}
ROW_60 = {"pair": 1, "total": "60"}
STANDINGS_ROUND_2 = {
    "type": "event",
    "seq": 1,
    "event": "standings",
    "section": "A",
    "round": 2,
    "rows": [ROW_50],
    "final": False,
}
FINAL_SNAPSHOT = {
    "type": "snapshot",
    "seq": 9,
    "state": {
        "sections": {
            "A": {"final": True, "published": {"round": 3, "rows": [ROW_60], "final": True}}
        }
    },
}
EMPTY_SNAPSHOT = {
    "type": "snapshot",
    "seq": 1,
    "state": {"sections": {"A": {"published": {"round": 0, "rows": []}}}},
}


@pytest.mark.parametrize(
    "message, published, final",
    [
        (STANDINGS_ROUND_2, {"A": [ROW_50]}, set()),
        (FINAL_SNAPSHOT, {"A": [ROW_60]}, {"A"}),
        (EMPTY_SNAPSHOT, {}, set()),
    ],
)
def test_the_feed_watch_takes_the_latest_publication_or_snapshot(message, published, final):
    """docs/api.md: a ``standings`` event or a snapshot's ``published`` replaces what the
    watch had (a restarted hub's snapshot is the truth of what it shows now)."""
    watch = FeedWatch("ws://127.0.0.1:1/v1")
    watch.published = {"A": [{"pair": 1, "total": "40"}]}
    watch.final = {"A"}
    watch.take(message)
    assert watch.published == published and watch.final == final


def test_a_result_as_the_wire_sent_it_and_a_no_play_are_found_in_the_store(tmp_path):
    """Issue 12 "lost", docs/protocol.md §4: a confirmed RESULT carries the room's pair
    numbers (EW 1, not the hub's 4) and the declarer's seat number; a confirmed NO PLAY is
    stored as its ``no_play`` audit entry. Neither is lost; a NO PLAY never recorded is."""
    played = [r for r in PLAYED if r[:3] != (3, 3, 2)]
    url, eid = _tiny(tmp_path, played)
    store = Store.open(url)
    try:
        detail = {"section": "A", "table": 3, "round": 3, "board": 2, "submission": "BM-3:x"}
        store.audit_once(eid, "no_play", [("BM-3", detail)])
    finally:
        store.close()
    wire = Confirmed("A", 1, 1, 1, "4S", 0, 10, "", 1, 1)  # NS 1 v EW 1, North declares
    no_play = Confirmed("A", 3, 3, 2, "", 255, 255, None, 3, 1)
    never = Confirmed("A", 2, 1, 2, "", 255, 255, None, 2, 2)
    found = check(url, eid, [wire, no_play, never], 0, _published(url, eid), {"A"})
    assert found.lost == 1, found.details
    assert found.details[0] == "A2 round 1 board 2: confirmed NO PLAY, not in the store"


TEAMS = one_section_event("Teams", 'kind = "teams", teams = 4, boards_per_round = 2', "teams")


def test_a_team_at_both_tables_of_its_match_is_not_doubled(tmp_path):
    """Issue 12 "doubled" (review R2): in a teams match each team plays every board twice,
    NS at one table and EW at the other; that is the movement, not a pair scored twice."""
    url = f"sqlite:///{tmp_path / 'teams.db'}"
    store = Store.open(url)
    try:
        eid = store.create_event(TEAMS)
        rows = store.movement(eid, "A").round_rows(1, "A")
        played = [
            (r.table, 1, b, r.ns_pair, r.ew_pair, "4S", "N", 10, None)
            for r in rows
            for b in r.boards
        ]
        store.record(eid, [_entry(p, f"BM-{p[0]}") for p in played])
    finally:
        store.close()
    found = check(url, eid, _confirmed(played), 0, {}, set())
    assert (found.lost, found.doubled) == (0, 0), found.details


def test_a_pair_scored_in_both_directions_stops_the_rescore_by_name(tmp_path):
    """Issue 12 "standings differ" (review R2): the rescore keys a Mitchell's pairs by the
    hub's number; a pair scored NS and EW (here NS 1 keyed EW on board 1) is refused by
    name, never one of its two totals silently kept."""
    url, eid = _tiny(tmp_path)
    store = Store.open(url)
    try:
        with Session(store.engine) as db, db.begin():
            db.add(
                t.ResultRecord(
                    event_id=eid, section="A", table_no=1, round=1, board=1, revision=2,
                    status="accepted", ns_pair=4, ew_pair=1, contract="4S", declarer="N",
                    tricks=10, entered_by="TD", received_at=dt.datetime.now(dt.UTC),
                )
            )  # fmt: skip
    finally:
        store.close()
    with pytest.raises(RescoreError, match="section A: pair 1 is scored in both directions"):
        rescore(url, eid)
    found = check(url, eid, [], 0, _published(url, eid), {"A"})
    assert found.standings_differ >= 1
    assert any("pair 1 is scored in both directions" in d for d in found.details)
