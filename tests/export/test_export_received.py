"""Exports a scoring program can take (issue [EVENING], TD trial F18): ReceivedData holds
only the results that count, under their real boards; importing a result that conflicts
with a stored one holds it for the director, as the live hub does, and says so; the
scorer's traveller CSV (`event report --travellers`) scores as the hub does. Values worked
by hand in tests/report_tiny.py."""

from __future__ import annotations

import csv
import json
from fractions import Fraction

from click.testing import CliRunner
from report_tiny import EVENT_FILE, tiny_event

from hub.cli.main import cli
from hub.standings.rebuild import rebuild
from hub.store.exchange import export_bws, import_received_data
from hub.store.store import ResultEntry, Store

# The hand-worked totals (tests/report_tiny.py), internal pair number -> percent.
PERCENT = {
    1: Fraction(55, 120) * 100,
    2: Fraction(54, 120) * 100,
    3: Fraction(75, 120) * 100,
    4: Fraction(76, 120) * 100,
    5: Fraction(45, 120) * 100,
    6: Fraction(55, 120) * 100,
}


def totals(store: Store, eid: int) -> dict[int, Fraction]:
    view = rebuild(store, eid)["A"]
    return {s.total.pair.number: s.total.total for rows in view.standings.values() for s in rows}


def rows_of(path):
    with path.open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def evening_with_held_results(store: Store) -> tuple[int, int]:
    """The tiny evening as the TD trial met it: table 1's round-3 result arrives as board
    103 (held: the table plays board 3) and the TD accepts it as board 3; table 3 sends a
    second result for round 1 as board 110, which the TD rejects; table 1's round-1 result
    is corrected at the table (revision 2). Returns the event and the held original's id."""
    eid = tiny_event(store)
    # table 1's round-3 result is erased, to arrive again as board 103
    store.record(eid, [ResultEntry("A", 1, 3, 3, 1, 5, erased=True)])
    held = store.record(
        eid, [ResultEntry("A", 1, 3, 103, 1, 5, "2S", "W", tricks=8, entered_by="T1")], "held"
    )[0]
    store.decide_held(eid, held.id, accept=True, actor="TD", rekey={"board": 3})
    wrong = store.record(
        eid, [ResultEntry("A", 3, 1, 110, 3, 6, "3S", "E", tricks=8, entered_by="T3")], "held"
    )[0]
    store.decide_held(eid, wrong.id, accept=False, actor="TD")
    store.record(eid, [ResultEntry("A", 1, 1, 1, 1, 4, "4S", "N", tricks=9, entered_by="T1")])
    store.record(eid, [ResultEntry("A", 1, 1, 1, 1, 4, "4S", "N", lead="HA", tricks=10)])
    return eid, held.id


def test_received_data_holds_only_the_results_that_count(tmp_path):
    """F18: no held original (board 103), no rejected result (board 110), no superseded
    revision (table 1's 4S N -1) and no erasure: one row per played key, nine in all,
    boards 1-3 only; the held result the TD accepted appears once, under board 3. Imported
    into a fresh event, the file gives the hand-worked standings."""
    store = Store.open(f"sqlite:///{tmp_path / 'f18.db'}")
    eid, held_id = evening_with_held_results(store)
    export_bws(store, eid, tmp_path / "bws")
    rows = rows_of(tmp_path / "bws" / "ReceivedData.csv")
    assert len(rows) == 9
    assert sorted({r["Board"] for r in rows}) == ["1", "2", "3"]
    assert {r["Erased"] for r in rows} == {"False"}
    keys = [(r["Table"], r["Round"], r["Board"]) for r in rows]
    assert len(set(keys)) == 9
    t1r3 = next(r for r in rows if (r["Table"], r["Round"]) == ("1", "3"))
    assert (t1r3["Board"], t1r3["Contract"], t1r3["NS/EW"], t1r3["Result"]) == (
        "3",
        "2 S",
        "W",
        "=",
    )
    assert t1r3["Remarks"] == f"accepted from held result {held_id}"
    t1r1 = next(r for r in rows if (r["Table"], r["Round"]) == ("1", "1"))
    assert (t1r1["Contract"], t1r1["Result"], t1r1["LeadCard"]) == ("4 S", "=", "HA")
    other = store.create_event(EVENT_FILE.read_text("utf-8"))
    outcome = import_received_data(store, other, tmp_path / "bws" / "ReceivedData.csv")
    assert (outcome.added, outcome.held) == (9, [])
    assert totals(store, other) == PERCENT
    store.close()


