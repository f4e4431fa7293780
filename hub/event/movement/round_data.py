"""A Bridgemate RoundData table, as CSV, read into the canonical movement (decisions D3).

The columns are the BWS table's (Bridgemate developer's guide; ``bridgehub event export
--bws`` writes the same): ``Section, Table, Round, NSPair, EWPair, LowBoard, HighBoard`` and
the optional ``CustomBoards`` (``1,4,7``: wins over Low/High, which hold its first and last).
``Section`` is the BWS section ID (1 = A … 26 = Z) or a letter. A row of zeros is an empty
table; 0 for one pair is a sit-out; boards 0-0 a table without boards (a rover's).

RoundData has no layout, so it is read from the rows (``kind = "auto"``): a Mitchell when
every row seats NS 1..T against EW T+1..2T (a row the other way round is arrow-switched,
and makes one winner), or when a round seats one number NS at one table and EW at another
(EW numbered 1..n again: read as T+n, the hub's numbering); a barometer when every table
of every round plays the same boards; otherwise a Howell. Tables that play the same boards
in one round share them. Every bad row is named ``FILE:LINE: reason``.
"""

from __future__ import annotations

import csv
import string
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from hub.event.movement.check import check_movement
from hub.event.movement.csv_format import boards_of, not_utf8
from hub.event.movement.model import Layout, Movement, MovementError, MovementKind, MovementRow

if TYPE_CHECKING:
    from hub.event.event_file import RoundDataMovement

COLUMNS = ("Section", "Table", "Round", "NSPair", "EWPair", "LowBoard", "HighBoard")
CUSTOM = "CustomBoards"
Kind = Literal["auto", "mitchell", "howell", "barometer"]


class RoundDataError(MovementError):
    """Bad rows of a RoundData file; ``problems`` holds (line, reason) for each."""

    def __init__(self, source: str, problems: list[tuple[int | None, str]]) -> None:
        self.source = source
        self.problems = problems
        text = "\n".join(
            f"{source}:{line}: {why}" if line else f"{source}: {why}" for line, why in problems
        )
        super().__init__(text, problems[0][0], "round-data")


def section_letter(cell: str) -> str | None:
    """The section a cell names: a BWS section ID (1 = A … 26 = Z) or a letter; None if
    it names none."""
    cell = cell.strip().upper()
    if cell.isdigit():
        n = int(cell)
        return string.ascii_uppercase[n - 1] if 1 <= n <= 26 else None
    return cell if 1 <= len(cell) <= 3 and cell.isalpha() and cell.isascii() else None


def cells_text(n: int) -> str:
    """``1 cell``, ``3 cells``."""
    return f"{n} cell" if n == 1 else f"{n} cells"


def separator_hint(head: str) -> str:
    """A hint for a header written with semicolons (a spreadsheet's "CSV" in locales with
    a decimal comma), else nothing."""
    if ";" in head and "," not in head:
        return " (its cells are ';' apart: save it as comma-separated CSV)"
    return ""


def _row(cells: dict[str, str]) -> tuple[str, int, int, int, int, tuple[int, ...]]:
    """One row's values; ``ValueError`` says what is wrong in words."""
    section = section_letter(cells["Section"])
    if section is None:
        raise ValueError(
            f"Section {cells['Section']!r} is neither a section ID 1-26 nor a letter A-ZZZ"
        )
    nums = {}
    for column in COLUMNS[1:]:
        try:
            nums[column] = int(cells[column])
        except ValueError:
            raise ValueError(f"{column} {cells[column]!r} is not a whole number") from None
    table, rnd, ns, ew = nums["Table"], nums["Round"], nums["NSPair"], nums["EWPair"]
    low, high = nums["LowBoard"], nums["HighBoard"]
    if table < 1 or rnd < 1:
        raise ValueError("Table and Round start at 1")
    if ns < 0 or ew < 0:
        raise ValueError("NSPair and EWPair are 0 (an empty seat) or more")
    names = ("LowBoard", "HighBoard", CUSTOM)
    boards = boards_of(low, high, cells.get(CUSTOM, "").strip(), names)  # ValueError: why
    return section, table, rnd, ns, ew, boards


