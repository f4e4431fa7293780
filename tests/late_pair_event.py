"""The event the late-pair, names and event-edit tests share: a plain 3-table Mitchell with
EW 3 (internal 6) missing, so NS 3 sits out (pair 0 opposite), worked by hand:

    round 1: T1 1-4 b1-2, T2 2-5 b3-4, T3 3-0 b5-6
    round 2: T1 1-0 b3-4, T2 2-4 b5-6, T3 3-5 b1-2
    round 3: T1 1-5 b5-6, T2 2-0 b1-2, T3 3-4 b3-4

(NS 1-3 are pairs 1-3; EW 1-2 are pairs 4-5, the hub's numbers.)"""

from __future__ import annotations

from pathlib import Path

from hub.event.late_pairs import without_pair
from hub.event.movement.csv_format import format_movement
from hub.event.movement.mitchell import mitchell

NAMES = {1: "Anna Berg", 2: "Cleo Dahl", 3: "Erik Falk", 4: "Gun Holm", 5: "Ivar Jung"}


def five_pairs(folder: Path, roster: str | None = None) -> Path:
    """The event file and its movement file in ``folder`` (with a roster key if given);
    player 1 of pair n has member number 100 + n, player 2 is "Partner n"."""
    movement = without_pair(mitchell(3, 2), "A", 6, 1)
    (folder / "five.csv").write_text(format_movement(movement), encoding="utf-8")
    pairs = "".join(
        f"[[sessions.sections.pairs]]\nnumber = {n if n <= 3 else n - 3}\n"
        f'direction = "{"NS" if n <= 3 else "EW"}"\nplayers = [{{ name = "{name}", '
        f'number = "{100 + n}" }}, {{ name = "Partner {n}" }}]\n'
        for n, name in NAMES.items()
    )
    roster_line = f'roster = "{roster}"\n' if roster else ""
    text = (
        f'schema_version = 1\n[event]\nname = "Late pairs"\n{roster_line}[rules]\n'
        'scoring = "mp"\n[[sessions]]\nname = "Evening"\n[[sessions.sections]]\nletter = "A"\n'
        f'movement = "five.csv"\n{pairs}'
    )
    path = folder / "event.toml"
    path.write_text(text, encoding="utf-8")
    return path
