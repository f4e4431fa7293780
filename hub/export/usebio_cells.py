"""The texts of a USEBIO file's cells, as Compscore3 writes them: pair numbers ("2NS"),
contracts ("4SX", "PASS"), leads rank first ("TD"), artificial scores ("A6040"), dates
("dd/mm/yyyy") and hands by suit."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from fractions import Fraction

from hub.event.pair_labels import PairLabels
from hub.export.usebio_model import Hand
from scoring.board import Seat
from scoring.contract import parse_contract
from scoring.deal import RANKS, normalise_card, parse_deal
from scoring.errors import ScoringInputError
from scoring.numbers import display
from scoring.traveller import Artificial, Token

SEAT_NAMES = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}


def pair_number(labels: PairLabels, pair: int) -> str:
    """``2NS``/``2EW`` in a two-winner Mitchell, ``7`` where pairs are numbered once."""
    direction, n = labels.to_room(pair)
    return f"{n}{direction or ''}"


def date_text(day: dt.date | None) -> str:
    return day.strftime("%d/%m/%Y") if day else ""


def contract_text(contract: str | None) -> str | None:
    """``3NT``, ``4SX``, ``6HXX`` or ``PASS``; None when no contract was entered."""
    if not contract:
        return None
    try:
        parsed = parse_contract(contract)
    except ScoringInputError:
        return contract
    return "PASS" if parsed is None else str(parsed)


def lead_text(lead: str | None) -> str | None:
    """The opening lead rank first (``HA`` → ``AH``); None when unknown or unreadable."""
    if not lead:
        return None
    try:
        card = normalise_card(lead)
    except ScoringInputError:
        return None
    return card[1] + card[0]


def points_text(value: Fraction | int) -> str:
    """Points as Compscore3 writes them: ``34``, ``2.6``, ``-3.67`` (at most 2 decimals)."""
    text = display(value, 2)
    return text.rstrip("0").rstrip(".") if "." in text else text


def artificial_score(adjusted: str, averages: Mapping[str, float]) -> str:
    """``A`` and both sides' percentages: ``60/40`` → ``A6040``; ``A+/A-`` with the event's
    averages (60 and 40 by default). A weighted score (Law 12C1(c)) has no USEBIO form seen
    in the reference files: its text is kept as entered."""
    try:
        art = Artificial.parse(adjusted)
    except ScoringInputError:
        return adjusted
    if art.weighted:
        return adjusted

    def pct(award: Fraction | Token) -> str:
        value = Fraction(str(averages[award.value])) if isinstance(award, Token) else award
        return points_text(value)

    return f"A{pct(art.ns)}{pct(art.ew)}"


def hands_of(deal: str) -> tuple[Hand, ...]:
    """The four hands of a PBN deal (``N:…``), North first, each suit's ranks high to low."""
    cards = parse_deal(deal)
    out = []
    for seat in (Seat.N, Seat.E, Seat.S, Seat.W):
        held = cards[seat]

        def suit(letter: str, held: frozenset[str] = held) -> str:
            ranks = [c[1] for c in held if c[0] == letter]
            return "".join(sorted(ranks, key=RANKS.index))

        out.append(Hand(SEAT_NAMES[seat], suit("C"), suit("D"), suit("H"), suit("S")))
    return tuple(out)
