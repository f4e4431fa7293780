"""Review R2 of the exports (issue 13 "Exports a scoring program can take"; common rules:
bad input never crashes and never stores what scoring cannot read).

- `event import --received`: every cell is checked as the live hub checks a terminal's; a
  bad row refuses the file naming its line and cell, nothing written. Before: a short row
  ended in TypeError, a board number past 64 bits in OverflowError, and a declarer "Q", a
  contract without a declarer, an adjustment "Q/Q", a lead "ZZ" or a result against pair 0
  (the sit-out) were stored.
- a row that says what is stored but has no lead (many programs keep none) is the stored
  result, not a conflict; a row differing only by its lead says so. Before: "board 1 table
  1 already has 4S N =; the file says 4S N =" held for the director.
- RoundData.csv and PlayerNumbers.csv: a short row, or one without a direction, refuses
  the file naming the line (before: an internal error, or North's player set silently).
- a result stored as a score without a contract (a traveller file's) is exported with its
  score, never as "PASS" (a scorer would give it 0), and comes back in as that score.

The event is tests/report_tiny.py's 3-table Mitchell (worked by hand there): table 1 round 1
board 1 is NS 1 v EW 1 (the hub's 1 v 4), 4S by N, 10 tricks, lead HA."""

from __future__ import annotations

import csv

import pytest
from report_tiny import EVENT_FILE, tiny_event

from hub.store.exchange import RECEIVED_DATA, export_bws, import_received_data
from hub.store.store import ResultEntry, Store, StoreError

HEADER = ",".join(RECEIVED_DATA)
# ID,Section,Table,Round,Board,PairNS,PairEW,Declarer,NS/EW,Contract,Result,LeadCard,
# Remarks,DateLog,TimeLog,Erased
ROW = "9,A,1,1,1,1,4,1,N,4 S,=,{lead},,2026-12-01,20:00:00,False"


def write(tmp_path, *rows: str):
    path = tmp_path / "ReceivedData.csv"
    path.write_text("\n".join([HEADER, *rows]) + "\n", "utf-8")
    return path


@pytest.mark.parametrize(
    ("row", "says"),
    [
        ("9,A", "Table '' is not a number 1-65535"),
        ("9,A,1,1,99999999999999999999,1,4,1,N,4 S,=,,,,,False", "Board '99999999999999"),
        ("9,A,1,1,1,1,4,1,Q,4 S,=,,,,,False", "declarer 'Q' is not a seat"),
        ("9,A,1,1,1,1,4,1,,4 S,=,,,,,False", "declarer '' is not a seat"),
        ("9,A,1,1,1,1,4,,,,,,adjusted Q/Q,,,False", "adjusted score 'Q/Q'"),
        ("9,A,1,1,1,1,4,1,N,4 S,=,ZZ,,,,False", "lead 'ZZ' is not a card"),
        ("9,A,1,1,1,1,0,1,N,4 S,=,,,,,False", "PairEW '0' is not a number 1-65535 (pair 0"),
    ],
    ids=["short", "huge-board", "declarer-Q", "no-declarer", "adjusted-Q/Q", "lead-ZZ", "pair-0"],
)
def test_a_bad_row_refuses_the_file_by_line_and_cell_and_stores_nothing(tmp_path, row, says):
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(EVENT_FILE.read_text("utf-8"), base_dir=EVENT_FILE.parent)
    with pytest.raises(StoreError) as refused:
        import_received_data(store, eid, write(tmp_path, ROW.format(lead=""), row))
    assert f"ReceivedData.csv line 3: {says}" in str(refused.value)
    assert store.results(eid) == []
    store.close()


def test_a_row_without_a_lead_is_the_stored_result_and_another_lead_is_named(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = tiny_event(store)
    same = import_received_data(store, eid, write(tmp_path, ROW.format(lead="")))
    assert (same.added, same.duplicates, same.held) == (0, 1, [])
    other = import_received_data(store, eid, write(tmp_path, ROW.format(lead="SK")))
    assert other.held == [
        "board 1 table 1 already has 4S N =, lead HA, pairs 1-4; "
        "the file says 4S N =, lead SK, pairs 1-4"
    ]
    store.close()


def test_a_score_without_a_contract_is_exported_with_its_score_and_read_back(tmp_path):
    """Table 1 round 1 board 1 stored as NS +420 with no contract: ReceivedData's row has
    no contract and "score 420" in Remarks; imported into a fresh event it is +420."""
    store = Store.open(f"sqlite:///{tmp_path / 'a.db'}")
    eid = store.create_event(EVENT_FILE.read_text("utf-8"), base_dir=EVENT_FILE.parent)
    store.record(eid, [ResultEntry("A", 1, 1, 1, 1, 4, score_ns=420)])
    (_, received, _) = export_bws(store, eid, tmp_path / "bws")
    with received.open(encoding="utf-8") as f:
        (row,) = list(csv.DictReader(f))
    assert (row["Contract"], row["Result"], row["Remarks"]) == ("", "", "score 420")
    again = Store.open(f"sqlite:///{tmp_path / 'b.db'}")
    eid2 = again.create_event(EVENT_FILE.read_text("utf-8"), base_dir=EVENT_FILE.parent)
    assert import_received_data(again, eid2, received).added == 1
    (back,) = again.live_results(eid2)
    assert (back.contract, back.score_ns, back.adjusted) == (None, 420, None)
    store.close()
    again.close()


def test_short_or_seatless_bws_rows_are_refused_by_line(tmp_path):
    """RoundData.csv and PlayerNumbers.csv rows with fewer cells than the header, or a
    PlayerNumbers row without a direction, refuse the file naming the line. Before: a short
    row ended in TypeError / AttributeError ("internal error"), and a row with no direction
    set the North player of the table silently."""
    from hub.store.exchange import import_player_numbers, import_round_data

    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(EVENT_FILE.read_text("utf-8"), base_dir=EVENT_FILE.parent)
    cases = [
        (import_round_data, "Section,Table,Round,NSPair,EWPair,LowBoard,HighBoard\nA,1,1\n"),
        (import_player_numbers, "Section,Table,Direction,Number,Name\nA\n"),
        (import_player_numbers, "Section,Table,Direction,Number,Name\nA,1,,2001,Nils N\n"),
    ]
    said = []
    for i, (read, text) in enumerate(cases):
        path = tmp_path / f"case{i}.csv"
        path.write_text(text, "utf-8")
        with pytest.raises(StoreError) as refused:
            read(store, eid, path)
        said.append(str(refused.value))
    assert said == [
        "case0.csv:2: 3 cells, but the header (line 1) names 7",
        "case1.csv:2: 1 cell: Section, Table and Direction are needed",
        "case2.csv:2: Direction '' is not N, E, S or W",
    ]
    assert all(p.get("number") is None for c in store.contestants(eid, "A") for p in c["players"])
    store.close()
