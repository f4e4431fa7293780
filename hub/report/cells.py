"""The printed cells of a result: contract with suit symbols, the result as ``=``, ``+1``,
``-2``, the lead, the scores and the points, in the report's language."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from scoring.contract import Contract, Strain, parse_contract
from scoring.numbers import display

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_SYMBOL = {Strain.CLUBS: "♣", Strain.DIAMONDS: "♦", Strain.HEARTS: "♥", Strain.SPADES: "♠"}


def contract_text(contract: str | None, words: Mapping[str, str]) -> str:
    """``4♠x``, ``3NT``, ``Pass`` (in the report's language)."""
    parsed = parse_contract(contract or "PASS")
    if parsed is None:
        return words["pass"]
    return f"{parsed.level}{_SYMBOL.get(parsed.strain, 'NT')}{parsed.doubling.suffix.lower()}"


def result_text(contract: str | None, tricks: int | None) -> str:
    """Tricks against the contract: ``=``, ``+1``, ``-2`` (empty for a pass)."""
    parsed: Contract | None = parse_contract(contract) if contract else None
    if parsed is None or tricks is None:
        return ""
    diff = tricks - parsed.tricks_needed
    return "=" if diff == 0 else f"{diff:+d}"


def seat_text(seat: str | None, words: Mapping[str, str]) -> str:
    """A seat's letter in the report's language (N/E/S/W; Ö, V... in Swedish)."""
    if not seat:
        return ""
    letter = seat.strip().upper()[:1]
    return words.get(f"seat_{letter}", letter)


def lead_text(lead: str | None) -> str:
    """``HA`` as ``♥A``; anything else as given."""
    if not lead:
        return ""
    text = lead.strip().upper()
    return f"{SUITS[text[0]]}{text[1:]}" if text[:1] in SUITS else lead


def number_text(value: Fraction | int) -> str:
    """Points as a TD writes them: ``7``, ``7.5``, ``7.33`` (at most two decimals)."""
    text = display(value, 2)
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def signed_text(value: Fraction | int) -> str:
    """IMPs with their sign: ``+3``, ``-1.5``, ``0``."""
    text = number_text(value)
    return f"+{text}" if value > 0 else text


def total_text(value: Fraction) -> str:
    """A total in IMPs or VPs: two decimals, signed at IMPs (``+4.50``), as the console."""
    text = display(value, 2)
    return f"+{text}" if value > 0 else text


def percent_text(value: Fraction) -> str:
    """A percentage with two decimals: ``62.50``."""
    return display(value, 2)


def label_in(label: str, words: Mapping[str, str]) -> str:
    """A pair label ("NS 3", "EW 3") with the direction in the report's language."""
    for side in ("NS", "EW"):
        if label.startswith(f"{side} "):
            return f"{words[side.lower()]} {label[3:]}"
    return label
