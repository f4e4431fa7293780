"""A knockout's bracket as a picture (issue [KNOCKOUT]): one box per match in a column per
round, its teams with their running IMPs (carry-over included), the winner marked, and a
line from a match to the one its winner goes to; then the same as a standalone SVG for the
web results pages. Drawn from the hub's bracket view (``hub/live/knockout/bracket_view.py``,
docs/api.md ``ko_show``). Pure: no I/O.

Which match feeds which slot comes from ``feeds`` (per match, per slot ``{match, place}``
or None) when the view or the caller gives it; else from the single-elimination rule: the
two matches of a round feeding one of the next are consecutive. A bracket the rule does not
fit (seed 000's double elimination) then gets no lines rather than wrong ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from hub.report.cells import number_text

Feed = tuple[str, int] | None  # (match, place): 1 its winner, 2 its loser; None: no match
Feeds = Mapping[str, Sequence[Mapping[str, Any] | None]]
NEXT = {"extra_set": "extra set follows", "sudden_death": "sudden death follows"}
DECIDED = {
    "walk_over": "w/o",
    "lot": "by lot",
    "boards_won": "on boards won",
    "total_points": "on total points",
    "higher_placed": "higher placed",
    "extra_set": "after an extra set",
    "sudden_death": "after sudden death",
}
BADGE = {"playing": "live", "ready": "ready"}


@dataclass(frozen=True, slots=True)
class Sizes:
    """The picture's units: a box's width, a row's height, the space below a box's rows,
    the gaps between columns and between boxes, the room for the round names on top."""

    box_w: int = 232
    row_h: int = 20
    pad: int = 4
    gap_x: int = 40
    gap_y: int = 14
    head: int = 28


PIXELS = Sizes()


@dataclass(frozen=True, slots=True)
class TeamLine:
    text: str  # "3 Lions"; "winner of QF-1", "—" while unknown; "bye"
    score: str  # the running IMPs ("45.5"), "" before a score
    winner: bool
    known: bool  # a team is named


@dataclass(frozen=True, slots=True)
class Box:
    """One match: its place in the picture and what it says."""

    match: str
    round: str
    column: int
    x: int
    y: int
    w: int
    h: int
    info: str  # "32 boards · tables 1/2"
    badge: str  # "live" while it plays, "ready", ""
    teams: tuple[TeamLine, ...]
    segments: str  # "c/o 6.5–0 · 12–8 · 20–15"
    note: str  # "extra set follows", "w/o", "bye", "by lot", ""
    state: str


@dataclass(frozen=True, slots=True)
class Line:
    """A winner's way on: from ``source``'s right edge to ``slot`` of ``target``."""

    source: str
    target: str
    slot: int
    points: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Picture:
    name: str
    columns: tuple[tuple[str, int], ...]  # each round's name and its column's x
    boxes: tuple[Box, ...]
    lines: tuple[Line, ...]
    width: int
    height: int


def feeds_of(view: Mapping[str, Any], feeds: Feeds | None = None) -> dict[str, tuple[Feed, ...]]:
    """Per match, what feeds each slot: ``feeds`` given, else each match's own ``feeds``
    in the view, else the consecutive rule of a single elimination."""
    given = feeds if feeds is not None else _view_feeds(view)
    if given is not None:
        return {name: tuple(_feed(f) for f in slots) for name, slots in given.items()}
    out: dict[str, tuple[Feed, ...]] = {}
    for before, here in pairwise(_columns(view)):
        pairs, two_slot = len(before) // 2, all(len(m["teams"]) == 2 for m in before + here)
        if len(before) % 2 or not two_slot or len(here) not in (pairs, pairs + 1):
            continue
        for j in range(pairs):
            out[here[j]["match"]] = ((before[2 * j]["match"], 1), (before[2 * j + 1]["match"], 1))
    return out


def _feed(f: Mapping[str, Any] | None) -> Feed:
    """A slot fed by a match's winner or loser; a rank, a team or a choice feeds no line
    (the hub's view gives those too: ``{"rank": 5}``)."""
    if f is None or "match" not in f:
        return None
    return str(f["match"]), int(f["place"])


def _view_feeds(view: Mapping[str, Any]) -> dict[str, Any] | None:
    found = {m["match"]: m["feeds"] for m in view["matches"] if m.get("feeds") is not None}
    return found or None


def _columns(view: Mapping[str, Any]) -> list[list[Mapping[str, Any]]]:
    """The matches by round, in playing order and in bracket order within a round (a round
    the view does not list goes last)."""
    rounds = list(view["rounds"])
    rounds += [m["round"] for m in view["matches"] if m["round"] not in rounds]
    rounds = list(dict.fromkeys(rounds))
    return [[m for m in view["matches"] if m["round"] == r] for r in rounds]


def score_text(value: str) -> str:
    """Exact IMPs of the view ("13/2") as the pages show points: ``6.5``."""
    return number_text(Fraction(value))


def feed_text(feed: Feed) -> str:
    """A slot whose team is not known yet: "winner of QF-1", "loser of U1-2", "—"."""
    if feed is None:
        return "—"
    match, place = feed
    return {1: "winner", 2: "loser"}.get(place, f"place {place}") + f" of {match}"


def _teams(m: Mapping[str, Any], feeds: tuple[Feed, ...]) -> tuple[TeamLine, ...]:
    totals = m.get("totals") or []
    out = []
    for i, t in enumerate(m["teams"]):
        if t is not None:
            text = f"{t['team']} {t.get('name') or ''}".strip()
        else:
            text = "bye" if m.get("bye") else feed_text(feeds[i] if i < len(feeds) else None)
        score = score_text(totals[i]) if i < len(totals) and t is not None else ""
        won = m.get("winner") == i or (bool(m.get("bye")) and t is not None)
        out.append(TeamLine(text, score, won, t is not None))
    return tuple(out)


def _segments(m: Mapping[str, Any]) -> str:
    parts = []
    carry = m.get("carry") or []
    if any(Fraction(c) for c in carry):
        parts.append("c/o " + "–".join(score_text(c) for c in carry))
    parts += [f"{score_text(s['home'])}–{score_text(s['away'])}" for s in m.get("segments") or []]
    return " · ".join(parts)


def _note(m: Mapping[str, Any]) -> str:
    if m.get("bye"):
        return "bye"
    if m.get("walk_over"):
        return "w/o"
    if m.get("next"):
        return NEXT.get(m["next"], str(m["next"]))
    return DECIDED.get(str(m.get("decided_by")), "")


def _info(m: Mapping[str, Any]) -> str:
    tables = m.get("tables")
    return f"{m['boards']} boards" + (f" · tables {'/'.join(map(str, tables))}" if tables else "")


def bracket_layout(
    view: Mapping[str, Any], feeds: Feeds | None = None, sizes: Sizes = PIXELS
) -> Picture:
    """Every match a box in its round's column, stacked in bracket order without overlap,
    each as near as it can be to the middle of the matches whose winners it takes; a line
    from each such match to its slot."""
    fed = feeds_of(view, feeds)
    s = sizes
    boxes: dict[str, Box] = {}
    columns = []
    for c, col in enumerate(_columns(view)):
        x = c * (s.box_w + s.gap_x)
        columns.append((col[0]["round"] if col else "", x))
        bottom = s.head - s.gap_y
        for m in col:
            h = s.row_h * (len(m["teams"]) + 2) + s.pad
            feeders = [_winner_of(f, boxes, c) for f in fed.get(m["match"], ())]
            centres = [_centre(b) for b in feeders if b is not None]
            want = sum(centres) // len(centres) - h // 2 if centres else bottom + s.gap_y
            y = max(want, bottom + s.gap_y)
            boxes[m["match"]] = Box(
                m["match"], m["round"], c, x, y, s.box_w, h, _info(m),
                BADGE.get(m["state"], ""), _teams(m, fed.get(m["match"], ())), _segments(m),
                _note(m), m["state"],
            )  # fmt: skip
            bottom = y + h
    lines = []
    for target in boxes.values():
        for slot, f in enumerate(fed.get(target.match, ())):
            source = _winner_of(f, boxes, target.column)
            if source is not None:
                lines.append(_line(source, target, slot, s))
    width = max((b.x + b.w for b in boxes.values()), default=0)
    height = max((b.y + b.h for b in boxes.values()), default=s.head)
    return Picture(str(view.get("name") or ""), tuple(columns), tuple(boxes.values()),
                   tuple(lines), width, height)  # fmt: skip


def _winner_of(feed: Feed, boxes: Mapping[str, Box], column: int) -> Box | None:
    """The match whose winner takes a slot, when it is in an earlier column."""
    box = boxes.get(feed[0]) if feed is not None and feed[1] == 1 else None
    return box if box is not None and box.column < column else None


def _centre(b: Box) -> int:
    return b.y + b.h // 2


def slot_y(b: Box, slot: int, sizes: Sizes) -> int:
    """The middle of a box's team line ``slot`` (the header is the first row)."""
    return b.y + sizes.row_h * (1 + slot) + sizes.row_h // 2


def _line(source: Box, target: Box, slot: int, s: Sizes) -> Line:
    sx, sy = source.x + source.w, _centre(source)
    tx, ty = target.x, slot_y(target, slot, s)
    mx = tx - s.gap_x // 2
    return Line(source.match, target.match, slot, ((sx, sy), (mx, sy), (mx, ty), (tx, ty)))


def fit(text: str, chars: int) -> str:
    """``text`` cut to ``chars`` characters, an ellipsis marking the cut."""
    return text if len(text) <= chars else text[: max(0, chars - 1)] + "…"


def bracket_svg(view: Mapping[str, Any], feeds: Feeds | None = None) -> str:
    """The bracket as a standalone SVG: no script, no style sheet (presentation attributes
    only, so the pages' Content-Security-Policy allows it), every text escaped; 14 px text
    in boxes of 232 px, at its own size (the page scrolls it sideways on a phone)."""
    p = bracket_layout(view, feeds)
    s = PIXELS
    w, h = p.width + 2, p.height + 2
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bracket" width="{w}" height="{h}" '
        f'viewBox="-1 -1 {w} {h}" font-family="DejaVu Sans, Arial, sans-serif" '
        f'font-size="14" role="img" aria-label={quoteattr(p.name or "bracket")}>',
        f"<title>{escape(p.name or 'bracket')}</title>",
    ]
    for name, x in p.columns:
        out.append(_text(x + 4, 18, name, 'font-weight="bold" fill="#1d4e89" class="round"'))
    for ln in p.lines:
        pts = " ".join(f"{x},{y}" for x, y in ln.points)
        out.append(
            f'<polyline class="feed" data-from={quoteattr(ln.source)} '
            f'data-to={quoteattr(ln.target)} points="{pts}" fill="none" stroke="#7a8ca3" '
            'stroke-width="1.5"/>'
        )
    for b in p.boxes:
        out += _box_svg(b, s)
    out.append("</svg>")
    return "\n".join(out)


