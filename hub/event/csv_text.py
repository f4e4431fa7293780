"""Every CSV a director brings, read alike (issue [MENDS] #25, TD trial G12): the club
roster, a traveller file for ``bridgehub score``.

Spreadsheets save CSV in several dialects: UTF-8 with or without a byte-order mark,
UTF-16 with its byte-order mark ("Unicode text"), Latin-1 from older club programs; a
comma, or a semicolon (Swedish, Polish, Czech Excel) or a tab between cells, and maybe an
Excel ``sep=;`` line before the header. The delimiter is the one the header line (the
first after ``sep=``) holds most of; a tie is the comma. Pure but for ``read_csv_text``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

DELIMITERS = (",", ";", "\t")
_SEP_LINE = re.compile(r"sep=(.)\s*")
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


class CsvTextError(ValueError):
    """A file that is not CSV text in any dialect read here; ``line`` where (0: the file)."""

    def __init__(self, message: str, line: int = 0) -> None:
        self.message = message
        self.line = line
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class CsvText:
    """A CSV file's text from its header line on, the delimiter between its cells, and the
    file lines before the header (a ``sep=`` line): add ``skipped`` to a line number."""

    text: str
    delimiter: str
    skipped: int = 0


def decode_csv(data: bytes) -> str:
    """The file's text: UTF-16 with its byte-order mark, else UTF-8 (a byte-order mark
    dropped), else Latin-1 (every byte is a character there)."""
    if data.startswith(UTF16_BOMS):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as e:
            line = data[: e.start].decode("utf-16", "replace").count("\n") + 1
            raise CsvTextError("not readable as UTF-16 text: save it again as CSV", line) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def csv_dialect(text: str) -> CsvText:
    """The text with its delimiter: an Excel ``sep=X`` first line says it (and is dropped),
    else the header line's most frequent of comma, semicolon and tab (a tie: the comma)."""
    text = text.lstrip("\ufeff")
    first, _, rest = text.partition("\n")
    sep = _SEP_LINE.fullmatch(first.strip("\r"))
    if sep is not None and sep.group(1) in DELIMITERS:
        return CsvText(rest, sep.group(1), 1)
    return CsvText(text, max(DELIMITERS, key=first.count))


def read_csv_text(path: Path) -> CsvText:
    """A CSV file as text in its dialect; ``OSError`` when it cannot be read,
    ``CsvTextError`` when it is not text."""
    return csv_dialect(decode_csv(path.read_bytes()))
