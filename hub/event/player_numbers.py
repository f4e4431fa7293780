"""A Bridgemate PlayerNumbers table, as CSV: who sat in which seat, read into each pair's
players (member number and name).

Columns as the BWS table has them (Bridgemate developer's guide; ``bridgehub event export
--bws`` writes the first five): ``Section, Table, Direction, Number, Name`` and the optional
``Round`` (default 1), with any others (``Processed``, ``TimeLog``, …) ignored. ``Section``
is the section ID (1 = A) or its letter, ``Direction`` N, E, S or W. A seat's pair is the
one the movement seats there in that round; N and E are a pair's first player, S and W its
second. ``Number`` 0 or empty is no member number (Bridgemate's "unknown"). Where a pair's
seat has rows in several rounds (numbers entered every round) the first round's names
count. Every bad row is named ``FILE:LINE: reason``.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from hub.event.csv_cells import plain
from hub.event.movement.csv_format import not_utf8
from hub.event.movement.model import Movement
from hub.event.movement.round_data import cells_text, section_letter, separator_hint

COLUMNS = ("Section", "Table", "Direction", "Number", "Name")


@dataclass(frozen=True)
class SeatedPlayer:
    """A player as PlayerNumbers names them: the member number (None if unknown), name."""

    number: str | None
    name: str


class PlayerNumbersError(ValueError):
    """Bad rows of a PlayerNumbers file; ``problems`` holds (line, reason) for each."""

    def __init__(self, source: str, problems: list[tuple[int | None, str]]) -> None:
        self.source = source
        self.problems = problems
        super().__init__(
            "\n".join(f"{source}:{n}: {why}" if n else f"{source}: {why}" for n, why in problems)
        )


Players = dict[str, dict[int, list[SeatedPlayer | None]]]  # section → pair → [first, second]


def parse_player_numbers(text: str, source: str, movements: dict[str, Movement]) -> Players:
    """Each section's pairs' players; ``movements`` by section letter (the pairs' seats)."""
    lines = [(n, raw) for n, raw in enumerate(text.splitlines(), start=1) if raw.strip()]
    if not lines:
        raise PlayerNumbersError(source, [(None, "the file is empty: no PlayerNumbers header")])
    head_line, head = lines[0]
    index = {h.strip().lower(): i for i, h in enumerate(next(csv.reader([head])))}
    missing = [c for c in COLUMNS if c.lower() not in index]
    if missing:
        why = (
            f"no column(s) {', '.join(missing)}: the header has {','.join(COLUMNS)}[,Round]"
            + separator_hint(head)
        )
        raise PlayerNumbersError(source, [(head_line, why)])
    problems: list[tuple[int | None, str]] = []
    taken: dict[tuple[str, int, int], tuple[int, int]] = {}  # (section, pair, seat) → round, line
    out: Players = {}
    for n, raw in lines[1:]:
        values = [plain(v.strip()) for v in next(csv.reader([raw]))]  # as keyed (D20)
        cells = {
            c: values[index[c.lower()]] if index[c.lower()] < len(values) else None for c in COLUMNS
        }
        cells["Round"] = values[index["round"]] if index.get("round", 99) < len(values) else "1"
        if any(cells[c] is None for c in COLUMNS[:3]):
            needed = "Section, Table and Direction are needed"
            problems.append((n, f"{cells_text(len(values))}: {needed}"))
            continue
        try:
            section, pair, seat, rnd = _seat(cells, movements)
        except ValueError as e:
            problems.append((n, str(e)))
            continue
        key = (section, pair, seat)
        earlier = taken.get(key)
        if earlier is not None and earlier[0] == rnd:
            problems.append((n, f"this seat already has a row in round {rnd} (line {earlier[1]})"))
            continue
        if earlier is not None and earlier[0] < rnd:
            continue  # the first round's player counts
        taken[key] = (rnd, n)
        number = (cells["Number"] or "").strip()
        players = out.setdefault(section, {}).setdefault(pair, [None, None])
        players[seat] = SeatedPlayer(None if number in ("", "0") else number, cells["Name"] or "")
    if problems:
        raise PlayerNumbersError(source, problems)
    return out


def _seat(
    cells: dict[str, str | None], movements: dict[str, Movement]
) -> tuple[str, int, int, int]:
    """(section, pair, 0 or 1 for its first or second player, round) of a row's seat;
    ``ValueError`` saying what does not fit."""
    raw_section = cells["Section"] or ""
    section = section_letter(raw_section)
    if section is None or section not in movements:
        have = ", ".join(movements)
        raise ValueError(f"Section {raw_section!r}: the movement has section(s) {have}")
    try:
        table, rnd = int(cells["Table"] or ""), int(cells["Round"] or "")
    except ValueError:
        raise ValueError(
            f"Table {cells['Table']!r} and Round {cells['Round']!r} must be whole numbers"
        ) from None
    direction = (cells["Direction"] or "").upper()
    if direction not in ("N", "E", "S", "W"):
        raise ValueError(f"Direction {cells['Direction']!r} is not N, E, S or W")
    row = movements[section].row(section, table, rnd)
    if row is None:
        raise ValueError(f"section {section} has no table {table} in round {rnd}")
    pair = row.ns_pair if direction in "NS" else row.ew_pair
    if not pair:
        raise ValueError(f"seat {direction} at table {table} is empty in round {rnd}")
    return section, pair, 0 if direction in "NE" else 1, rnd


def read_player_numbers(path: Path, movements: dict[str, Movement]) -> Players:
    """``parse_player_numbers`` of a file (UTF-8, with or without a byte-order mark)."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as e:
        raise PlayerNumbersError(path.name, [(None, f"cannot read: {e.strerror or e}")]) from None
    except UnicodeDecodeError as e:  # a name in Latin-1: the line is in the reason
        raise PlayerNumbersError(path.name, [(None, not_utf8(e))]) from None
    return parse_player_numbers(text, path.name, movements)
