"""The pair numbers a generated movement seats, read from an event file that failed
validation elsewhere (TD trial F22: a bad date hid the unknown pair number until the date
was fixed). Pure arithmetic on the raw TOML data, so ``parse_event`` can add these problems
to its one report; the messages are ``PairLabels``' (``hub/event/pair_labels.py``), which
checks every movement, a movement file's too, once the file is valid (``event create``).
"""

from __future__ import annotations

from typing import Any

from hub.event.problems import number_ranges


def _size(movement: dict[str, Any]) -> tuple[bool, int, int] | None:
    """(Mitchell?, tables, pairs) of a generated movement, or None where the movement's
    own check will speak (no size, a size that does not fit, teams)."""
    kind, tables, pairs = movement.get("kind"), movement.get("tables"), movement.get("pairs")
    if not all(v is None or (isinstance(v, int) and v > 0) for v in (tables, pairs)):
        return None
    if kind == "mitchell" or kind == "howell":
        t = tables if tables is not None else -(-pairs // 2) if pairs is not None else None
        if t is None:
            return None
        p = pairs if pairs is not None else 2 * t
        return (kind == "mitchell", t, p) if p in (2 * t - 1, 2 * t) else None
    if kind == "barometer":
        p = pairs if pairs is not None else 2 * tables if tables is not None else None
        return None if p is None else (False, -(-p // 2), p)
    return None


def _problem(letter: str, size: tuple[bool, int, int], pair: Any) -> str | None:
    mitchell, tables, pairs = size
    if not isinstance(pair, dict):
        return None
    number, direction = pair.get("number"), pair.get("direction")
    if not isinstance(number, int) or number < 1:
        return None
    if mitchell and direction in ("NS", "EW"):
        ew = pairs - tables
        if number <= (tables if direction == "NS" else ew):
            return None
        has = f"NS {number_ranges(range(1, tables + 1))} and EW {number_ranges(range(1, ew + 1))}"
        return f"section {letter} has no pair {direction} {number}: its movement has {has}"
    if not mitchell and direction is None and number > pairs:
        has = f"pairs {number_ranges(range(1, pairs + 1))}"
        return f"section {letter} has no pair {number}: its movement has {has}"
    return None


def unseated_pairs(data: Any) -> list[tuple[str, str]]:
    """(key path, reason) for every listed pair a generated movement does not seat."""
    out: list[tuple[str, str]] = []
    sessions = data.get("sessions") if isinstance(data, dict) else None
    for s_index, session in enumerate(sessions if isinstance(sessions, list) else []):
        sections = session.get("sections") if isinstance(session, dict) else None
        for c_index, section in enumerate(sections if isinstance(sections, list) else []):
            movement = section.get("movement") if isinstance(section, dict) else None
            size = _size(movement) if isinstance(movement, dict) else None
            pairs = section.get("pairs") if size is not None else None
            for i, pair in enumerate(pairs if isinstance(pairs, list) else []):
                assert size is not None
                why = _problem(str(section.get("letter", "A")), size, pair)
                if why is not None:
                    out.append((f"sessions[{s_index}].sections[{c_index}].pairs[{i}]", why))
    return out
