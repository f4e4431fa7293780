"""A small USEBIO reader for the tests: a file as plain values, whichever program wrote it.

It reads the real files of Compscore3 and of the NZ Scorer converter
(``tests/data/usebio/``) and ours alike, so the export's tests compare our file with theirs
through the same code. It accepts both producers' ways: ``EVENT_TYPE`` ``MP_PAIRS`` or
``PAIRS``, pair numbers ``2NS``, ``2 NS`` or ``7``, ``PARTICIPANTS`` and ``BOARD`` directly
in ``EVENT`` or in ``SECTION``s, ``MASTER_POINTS`` nested or not. Numbers stay ``Decimal``
(exactly the text of the file).
"""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

_NUMBER = re.compile(r"^\s*(?:\((?P<section>\w+)\)\s*)?(?P<n>\d+)\s*(?P<dir>NS|EW)?\s*$")
POINTS = {  # the traveller line's points elements (NS_ and EW_ …) and the scoring they mean
    "MATCH_POINTS": "mp",
    "BUTLER_POINTS": "butler",
    "CROSS_IMP_POINTS": "ximp",
}


@dataclass(frozen=True, order=True)
class PairNumber:
    """A pair's (or team's) number with its direction in a two-winner field."""

    number: int
    direction: str | None = None

    @classmethod
    def parse(cls, text: str) -> PairNumber:
        m = _NUMBER.match(text or "")
        if not m:
            raise ValueError(f"pair number {text!r} is not a number with NS or EW")
        return cls(int(m["n"]), m["dir"])


@dataclass(frozen=True)
class Entrant:
    kind: str  # PAIR or TEAM
    section: str
    number: PairNumber
    direction: str | None
    place: int
    total: Decimal
    percentage: Decimal | None
    players: tuple[tuple[str, str | None], ...]  # (name, national id)
    name: str | None = None


@dataclass(frozen=True)
class Line:
    ns: PairNumber
    ew: PairNumber
    contract: str | None
    played_by: str | None
    lead: str | None
    tricks: int | None
    score: str
    points: str | None  # MATCH_POINTS, BUTLER_POINTS … (None: no points elements)
    ns_points: Decimal | None
    ew_points: Decimal | None


@dataclass(frozen=True)
class Board:
    section: str
    number: int
    average: int | None
    lines: tuple[Line, ...]


@dataclass
class UsebioFile:
    version: str
    event_type: str
    program: str
    winner_type: int
    date: dt.date
    sections: list[str]
    entrants: list[Entrant]
    boards: list[Board]
    hands: dict[int, dict[str, dict[str, str]]]  # board → "North" → "SPADES" → "AQ5"
    paths: frozenset[str] = field(default_factory=frozenset)

    @property
    def scoring(self) -> str:
        """mp, butler, ximp (from the points elements) or teams."""
        kinds = {POINTS.get(x.points or "") for b in self.boards for x in b.lines}
        kinds.discard(None)
        if len(kinds) == 1:
            return str(kinds.pop())
        return "teams" if self.event_type == "TEAMS" else "unknown"

    def entrant(self, number: str, section: str = "") -> Entrant:
        key = PairNumber.parse(number)
        (found,) = [e for e in self.entrants if e.number == key and e.section == section]
        return found

    def board(self, number: int, section: str = "") -> Board:
        (found,) = [b for b in self.boards if b.number == number and b.section == section]
        return found


def element_paths(root: ET.Element) -> frozenset[str]:
    """Every element's path from the root (``USEBIO/EVENT/BOARD/TRAVELLER_LINE/SCORE``),
    with its attribute names (``USEBIO/EVENT[@EVENT_TYPE]``)."""
    out: set[str] = set()

    def walk(el: ET.Element, prefix: str) -> None:
        path = f"{prefix}/{el.tag}" if prefix else el.tag
        out.add(path)
        out.update(f"{path}[@{name}]" for name in el.attrib)
        for child in el:
            walk(child, path)

    walk(root, "")
    return frozenset(out)


