"""Two consoles confirming one penalty at once ([MENDS] #25 item 4, code review turn 3 N4):
a penalty is decided once. On PostgreSQL (READ COMMITTED) both confirmations can read the
penalty as "proposed"; only one may then change it, and the other is refused, so the live
standings apply the penalty once, not twice."""

from __future__ import annotations

import threading
import time

from event_text import one_section_event
from sqlalchemy import create_engine, text

from hub.store.store import Store
from hub.store.values import StoreError

EVENT = one_section_event("Penalty race", 'kind = "howell", tables = 3, boards_per_round = 2')


def _waiting_on_locks(url: str, want: int, timeout_s: float = 20.0) -> None:
    """Until ``want`` sessions of this database wait on a row lock (bounded)."""
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    deadline = time.monotonic() + timeout_s
    try:
        with engine.connect() as conn:
            while True:
                waiting = conn.execute(
                    text(
                        "SELECT count(*) FROM pg_stat_activity "
                        "WHERE datname = current_database() AND wait_event_type = 'Lock'"
                    )
                ).scalar_one()
                if waiting >= want:
                    return
                assert time.monotonic() < deadline, (
                    f"only {waiting} of {want} confirmations reached the penalty's row lock "
                    f"in {timeout_s:g} s"
                )
                time.sleep(0.05)
    finally:
        engine.dispose()


def test_mends_two_concurrent_confirms_on_postgresql_decide_the_penalty_once(pg_database):
    """A third session holds the penalty's row while two confirmations start, so both have
    read it (as a plain read, which no row lock stops) before either writes: the case of two
    consoles pressing confirm together. When it lets go, exactly one confirmation passes,
    the other is told the penalty was already confirmed, and the audit has one decision."""
    store = Store.open(pg_database)
    eid = store.create_event(EVENT)
    pid = store.propose_penalty(eid, "A", 1, "1", "percent_of_top", "slow play", 1, 1, 2)
    outcomes: dict[str, str] = {}

    def confirm(actor: str) -> None:
        try:
            store.decide_penalty(eid, pid, True, actor, "NS")
            outcomes[actor] = "confirmed"
        except StoreError as e:
            outcomes[actor] = str(e)

    holder = create_engine(pg_database)
    with holder.connect() as conn:
        tx = conn.begin()
        conn.execute(text("SELECT id FROM penalties WHERE id = :id FOR UPDATE"), {"id": pid})
        workers = [threading.Thread(target=confirm, args=(f"TD {n}",)) for n in ("Anna", "Bo")]
        for w in workers:
            w.start()
        _waiting_on_locks(pg_database, 2)
        tx.rollback()
    for w in workers:
        w.join(20)
        assert not w.is_alive(), "a confirmation never finished"
    holder.dispose()

    assert sorted(outcomes.values()).count("confirmed") == 1, outcomes
    refused = next(v for v in outcomes.values() if v != "confirmed")
    assert refused.startswith(f"penalty {pid} was already confirmed by TD ")
    assert len(store.audit_log(eid, "penalty_confirmed")) == 1
    assert [p["status"] for p in store.penalties(eid)] == ["confirmed"]
    store.close()


def test_mends_a_decided_penalty_is_not_decided_again_on_sqlite(tmp_path):
    """The same rule one after the other: a second confirm (or a waive) of a confirmed
    penalty is refused with who decided it; an unknown penalty keeps its old answer."""
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(EVENT)
    pid = store.propose_penalty(eid, "A", 1, "1", "percent_of_top", "slow play", 1, 1, 2)
    store.decide_penalty(eid, pid, True, "TD Anna", "NS")
    for confirm in (True, False):
        try:
            store.decide_penalty(eid, pid, confirm, "TD Bo", "NS")
        except StoreError as e:
            assert str(e) == f"penalty {pid} was already confirmed by TD Anna"
        else:
            raise AssertionError("a decided penalty was decided again")
    try:
        store.decide_penalty(eid, 77, True, "TD Bo")
    except StoreError as e:
        assert str(e) == f"penalty 77 is not a proposed penalty of event {eid}"
    assert len(store.audit_log(eid, "penalty_confirmed")) == 1
    assert not store.audit_log(eid, "penalty_waived")
    store.close()
