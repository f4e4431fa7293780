"""The double dummy a hand-record file already carries (issue 25 [MENDS]): ``bridgehub
deal``, RealBridge and most dealing programs write each board's table as PBN
``DoubleDummyTricks`` (20 hex digits, N S E W × NT S H D C) or ``OptimumResultTable`` (a row
per declarer and strain). The hub uses those tricks instead of solving the deal again.

A board whose tags are missing, malformed or disagree between two copies of it in the file
gets no tricks here: the hub solves it (logged, never refused: the deals are still good).
"""

from __future__ import annotations

import io
import logging
from pathlib import Path
from typing import Any

from hub.event.double_dummy import SEATS, STRAINS, tricks_of
from hub.event.hand_records import HandRecordError

log = logging.getLogger(__name__)
TABLE_SEATS = {s.name: s for s in SEATS}
TABLE_STRAINS = {s.value: s for s in STRAINS}


def read_double_dummy_tricks(path: Path) -> dict[int, str]:
    """Board → ``DoubleDummyTricks`` digits of each board of the file that carries them;
    empty when none does, or when the file does not read (``read_hand_records`` names
    that fault)."""
    try:
        return double_dummy_tricks(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeError):
        return {}


def double_dummy_tricks(text: str) -> dict[int, str]:
    """``read_double_dummy_tricks`` of a PBN file's text (a director's upload)."""
    try:
        from endplay.parsers import pbn

        boards = pbn.load(io.StringIO(text))
    except Exception:  # no endplay, or not PBN: the deals' own reader says so
        return {}
    found: dict[int, str] = {}
    clashing: set[int] = set()
    for b in boards:
        number = b.board_num
        digits = _digits(b.info) if number is not None else None
        if number is None or digits is None:
            continue
        if found.setdefault(number, digits) != digits:
            clashing.add(number)
    for number in sorted(clashing):
        log.warning("board %d's double dummy differs between its copies: solved", number)
        del found[number]
    return found


def _digits(info: dict[str, Any]) -> str | None:
    """The board's tricks as 20 lower-case hex digits, from ``DoubleDummyTricks`` or else
    ``OptimumResultTable``; None when neither reads."""
    raw = info.get("DoubleDummyTricks")
    if isinstance(raw, str):
        try:
            tricks_of(raw)
            return raw.strip().lower()
        except HandRecordError as e:
            log.warning("%s: the board is solved", e)
    table = info.get("OptimumResultTable")
    rows = table.get("rows") if isinstance(table, dict) else None
    if not isinstance(rows, list):
        return None
    cells: dict[tuple[Any, Any], int] = {}
    for row in rows:
        if not isinstance(row, list) or len(row) != 3:
            return None
        seat, strain, n = TABLE_SEATS.get(row[0]), TABLE_STRAINS.get(str(row[1]).upper()), row[2]
        if seat is None or strain is None or not str(n).isdigit() or int(n) > 13:
            return None
        cells[(seat, strain)] = int(n)
    if len(cells) != 20:
        return None
    return "".join(f"{cells[seat, strain]:x}" for seat in SEATS for strain in STRAINS)
