"""The store keeps what the director's desk gives it (issue [EVENING]; schema revision
0005), on real SQLite and real PostgreSQL: a weighted score of six parts (longer than the
20 characters ``adjusted`` held before), who accepted a held result next to its author,
and a refusal to replace a live result without ``replace`` (TD trial F7)."""

from __future__ import annotations

import pytest
from desk_room import EVENT

from hub.standings.rebuild import rebuild
from hub.store.store import ResultEntry, Store, StoreError

SIX = "; ".join(f"1/6 {c} N =" for c in ("1NT", "2NT", "3NT", "4NT", "5NT", "6NT"))


@pytest.fixture
def store(store_url):
    s = Store.open(store_url)
    yield s
    s.close()


def test_a_six_part_weighted_score_is_stored_and_scored(store):
    """Law 12C1(c) with six parts: the text (77 characters) comes back whole and the board
    scores: board 1 (nobody vulnerable), T1 4S N = +420 and T2 (pairs 5 v 2) the weighted
    NT contracts +90, +120, +400, +430, +460, +990: as +90, +120, +400 T2 has 0 MPs of 2,
    as +430, +460, +990 it has 2: weighted 1 (½ of the top 2 with two results)."""
    eid = store.create_event(EVENT)
    store.record(
        eid,
        [
            ResultEntry("A", 1, 1, 1, 6, 1, "4S", "N", tricks=10),
            ResultEntry("A", 2, 1, 1, 5, 2, adjusted=SIX),
        ],
    )
    (back,) = [r for r in store.live_results(eid) if r.table == 2]
    assert back.adjusted == SIX and len(SIX) > 20
    (board,) = rebuild(store, eid)["A"].boards
    assert [sl.ns_mp for sl in board.scored_lines()] == [1, 1]


def test_an_accepted_held_result_keeps_its_author_and_needs_replace_over_a_live_one(store):
    """F7: accepting keeps the terminal as author and records the director; a live result
    at the key is replaced only with ``replace``."""
    eid = store.create_event(EVENT)
    store.record(eid, [ResultEntry("A", 1, 1, 1, 6, 1, "4S", "N", tricks=10, entered_by="T1")])
    held = store.record(
        eid, [ResultEntry("A", 1, 1, 1, 6, 1, "4S", "N", tricks=9, entered_by="T1")], "held"
    )[0]
    with pytest.raises(StoreError, match="board 1 already has 4S N = from table A1"):
        store.decide_held(eid, held.id, True, "TD Anna")
    assert [r.status for r in store.results(eid)] == ["accepted", "held"]
    store.decide_held(eid, held.id, True, "TD Anna", replace=True)
    (live,) = store.live_results(eid)
    assert (live.tricks, live.entered_by, live.accepted_by) == (9, "T1", "TD Anna")


def test_an_older_store_gains_the_column_by_migration(tmp_path):
    """Revision 0005 upgrades a 0004 store: ``accepted_by`` is there, older rows have none."""
    from alembic import command
    from sqlalchemy import create_engine, inspect

    from hub.store.engine import alembic_config

    url = f"sqlite:///{tmp_path / 'old.db'}"
    command.upgrade(alembic_config(url), "0004")
    cols = {c["name"] for c in inspect(create_engine(url)).get_columns("results")}
    assert "accepted_by" not in cols
    s = Store.open(url)
    try:
        s.create_event(EVENT)
        cols = {c["name"] for c in inspect(s.engine).get_columns("results")}
        assert "accepted_by" in cols
    finally:
        s.close()
