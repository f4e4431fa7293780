"""Seeded deals for a set of boards (``bridgehub deal``): the same seed gives the same
deals, board for board, so a set can be dealt again from its seed.

One ``random.Random(seed)`` shuffles a fresh, ordered pack of 52 cards for each board in
turn (board 1 first), and deals it thirteen each to N, E, S and W. The first boards of a
longer set are the boards of a shorter one with the same seed. ``shuffle`` on an integer
seed has dealt alike since Python 3.2 (a fact, not a promise of the language). endplay's
generator was not used: its pack is the iteration order of a ``set``, which Python does
not promise to keep."""

from __future__ import annotations

import random

from scoring.deal import RANKS, SUITS

PACK = tuple(suit + rank for suit in SUITS for rank in RANKS)  # ♠A … ♣2
SEATS_DEALT = "NESW"


def seeded_deals(seed: int, boards: int) -> dict[int, str]:
    """Boards 1..``boards`` → their deal as PBN (``N:AK2.… … … …``), from ``seed`` (≥ 0:
    Python seeds -7 and 7 alike, so a negative seed is refused rather than repeated)."""
    if seed < 0:
        raise ValueError(f"a seed is a whole number ≥ 0, not {seed}")
    if boards < 1:
        raise ValueError(f"a set has at least one board, not {boards}")
    rng = random.Random(seed)
    deals: dict[int, str] = {}
    for board in range(1, boards + 1):
        cards = list(PACK)
        rng.shuffle(cards)
        hands = [frozenset(cards[13 * k : 13 * k + 13]) for k in range(4)]
        deals[board] = "N:" + " ".join(hand_pbn(hand) for hand in hands)
    return deals


def hand_pbn(cards: frozenset[str]) -> str:
    """One hand as PBN writes it: ♠.♥.♦.♣, each suit high to low, a void empty."""
    return ".".join("".join(r for r in RANKS if suit + r in cards) for suit in SUITS)
