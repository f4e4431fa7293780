"""PBN 2.1 text from plain values: games of tag pairs and tables, in export format.

Portable Bridge Notation 2.1 (T. Veugen, K. G. Backas, 2017; www.tistis.nl/pbn/pbn_v21.txt):

- §2.1 export format, as the PBN FAQ sums it up: every tag of the mandatory tag set, in
  the prescribed order (``?`` for a value not known), tokens separated by one space, lines
  ending CRLF; §3.4 that tag set: Event, Site, Date, Board, West, North, East, South,
  Dealer, Vulnerable, Deal, Scoring, Declarer, Contract, Result; games apart by an empty line.
- §3.2 string tokens: a quote inside is written ``\\"``, a backslash ``\\\\``.
- §5.2 tables: the tag value names the columns, ``;`` apart, each with its minimum width and
  alignment (``Score_NS\\6R``); a row is one line, its elements one space apart and padded
  to the width; ``?`` an unknown element, ``-`` an irrelevant one, ``^`` before an
  artificial score.

Nothing here knows the store: ``hub/export/pbn.py`` builds the games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

MANDATORY = (
    "Event",
    "Site",
    "Date",
    "Board",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Scoring",
    "Declarer",
    "Contract",
    "Result",
)
"""PBN 2.1 §3.4: the mandatory tag set, in export order."""

UNKNOWN = "?"
IRRELEVANT = "-"
ARTIFICIAL = "^"


class Align(Enum):
    """A table column's alignment (PBN 2.1 §5.2): ``L`` pads after, ``R`` before."""

    LEFT = "L"
    RIGHT = "R"


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a table: its PBN name and alignment (the width is the widest cell)."""

    name: str
    align: Align = Align.RIGHT


@dataclass(frozen=True, slots=True)
class Table:
    """A supplemental section as a table (PBN 2.1 §5.2): ``ScoreTable``, ``TotalScoreTable``.
    Each row holds one element per column, already as PBN tokens (a string token quoted with
    ``string_token``)."""

    tag: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(f"{self.tag}: a row of {len(row)} cells for {len(self.columns)}")


@dataclass(frozen=True, slots=True)
class Game:
    """One game (a board with its results): tag values by name, then its tables. Tags of
    the mandatory set missing from ``tags`` are written with ``?``; the others follow in
    their given order."""

    tags: tuple[tuple[str, str], ...]
    tables: tuple[Table, ...] = ()


def string_token(text: str) -> str:
    """``text`` as a PBN string token (§3.2): quoted, inner quotes and backslashes escaped,
    line breaks as spaces (a token never spans lines)."""
    flat = " ".join(text.split())
    return '"' + flat.replace("\\", "\\\\").replace('"', '\\"') + '"'


def tag_line(name: str, value: str) -> str:
    """``[Name "value"]`` (§3.3)."""
    return f"[{name} {string_token(value)}]"


def _table_tag(name: str, columns: str) -> str:
    """A table's tag pair: its column names as written, the width's backslash kept single
    (``Score_NS\\6R``, §5.2; a column name has no quote)."""
    return f'[{name} "{columns}"]'


def table_lines(table: Table) -> list[str]:
    """The tag pair naming the columns with their widths, then one line per row (§5.2)."""
    widths = [max([1, *(len(row[i]) for row in table.rows)]) for i in range(len(table.columns))]
    header = ";".join(
        f"{c.name}\\{w}{c.align.value}" for c, w in zip(table.columns, widths, strict=True)
    )
    out = [_table_tag(table.tag, header)]
    for row in table.rows:
        cells = (
            cell.ljust(w) if c.align is Align.LEFT else cell.rjust(w)
            for cell, c, w in zip(row, table.columns, widths, strict=True)
        )
        out.append(" ".join(cells))
    return out


def game_lines(game: Game) -> list[str]:
    """A game's tag pairs in export order (the mandatory set first), then its tables."""
    given = dict(game.tags)
    lines = [tag_line(name, given.get(name, UNKNOWN)) for name in MANDATORY]
    lines += [tag_line(name, value) for name, value in game.tags if name not in MANDATORY]
    for table in game.tables:
        lines += table_lines(table)
    return lines


def pbn_text(games: Sequence[Game], creator: str = "bridgehub") -> str:
    """A whole PBN 2.1 file in export format: the version and format lines, the character
    set (UTF-8: names are written as the club spells them) and the creator, then every
    game, an empty line after each; CRLF line ends (§2.1)."""
    lines = [
        "% PBN 2.1",
        "% EXPORT",
        "%Content-type: text/x-pbn; charset=UTF-8",
        f"%Creator: {creator}",
    ]
    for game in games:
        lines += game_lines(game)
        lines.append("")
    return "\r\n".join(lines) + "\r\n"