def _text(x: int, y: int, text: str, attrs: str = "") -> str:
    return f'<text x="{x}" y="{y}"{" " * bool(attrs)}{attrs}>{escape(text)}</text>'


def _box_svg(b: Box, s: Sizes) -> list[str]:
    live = b.state == "playing"
    stroke = "#c00000" if live else "#1d4e89"
    out = [
        f"<g class={quoteattr('match ' + b.state)} data-match={quoteattr(b.match)}>",
        f'<rect x="{b.x}" y="{b.y}" width="{b.w}" height="{b.h}" rx="4" fill="#ffffff" '
        f'stroke="{stroke}" stroke-width="{2 if live else 1}"/>',
        _text(b.x + 6, b.y + 15, b.match, 'font-weight="bold"'),
        _text(b.x + 6 + 9 * len(b.match), b.y + 15, b.info, 'font-size="11" fill="#555555"'),
    ]
    if b.badge:
        colour = "#c00000" if live else "#2a7d2a"
        attrs = f'text-anchor="end" font-size="11" font-weight="bold" fill="{colour}" class="badge"'
        out.append(_text(b.x + b.w - 6, b.y + 15, b.badge, attrs))
    for i, t in enumerate(b.teams):
        top = b.y + s.row_h * (1 + i)
        if t.winner:
            out.append(
                f'<rect class="winner" x="{b.x + 1}" y="{top}" width="{b.w - 2}" '
                f'height="{s.row_h}" fill="#e3f1e3"/>'
            )
        mark = "▶ " if t.winner else ""
        attrs = ('font-weight="bold" class="team winner"' if t.winner else 'class="team"') + (
            "" if t.known else ' fill="#666666" font-style="italic"'
        )
        out.append(_text(b.x + 6, top + 15, fit(mark + t.text, 22), attrs))
        if t.score:
            weight = ' font-weight="bold"' if t.winner else ""
            out.append(_text(b.x + b.w - 6, top + 15, t.score, f'text-anchor="end"{weight}'))
    foot = " · ".join(x for x in (b.note, b.segments) if x)  # the note first: never cut
    if foot:
        y = b.y + s.row_h * (len(b.teams) + 1) + 14
        out.append(_text(b.x + 6, y, fit(foot, 34), 'font-size="11" fill="#333333" class="foot"'))
    out.append("</g>")
    return out
