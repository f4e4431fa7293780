"""A barometer for the results pages' tests (issue 14 [PUBLISH]): 2 tables, 4 pairs, 3
rounds of one board (round r plays board r at both tables: hub/event/movement/barometer.py),
the rankings of the last ``hide`` rounds hidden (``[rules.display]
hide_rankings_last_rounds``), hand records for boards 1-3.

The deal is made by hand so every hand is obvious: North holds the thirteen spades, East
the hearts, South the diamonds, West the clubs (PBN 2.1 §3.4.11 ``Deal``: the first seat,
then clockwise, each hand ``spades.hearts.diamonds.clubs``)."""

from __future__ import annotations

from pathlib import Path

from event_text import one_section_event

from hub.store.store import Store

SUIT_DEAL = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
# the barometer's seating (hub's numbers): board: [(table, round, NS, EW)]
SEATING = {
    1: [(1, 1, 4, 1), (2, 1, 3, 2)],
    2: [(1, 2, 1, 3), (2, 2, 2, 4)],
    3: [(1, 3, 2, 1), (2, 3, 4, 3)],
}


def barometer_event(hide: int, sections: str = "A") -> str:
    """The event file; ``sections`` ``"AB"``: a second section B like A in the same
    session, so playing the same deals (its hand records)."""
    movement = 'kind = "barometer", tables = 2, boards_per_round = 1'
    text = one_section_event("Barometer night", movement)
    for letter in sections[1:]:
        text += f'[[sessions.sections]]\nletter = "{letter}"\nmovement = {{ {movement} }}\n'
    return text.replace(
        '[[sessions]]\nname = "Evening"',
        f"[rules.display]\nhide_rankings_last_rounds = {hide}\n"
        '[[sessions]]\nname = "Evening"\nhand_records = "hands.pbn"',
    )


def create_barometer(folder: Path, hide: int = 2, sections: str = "A") -> int:
    """The event in ``folder/event.db`` (its hand records beside it); its id."""
    (folder / "hands.pbn").write_text(
        "".join(f'[Board "{b}"]\n[Deal "{SUIT_DEAL}"]\n\n' for b in (1, 2, 3)), "utf-8"
    )
    store = Store.open(f"sqlite:///{folder / 'event.db'}")
    try:
        return store.create_event(barometer_event(hide, sections), folder)
    finally:
        store.close()
