"""The durable store, against real SQLite and real PostgreSQL (decisions D11, D13)."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from sqlalchemy import text

from hub.event.movement.howell import howell
from hub.standings.rebuild import rebuild
from hub.store.exchange import backup_json, export_bws, import_received_data, restore_json
from hub.store.store import ResultEntry, Store, StoreError

ROOT = Path(__file__).parents[2]
EVENT = (ROOT / "examples" / "club_howell.toml").read_text("utf-8")


class FakeClock:
    """Injected time, so stored timestamps are known exactly."""

    def __init__(self) -> None:
        self.now = dt.datetime(2026, 11, 30, 18, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        self.now += dt.timedelta(seconds=1)
        return self.now


@pytest.fixture
def store(store_url):
    s = Store.open(store_url, clock=FakeClock())
    yield s
    s.close()


def played(section, table, rnd, board, ns, ew, contract="4S", declarer="N", tricks=10, **kw):
    return ResultEntry(section, table, rnd, board, ns, ew, contract, declarer, tricks=tricks, **kw)


def round1(store, event_id, board_offset=0, **kw):
    """One result at every table of round 1 (4S by N making 10 tricks)."""
    movement = store.movement(event_id, "A")
    return [
        played("A", r.table, 1, r.boards[board_offset], r.ns_pair, r.ew_pair, **kw)
        for r in movement.round_rows(1)
    ]


def test_event_file_becomes_sections_movements_and_pairs(store):
    eid = store.create_event(EVENT)
    assert store.sections(eid) == ["A"]
    assert store.movement(eid, "A").rows == howell(5, 3).rows
    pairs = store.contestants(eid, "A")
    assert [p["number"] for p in pairs] == [1, 2]
    assert pairs[0]["players"][0] == {"name": "Anna Berg", "number": "1001"}
    assert store.event(eid).event.name == "Club pairs, Monday"
    assert store.audit_log(eid)[0]["action"] == "event_created"


def test_results_are_append_only_revisions(store):
    eid = store.create_event(EVENT)
    first = store.record(eid, [played("A", 1, 1, 1, 10, 1, entered_by="T1")])[0]
    fix = store.record(eid, [played("A", 1, 1, 1, 10, 1, tricks=11, entered_by="TD")])[0]
    gone = store.record(eid, [ResultEntry("A", 1, 1, 1, 10, 1, erased=True)])[0]
    assert (first.revision, fix.revision, gone.revision) == (1, 2, 3)
    history = store.results(eid)
    assert [(r.revision, r.tricks, r.erased) for r in history] == [
        (1, 10, False),
        (2, 11, False),
        (3, None, True),
    ]
    assert history[0] == first  # never updated in place
    assert store.live_results(eid) == []
    store.record(eid, [played("A", 1, 1, 1, 10, 1, tricks=9)])
    assert [r.tricks for r in store.live_results(eid)] == [9]


def test_a_repeated_submission_never_becomes_a_second_record(store):
    """At-least-once delivery: the same submission key with the same content is stored
    once (decisions D21)."""
    eid = store.create_event(EVENT)
    entry = played("A", 1, 1, 1, 10, 1, entered_by="T1", submission_key="T1:7:42")
    a = store.record(eid, [entry])[0]
    b = store.record(eid, [entry])[0]
    c = store.record(eid, [entry, entry])
    assert not a.duplicate and b.duplicate and all(x.duplicate for x in c)
    assert b.id == a.id and len(store.results(eid)) == 1


def test_d21_a_submission_key_decides_duplicates_only_with_the_same_content(store):
    """Decisions D21: the same key with other content is stored held (``key_clash``), never
    dropped, under the key's next generation; after an erasure of the result's key, the
    same submission is a new entry (the erased one is not its duplicate)."""
    eid = store.create_event(EVENT)
    key = "BM-1:A:1:1:1:1"
    first = store.record(eid, [played("A", 1, 1, 1, 10, 1, submission_key=key)])[0]
    other = store.record(eid, [played("A", 1, 1, 1, 10, 1, tricks=8, submission_key=key)])[0]
    assert not other.duplicate and other.key_clash and other.status == "held"
    assert other.submission_key == f"{key}#2" and other.id != first.id
    both = store.record(
        eid,
        [
            played("A", 1, 1, 1, 10, 1, tricks=8, submission_key=key),
            played("A", 1, 1, 1, 10, 1, submission_key=key),
        ],
    )
    assert [(x.id, x.duplicate) for x in both] == [(other.id, True), (first.id, True)]
    assert [r.tricks for r in store.live_results(eid)] == [10]
    store.record(eid, [ResultEntry("A", 1, 1, 1, 10, 1, erased=True)])
    again = store.record(eid, [played("A", 1, 1, 1, 10, 1, submission_key=key)])[0]
    assert not again.duplicate and not again.key_clash and again.status == "accepted"
    assert again.submission_key == f"{key}#3"
    assert [r.id for r in store.live_results(eid)] == [again.id]
    assert store.record(eid, [played("A", 1, 1, 1, 10, 1, submission_key=key)])[0].duplicate


def test_d21_a_submission_key_seen_under_another_board_is_held_not_an_error(store):
    """An imported row (key ``import:file:ID``) edited to another board and imported again:
    the same submission with other content, held for the director (no unique-key error)."""
    eid = store.create_event(EVENT)
    key = "import:received.csv:7"
    store.record(eid, [played("A", 1, 1, 1, 10, 1, submission_key=key)])
    moved = store.record(eid, [played("A", 1, 1, 2, 10, 1, submission_key=key)])[0]
    assert moved.key_clash and moved.status == "held" and moved.submission_key == f"{key}#2"
    again = store.record(eid, [played("A", 1, 1, 3, 10, 1, submission_key=key)])[0]
    assert again.key_clash and again.submission_key == f"{key}#3"


def test_group_commit_stores_a_batch_in_one_transaction(store):
    eid = store.create_event(EVENT)
    stored = store.record(eid, round1(store, eid))
    assert len(stored) == 5 and {s.revision for s in stored} == {1}
    assert len({s.received_at for s in stored}) == 1


def test_a_key_outside_the_movement_is_refused_and_nothing_is_written(store):
    eid = store.create_event(EVENT)
    good = played("A", 1, 1, 1, 10, 1)
    with pytest.raises(StoreError) as e:
        store.record(
            eid,
            [
                good,
                played("A", 9, 1, 1, 10, 1),
                played("A", 1, 12, 1, 10, 1),
                played("B", 1, 1, 1, 10, 1),
                played("A", 1, 1, 5, 10, 1),
                played("A", 1, 1, 1, 1, 10),
            ],
        )
    msg = str(e.value)
    assert "section A has no table 9" in msg
    assert "round 12 is not in the movement (rounds 1-9)" in msg
    assert "section B is not in event" in msg
    assert "board 5 is not played at table 1 in round 1 (it plays boards 1-3)" in msg
    assert "pairs 1 and 10 are the wrong way round: NS is pair 10, EW pair 1" in msg
    assert store.results(eid) == []


def test_held_results_wait_for_the_td(store):
    """Decisions D9: a wrong board is held; the TD accepts it re-keyed, audited. The
    terminal stays the result's author and the TD is recorded as the one who accepted it
    (issue [EVENING], TD trial F7)."""
    eid = store.create_event(EVENT)
    held = store.record(eid, [played("A", 1, 1, 5, 10, 1, entered_by="T1")], status="held")[0]
    assert held.status == "held" and store.live_results(eid) == []
    accepted = store.decide_held(eid, held.id, True, "TD Anna", rekey={"board": 2})
    assert accepted is not None and (accepted.board, accepted.status) == (2, "accepted")
    live = store.live_results(eid)
    assert [(r.board, r.entered_by, r.accepted_by) for r in live] == [(2, "T1", "TD Anna")]
    actions = [a["action"] for a in store.audit_log(eid)]
    assert "held_accepted" in actions
    with pytest.raises(StoreError, match="not a held result"):
        store.decide_held(eid, held.id, False, "TD Anna")


def test_mid_session_change_never_deletes_earlier_results(store):
    """A phantom filled from round 4: rounds 1-3 and their results stay."""
    text9 = EVENT.replace(
        '{ kind = "howell", tables = 5, boards_per_round = 3 }',
        '{ kind = "howell", tables = 5, pairs = 9, boards_per_round = 3 }',
    )
    eid = store.create_event(text9)
    before = store.movement(eid, "A")
    rows = [r for r in before.round_rows(1) if r.ns_pair and r.ew_pair]
    store.record(eid, [played("A", r.table, 1, r.boards[0], r.ns_pair, r.ew_pair) for r in rows])
    changed = store.replace_movement_from_round(eid, "A", 4, howell(5, 3))
    assert [r for r in changed.rows if r.round < 4] == [r for r in before.rows if r.round < 4]
    assert len(store.live_results(eid)) == len(rows)
    reopened = Store(store.engine)  # a fresh reader sees the stored change
    assert reopened.movement(eid, "A") == changed


def test_views_rebuild_from_the_store_after_a_restart(store_url):
    first = Store.open(store_url, clock=FakeClock())
    eid = first.create_event(EVENT)
    movement = first.movement(eid, "A")
    entries = []
    for r in movement.round_rows(1):
        for k, b in enumerate(r.boards):
            entries.append(played("A", r.table, 1, b, r.ns_pair, r.ew_pair, tricks=9 + k))
    first.record(eid, entries)
    before = rebuild(first, eid)["A"]
    first.close()
    second = Store.open(store_url)
    after = rebuild(second, eid)["A"]
    table = [(s.pair, s.rank, s.total.total) for s in after.standings[None]]
    assert table == [(s.pair, s.rank, s.total.total) for s in before.standings[None]]
    assert len(after.boards) == 15 and len(table) == 10
    second.close()


def test_bws_export_and_import_and_json_backup(store, tmp_path):
    eid = store.create_event(EVENT)
    store.record(
        eid,
        [
            played("A", 1, 1, 1, 10, 1, contract="4SX", lead="HA"),
            ResultEntry("A", 3, 1, 7, 8, 4, adjusted="60/40"),
        ],
    )
    files = export_bws(store, eid, tmp_path / "bws")
    assert [f.name for f in files] == ["RoundData.csv", "ReceivedData.csv", "PlayerNumbers.csv"]
    rd = (tmp_path / "bws" / "RoundData.csv").read_text("utf-8").splitlines()
    assert rd[0] == "Section,Table,Round,NSPair,EWPair,LowBoard,HighBoard,CustomBoards"
    assert len(rd) == 1 + 45
    rcv = (tmp_path / "bws" / "ReceivedData.csv").read_text("utf-8")
    assert "4 S x" in rcv and "adjusted 60/40" in rcv
    other = store.create_event(EVENT)
    assert import_received_data(store, other, tmp_path / "bws" / "ReceivedData.csv").added == 2
    again = import_received_data(store, other, tmp_path / "bws" / "ReceivedData.csv")
    assert (again.added, again.duplicates, again.held) == (0, 2, [])

    def live(e):
        return [(r.board, r.contract, r.tricks, r.adjusted, r.lead) for r in store.live_results(e)]

    assert live(other) == live(eid)
    restored = restore_json(store, backup_json(store, eid))
    assert live(restored) == live(eid)
    assert store.movement(restored, "A") == store.movement(eid, "A")
    assert store.audit_log(restored)[0]["action"] == "event_created"


def test_devices_td_calls_clock_and_penalties(store):
    eid = store.create_event(EVENT)
    store.touch_device(eid, "terminal", "BM-0042", firmware="1.3", section="A", table=2)
    store.touch_device(eid, "terminal", "BM-0042")
    (dev,) = store.devices(eid)
    assert (dev["serial"], dev["table"], dev["firmware"]) == ("BM-0042", 2, "1.3")
    call = store.open_td_call(eid, "A", 2, 1, "revoke")
    store.update_td_call(eid, call, "resolved", "TD Anna")
    assert store.td_calls(eid)[0]["status"] == "resolved"
    with pytest.raises(StoreError, match="status 'done'"):
        store.update_td_call(eid, call, "done", "TD Anna")
    store.add_clock_event(eid, "start", "A", 1, {"minutes": 25})
    assert store.clock_events(eid)[0]["detail"] == {"minutes": 25}
    pen = store.propose_penalty(eid, "A", 7, "3/2", "VP", "slow play 6 minutes", 2, 1)
    store.decide_penalty(eid, pen, True, "TD Anna")
    assert store.penalties(eid)[0]["status"] == "confirmed"
    actions = [a["action"] for a in store.audit_log(eid)]
    assert "penalty_confirmed" in actions and "td_call" in actions


CHILD_WRITES = """
import os, sys
from pathlib import Path
from hub.store.store import ResultEntry, Store
store = Store.open(sys.argv[1])
eid = store.create_event(Path(sys.argv[2]).read_text("utf-8"))
row = store.movement(eid, "A").round_rows(1)[0]
entry = ResultEntry("A", row.table, 1, row.boards[0], row.ns_pair, row.ew_pair, "3NT", "S",
                    tricks=9, entered_by="BM-1", submission_key="BM-1:A:1:1:1:1")
