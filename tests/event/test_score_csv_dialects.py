"""`bridgehub score` reads the CSV dialects the club roster reader does (TD trial G12, issue
[MENDS] #25): one CSV reader (``hub/event/csv_text.py``) for every file a TD brings. A
Swedish, Polish or Czech Excel saves with semicolons; "Unicode text" is UTF-16 with tabs;
older club programs write Latin-1; Excel may put a ``sep=;`` line first.

The traveller, board 1 (none vulnerable), 2/1 matchpoints, top 2 (three results): 4S by S
making (+420) beats 4S -1 (-50) and 3NT by N making (+400); +400 beats -50. NS 1 4 of 4,
NS 3 2 of 4, NS 2 0 of 4 over the board's top 4: NS 1 100 %, NS 3 50 %, NS 2 0 %; EW 4, 6, 5
the other way round.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hub.cli.main import cli
from hub.event.csv_text import csv_dialect, decode_csv
from hub.event.roster import read_roster

ROWS = [
    ["board", "ns", "ew", "contract", "declarer", "result"],
    ["1", "1", "4", "4S", "S", "="],
    ["1", "2", "5", "4S", "S", "-1"],
    ["1", "3", "6", "3NT", "N", "="],
]
EXPECTED = {1: 100.0, 2: 0.0, 3: 50.0, 4: 0.0, 5: 100.0, 6: 50.0}


def _text(delimiter: str, newline: str = "\r\n", first: str = "") -> str:
    return first + "".join(delimiter.join(r) + newline for r in ROWS)


DIALECTS = {
    "comma-utf8": _text(",").encode("utf-8"),
    "semicolon-excel-sv": _text(";").encode("utf-8-sig"),
    "semicolon-sep-line": _text(";", first="sep=;\r\n").encode("utf-8"),
    "tab-utf16-unicode-text": _text("\t").encode("utf-16"),
    "semicolon-utf16-be": b"\xfe\xff" + _text(";").encode("utf-16-be"),
    "semicolon-latin1-empty-columns": _text(";")
    .replace("result\r\n", "result;note;\r\n", 1)
    .replace("3NT;N;=\r\n", "3NT;N;=;Söderberg;\r\n")
    .encode("latin-1"),
}


@pytest.mark.parametrize("data", DIALECTS.values(), ids=DIALECTS.keys())
def test_bridgehub_score_reads_every_dialect_a_spreadsheet_saves(tmp_path: Path, data: bytes):
    """G12: each dialect scores as the plain comma file does (the hand-worked values)."""
    path = tmp_path / "travellers.csv"
    path.write_bytes(data)
    out = CliRunner().invoke(cli, ["score", str(path), "--method", "mp", "--json"])
    assert out.exit_code == 0, out.output
    totals = {p["pair"]: p["total"] for p in json.loads(out.output)["pairs"]}
    assert totals == pytest.approx(EXPECTED)


def test_a_latin1_cell_and_an_error_line_after_a_sep_line(tmp_path: Path):
    """Latin-1 text is read (a note "Söderberg" in an extra column), and a problem's line
    number counts the ``sep=;`` line the file starts with: the bad result is file line 5."""
    rows = _text(";", first="sep=;\r\n").replace("3NT;N;=", "3NT;N;+5")
    path = tmp_path / "travellers.csv"
    path.write_bytes(rows.replace("result\r\n", "result;note\r\n", 1).encode("latin-1"))
    out = CliRunner().invoke(cli, ["score", str(path), "--method", "mp"])
    assert out.exit_code == 1
    assert f"{path}:5:" in out.output and "+5" in out.output


def test_the_roster_and_the_traveller_reader_share_the_dialect_rules(tmp_path: Path):
    """One reader: a UTF-16 semicolon roster, as Excel's "Unicode text" with `;`, is read
    by the roster with the same rules (`Medlemsnummer;Förnamn;Efternamn`)."""
    text = "Medlemsnummer;Förnamn;Efternamn\r\n1234;Åsa;Söderberg\r\n"
    path = tmp_path / "roster.csv"
    path.write_bytes(text.encode("utf-16"))
    assert read_roster(path).name("1234") == "Åsa Söderberg"
    found = csv_dialect(decode_csv(path.read_bytes()))
    assert found.delimiter == ";" and found.skipped == 0
    assert csv_dialect("sep=\t\nboard\tns\n").delimiter == "\t"
    assert csv_dialect("a,b;c\n").delimiter == ","  # a tie: the comma