def test_an_imported_conflict_is_held_for_the_director_and_said(store_url, tmp_path):
    """F18: `event import --received` with another result for a played key (table 2 round
    1 board 2: stored 3NT N =, the paper says 3NT N -1) stores it held with the reason,
    audited as the live hub audits a held result, and says so; the stored result stays
    live. A board the table does not play is held with the movement's reason. Importing
    the same file again adds nothing; an erased row is skipped."""
    url = store_url  # real SQLite and real PostgreSQL
    store = Store.open(url)
    eid = tiny_event(store)
    paper = tmp_path / "paper.csv"
    paper.write_text(
        "ID,Section,Table,Round,Board,PairNS,PairEW,Declarer,NS/EW,Contract,Result,LeadCard,"
        "Remarks,DateLog,TimeLog,Erased\n"
        "1,A,2,1,2,2,5,2,N,3 NT,-1,SQ,,2026-12-01,20:01:00,False\n"
        "2,A,3,2,7,3,5,3,N,4 S,+1,,,2026-12-01,20:02:00,False\n"
        "3,A,1,1,1,1,4,1,N,4 S,=,HA,,2026-12-01,20:03:00,False\n"
        "4,A,1,2,2,1,6,1,N,1 NT,=,,,2026-12-01,20:04:00,True\n",
        encoding="utf-8",
    )
    before = totals(store, eid)
    store.close()
    out = CliRunner().invoke(
        cli, ["event", "import", "--db", url, "--received", str(paper), "--event", str(eid)]
    )
    assert out.exit_code == 0, out.output
    assert f"added 0 results to event {eid}" in out.output
    assert "1 already stored (skipped)" in out.output  # line 3: the same result
    assert "1 erased row skipped" in out.output
    assert (
        "2 results held for the director: board 2 table 2 already has 3NT N =; "
        "the file says 3NT N -1"
    ) in out.output
    assert "board 7 is not played at table 3 in round 2" in out.output
    store = Store.open(url)
    assert totals(store, eid) == before == PERCENT
    held = [r for r in store.results(eid) if r.status == "held"]
    assert [(r.table, r.board, r.contract, r.tricks) for r in held] == [
        (2, 2, "3NT", 8),
        (3, 7, "4S", 11),
    ]
    assert held[0].note == "board 2 table 2 already has 3NT N =; the file says 3NT N -1"
    audited = [a for a in store.audit_log(eid) if a["action"] == "held"]
    assert [a["detail"]["result"] for a in audited] == [r.id for r in held]
    again = import_received_data(store, eid, paper)
    assert (again.added, again.held, again.duplicates) == (0, [], 3)
    assert len([r for r in store.results(eid) if r.status == "held"]) == 2
    store.close()


def test_the_travellers_csv_scores_in_bridgehub_score_as_in_the_hub(tmp_path):
    """`event report --travellers FILE` writes what `bridgehub score` reads (decisions
    D6); scored there (Neuberg, two winners) it gives the hand-worked percentages."""
    url = f"sqlite:///{tmp_path / 'trav.db'}"
    store = Store.open(url)
    eid = tiny_event(store)
    store.close()
    path = tmp_path / "travellers.csv"
    out = CliRunner().invoke(
        cli, ["event", "report", "--db", url, "--event", str(eid), "--travellers", str(path)]
    )
    assert out.exit_code == 0, out.output
    lines = path.read_text("utf-8").splitlines()
    assert lines[0] == "board,ns,ew,contract,declarer,result,score_ns,adjusted,round"
    assert "1,1,4,4S,N,=,,,1" in lines and "3,2,4,,,,,60/40,2" in lines
    assert "3,3,6,PASS,,,,,1" in lines
    scored = CliRunner().invoke(cli, ["score", str(path), "--method", "mp", "--json"])
    assert scored.exit_code == 0, scored.output
    pairs = json.loads(scored.output)["pairs"]
    got = {int(str(p["pair"]).split()[-1]): Fraction(str(p["total"])) for p in pairs}
    assert {k: round(v, 2) for k, v in got.items()} == {k: round(v, 2) for k, v in PERCENT.items()}
