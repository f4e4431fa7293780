"""The movement file (decisions D3): RoundData columns, ``# key: value`` layout headers.

    # kind: howell
    # winners: 1
    section,table,round,ns_pair,ew_pair,low_board,high_board[,boards]
    A,1,1,7,3,1,3

``boards`` (optional) lists non-consecutive boards as ``1;4;7`` (Bridgemate CustomBoards).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import fields, replace
from typing import Any

from hub.event.csv_cells import SafeWriter
from hub.event.movement.model import Layout, Movement, MovementError, MovementKind, MovementRow

HEADER = ("section", "table", "round", "ns_pair", "ew_pair", "low_board", "high_board")
BOARD_COLUMNS = ("low_board", "high_board", "boards")  # as a movement file names them
_META_RE = re.compile(r"^#\s*([a-z_]+)\s*:\s*(.*)$")
_LAYOUT_KEYS = {f.name for f in fields(Layout)} - {"draw", "drawn", "three_ways"}  # generated


def _groups(text: str, key: str, line: int, size: int | None = None) -> tuple[tuple[int, ...], ...]:
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        try:
            nums = tuple(int(x) for x in re.split(r"[+\-/]", part))
        except ValueError:
            raise MovementError(
                f"line {line}: {key} entry {part!r} must be numbers joined by "
                "+ (or - for relays, / for round/table)",
                line,
                "layout",
            ) from None
        if size is not None and len(nums) != size:
            raise MovementError(
                f"line {line}: {key} entry {part!r} needs {size} numbers", line, "layout"
            )
        out.append(nums)
    return tuple(out)


def _layout_value(layout: Layout, key: str, value: str, line: int) -> Layout:
    try:
        if key == "kind":
            return replace(layout, kind=MovementKind(value.strip()))
        if key in ("winners", "copies", "segments"):
            number = int(value)
            if key == "winners" and number not in (1, 2):
                raise MovementError(f"line {line}: winners must be 1 or 2", line, "layout")
            if number < 1:
                raise MovementError(f"line {line}: {key} must be 1 or more", line, "layout")
            changes: dict[str, Any] = {key: number}
            return replace(layout, **changes)
        if key == "description":
            return replace(layout, description=value.strip())
        size = {"shares": None, "relays": 2, "matches": 2, "arrow_switch": 2}[key]
        groups: dict[str, Any] = {key: _groups(value, key, line, size)}
        return replace(layout, **groups)
    except ValueError as e:
        if isinstance(e, MovementError):
            raise
        kinds = ", ".join(k.value for k in MovementKind)
        raise MovementError(
            f"line {line}: {key} {value.strip()!r} is not valid"
            + (f" (kinds: {kinds})" if key == "kind" else ""),
            line,
            "layout",
        ) from None


def not_utf8(e: UnicodeDecodeError) -> str:
    """Why a file saved in another encoding (Latin-1, UTF-16) cannot be read, and where."""
    line = bytes(e.object[: e.start]).count(b"\n") + 1
    return f"not a text file in UTF-8 (line {line}): save it as UTF-8 CSV"


def _whole(cell: str, column: str, line: int) -> int:
    """A cell that must hold a whole number; the error names the column and the cell."""
    try:
        return int(cell)
    except ValueError:
        raise MovementError(
            f"line {line}: {column} {cell!r}: table, round, pairs and boards must be whole numbers",
            line,
            "format",
        ) from None


def boards_of(
    low: int, high: int, listed: str, names: tuple[str, str, str] = BOARD_COLUMNS
) -> tuple[int, ...]:
    """A row's boards: those ``listed`` (ascending from ``low`` to ``high``), else ``low``
    to ``high``, else none (both 0). ``ValueError`` says what is wrong, naming the columns
    ``names`` (low, high, listed) as the file calls them (a movement file, a RoundData)."""
    low_name, high_name, listed_name = names
    if listed:
        try:
            boards = tuple(int(b) for b in listed.replace(",", ";").split(";") if b.strip())
        except ValueError:
            raise ValueError(f"{listed_name} {listed!r} must be numbers like 1;4;7") from None
        if list(boards) != sorted(set(boards)) or (
            boards and (boards[0] != low or boards[-1] != high)
        ):
            raise ValueError(
                f"{listed_name} {listed!r} must ascend from {low_name} {low} to {high_name} {high}"
            )
        return boards
    if low == high == 0:
        return ()
    if 1 <= low <= high:
        return tuple(range(low, high + 1))
    raise ValueError(
        f"{low_name} {low} and {high_name} {high} must be 1 ≤ low ≤ high, or both 0 for no boards"
    )


def parse_movement(text: str) -> Movement:
    """Read a movement file; errors name the line and the rule."""
    layout = Layout()
    body: list[tuple[int, str]] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            m = _META_RE.match(line)
            if m and m.group(1) in _LAYOUT_KEYS:
                layout = _layout_value(layout, m.group(1), m.group(2), n)
            continue
        body.append((n, raw))
    if not body:
        raise MovementError("the movement file has no header and no rows", 1, "format")
    first_line, header_text = body[0]
    header = [h.strip().lower() for h in next(csv.reader([header_text]))]
    missing = [h for h in HEADER if h not in header]
    if missing:
        raise MovementError(
            f"line {first_line}: missing column(s) {', '.join(missing)}; the "
            f"header is {','.join(HEADER)}[,boards]",
            first_line,
            "format",
        )
    rows: list[MovementRow] = []
    seen: dict[tuple[str, int, int], int] = {}
    for n, raw in body[1:]:
        cells = [v.strip() for v in next(csv.reader([raw]))]
        short = [h for h in header[len(cells) :] if h in HEADER]
        if short or any(cells[len(header) :]):
            raise MovementError(
                f"line {n}: {len(cells)} cells, but the header (line {first_line}) names "
                f"{len(header)}: {','.join(header)}",
                n,
                "format",
            )
        values = dict(zip(header, cells, strict=False))
        nums = {k: _whole(values[k], k, n) for k in HEADER[1:]}
        section = values.get("section", "") or "A"
        if nums["table"] < 1 or nums["round"] < 1:
            raise MovementError(f"line {n}: table and round start at 1", n, "format")
        if nums["ns_pair"] < 0 or nums["ew_pair"] < 0:
            raise MovementError(f"line {n}: pair numbers are 0 (empty seat) or more", n, "format")
        low, high = nums["low_board"], nums["high_board"]
        try:
            boards = boards_of(low, high, values.get("boards", ""))
        except ValueError as e:
            raise MovementError(f"line {n}: {e}", n, "format") from None
        key = (section, nums["table"], nums["round"])
        if key in seen:
            raise MovementError(
                f"line {n}: section {section} table {key[1]} round {key[2]} "
                f"already has a row (line {seen[key]})",
                n,
                "one-row-per-table",
            )
        seen[key] = n
        rows.append(
            MovementRow(
                section, nums["table"], nums["round"], nums["ns_pair"], nums["ew_pair"], boards
            )
        )
    return Movement(tuple(rows), layout)


def format_movement(movement: Movement, comments: list[str] | None = None) -> str:
    """The movement file text, metadata first."""
    lay = movement.layout
    out = io.StringIO()
    for c in comments or []:
        out.write(f"# {c}\n")
    if lay.description:
        out.write(f"# description: {lay.description}\n")
    out.write(f"# kind: {lay.kind.value}\n# winners: {lay.winners}\n")
    if lay.copies != 1:
        out.write(f"# copies: {lay.copies}\n")
    if lay.segments != 1:
        out.write(f"# segments: {lay.segments}\n")
    for key, joiner in (("shares", "+"), ("relays", "-"), ("matches", "+"), ("arrow_switch", "/")):
        groups = getattr(lay, key)
        if groups:
            out.write(f"# {key}: {', '.join(joiner.join(map(str, g)) for g in groups)}\n")
    custom = any(not r.consecutive for r in movement.rows)
    w = SafeWriter(csv.writer(out, lineterminator="\n"))
    w.writerow(HEADER + (("boards",) if custom else ()))
    for r in movement.sorted().rows:
        row = [r.section, r.table, r.round, r.ns_pair, r.ew_pair, r.low_board, r.high_board]
        if custom:
            row.append(";".join(map(str, r.boards)) if not r.consecutive else "")
        w.writerow(row)
    return out.getvalue()
