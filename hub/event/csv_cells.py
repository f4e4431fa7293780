"""CSV cells a spreadsheet cannot run (decisions D20, OWASP "CSV injection"): a text cell
that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is written with a
leading ``'``, so Excel or LibreOffice shows it as text instead of evaluating it (a player
name ``=HYPERLINK(...)`` keyed at a terminal stays a name). Numbers stay numbers: a cell
that is a plain number (``-430``, ``+1``, ``-0.5``) is written as it is. Our own importers
take the ``'`` off again (``plain``), so an export read back is the data exported.

Sans-I/O helpers for every CSV writer of the project.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from typing import Any

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)?")


def safe_cell(value: object) -> object:
    """``value`` as a spreadsheet will not evaluate it: text that a spreadsheet would take
    for a formula gets a leading ``'``; numbers, and text that is a plain number, as given."""
    if not isinstance(value, str) or not value.startswith(FORMULA_START):
        return value
    if _NUMBER.fullmatch(value):
        return value
    return "'" + value


def safe_row(row: Iterable[object], keep: Collection[int] = ()) -> list[object]:
    """Every cell of a row through ``safe_cell``, but the columns in ``keep``: values the
    writer makes itself in a format another program reads (ReceivedData's ``=`` result)."""
    return [v if k in keep else safe_cell(v) for k, v in enumerate(row)]


class SafeWriter:
    """A ``csv.writer`` whose rows go through ``safe_row`` (sans-I/O wrapper)."""

    def __init__(self, writer: Any, keep: Collection[int] = ()) -> None:
        self.writer = writer
        self.keep = frozenset(keep)

    def writerow(self, row: Iterable[object]) -> Any:
        return self.writer.writerow(safe_row(row, self.keep))


def plain(value: str) -> str:
    """A cell as it was before ``safe_cell``: the ``'`` it added taken off."""
    if len(value) > 1 and value[0] == "'" and value[1:].startswith(FORMULA_START):
        return value[1:]
    return value


def plain_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """Every cell of a read CSV row through ``plain``."""
    return {k: (plain(v) if isinstance(v, str) else v) for k, v in row.items()}
