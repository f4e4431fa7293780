"""A knockout section's bracket on the result screen (issue [KNOCKOUT]): the picture of
``hub/report/bracket_picture.py`` in box-drawing characters, a box per match with its
teams and running IMPs, the winner marked (▶, bold), the match in play said "live", and
lines from a match to the one its winner goes to. On a screen narrower than the bracket
the rounds still to be decided are shown (as many as fit). Pure: no I/O."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text

from hub.report.bracket_picture import Box, Feeds, Sizes, bracket_layout, fit

FEED_KEYS = ("type", "seq", "event")
TEXT = Sizes(box_w=32, row_h=1, pad=1, gap_x=4, gap_y=1, head=1)
UP, DOWN, LEFT, RIGHT = 1, 2, 4, 8
JOINS = {
    LEFT | RIGHT: "─", UP | DOWN: "│", DOWN | RIGHT: "┌", DOWN | LEFT: "┐", UP | RIGHT: "└",
    UP | LEFT: "┘", UP | DOWN | RIGHT: "├", UP | DOWN | LEFT: "┤", LEFT | RIGHT | DOWN: "┬",
    LEFT | RIGHT | UP: "┴", UP | DOWN | LEFT | RIGHT: "┼", LEFT: "─", RIGHT: "─", UP: "│",
    DOWN: "│",
}  # fmt: skip


def bracket_of(event: Mapping[str, Any]) -> dict[str, Any]:
    """The bracket a ``knockout`` feed event carries: the hub's view with the feed's own
    keys added (docs/api.md)."""
    return {k: v for k, v in event.items() if k not in FEED_KEYS}


def shown_rounds(view: Mapping[str, Any], width: int | None) -> list[str]:
    """The rounds that fit ``width`` characters: all, else from the first round with a
    match still to be decided (the last ones when every match is)."""
    rounds = list(dict.fromkeys([*view["rounds"], *(m["round"] for m in view["matches"])]))
    if width is None:
        return rounds
    fit_n = max(1, (width + TEXT.gap_x) // (TEXT.box_w + TEXT.gap_x))
    open_ = [i for i, r in enumerate(rounds) if _open(view, r)]
    start = min(open_[0] if open_ else len(rounds), max(0, len(rounds) - fit_n))
    return rounds[start : start + fit_n]


def _open(view: Mapping[str, Any], rnd: str) -> bool:
    return any(m["round"] == rnd and m["state"] not in ("decided", "bye") for m in view["matches"])


def bracket_text(
    view: Mapping[str, Any], width: int | None = None, feeds: Feeds | None = None
) -> Text:
    """The bracket as rich Text: winners bold, a live match's badge red."""
    lines, marks = _draw(view, width, feeds)
    text = Text("\n".join(lines))
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    for row, col, end, style in marks:
        text.stylize(style, starts[row] + col, starts[row] + end)
    return text


def bracket_lines(
    view: Mapping[str, Any], width: int | None = None, feeds: Feeds | None = None
) -> list[str]:
    """The bracket as plain lines of text (trailing spaces cut)."""
    return _draw(view, width, feeds)[0]


Mark = tuple[int, int, int, str]  # row, first column, end column, style


def _draw(
    view: Mapping[str, Any], width: int | None, feeds: Feeds | None
) -> tuple[list[str], list[Mark]]:
    kept = shown_rounds(view, width)
    part = {
        **view,
        "rounds": kept,
        "matches": [m for m in view["matches"] if m["round"] in kept],
    }
    p = bracket_layout(part, feeds, TEXT)
    grid = [[" "] * p.width for _ in range(p.height)]
    joins: dict[tuple[int, int], int] = {}
    for ln in p.lines:
        (sx, sy), (mx, _), (_, ty), (tx, _) = ln.points
        _run(joins, (sx, sy), (mx, sy))
        _run(joins, (mx, sy), (mx, ty))
        _run(joins, (mx, ty), (tx - 1, ty))
    for (x, y), bits in joins.items():
        grid[y][x] = JOINS[bits]
    for name, x in p.columns:
        _put(grid, 0, x, fit(name, TEXT.box_w))
    marks: list[Mark] = [(0, x, x + len(name), "bold") for name, x in p.columns]
    for b in p.boxes:
        marks += _box(grid, b)
    for ln in p.lines:  # the line's ends on the borders
        (sx, sy), *_, (tx, ty) = ln.points
        grid[sy][sx - 1], grid[ty][tx] = "├", "┤"
    return ["".join(row).rstrip() for row in grid], marks


def _run(joins: dict[tuple[int, int], int], a: tuple[int, int], b: tuple[int, int]) -> None:
    """One straight stretch of a line: each cell joined towards its neighbours."""
    (x0, y0), (x1, y1) = a, b
    if (x0, y0) == (x1, y1):
        return
    if y0 == y1:
        lo, hi = sorted((x0, x1))
        for x in range(lo, hi + 1):
            joins[x, y0] = (
                joins.get((x, y0), 0) | (LEFT if x > lo else 0) | (RIGHT if x < hi else 0)
            )
    else:
        lo, hi = sorted((y0, y1))
        for y in range(lo, hi + 1):
            bits = (UP if y > lo else 0) | (DOWN if y < hi else 0)
            joins[x0, y] = joins.get((x0, y), 0) | bits


def _put(grid: list[list[str]], row: int, col: int, text: str) -> None:
    for i, ch in enumerate(text):
        grid[row][col + i] = ch


def _box(grid: list[list[str]], b: Box) -> list[Mark]:
    inner = b.w - 2
    marks: list[Mark] = []
    title = f" {b.match} "
    badge = f" {b.badge} " if b.badge else ""
    top = "┌" + title + "─" * max(0, inner - len(title) - len(badge)) + badge + "┐"
    _put(grid, b.y, b.x, top)
    marks.append((b.y, b.x + 1, b.x + 1 + len(title), "bold"))
    if badge:
        end = b.x + b.w - 1
        marks.append((b.y, end - len(badge), end, "bold red" if b.state == "playing" else "green"))
    for i, t in enumerate(b.teams):
        score = f" {t.score}" if t.score else ""
        name = fit(("▶ " if t.winner else "  ") + t.text, inner - len(score))
        row = b.y + 1 + i
        _put(grid, row, b.x, "│" + name.ljust(inner - len(score)) + score + "│")
        if t.winner:
            marks.append((row, b.x + 1, b.x + 1 + inner, "bold"))
        elif not t.known:
            marks.append((row, b.x + 1, b.x + 1 + inner, "dim"))
    foot = fit(" " + " · ".join(x for x in (b.note, b.segments) if x), inner)
    _put(grid, b.y + len(b.teams) + 1, b.x, "│" + foot.ljust(inner) + "│")
    _put(grid, b.y + b.h - 1, b.x, "└" + "─" * inner + "┘")
    return marks
