"""The club roster (issue 13 "Names"): a CSV of member numbers and names, named by the
event file's ``[event] roster`` (beside the event file). A member number keyed at a table
that the event does not list is looked up here, so the players' names reach the terminal,
the store and the standings.

Clubs export rosters from many programs, so the reader is tolerant: a header such as
``number,name``, ``member,first,last``, ``Medlemsnummer;Förnamn;Efternamn`` (comma,
semicolon or tab), or no header at all for two columns (number, name). Every error names its line.
Pure: ``parse_roster`` takes text; ``read_roster`` reads a file."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from hub.event.csv_text import CsvTextError, csv_dialect, decode_csv

NUMBER_WORDS = {
    "number", "no", "nr", "num", "id", "member", "membernumber", "memberno", "membernr",
    "memberid", "playernumber", "player", "licence", "license", "medlemsnummer", "medlemsnr",
    "medlem", "numer", "cislo", "clenskecislo", "nummer",
}  # fmt: skip
NAME_WORDS = {"name", "fullname", "playername", "namn", "jmeno", "imieinazwisko", "navn"}
FIRST_WORDS = {"first", "firstname", "given", "givenname", "fornamn", "imie", "krestni"}
LAST_WORDS = {"last", "lastname", "surname", "familyname", "efternamn", "nazwisko", "prijmeni"}


class RosterError(ValueError):
    """A roster the hub cannot read; the message names the file and the line."""


def _word(cell: str) -> str:
    """A header cell as a bare word: "Member No." → "memberno", "Förnamn" → "fornamn"."""
    plain = unicodedata.normalize("NFKD", cell).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z]", "", plain.lower())


def _number(cell: str) -> str:
    """A member number as keyed: spaces dropped ("12 345" and "12345" are one member)."""
    return re.sub(r"\s+", "", cell)


@dataclass(frozen=True)
class Roster:
    """Member number → name; a frozen value, any thread."""

    members: Mapping[str, str] = field(default_factory=dict)
    source: str = "roster"

    def name(self, number: str) -> str | None:
        """The member's name, or None for a number the roster does not have."""
        return self.members.get(_number(number))

    def __len__(self) -> int:
        return len(self.members)


@dataclass(frozen=True)
class _Columns:
    number: int
    name: int | None = None
    first: int | None = None
    last: int | None = None

    def name_of(self, row: list[str]) -> str:
        def cell(i: int | None) -> str:
            return row[i].strip() if i is not None and i < len(row) else ""

        if self.name is not None:
            return " ".join(cell(self.name).split())
        return " ".join(f"{cell(self.first)} {cell(self.last)}".split())


def _columns(header: list[str], source: str) -> _Columns | None:
    """The columns a header names; None when the first line is data, not a header."""
    words = [_word(c) for c in header]

    def find(names: set[str]) -> int | None:
        return next((i for i, w in enumerate(words) if w in names), None)

    number, name = find(NUMBER_WORDS), find(NAME_WORDS)
    first, last = find(FIRST_WORDS), find(LAST_WORDS)
    if number is None and name is None and first is None and last is None:
        return None
    if number is None:
        raise RosterError(f"{source}, line 1: no member number column (e.g. `number`)")
    if name is None and first is None and last is None:
        raise RosterError(
            f"{source}, line 1: no name column (`name`, or `first` and `last`) in "
            f"{', '.join(h.strip() for h in header)}"
        )
    return _Columns(number, name, first, last)


def parse_roster(text: str, source: str = "roster") -> Roster:
    """The roster in ``text``; ``RosterError`` naming the line of the first problem."""
    found = csv_dialect(text)  # comma, semicolon or tab, as every TD's CSV (csv_text)
    reader = csv.reader(io.StringIO(found.text), delimiter=found.delimiter)
    try:
        rows = list(reader)
    except csv.Error as e:  # a NUL byte, a field past the csv module's limit
        raise RosterError(
            f"{source}, line {reader.line_num}: cannot be read as CSV ({e}): save the roster "
            "as CSV text (UTF-8)"
        ) from None
    if not any(any(c.strip() for c in row) for row in rows):
        raise RosterError(f"{source}: the roster is empty")
    columns = _columns(rows[0], source)
    start = (2 if columns is not None else 1) + found.skipped
    if columns is None:
        if len(rows[0]) != 2:
            raise RosterError(
                f"{source}, line 1: name the columns in a header line, as number,name or "
                "number,first,last"
            )
        columns = _Columns(0, 1)
    members: dict[str, str] = {}
    seen: dict[str, int] = {}
    for line, row in enumerate(rows[start - 1 - found.skipped :], start=start):
        if not any(c.strip() for c in row):
            continue
        number = _number(row[columns.number]) if columns.number < len(row) else ""
        name = columns.name_of(row)
        if not number:
            raise RosterError(f"{source}, line {line}: no member number")
        if not name:
            raise RosterError(f"{source}, line {line}: member {number} has no name")
        if number in members and members[number] != name:
            raise RosterError(
                f"{source}, line {line}: member {number} is {name!r} here and "
                f"{members[number]!r} on line {seen[number]}"
            )
        members[number], seen[number] = name, line
    return Roster(members, source)


def read_roster(path: Path) -> Roster:
    """The roster file at ``path`` (UTF-8, UTF-16 with its byte-order mark as spreadsheets
    save "Unicode text", or Latin-1 from older club programs)."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise RosterError(f"cannot read the club roster {path}: {e.strerror or e}") from None
    try:
        text = decode_csv(data)
    except CsvTextError:
        raise RosterError(f"{path}: not readable as UTF-16 text") from None
    return parse_roster(text, str(path))


def roster_file(name: str, places: list[Path]) -> Path:
    """Where the roster ``name`` is: itself when absolute, else the first of ``places``
    (the event file's folder first) that has it; else its place in the first folder."""
    path = Path(name)
    if path.is_absolute() or not places:
        return path
    return next((p / path for p in places if (p / path).is_file()), places[0] / path)
