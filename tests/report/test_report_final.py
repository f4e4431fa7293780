"""The evening's final outputs in one folder (issue [EVENING] "The end of the evening"):
`hub.report.final.write_final_outputs`, which `bridgehub run` calls at the session's end.
Values worked by hand in tests/report_tiny.py."""

from __future__ import annotations

import sys

from report_tiny import EW_PLACES, NS_PLACES, tiny_event

from hub.report.final import write_final_outputs
from hub.store.exchange import restore_json
from hub.store.store import Store


def test_every_final_output_is_written_and_reads_back(tmp_path):
    """Standings as text (places, labels, names, percent, MPs: the hand-worked values,
    NS field first), the report as HTML and PDF, the BWS CSVs, the scorer's travellers
    and a JSON backup that restores to the same results."""
    store = Store.open(f"sqlite:///{tmp_path / 'final.db'}")
    eid = tiny_event(store)
    folder = tmp_path / "final-results"
    written = write_final_outputs(store, eid, folder)
    names = [p.relative_to(folder).as_posix() for p in written]
    assert names == [
        "standings.txt",
        "report.html",
        "report.pdf",
        "bws/RoundData.csv",
        "bws/ReceivedData.csv",
        "bws/PlayerNumbers.csv",
        "travellers.csv",
        "backup.json",
        "results.pbn",  # issue 14: what leaves the room (tests/export/ reads them)
        "usebio.xml",
        "web/index.html",
        *(n for n in names if n.startswith("web/") and n != "web/index.html"),
    ]
    assert {"web/board-A-1.html", "web/card-A-1.html", "web/web.css"} <= set(names)
    assert all(p.stat().st_size > 0 for p in written)
    text = (folder / "standings.txt").read_text("utf-8")
    lines = [" ".join(line.split()) for line in text.splitlines()]
    for place, label, names_, percent, points in NS_PLACES + EW_PLACES:
        assert f"{place} {label} {names_} {percent} {points}" in lines
    assert text.index("NS 3") < text.index("EW 1")
    assert (folder / "report.pdf").read_bytes().startswith(b"%PDF")
    restored = restore_json(store, (folder / "backup.json").read_text("utf-8"))
    assert len(store.live_results(restored)) == 9
    store.close()


def test_without_the_pdf_library_the_rest_is_written_with_a_note(tmp_path, monkeypatch):
    """The PDF is an extra: without WeasyPrint it is skipped, a note says why and how to
    install it, and every other output is still written (never a failure at the end of
    the evening)."""
    monkeypatch.setitem(sys.modules, "weasyprint", None)
    store = Store.open(f"sqlite:///{tmp_path / 'final.db'}")
    eid = tiny_event(store, language="cs")
    written = write_final_outputs(store, eid, tmp_path / "out")
    names = [p.name for p in written]
    assert "report.pdf" not in names and "report-pdf-skipped.txt" in names
    assert "backup.json" in names and "report.html" in names
    note = (tmp_path / "out" / "report-pdf-skipped.txt").read_text("utf-8")
    assert "bridgehub[report]" in note
    assert "Konečné výsledky" in (tmp_path / "out" / "report.html").read_text("utf-8")
    assert "Pořadí" in (tmp_path / "out" / "standings.txt").read_text("utf-8")
    store.close()
