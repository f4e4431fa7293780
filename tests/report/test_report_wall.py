"""Review R2 of the printed report (issue 13 "Results on the wall"; TD trial F2: "one bad
stored line can never take down a board's scoring"): a stored line scoring cannot read
(4S by N with no tricks, as an older store may hold) is left off its traveller by the
standings' own left-out rule, and the report is made; the ranking is the other results'.

tests/report_tiny.py's evening (worked by hand there), with table 2's round-2 line of
board 3 (the 60/40 adjustment) replaced by the unreadable one: board 3 then has two real
results, the pass (T3, NS3 v EW3, 0) and 2S W = (T1, NS1 v EW2, -110), top 2 on the 2/1
scale: NS3 2, NS1 0; EW2 2, EW3 0. NS2 and EW1 have no score on board 3.

A report that cannot be written (no such folder) is said in one line naming the file."""

from __future__ import annotations

from click.testing import CliRunner
from report_tiny import EVENT_FILE, results, tiny_event

from hub.cli.main import cli
from hub.report.build import build_report
from hub.report.render import render_html
from hub.store.store import ResultEntry, Store


def test_an_unreadable_line_is_left_off_the_traveller_and_the_report_is_made(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'bad.db'}")
    eid = store.create_event(EVENT_FILE.read_text("utf-8"), base_dir=EVENT_FILE.parent)
    rows = [r for r in results() if (r.table, r.round) != (2, 2)]
    store.record(eid, [*rows, ResultEntry("A", 2, 2, 3, 2, 4, "4S", "N", tricks=None)])
    model = build_report(store, eid)
    (section,) = model.sections
    board3 = next(t for t in section.travellers if t.board == 3)
    assert [(r.table, r.ns, r.ew) for r in board3.rows] == [
        (1, "NS 1", "EW 2"),
        (3, "NS 3", "EW 3"),
    ]
    # D22: board 3, played twice, is factored to the section's top (3 plays, top 4):
    # Neuberg on the 2/1 scale, (MP + 1) × 3/2 − 1: 2 → 3.5, 0 → 0.5
    assert [(r.ns_points, r.ew_points) for r in board3.rows] == [("0.5", "3.5"), ("3.5", "0.5")]
    assert "Tuesday pairs" in render_html(model)
    store.close()


def test_a_report_file_that_cannot_be_written_is_said_plainly(tmp_path):
    """`event report --html FILE` into a folder that is not there: one clear line naming
    the file (before: "internal error: FileNotFoundError", exit 70)."""
    store = Store.open(f"sqlite:///{tmp_path / 'ok.db'}")
    eid = tiny_event(store)
    store.close()
    target = tmp_path / "no such folder" / "report.html"
    args = ["event", "report", "--db", f"sqlite:///{tmp_path / 'ok.db'}", "--event", str(eid)]
    out = CliRunner().invoke(cli, [*args, "--html", str(target)])
    assert out.exit_code == 1, out.output
    assert f"cannot write {target}: No such file or directory" in out.output