def parse_round_data(text: str, source: str, kind: Kind = "auto") -> dict[str, Movement]:
    """Every section's movement in a RoundData CSV, checked (decisions D3); raises
    ``RoundDataError`` naming each bad row ``source:line``."""
    lines = [(n, raw) for n, raw in enumerate(text.splitlines(), start=1) if raw.strip()]
    if not lines:
        raise RoundDataError(source, [(None, "the file is empty: no RoundData header")])
    head_line, head = lines[0]
    header = [h.strip() for h in next(csv.reader([head]))]
    lower = {h.lower(): i for i, h in enumerate(header)}
    missing = [c for c in COLUMNS if c.lower() not in lower]
    if missing:
        return _refuse(
            source,
            head_line,
            f"no column(s) {', '.join(missing)}: a RoundData "
            f"header is {','.join(COLUMNS)}[,{CUSTOM}]{separator_hint(head)}",
        )
    if "south" in lower or "west" in lower:
        return _refuse(
            source,
            head_line,
            "South/West columns: an individual movement, which the hub does not run",
        )
    problems: list[tuple[int | None, str]] = []
    seen: dict[tuple[str, int, int], int] = {}
    found: dict[str, list[tuple[int, MovementRow]]] = defaultdict(list)
    index = {c: lower.get(c.lower(), -1) for c in (*COLUMNS, CUSTOM)}
    for n, raw in lines[1:]:
        values = [v.strip() for v in next(csv.reader([raw]))]
        if any(index[c] >= len(values) for c in COLUMNS):
            named = f"the header (line {head_line}) names {len(header)}"
            problems.append((n, f"{cells_text(len(values))}, but {named}"))
            continue
        cells = {c: values[i] if 0 <= i < len(values) else "" for c, i in index.items()}
        try:
            row = MovementRow(*_row(cells))
        except ValueError as e:
            problems.append((n, str(e)))
            continue
        key = (row.section, row.table, row.round)
        if key in seen:
            problems.append(
                (
                    n,
                    f"section {key[0]} table {key[1]} round {key[2]} already has a row "
                    f"(line {seen[key]})",
                )
            )
            continue
        seen[key] = n
        found[row.section].append((n, row))
    if not found and not problems:
        problems.append((head_line, "a header and no rows"))
    if problems:
        raise RoundDataError(source, problems)
    out = {}
    for letter, numbered in sorted(found.items()):
        try:
            movement = read_layout(Movement(tuple(r for _, r in numbered)), kind)
        except ValueError as e:  # the rows are not of the kind the TD named
            problems.append((None, f"section {letter}: {e}"))
            continue
        line_of = [n for n, _ in numbered]
        errors = check_movement(movement).errors
        problems += [(line_of[e.row - 1] if e.row else None, _unrowed(e.message)) for e in errors]
        out[letter] = movement.sorted()
    if problems:
        raise RoundDataError(source, problems)
    return out


def _unrowed(message: str) -> str:
    """A checker message without its data-row number (the file line replaces it)."""
    return (
        message.split("): ", 1)[1] if message.startswith("row ") and "): " in message else message
    )


def _refuse(source: str, line: int, why: str) -> dict[str, Movement]:
    raise RoundDataError(source, [(line, why)])


def read_round_data(
    path: Path, kind: Kind = "auto", source: str | None = None
) -> dict[str, Movement]:
    """``parse_round_data`` of a file (UTF-8, with or without a byte-order mark); errors
    name it ``source`` (default: the file's name)."""
    source = source or path.name
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as e:
        raise RoundDataError(source, [(None, f"cannot read: {e.strerror or e}")]) from None
    except UnicodeDecodeError as e:
        raise RoundDataError(source, [(None, not_utf8(e))]) from None
    return parse_round_data(text, source, kind)


def round_data_movement(
    spec: RoundDataMovement, letter: str, base_dir: Path | None = None
) -> Movement:
    """The movement an event file's ``movement = { round_data = … }`` names, for section
    ``letter``; the file is found beside the event file, errors name the key and the line
    (``movement.round_data RoundData.csv:7: …``)."""
    source = f"movement.round_data {spec.round_data}"
    movements = read_round_data((base_dir or Path(".")) / spec.round_data, spec.kind, source)
    return section_movement(movements, letter, source, spec.section)


def section_movement(
    movements: dict[str, Movement], letter: str, source: str, section: str | None = None
) -> Movement:
    """The movement of the event file's section ``letter``: the file's ``section`` (a
    letter or ID), else the file's section of that letter, else its only section."""
    wanted = section_letter(section) if section is not None else None
    if section is not None and wanted not in movements:
        have = ", ".join(movements)
        raise RoundDataError(source, [(None, f"no section {section} (the file has {have})")])
    pick = wanted or (letter if letter in movements else None)
    if pick is None and len(movements) == 1:
        pick = next(iter(movements))
    if pick is None:
        have = ", ".join(movements)
        raise RoundDataError(
            source, [(None, f"sections {have} and none is {letter}: say which with section = …")]
        )
    movement = movements[pick]
    return replace(movement, rows=tuple(replace(r, section=letter) for r in movement.rows))


