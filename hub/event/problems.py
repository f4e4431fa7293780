"""One clear report of a file's problems (issue [TRUST]): a problem found on many lines is
said once, with every line it was found on, not once per line; different problems keep
the order in which the file shows them first."""

from __future__ import annotations

import re
from collections.abc import Iterable

_INDEX = re.compile(r"\[(\d+)\]")
MAX_RANGES = 12  # a report names at most this many line ranges per problem


def number_ranges(lines: Iterable[int]) -> str:
    """``3``, ``3-5, 9``; a long list ends ``… (120 lines)``."""
    numbers = sorted(set(lines))
    ranges: list[tuple[int, int]] = []
    for n in numbers:
        if ranges and n == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], n)
        else:
            ranges.append((n, n))
    text = ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges[:MAX_RANGES])
    if len(ranges) > MAX_RANGES:
        text += f", … ({len(numbers)} lines)"
    return text


def grouped(problems: Iterable[tuple[int, str]]) -> list[tuple[list[int], str]]:
    """Each distinct message once, with the lines it was found on, in first-seen order."""
    seen: dict[str, list[int]] = {}
    for line, message in problems:
        seen.setdefault(message, []).append(line)
    return [(lines, message) for message, lines in seen.items()]


def file_report(path: str, problems: Iterable[tuple[int, str]]) -> str:
    """``path:LINE: message`` for a problem on one line (what editors jump to), ``path:
    lines 3-40: message`` for one found on several; line 0 is the file as a whole."""
    out = []
    for lines, message in grouped(problems):
        if len(lines) == 1:
            where = f"{path}:{lines[0]}" if lines[0] else path
        else:
            where = f"{path}: lines {number_ranges(lines)}"
        out.append(f"{where}: {message}")
    return "\n".join(out)


def key_report(problems: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """(key path, reason) pairs, the same reason at paths that differ only in their list
    indices said once: ``pairs[0-13].players[0].name: required``, not fourteen times."""
    groups: dict[tuple[str, str], list[list[int]]] = {}
    for path, reason in problems:
        shape = _INDEX.sub("[]", path)
        groups.setdefault((shape, reason), []).append([int(i) for i in _INDEX.findall(path)])
    out = []
    for (shape, reason), indices in groups.items():
        columns = [number_ranges(column) for column in zip(*indices, strict=True)]
        parts = shape.split("[]")
        path = parts[0] + "".join(f"[{c}]{p}" for c, p in zip(columns, parts[1:], strict=True))
        out.append((path, reason))
    return out
