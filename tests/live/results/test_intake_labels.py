"""Review R2 (issue 13 "Mitchell numbering as TDs write it: … an EW pair is "EW 3", not
"pair 10" … on the terminals, the console"): a result held because its pairs do not sit
at the table names them as the room does. Before, the director read the hub's internal
numbers ("pairs 4 and 1 are the wrong way round: NS is pair 1, EW pair 4").

tests/data/report_sit_out_mitchell.toml: a 3-table Mitchell of 5 pairs; NS 1-3 are the hub's
1-3, EW 1-2 its 4-5 (EW n is 3 + n). Round 1, table 1: NS 1 v EW 1 (1 v 4), board 1
(seating worked in tests/report/test_report_sit_out.py)."""

from __future__ import annotations

from pathlib import Path

from hub.live.port.terminal_port import ResultSubmission, TerminalRef
from hub.live.results.intake import Intake, Pending
from hub.store.store import Store

ODD_NIGHT = Path(__file__).parents[2] / "data" / "report_sit_out_mitchell.toml"


def held(tmp_path, ns: int, ew: int) -> str:
    store = Store.open(f"sqlite:///{tmp_path / f'odd{ns}{ew}.db'}")
    eid = store.create_event(ODD_NIGHT.read_text("utf-8"))
    intake = Intake({"A": store.movement(eid, "A")}, lambda who, what, detail: None)
    store.close()
    intake.logon("BM-1", "A", 1)
    ref = TerminalRef("line", 1)
    sent = ResultSubmission(ref, None, "A", 1, 1, 1, ns, ew, "4S", "N", "", 10, 1)
    out = intake.prepare("BM-1", sent)
    assert isinstance(out, Pending) and out.status == "held" and out.alert is not None
    return out.alert


def test_pairs_the_wrong_way_round_are_named_ns_1_and_ew_1(tmp_path):
    assert held(tmp_path, 4, 1) == (
        "pairs EW 1 and NS 1 are the wrong way round at table A1 in round 1: NS is NS 1, EW is EW 1"
    )


def test_pairs_not_at_the_table_are_named_as_the_room_numbers_them(tmp_path):
    text = held(tmp_path, 1, 5)
    assert text == "pairs NS 1 v EW 2 do not sit at table A1 in round 1: NS is NS 1, EW is EW 1"
    assert "pair 4" not in text and "pair 5" not in text