# -- the layout RoundData does not carry ------------------------------------------------
def read_layout(movement: Movement, kind: Kind = "auto") -> Movement:
    """The movement with its layout read from its rows (module docstring); EW numbered
    1..n again in a Mitchell are renumbered T+1..T+n. The rows keep their order.
    ``ValueError`` when ``kind`` is "mitchell" and the rows are not a Mitchell's."""
    rows = list(movement.rows)
    tables = len({r.table for r in rows})
    if kind in ("auto", "mitchell") and _numbered_twice(rows, tables):
        rows = [replace(r, ew_pair=r.ew_pair + tables if r.ew_pair else 0) for r in rows]
        kind = "mitchell"
    switched = _mitchell_switches(rows, tables)
    if kind == "mitchell" and switched is None:  # never a Howell's rows ranked as a Mitchell
        raise ValueError(
            "the rows are not a Mitchell's (NS pairs 1..T against EW T+1..2T, or EW numbered "
            "1..T again at every table): make the kind auto or howell"
        )
    shares = _shares(rows)
    if kind == "mitchell" or (kind == "auto" and switched is not None):
        turned = switched or ()
        described = f"Mitchell from RoundData, {tables} tables" + (
            f", {len(turned)} arrow-switched table-rounds" if turned else ""
        )
        layout = Layout(
            MovementKind.MITCHELL,
            1 if turned else 2,
            shares=shares,
            arrow_switch=turned,
            description=described,
        )
    elif kind == "barometer" or (kind == "auto" and _barometer(rows)):
        copies = max(
            sum(1 for r in rows if r.round == rnd and r.boards) for rnd in {r.round for r in rows}
        )
        layout = Layout(
            MovementKind.BAROMETER,
            1,
            copies=copies,
            description=f"barometer from RoundData, {tables} tables",
        )
    else:
        layout = Layout(
            MovementKind.HOWELL,
            1,
            shares=shares,
            description=f"Howell from RoundData, {tables} tables",
        )
    return Movement(tuple(rows), layout)  # in file order: the checker's rows are its lines


def _numbered_twice(rows: list[MovementRow], tables: int) -> bool:
    """A round that seats one number NS at one table and EW at another, and no number above
    the table count: NS and EW each numbered from 1 (a two-winner Mitchell). A Howell's
    numbers go past the tables, so a pair seated twice there is named by the checker, not
    renumbered."""
    if any(max(r.ns_pair, r.ew_pair) > tables for r in rows):
        return False
    by_round: dict[int, tuple[set[int], set[int]]] = defaultdict(lambda: (set(), set()))
    for r in rows:
        ns, ew = by_round[r.round]
        if r.ns_pair:
            ns.add(r.ns_pair)
        if r.ew_pair:
            ew.add(r.ew_pair)
    return any(ns & ew for ns, ew in by_round.values())


def _mitchell_switches(rows: list[MovementRow], tables: int) -> tuple[tuple[int, int], ...] | None:
    """The arrow-switched (round, table)s when every row seats NS 1..T against EW T+1..2T
    or the other way round; None when the rows are not a Mitchell's."""

    def ns_side(p: int) -> bool:
        return 0 <= p <= tables

    def ew_side(p: int) -> bool:
        return p == 0 or tables < p <= 2 * tables

    switched, straight = [], 0
    for r in rows:
        if ns_side(r.ns_pair) and ew_side(r.ew_pair):
            straight += bool(r.ns_pair and r.ew_pair)
        elif ew_side(r.ns_pair) and ns_side(r.ew_pair):
            switched.append((r.round, r.table))
        else:
            return None
    return tuple(sorted(switched)) if straight else None


def _barometer(rows: list[MovementRow]) -> bool:
    """Every round: more than one table, all playing the same boards."""
    by_round: dict[int, set[tuple[int, ...]]] = defaultdict(set)
    count: dict[int, int] = defaultdict(int)
    for r in rows:
        if r.boards and r.ns_pair and r.ew_pair:
            by_round[r.round].add(r.boards)
            count[r.round] += 1
    return bool(by_round) and all(len(s) == 1 and count[k] > 1 for k, s in by_round.items())


def _shares(rows: list[MovementRow]) -> tuple[tuple[int, ...], ...]:
    """Tables that play the same boards in one round (a relay Mitchell's first and last)."""
    parent: dict[int, int] = {}

    def find(t: int) -> int:
        while parent.setdefault(t, t) != t:
            t = parent[t]
        return t

    by_set: dict[tuple[int, tuple[int, ...]], list[int]] = defaultdict(list)
    for r in rows:
        if r.boards:
            by_set[(r.round, r.boards)].append(r.table)
    for group in by_set.values():
        for t in group[1:]:
            parent[find(t)] = find(group[0])
    groups: dict[int, list[int]] = defaultdict(list)
    for t in sorted(parent):
        groups[find(t)].append(t)
    return tuple(tuple(g) for g in groups.values() if len(g) > 1)
