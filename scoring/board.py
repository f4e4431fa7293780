"""Seats, vulnerability, and what a board number fixes (16-board cycle, Law 2)."""

from __future__ import annotations

from enum import Enum

from scoring.errors import ScoringInputError


class Seat(Enum):
    """A compass seat; the value is its order from North clockwise."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def side(self) -> Side:
        return Side.NS if self in (Seat.N, Seat.S) else Side.EW

    @classmethod
    def parse(cls, text: str) -> Seat:
        key = text.strip().upper()[:1]
        try:
            return cls[key]
        except KeyError:
            raise ScoringInputError(
                "declarer", f"declarer {text!r} is not a seat: use N, E, S or W"
            ) from None


class Side(Enum):
    """A partnership direction."""

    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS


class Vulnerability(Enum):
    """Which sides are vulnerable on a board."""

    NONE = "None"
    NS = "NS"
    EW = "EW"
    BOTH = "All"

    def is_vulnerable(self, side: Side) -> bool:
        return self is Vulnerability.BOTH or self.value == side.value


# Vulnerability of boards 1..16; the cycle repeats every 16 boards.
_VUL_CYCLE = (
    "0",
    "NS",
    "EW",
    "B",
    "NS",
    "EW",
    "B",
    "0",
    "EW",
    "B",
    "0",
    "NS",
    "B",
    "0",
    "NS",
    "EW",
)
_VUL_BY_CODE = {
    "0": Vulnerability.NONE,
    "NS": Vulnerability.NS,
    "EW": Vulnerability.EW,
    "B": Vulnerability.BOTH,
}


def _check_board(board: int) -> None:
    if not isinstance(board, int) or board < 1:
        raise ScoringInputError("board", f"board number {board!r} must be a whole number ≥ 1")


def board_dealer(board: int) -> Seat:
    """Dealer of a board: N, E, S, W in turn from board 1."""
    _check_board(board)
    return Seat((board - 1) % 4)


def board_vulnerability(board: int) -> Vulnerability:
    """Vulnerability of a board by the standard 16-board cycle."""
    _check_board(board)
    return _VUL_BY_CODE[_VUL_CYCLE[(board - 1) % 16]]
