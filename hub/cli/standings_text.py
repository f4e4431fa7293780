"""Standings as ``bridgehub event standings`` prints them: a header line, then each pair's
place, its number as the room writes it (NS 3, EW 3 in a Mitchell), its players' names,
its percentage (or IMPs), matchpoints and boards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hub.event.movement.model import Movement
from hub.event.pair_labels import PairLabels
from scoring.numbers import display
from scoring.standings import Standing

NAMES = 36  # characters of names shown; longer ones are cut with "…"


def _cut(text: str, width: int = NAMES) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def standings_lines(
    rows: Sequence[Standing], names: Mapping[int, str], movement: Movement
) -> list[str]:
    """The header and one line per pair, best first ("(no results yet)" without rows)."""
    if not rows:
        return ["  (no results yet)"]
    section = movement.sections[0] if movement.sections else None
    labels = PairLabels.of(movement, section)
    imps = rows[0].total.top is None
    total = "IMPs" if imps else "%"
    head = f"  {'place':>5}  {'pair':<6} {'names':<{NAMES}} {total:>8}"
    out = [head + ("" if imps else f" {'MP':>8}") + f" {'boards':>6}"]
    for s in rows:
        pair = s.total.pair.number
        line = (
            f"  {s.rank:>5}  {labels.label(pair):<6} {_cut(names.get(pair, '')):<{NAMES}} "
            f"{display(s.total.total, 2):>8}"
        )
        if not imps:
            line += f" {display(s.total.points, 2):>8}"
        out.append(line + f" {s.total.boards:>6}")
    return out
