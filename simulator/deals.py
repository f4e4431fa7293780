"""The simulator knows the deals (issue [EVENING], TD trial F3): with a hand-record file,
its players bid what the cards hold, take a plausible number of tricks, and lead a card
from the opening leader's real hand, so an evening with hand records can be rehearsed.

Only the ``[Board]`` and ``[Deal]`` tags of a PBN file are read (no endplay here: the
simulator speaks the wire and may use ``scoring``, never the hub).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from drivers.protocol.codes import Seat as WireSeat
from scoring.board import Seat
from scoring.contract import Contract, Doubling, Strain
from scoring.deal import opening_leader, parse_deal

TAG = re.compile(r'^\[(\w+)\s+"([^"]*)"\]', re.MULTILINE)
HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}
SUITS = (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)  # PBN's hand order


class DealFileError(ValueError):
    pass


def read_deals(path: Path) -> dict[int, str]:
    """Board number → PBN deal (``N:… … … …``) of each board in a PBN file (the first deal
    given for a board counts)."""
    try:
        text = path.read_text("utf-8-sig")
    except OSError as e:
        raise DealFileError(f"cannot read hand records {path}: {e.strerror or e}") from None
    deals: dict[int, str] = {}
    board: int | None = None
    for tag, value in TAG.findall(text):
        if tag == "Board":
            board = int(value) if value.strip().isdigit() else None
        elif tag == "Deal" and board is not None and board not in deals and value != "#":
            try:
                parse_deal(value)
            except ValueError:
                raise DealFileError(f"{path}: board {board}'s deal {value!r} is not PBN") from None
            deals[board] = value
    if not deals:
        raise DealFileError(f"hand records {path} hold no [Board] with a [Deal]")
    return deals


def _points(hand: frozenset[str]) -> int:
    return sum(HCP.get(card[1], 0) for card in hand)


def _length(hand: frozenset[str], suit: str) -> int:
    return sum(card[0] == suit for card in hand)


def played(deal: str, rng: random.Random) -> tuple[str, int, str, int]:
    """(contract, wire declarer, lead, tricks) a table plausibly reaches with ``deal``: the
    side with more points declares its longest fit (no trump without an 8-card fit), the
    level from its points, tricks near what the points and fit are worth, and the opening
    leader leads a card of their own hand."""
    hands = parse_deal(deal)
    ns = _points(hands[Seat.N]) + _points(hands[Seat.S])
    side = (Seat.N, Seat.S) if ns >= 20 else (Seat.E, Seat.W)
    points = ns if ns >= 20 else 40 - ns
    fits = {
        strain: _length(hands[side[0]], strain.value) + _length(hands[side[1]], strain.value)
        for strain in SUITS
    }
    best = max(SUITS, key=lambda s: fits[s])
    strain = best if fits[best] >= 8 else Strain.NOTRUMP
    fit = fits[best] if strain is not Strain.NOTRUMP else 7
    worth = 6.5 + (points - 20) / 3 + (fit - 8) * 0.5
    tricks = max(0, min(13, round(worth + rng.gauss(0, 1.0))))
    level = max(1, min(7, round(worth) - 6))
    if strain is Strain.NOTRUMP and 25 <= points < 33:
        level = max(level, 3)
    declarer = max(side, key=lambda s: (_length(hands[s], strain.value), _points(hands[s])))
    leader = opening_leader(declarer)
    lead = rng.choice(sorted(hands[leader]))
    contract = Contract(level, strain, Doubling.NONE)
    return str(contract), int(WireSeat[declarer.name]), lead, tricks
