"""A board's deal as a traveller shows it: four hands, each suit's cards (``AKQ``, ``T98``),
read from the hand records' PBN deal (``N:AKQ.JT9.876.5432 …``), with the makeable
contracts and par when double dummy is available."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache

log = logging.getLogger(__name__)
SEATS = "NESW"


@dataclass(frozen=True, slots=True)
class Hand:
    """One seat's cards by suit, spades first, as PBN writes them (``"-"``: a void)."""

    seat: str
    spades: str
    hearts: str
    diamonds: str
    clubs: str

    def suits(self) -> tuple[tuple[str, str], ...]:
        """(symbol, cards) in the order a hand diagram shows them."""
        return (
            ("♠", self.spades or "-"),
            ("♥", self.hearts or "-"),
            ("♦", self.diamonds or "-"),
            ("♣", self.clubs or "-"),
        )


@dataclass(frozen=True, slots=True)
class Hands:
    """The four hands of a board: north, east, south, west."""

    north: Hand
    east: Hand
    south: Hand
    west: Hand


def hands_of(deal: str | None) -> Hands | None:
    """The hands of a PBN deal (``"N:…"``, ``"E:…"``: the first seat, then clockwise); None
    for no deal or one that does not read (the traveller then shows no hands)."""
    if not deal or len(deal) < 3 or deal[1] != ":" or deal[0].upper() not in SEATS:
        return None
    parts = deal[2:].split()
    if len(parts) != 4:
        return None
    first = SEATS.index(deal[0].upper())
    by_seat: dict[str, Hand] = {}
    for k, text in enumerate(parts):
        suits = text.split(".")
        if len(suits) != 4:
            return None
        seat = SEATS[(first + k) % 4]
        by_seat[seat] = Hand(seat, *(s.upper().replace("10", "T") for s in suits))
    return Hands(by_seat["N"], by_seat["E"], by_seat["S"], by_seat["W"])


@lru_cache(maxsize=1024)  # a deal's table never changes: once per deal
def double_dummy_text(deal: str, board: int) -> tuple[tuple[str, ...], str]:
    """The makeable contracts (``NS 4♠``) and par (``NS 620: 4♠ N, 4♠ S``) of a deal, by
    ``hub.event.double_dummy``; ``((), "")`` without endplay or when it fails (logged):
    the pages show the deal without them. DDS takes 0.1-0.2 s a deal: a worker thread's
    work, never the hub's loop (decisions D17)."""
    from hub.event.double_dummy import double_dummy, makeable, par_text

    try:
        dd = double_dummy(deal, board)
        return tuple(makeable(dd)), par_text(dd)
    except Exception as e:  # double dummy is an extra: a failure never stops a page
        log.warning("double dummy of board %s failed: %s", board, e)
        return (), ""
