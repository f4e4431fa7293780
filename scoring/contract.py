"""Contracts and results as small value types, parsed with precise errors."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from scoring.board import Seat
from scoring.errors import ScoringInputError


class Strain(Enum):
    """Denomination of a contract, lowest first."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"
    NOTRUMP = "NT"

    @property
    def is_minor(self) -> bool:
        return self in (Strain.CLUBS, Strain.DIAMONDS)


class Doubling(Enum):
    """Undoubled, doubled or redoubled; the value is the multiplier of the trick score."""

    NONE = 1
    DOUBLED = 2
    REDOUBLED = 4

    @property
    def suffix(self) -> str:
        return {1: "", 2: "X", 4: "XX"}[self.value]


_STRAIN_ALIASES = {
    "C": Strain.CLUBS,
    "♣": Strain.CLUBS,
    "D": Strain.DIAMONDS,
    "♦": Strain.DIAMONDS,
    "H": Strain.HEARTS,
    "♥": Strain.HEARTS,
    "S": Strain.SPADES,
    "♠": Strain.SPADES,
    "N": Strain.NOTRUMP,
    "NT": Strain.NOTRUMP,
    "SA": Strain.NOTRUMP,
}
_CONTRACT_RE = re.compile(r"^([1-7])(NT|SA|[CDHSN♣♦♥♠])(XX|X|\*\*|\*)?$")
_PASS_WORDS = {"PASS", "P", "AP", "PASSED"}


@dataclass(frozen=True, slots=True)
class Contract:
    """A bid contract: level 1-7, strain, doubling."""

    level: int
    strain: Strain
    doubling: Doubling = Doubling.NONE

    def __post_init__(self) -> None:
        if not 1 <= self.level <= 7:
            raise ScoringInputError("contract", f"level {self.level} is not 1-7")

    @property
    def tricks_needed(self) -> int:
        return 6 + self.level

    def __str__(self) -> str:
        return f"{self.level}{self.strain.value}{self.doubling.suffix}"


PASS_OUT = None
"""A passed-out board has no contract; functions take ``Contract | None``."""


@lru_cache(maxsize=4096)
def parse_contract(text: str) -> Contract | None:
    """Parse ``3NT``, ``4HX``, ``6SXX``, ``PASS`` (→ None). Suit symbols and ``*`` doubles work."""
    raw = (text or "").strip().upper().replace(" ", "")
    if raw in _PASS_WORDS:
        return PASS_OUT
    m = _CONTRACT_RE.match(raw)
    if not m:
        raise ScoringInputError(
            "contract",
            f"contract {text!r} is not valid: write level 1-7, strain C/D/H/S/NT, then X or XX "
            "if doubled (e.g. 3NT, 4HX, 6SXX), or PASS",
        )
    level, strain, dbl = m.groups()
    doubling = {
        None: Doubling.NONE,
        "X": Doubling.DOUBLED,
        "*": Doubling.DOUBLED,
        "XX": Doubling.REDOUBLED,
        "**": Doubling.REDOUBLED,
    }[dbl]
    return Contract(int(level), _STRAIN_ALIASES[strain], doubling)


_RESULT_RE = re.compile(r"^(=|[+-]\d{1,2}|\d{1,2})$")


def parse_tricks(contract: Contract, text: str) -> int:
    """Tricks taken by declarer from ``=``, ``+n``, ``-n`` or a total of 0-13."""
    raw = (text or "").strip().replace("−", "-")
    m = _RESULT_RE.match(raw)
    if not m:
        raise ScoringInputError(
            "result", f"result {text!r} is not valid: write =, +n, -n or the tricks taken 0-13"
        )
    need = contract.tricks_needed
    if raw == "=":
        return need
    if raw[0] == "+":
        over = int(raw[1:])
        if over == 0:
            return need
        if need + over > 13:
            raise ScoringInputError(
                "result", f"{raw} is impossible for {contract}: at most +{13 - need}"
            )
        return need + over
    if raw[0] == "-":
        down = int(raw[1:])
        if down == 0:
            return need
        if down > need:
            raise ScoringInputError(
                "result", f"{raw} is impossible for {contract}: at most -{need}"
            )
        return need - down
    tricks = int(raw)
    if tricks > 13:
        raise ScoringInputError("result", f"{tricks} tricks is impossible: at most 13")
    return tricks


@dataclass(frozen=True, slots=True)
class Play:
    """What happened at a table: a contract by a declarer making some tricks, or a pass-out."""

    contract: Contract | None
    declarer: Seat | None = None
    tricks: int | None = None

    def __post_init__(self) -> None:
        if self.contract is None:
            if self.declarer is not None or self.tricks is not None:
                raise ScoringInputError("result", "a passed-out board has no declarer or result")
            return
        if self.declarer is None:
            raise ScoringInputError("declarer", f"{self.contract} needs a declarer: N, E, S or W")
        if self.tricks is None or not 0 <= self.tricks <= 13:
            raise ScoringInputError("result", f"tricks {self.tricks!r} must be 0-13")

    @property
    def result_text(self) -> str:
        """``=``, ``+n`` or ``-n`` as a traveller shows it; empty for a pass-out."""
        if self.contract is None or self.tricks is None:
            return ""
        diff = self.tricks - self.contract.tricks_needed
        return "=" if diff == 0 else f"{diff:+d}"

    def __str__(self) -> str:
        if self.contract is None or self.declarer is None:
            return "PASS"
        return f"{self.contract} {self.declarer.name} {self.result_text}"


def parse_play(contract: str, declarer: str = "", result: str = "") -> Play:
    """Parse the three traveller fields into a checked ``Play``."""
    parsed = parse_contract(contract)
    if parsed is None:
        if (result or "").strip() not in ("", "="):
            raise ScoringInputError("result", f"a passed-out board has no result, got {result!r}")
        return Play(None)
    if not (declarer or "").strip():
        raise ScoringInputError("declarer", f"{parsed} needs a declarer: N, E, S or W")
    seat = Seat.parse(declarer)
    if len(declarer.strip()) != 1 and declarer.strip().upper() not in (
        "NORTH",
        "EAST",
        "SOUTH",
        "WEST",
    ):
        raise ScoringInputError(
            "declarer", f"declarer {declarer!r} is not a seat: use N, E, S or W"
        )
    return Play(parsed, seat, parse_tricks(parsed, result))
