"""A deal from its PBN text (``N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 …``): who holds what,
so an opening lead can be checked against the hand record."""

from __future__ import annotations

from scoring.board import Seat
from scoring.errors import ScoringInputError

SUITS = "SHDC"
RANKS = "AKQJT98765432"


def normalise_card(text: str) -> str:
    """``HA``, ``h10``, ``♥A``, ``10H`` → ``HA``, ``HT``; raises for anything else."""
    raw = text.strip().upper().replace("10", "T").replace("♠", "S").replace("♥", "H")
    raw = raw.replace("♦", "D").replace("♣", "C")
    if len(raw) == 2 and raw[0] in RANKS and raw[1] in SUITS:
        raw = raw[1] + raw[0]
    if len(raw) != 2 or raw[0] not in SUITS or raw[1] not in RANKS:
        raise ScoringInputError(
            "lead", f"lead {text!r} is not a card: write suit then rank, e.g. HA, S10"
        )
    return raw


def parse_deal(pbn: str) -> dict[Seat, frozenset[str]]:
    """Cards of each seat (``SA``, ``HT`` …) from a PBN deal."""
    try:
        first, hands = pbn.strip().split(":", 1)
        start = Seat.parse(first)
        parts = hands.split()
        if len(parts) != 4:
            raise ValueError
    except (ValueError, ScoringInputError):
        raise ScoringInputError("deal", f"deal {pbn!r} is not PBN (N:♠.♥.♦.♣ × 4)") from None
    out: dict[Seat, frozenset[str]] = {}
    for k, hand in enumerate(parts):
        suits = hand.split(".")
        if len(suits) != 4:
            raise ScoringInputError("deal", f"hand {hand!r} needs four suits")
        out[Seat((start.value + k) % 4)] = frozenset(
            s + r for s, ranks in zip(SUITS, suits, strict=True) for r in ranks
        )
    return out


def opening_leader(declarer: Seat) -> Seat:
    """The defender on declarer's left leads."""
    return Seat((declarer.value + 1) % 4)
