"""The standings a round's publication shows (decisions D12): rounds 1..r only, with each
entrant's rank after the round before (the result screen's places gained or lost)."""

from __future__ import annotations

import asyncio
from fractions import Fraction

from event_text import one_section_event
from team_events import TEAMS_EVENT, danish_vp

from hub.api.feed import Feed
from hub.live.rounds.publication import Publication
from hub.live.views.published import published_rows
from hub.standings.rows import names_of
from hub.store.store import ResultEntry, Store

BAROMETER = one_section_event(
    "Barometer night", 'kind = "barometer", tables = 2, boards_per_round = 1'
)


def open_event(tmp_path, text):
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    return store, store.create_event(text)


def publish(store, eid, rnd):
    """What the hub does in a worker thread when it publishes round ``rnd``."""
    return published_rows(
        store.event(eid),
        "A",
        store.movement(eid, "A"),
        store.live_lines(eid, "A"),
        rnd,
        names_of(store.contestants(eid, "A")),
    )


def _play_round(store, eid, rnd, tables=(1, 2)):
    """Every board of the round: table 1's N makes 4S, table 2's N goes one down, so on
    each board table 1's NS and table 2's EW get the top."""
    entries = []
    for row in store.movement(eid, "A").round_rows(rnd, "A"):
        if row.table not in tables:
            continue
        for b in row.boards:
            tricks = 10 if row.table == 1 else 9
            entries.append(
                ResultEntry(
                    "A", row.table, rnd, b, row.ns_pair, row.ew_pair, "4S", "N", tricks=tricks
                )
            )
    store.record(eid, entries)


def _expected_places(store, eid, rounds):
    """Count tops by hand: with two results a board is 100 % or 0 % (no ties here); a
    pair's total is its average. Standard competition places (1, 2, 2, 4)."""
    tops: dict[int, list[int]] = {}
    for rnd in range(1, rounds + 1):
        for row in store.movement(eid, "A").round_rows(rnd, "A"):
            won_ns = row.table == 1
            tops.setdefault(row.ns_pair, []).append(100 if won_ns else 0)
            tops.setdefault(row.ew_pair, []).append(0 if won_ns else 100)
    avg = {p: Fraction(sum(v), len(v)) for p, v in tops.items()}
    return {p: 1 + sum(1 for q in avg.values() if q > a) for p, a in avg.items()}, avg


def place(rank):
    return int(rank.rstrip("="))


def test_standings_after_a_round_ignore_the_round_under_way_and_show_movers(tmp_path):
    """Published after round 2 while round 3 is being played: round 3's first result does
    not count; each row carries its place after round 1."""
    store, eid = open_event(tmp_path, BAROMETER)
    store.set_player(eid, "A", 1, 0, name="Ann Ek", number=None)
    store.set_player(eid, "A", 1, 1, name="Bo Lind", number=None)
    _play_round(store, eid, 1)
    _play_round(store, eid, 2)
    _play_round(store, eid, 3, tables=(1,))  # round 3 under way: one table
    rows = {r["pair"]: r for r in publish(store, eid, 2)}
    now, avg = _expected_places(store, eid, 2)
    before, _ = _expected_places(store, eid, 1)
    assert {p: place(r["rank"]) for p, r in rows.items()} == now
    assert {p: Fraction(r["total"]) for p, r in rows.items()} == avg
    assert {p: r["boards"] for p, r in rows.items()} == {p: 2 for p in now}
    assert {p: place(r["previous_rank"]) for p, r in rows.items()} == before
    assert rows[1]["name"] == "Ann Ek & Bo Lind"


def test_round_one_has_no_previous_ranks(tmp_path):
    store, eid = open_event(tmp_path, BAROMETER)
    _play_round(store, eid, 1)
    rows = publish(store, eid, 1)
    assert len(rows) == 4 and all(r["previous_rank"] is None for r in rows)


def test_an_entrant_without_an_earlier_result_has_no_previous_rank(tmp_path):
    """Round 1 was scored at table 1 only (pairs 4 and 1): pairs 2 and 3 had no place."""
    store, eid = open_event(tmp_path, BAROMETER)
    _play_round(store, eid, 1, tables=(1,))
    _play_round(store, eid, 2)
    rows = {r["pair"]: r["previous_rank"] for r in publish(store, eid, 2)}
    assert rows[2] is None and rows[3] is None
    assert rows[1] is not None and rows[4] is not None