def _text(el: ET.Element, tag: str) -> str | None:
    child = el.find(tag)
    return None if child is None else (child.text or "").strip()


def _decimal(text: str | None) -> Decimal | None:
    return Decimal(text) if text not in (None, "") else None


def _entrant(el: ET.Element, section: str) -> Entrant:
    kind = el.tag
    number = _text(el, "PAIR_NUMBER" if kind == "PAIR" else "TEAM_NUMBER") or ""
    players = tuple(
        (_text(p, "PLAYER_NAME") or "", _text(p, "NATIONAL_ID_NUMBER"))
        for p in el.findall("PLAYER")
    )
    total = _decimal(_text(el, "TOTAL_SCORE"))
    return Entrant(
        kind,
        section,
        PairNumber.parse(number),
        _text(el, "DIRECTION") or None,
        int(_text(el, "PLACE") or 0),
        total if total is not None else Decimal(0),
        _decimal(_text(el, "PERCENTAGE")),
        players,
        _text(el, "TEAM_NAME"),
    )


def _line(el: ET.Element) -> Line:
    kind = next(
        (c.tag[3:] for c in el if c.tag.startswith("NS_") and c.tag != "NS_PAIR_NUMBER"), None
    )
    tricks = _text(el, "TRICKS")
    return Line(
        PairNumber.parse(_text(el, "NS_PAIR_NUMBER") or ""),
        PairNumber.parse(_text(el, "EW_PAIR_NUMBER") or ""),
        _text(el, "CONTRACT"),
        _text(el, "PLAYED_BY"),
        _text(el, "LEAD"),
        int(tricks) if tricks else None,
        _text(el, "SCORE") or "",
        kind,
        _decimal(_text(el, f"NS_{kind}")) if kind else None,
        _decimal(_text(el, f"EW_{kind}")) if kind else None,
    )


def _board(el: ET.Element, section: str) -> Board:
    average = _text(el, "BOARD_AVERAGE")
    return Board(
        section,
        int(_text(el, "BOARD_NUMBER") or 0),
        int(average) if average else None,
        tuple(_line(x) for x in el.findall("TRAVELLER_LINE")),
    )


def read_usebio(path: Path) -> UsebioFile:
    """The file's values. Sections are named by ``SECTION_ID``; "" where there are none."""
    root = ET.parse(path).getroot()
    if root.tag != "USEBIO":
        raise ValueError(f"{path}: the root is {root.tag}, not USEBIO")
    event = root.find("EVENT")
    if event is None:
        raise ValueError(f"{path}: no EVENT")
    parts = [(s.get("SECTION_ID") or "", s) for s in event.findall("SECTION")] or [("", event)]
    entrants = [
        _entrant(e, letter)
        for letter, part in parts
        for e in part.findall("PARTICIPANTS/*")
        if e.tag in ("PAIR", "TEAM")
    ]
    boards = [_board(b, letter) for letter, part in parts for b in part.findall("BOARD")]
    hands: dict[int, dict[str, dict[str, str]]] = {}
    for b in root.findall("HANDSET/BOARD"):
        seats = {}
        for h in b.findall("HAND"):
            suits = ("SPADES", "HEARTS", "DIAMONDS", "CLUBS")
            seats[_text(h, "DIRECTION") or ""] = {s: _text(h, s) or "" for s in suits}
        hands[int(_text(b, "BOARD_NUMBER") or 0)] = seats
    day = dt.datetime.strptime(_text(event, "DATE") or "", "%d/%m/%Y").date()
    return UsebioFile(
        root.get("Version") or "",
        event.get("EVENT_TYPE") or "",
        _text(event, "PROGRAM_NAME") or "",
        int(_text(event, "WINNER_TYPE") or 0),
        day,
        [letter for letter, _ in parts],
        entrants,
        boards,
        hands,
        element_paths(root),
    )