(stored,) = store.record(eid, [entry])
print(eid, stored.id, flush=True)
os._exit(0)  # gone at once after the commit: no close, no clean-up
"""


def test_sqlite_commits_are_durable(tmp_path):
    """D11: a result is durable when ``record`` returns. A child process records one and
    dies at once (no close); a fresh engine in this process reads it back. Every connection
    runs WAL with synchronous FULL (2), so the commit also survives power loss."""
    url = f"sqlite:///{tmp_path / 'e.db'}"
    event = tmp_path / "event.toml"
    event.write_text(EVENT, "utf-8")
    child = subprocess.run(
        [sys.executable, "-c", CHILD_WRITES, url, str(event)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=ROOT,
    )
    assert child.returncode == 0, child.stderr
    eid, rid = map(int, child.stdout.split())
    s = Store.open(url)
    try:
        (live,) = s.live_results(eid)
        assert (live.id, live.contract, live.tricks, live.entered_by) == (rid, "3NT", 9, "BM-1")
        with s.engine.connect() as conn:
            assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
    finally:
        s.close()


def test_two_hubs_on_one_postgresql_event(pg_database):
    """Several hubs may write one PostgreSQL event at once: no revision is lost or doubled."""
    hubs = [Store.open(pg_database) for _ in range(2)]
    eid = hubs[0].create_event(EVENT)
    errors = []

    def write(hub, k):
        try:
            for i in range(10):
                hub.record(
                    eid,
                    [
                        played(
                            "A",
                            1,
                            1,
                            1,
                            10,
                            1,
                            tricks=7 + (i + k) % 6,
                            submission_key=f"hub{k}:{i}",
                        )
                    ],
                )
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=write, args=(h, k)) for k, h in enumerate(hubs)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    assert not errors
    revisions = [r.revision for r in hubs[0].results(eid)]
    assert sorted(revisions) == list(range(1, 21))
    for h in hubs:
        h.close()


def test_event_command_line(tmp_path):
    """bridgehub event create / export / import / standings on the SQLite default."""
    from click.testing import CliRunner

    from hub.cli.main import cli

    event_file = tmp_path / "club.toml"
    event_file.write_text(EVENT, "utf-8")
    run = CliRunner().invoke
    r = run(cli, ["event", "create", str(event_file)])
    assert r.exit_code == 0 and r.output.startswith("event 1: Club pairs, Monday"), r.output
    db = f"sqlite:///{tmp_path / 'club.db'}"
    s = Store.open(db)
    s.record(1, round1(s, 1))
    s.close()
    r = run(cli, ["event", "standings", "--db", db, "--event", "1"])
    # one result on each board so far: every pair 50 %
    assert r.exit_code == 0 and "Section A" in r.output and "50.00" in r.output
    r = run(
        cli,
        [
            "event",
            "export",
            "--db",
            db,
            "--event",
            "1",
            "--bws",
            str(tmp_path / "bws"),
            "--json",
            str(tmp_path / "b.json"),
        ],
    )
    assert r.exit_code == 0 and "ReceivedData.csv" in r.output
    r = run(cli, ["event", "import", "--db", db, "--json", str(tmp_path / "b.json")])
    assert r.exit_code == 0 and "restored as event 2" in r.output
    bad = tmp_path / "bad.toml"
    bad.write_text(EVENT.replace('scoring = "mp"', 'scoring = "mp"\nfoo = 1'), "utf-8")
    r = run(cli, ["event", "create", str(bad)])
    assert r.exit_code != 0 and f"{bad}: rules.foo: unknown key" in r.output


def test_round_data_and_player_numbers_import(store, tmp_path):
    """BWS-shaped RoundData and PlayerNumbers read back into an event."""
    from hub.store.exchange import import_player_numbers, import_round_data

    eid = store.create_event(EVENT)
    export_bws(store, eid, tmp_path / "bws")
    other = store.create_event(
        EVENT.replace("tables = 5, boards_per_round = 3", "tables = 5, boards_per_round = 2")
    )
    assert import_round_data(store, other, tmp_path / "bws" / "RoundData.csv") == 45
    assert store.movement(other, "A").rows == store.movement(eid, "A").rows
    (tmp_path / "pn.csv").write_text(
        "Section,Table,Direction,Number,Name\nA,1,N,2001,Nils N\nA,1,E,2002,Eva E\n", "utf-8"
    )
    assert import_player_numbers(store, other, tmp_path / "pn.csv") == 2
    seats = {r.ns_pair: "NS" for r in store.movement(other, "A").round_rows(1) if r.table == 1}
    pairs = {c["number"]: c["players"] for c in store.contestants(other, "A")}
    ns = next(iter(seats))
    assert pairs[ns][0] == {"name": "Nils N", "number": "2001"}


def test_hand_records_are_stored_with_the_event(store, tmp_path):
    """Boards carry their deal when the session names a PBN file (parsed by endplay)."""
    text = EVENT.replace(
        'name = "Evening"',
        'name = "Evening"\nhand_records = "realbridge_2021_online_qual_open_r2.pbn"',
    )
    eid = store.create_event(text, base_dir=Path(__file__).parents[1] / "data")
    assert store.hand_record(eid, 11) == (
        "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"
    )
    assert store.hand_record(eid, 1) is None
    bad = EVENT.replace('name = "Evening"', 'name = "Evening"\nhand_records = "nope.pbn"')
    with pytest.raises(StoreError, match=r"sessions\[0\].hand_records: cannot read"):
        store.create_event(bad, base_dir=tmp_path)


def test_a_bad_rekey_leaves_the_held_result_held(store):
    """Accepting a held result is one transaction: a re-key outside the movement is refused
    and the result stays held for the TD."""
    eid = store.create_event(EVENT)
    held = store.record(eid, [played("A", 1, 1, 5, 10, 1)], status="held")[0]
    with pytest.raises(StoreError, match="board 6 is not played"):
        store.decide_held(eid, held.id, True, "TD Anna", rekey={"board": 6})
    assert [r.status for r in store.results(eid)] == ["held"]
    assert store.decide_held(eid, held.id, False, "TD Anna") is None
    assert [r.status for r in store.results(eid)] == ["rejected"]