def test_teams_standings_after_round_one_while_round_two_is_played(tmp_path):
    """Round 1 over 2 boards: team 3 beats 2 by 12 IMPs, team 1 beats 4 by 10 (Law 78B:
    470 → 10; 30 → 1 and 500 → 11). Round 2's results do not count yet."""
    store, eid = open_event(tmp_path, TEAMS_EVENT)
    scores = {
        (1, 1, 1): 420, (2, 1, 1): -50, (1, 1, 2): 100, (2, 1, 2): 100,
        (3, 1, 1): 110, (4, 1, 1): 140, (3, 1, 2): -200, (4, 1, 2): 300,
        (1, 2, 3): 1430, (2, 2, 3): -100,  # round 2 under way
    }  # fmt: skip
    movement = store.movement(eid, "A")
    entries = []
    for (table, rnd, board), score in scores.items():
        row = movement.row("A", table, rnd)
        entries.append(
            ResultEntry("A", table, rnd, board, row.ns_pair, row.ew_pair, score_ns=score)
        )
    store.record(eid, entries)
    w10, l10 = danish_vp(2, 10)
    w12, l12 = danish_vp(2, 12)
    rows = publish(store, eid, 1)
    assert [(r["team"], r["rank"], Fraction(r["total"])) for r in rows] == [
        (3, "1", w12),
        (1, "2", w10),
        (4, "3", l10),
        (2, "4", l12),
    ]
    assert [r["name"] for r in rows] == ["Owls", "Lions", "Foxes", "Bears"]
    assert all(r["previous_rank"] is None and r["matches"] == 1 for r in rows)


HOWELL = one_section_event("Held night", 'kind = "howell", tables = 3, boards_per_round = 2')


class _NoFlags:
    def open_boards(self, section, boards):
        return set()


class _Tables:
    def rankings(self, section, pages):
        pass

    def broadcast(self, text, section=None, beep=True):
        return 0


def _publication(store, eid):
    movements = {"A": store.movement(eid, "A")}
    feed = Feed()
    pub = Publication(
        store, eid, store.event(eid), movements, {"A": {}}, feed, _NoFlags(), _Tables(), lambda s: 1
    )
    return pub, feed


def _round_results(store, eid, rnd):
    entries = [
        ResultEntry("A", row.table, rnd, b, row.ns_pair, row.ew_pair, "3NT", "S", tricks=9)
        for row in store.movement(eid, "A").round_rows(rnd, "A")
        for b in row.boards
    ]
    store.record(eid, entries)


def test_a_held_result_with_a_wrong_board_number_holds_its_rounds_standings_d12(tmp_path):
    """D12: table 1 keyed board 99 in round 1 (held: no table plays it). Round 1's standings
    wait; round 2, complete and clear, does not publish over it (its standings include
    round 1); once the director rejects the held result, the standings after round 2 go
    out."""
    store, eid = open_event(tmp_path, HOWELL)
    row = store.movement(eid, "A").row("A", 1, 1)
    (held,) = store.record(
        eid, [ResultEntry("A", 1, 1, 99, row.ns_pair, row.ew_pair, "4S", "N", tricks=10)], "held"
    )
    _round_results(store, eid, 1)
    _round_results(store, eid, 2)
    pub, feed = _publication(store, eid)

    def events(name):
        return [e for e in feed.since(0) if e["event"] == name]

    async def scenario():
        await pub.round_complete("A", 1)
        assert [e["round"] for e in events("standings_withheld")] == [1]
        assert 99 in events("standings_withheld")[0]["boards"]
        await pub.round_complete("A", 2)
        assert events("standings") == []  # round 2 does not publish over round 1
        assert [e["round"] for e in events("standings_withheld")] == [1, 2]
        store.decide_held(eid, held.id, False, "TD Anna")
        await pub.publish_if_clear("A")
        assert [e["round"] for e in events("standings")] == [2]

    asyncio.run(scenario())
    store.close()
