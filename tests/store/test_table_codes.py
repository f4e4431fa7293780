"""Table codes in the store (issue 15; docs/web-terminal.md "Table codes"), on real SQLite and
real PostgreSQL: every table gets one code of 8 characters without 0/O and 1/I, made once and
the same after a restart (printed cards stay good); the first device uses it up and a second
is refused; the director's re-issue makes a new code and forgets the device; two processes
making codes at once never give a table two; the migration makes exactly the schema's table."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from event_text import one_section_event

from hub.store.schema import Base
from hub.store.store import Store, StoreError
from hub.store.table_codes import (
    ALPHABET,
    CodeUsed,
    TableCode,
    ensure_codes,
    reissue_code,
    table_codes,
    use_code,
)

EVENT = one_section_event("Codes", 'kind = "mitchell", tables = 4, boards_per_round = 2')
TABLES = [("A", 1), ("A", 2), ("A", 3), ("A", 4)]


@pytest.fixture
def event(store_url):
    """A store with one event (Mitchell, 4 tables) in it: (store, event id, URL)."""
    store = Store.open(store_url)
    eid = store.create_event(EVENT)
    yield store, eid, store_url
    store.close()


def test_every_table_gets_one_code_of_eight_unambiguous_characters(event):
    store, eid, _ = event
    codes = ensure_codes(store, eid, TABLES)
    assert sorted(codes) == TABLES
    for (section, table), code in codes.items():
        assert code == TableCode(section, table, code.code, 1, None)
        assert len(code.code) == 8 and set(code.code) <= set(ALPHABET)
        assert not set(code.code) & set("01OI")
    assert len({c.code for c in codes.values()}) == 4  # random: four tables, four codes
    assert table_codes(store, eid) == codes


def test_codes_are_made_once_and_survive_a_restart(event):
    """Made when first needed, the same after the hub restarts (a new process opening the
    store), so the printed table cards stay good; a table added later gets its own."""
    store, eid, url = event
    first = ensure_codes(store, eid, TABLES[:3])
    assert ensure_codes(store, eid, TABLES[:3]) == first
    store.close()
    again = Store.open(url)
    try:
        assert table_codes(again, eid) == first
        more = ensure_codes(again, eid, TABLES)
        assert {k: more[k] for k in first} == first and sorted(more) == TABLES
    finally:
        again.close()


def test_a_code_is_used_once_by_the_first_device(event):
    """ "The first device that logs on to the table with the code uses it up ... Another
    device with the same code is refused" (docs/web-terminal.md)."""
    store, eid, _ = event
    code = ensure_codes(store, eid, TABLES)[("A", 3)]
    used = use_code(store, eid, "A", 3, "web-0123456789ab")
    assert used == TableCode("A", 3, code.code, 1, "web-0123456789ab")
    assert use_code(store, eid, "A", 3, "web-0123456789ab") == used  # a reload: the same
    with pytest.raises(CodeUsed) as refused:
        use_code(store, eid, "A", 3, "web-ffffffffffff")
    assert str(refused.value) == (
        "the code of table A3 was used by another device: ask the director"
    )
    assert refused.value.held == used
    assert table_codes(store, eid)[("A", 3)] == used
    assert table_codes(store, eid)[("A", 2)].used_by is None  # the other tables untouched


def test_the_directors_reissue_makes_a_new_code_and_forgets_the_device(event):
    store, eid, url = event
    old = ensure_codes(store, eid, TABLES)[("A", 2)]
    use_code(store, eid, "A", 2, "web-0123456789ab")
    new = reissue_code(store, eid, "A", 2)
    assert new.code != old.code and set(new.code) <= set(ALPHABET)
    assert (new.generation, new.used_by) == (2, None)
    assert use_code(store, eid, "A", 2, "web-ffffffffffff").used_by == "web-ffffffffffff"
    assert reissue_code(store, eid, "A", 2).generation == 3
    store.close()
    again = Store.open(url)  # the re-issued code is the one kept
    try:
        kept = table_codes(again, eid)[("A", 2)]
        assert (kept.generation, kept.used_by) == (3, None)
    finally:
        again.close()


def test_a_log_on_checked_against_a_code_since_reissued_does_not_use_up_the_new_one(event):
    """docs/web-terminal.md "Re-issued by the director": the new code is for the device the
    director gives it to. A log-on checked against the old code and accepted while the
    director re-issued it must not make its device the new code's user (``generation``:
    the code the log-on was checked against)."""
    store, eid, _ = event
    ensure_codes(store, eid, TABLES)
    new = reissue_code(store, eid, "A", 4)  # generation 2, unused
    with pytest.raises(CodeUsed) as stale:
        use_code(store, eid, "A", 4, "web-0123456789ab", generation=1)
    assert stale.value.held == new
    assert table_codes(store, eid)[("A", 4)] == new, "the new code is still unused"
    used = use_code(store, eid, "A", 4, "web-ffffffffffff", generation=2)
    assert (used.code, used.used_by) == (new.code, "web-ffffffffffff")


def test_a_table_without_a_code_is_named(event):
    store, eid, _ = event
    with pytest.raises(StoreError, match="table A9 has no code"):
        use_code(store, eid, "A", 9, "web-0123456789ab")
    with pytest.raises(StoreError, match="cannot make the table codes of event 99"):
        ensure_codes(store, 99, TABLES)
    assert reissue_code(store, eid, "A", 1).generation == 2  # made, then re-issued


def _at_once(count: int, job: Callable[[int], object]) -> list[object]:
    """``job(k)`` in ``count`` threads started together; what each returned or raised."""
    start = threading.Barrier(count, timeout=30)
    out: list[object] = [None] * count

    def run(k: int) -> None:
        start.wait()
        try:
            out[k] = job(k)
        except Exception as e:  # the outcome is what the test checks
            out[k] = e

    threads = [threading.Thread(target=run, args=(k,)) for k in range(count)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    assert not any(th.is_alive() for th in threads), "a thread did not finish in 60 s"
    return out


def test_hubs_making_codes_at_once_give_each_table_one_code(event):
    """Two hubs (or a hub and the card printer), each with its own store connection, make
    the codes at the same moment: each gets the same codes back, one per table."""
    store, eid, url = event
    stores = [Store.open(url) for _ in range(4)]
    try:
        got = _at_once(4, lambda k: ensure_codes(stores[k], eid, TABLES))
    finally:
        for s in stores:
            s.close()
    assert all(isinstance(g, dict) for g in got), got
    assert all(g == got[0] for g in got)
    assert table_codes(store, eid) == got[0] and sorted(got[0]) == TABLES  # type: ignore[arg-type]


def test_two_devices_racing_for_one_code_one_wins(event):
    store, eid, url = event
    ensure_codes(store, eid, TABLES)
    stores = [Store.open(url) for _ in range(4)]
    try:
        got = _at_once(4, lambda k: use_code(stores[k], eid, "A", 1, f"web-00000000000{k}"))
    finally:
        for s in stores:
            s.close()
    won = [g for g in got if isinstance(g, TableCode)]
    assert len(won) == 1, got
    assert all(isinstance(g, CodeUsed) for g in got if g not in won), got
    assert table_codes(store, eid)[("A", 1)].used_by == won[0].used_by


def test_the_migrations_make_the_schema(event):
    """The store opened through the migrations (``Store.open`` upgrades to the head, with
    0006 ``table_codes``) is exactly what hub/store/schema.py declares: no difference
    Alembic's comparison finds."""
    store, _, _ = event
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []
