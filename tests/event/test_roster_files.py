"""Club roster files as spreadsheets save them (issue 13 "Names": a member number keyed at
the table looked up in a club roster file; reviewer R1). Two defects found in review:

- Excel's "Unicode text" is UTF-16 with a byte-order mark and tab-separated: it was read
  as Latin-1 with a NUL between every letter and one column, so no member was found
  (and the director was told to name the columns of a file that names them);
- a field past the csv module's limit (131,072 characters) raised csv.Error out of the
  reader: the hub told the director nothing and did not store the keyed number (only a
  RosterError is caught and told).
Now each is read, or refused as a RosterError naming the file and line."""

from __future__ import annotations

import pytest

from hub.event.roster import RosterError, parse_roster, read_roster


def test_a_utf16_tab_separated_roster_is_read(tmp_path):
    """What Excel writes for "Unicode text": BOM, UTF-16 LE, tabs, CRLF."""
    text = "Member No.\tFirst\tLast\r\n5001\tÅsa\tÖberg\r\n5002\tPer\tPersson\r\n"
    path = tmp_path / "members.csv"
    path.write_bytes(b"\xff\xfe" + text.encode("utf-16-le"))
    roster = read_roster(path)
    assert roster.name("5001") == "Åsa Öberg"
    assert roster.name("5002") == "Per Persson"


def test_a_tab_separated_roster_in_utf8_is_read():
    assert parse_roster("number\tname\n7\tOlle Roster\n").name("7") == "Olle Roster"


def test_a_field_past_the_csv_limit_is_a_roster_error():
    with pytest.raises(RosterError, match="line 2: cannot be read as CSV"):
        parse_roster('number,name\n5001,"' + "x" * 200_000 + '"\n', "members.csv")
