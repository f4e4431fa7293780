"""Double-dummy tables and par of a hand record (endplay's DDS): the tricks each declarer
takes in each strain with every card in view, the par score and its contracts, and the
makeable contracts as a hand-record sheet prints them.

The API other parts build on (the traveller on the console, the web page, the printed
report, the PBN writer) is ``double_dummy(deal, board) -> DoubleDummy``, ``makeable(dd)``
and ``par_text(dd)``; ``from_tricks`` builds the same from a file's ``DoubleDummyTricks``
without solving. A solution takes 0.1-0.2 s: the hub calls ``double_dummy`` in a worker
thread, never on its loop (decisions D17); it is cached per deal and board.

endplay is the ``dd`` extra: imported on the first solution, with ``HandRecordError`` naming
the extra when it is missing. endplay's DDS is not safe in two threads at once: ``double_dummy``
solves under ``DDS_LOCK``, and any other use of DDS in the process must hold it too.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from hub.event.hand_records import HandRecordError, check_deals, endplay_missing
from scoring.board import Seat, Side, board_dealer, board_vulnerability
from scoring.contract import Strain

# the order of a hand-record sheet and of PBN's DoubleDummyTricks: N, S, E, W; NT down to ♣
SEATS = (Seat.N, Seat.S, Seat.E, Seat.W)
STRAINS = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
SYMBOLS = {
    Strain.NOTRUMP: "NT",
    Strain.SPADES: "♠",
    Strain.HEARTS: "♥",
    Strain.DIAMONDS: "♦",
    Strain.CLUBS: "♣",
}
PARTNERS = {Side.NS: (Seat.N, Seat.S), Side.EW: (Seat.E, Seat.W)}
# endplay's DDS crashes the process when two threads solve at once: one solution at a time
# (re-entrant, so a caller that already holds it may solve)
DDS_LOCK = threading.RLock()
# the solutions again, read under DDS_LOCK: two threads asking for one deal at once (the hub
# solving its hand records, the results pages' request) solve it once, not one after the other
SOLVED_KEPT = 1024
_SOLVED: dict[tuple[str, int], DoubleDummy] = {}
# the solutions hand-record files carried (``from_tricks``): never solved again in this process
_FROM_FILES: dict[tuple[str, int], DoubleDummy] = {}


@dataclass(frozen=True)
class ParContract:
    """One par contract: ``over`` is the tricks above (+) or below (-) the contract; a
    sacrifice is doubled and goes down."""

    level: int
    strain: Strain
    declarer: Seat
    doubled: bool = False
    over: int = 0

    def text(self, symbols: bool = True) -> str:
        """``4♠ N``, ``3NT S +1``, ``5♦x E -2`` (``4S N``, ``5Dx E -2`` without symbols)."""
        strain = SYMBOLS[self.strain] if symbols else self.strain.value
        over = f" {self.over:+d}" if self.over else ""
        return f"{self.level}{strain}{'x' if self.doubled else ''} {self.declarer.name}{over}"


@dataclass(frozen=True)
class DoubleDummy:
    """A board's double-dummy solution: ``tricks[seat, strain]`` for every declarer and
    strain; ``par_score`` from NS's side (-400: EW score 400), on the board's own dealer and
    vulnerability; ``par`` its contracts (none when the par is a pass-out)."""

    board: int
    deal: str
    tricks: Mapping[tuple[Seat, Strain], int] = field(hash=False)  # read-only
    par_score: int
    par: tuple[ParContract, ...]

    @property
    def par_contracts(self) -> tuple[str, ...]:
        """The par contracts as a TD reads them: ``("4♠ N", "4♠ S")``."""
        return tuple(c.text() for c in self.par)

    def as_dict(self) -> dict[str, Any]:
        """The solution as the hub's API sends it (``docs/api.md``, the traveller read)."""
        return {
            "tricks": {
                seat.name: {strain.value: self.tricks[seat, strain] for strain in STRAINS}
                for seat in SEATS
            },
            "par_score": self.par_score,
            "par_contracts": list(self.par_contracts),
            "par": par_text(self),
            "makeable": makeable(self),
        }


def makeable(dd: DoubleDummy, symbols: bool = True) -> list[str]:
    """The makeable contracts as a hand-record sheet gives them: per side (NS, then EW) and
    strain (NT down to ♣) the highest level each declarer makes, one entry for both partners
    when they make the same (``NS 4♠``), else one per declarer (``N 3NT``, ``S 2NT``);
    nothing for a strain in which they take six tricks or fewer."""
    out: list[str] = []
    for side, seats in PARTNERS.items():
        for strain in STRAINS:
            name = SYMBOLS[strain] if symbols else strain.value
            levels = {seat: dd.tricks[seat, strain] - 6 for seat in seats}
            if len(set(levels.values())) == 1:
                level = levels[seats[0]]
                out += [f"{side.value} {level}{name}"] if level >= 1 else []
            else:
                out += [f"{s.name} {n}{name}" for s, n in levels.items() if n >= 1]
    return out


def par_text(dd: DoubleDummy, symbols: bool = True) -> str:
    """``NS 620: 4♠ N, 4♠ S``, ``EW 100: 5♦x N -1``; ``0: passed out``."""
    if not dd.par:
        return "0: passed out" if dd.par_score == 0 else f"NS {dd.par_score:+d}"
    side = "NS" if dd.par_score >= 0 else "EW"
    contracts = ", ".join(c.text(symbols) for c in dd.par)
    return f"{side} {abs(dd.par_score)}: {contracts}"


@functools.lru_cache(maxsize=1024)
def double_dummy(deal: str, board: int) -> DoubleDummy:
    """The double-dummy table and par of ``deal`` (PBN ``N:… … … …``) played as board
    ``board`` (its dealer and vulnerability by Law 2). Cached per deal and board;
    0.1-0.2 s on a miss, so never on the hub's loop. ``HandRecordError`` without endplay, or for
    a deal that is not 52 cards in four hands of 13."""
    check_deals({board: deal})
    calc_dd_table, _, Deal = _endplay("double dummy")
    with DDS_LOCK:  # solved and kept under one hold: a thread waiting for it finds it
        # by another thread while this one waited, or a file's (the hub's hand records)
        solved = _SOLVED.get((deal, board)) or _FROM_FILES.get((deal, board))
        if solved is not None:
            return solved
        table = calc_dd_table(Deal(deal))
        tricks = {
            (seat, strain): int(table[denom, player])
            for strain, denom in _denoms().items()
            for seat, player in _players().items()
        }
        solution = _with_par(board, deal, tricks, table)
        if len(_SOLVED) >= SOLVED_KEPT:
            _SOLVED.clear()
        _SOLVED[(deal, board)] = solution
    return solution


def from_tricks(deal: str, board: int, digits: str) -> DoubleDummy:
    """The solution a hand-record file carries (PBN ``DoubleDummyTricks``: 20 hex digits,
    N S E W × NT S H D C, as ``bridgehub deal`` and RealBridge write it), its par worked out
    from those tricks: no deal is solved (a par takes microseconds, a solution 0.1-2 s).
    ``double_dummy`` of the deal and board returns it from then on, in this process.
    ``HandRecordError`` for digits that are not 20 trick counts of 0-13."""
    check_deals({board: deal})
    tricks = tricks_of(digits)
    _endplay("par")  # HandRecordError naming the extra without it
    from endplay._dds import ddTableResults
    from endplay.dds.ddtable import DDTable

    data = ddTableResults()
    for (seat, strain), n in tricks.items():
        data.resTable[_denoms()[strain]][_players()[seat]] = n
    with DDS_LOCK:
        solution = _with_par(board, deal, tricks, DDTable(data))
        if len(_FROM_FILES) >= SOLVED_KEPT:
            _FROM_FILES.clear()
        _FROM_FILES[(deal, board)] = solution  # the pages' and the API's double_dummy too
    return solution


def tricks_of(digits: str) -> dict[tuple[Seat, Strain], int]:
    """``DoubleDummyTricks`` as trick counts by (declarer, strain); ``HandRecordError`` when
    it is not 20 hexadecimal digits of 0-13 (``d`` is 13)."""
    text = digits.strip().lower()
    if len(text) != 20 or any(c not in "0123456789abcd" for c in text):
        raise HandRecordError(
            f"DoubleDummyTricks {digits!r} is not 20 trick counts (hex digits 0-d, "
            "N S E W, each NT S H D C)"
        )
    cells = [(seat, strain) for seat in SEATS for strain in STRAINS]
    return {cell: int(c, 16) for cell, c in zip(cells, text, strict=True)}


def dds_one_thread() -> None:
    """DDS solves on one thread from now on (process-wide): the hub's worker leaves the
    other core to the lines and the loop (issue 25: DDS on every core slowed the first
    answers to 3.4-7.8 s)."""
    _endplay("double dummy")
    from endplay._dds import SetMaxThreads

    with DDS_LOCK:
        SetMaxThreads(1)


def _endplay(what: str) -> tuple[Any, Any, Any]:
    """endplay's solver, par and deal (``HandRecordError`` naming the extra without it)."""
    try:
        from endplay.dds import calc_dd_table, par
        from endplay.types import Deal
    except ImportError:
        raise endplay_missing(what) from None
    return calc_dd_table, par, Deal


def _denoms() -> dict[Strain, Any]:
    from endplay.types import Denom

    return {
        Strain.CLUBS: Denom.clubs,
        Strain.DIAMONDS: Denom.diamonds,
        Strain.HEARTS: Denom.hearts,
        Strain.SPADES: Denom.spades,
        Strain.NOTRUMP: Denom.nt,
    }


def _players() -> dict[Seat, Any]:
    from endplay.types import Player

    return {Seat.N: Player.north, Seat.E: Player.east, Seat.S: Player.south, Seat.W: Player.west}


def _with_par(
    board: int, deal: str, tricks: dict[tuple[Seat, Strain], int], table: Any
) -> DoubleDummy:
    """The solution with its par on the board's dealer and vulnerability (under DDS_LOCK)."""
    from endplay.types import Vul

    _, par, _ = _endplay("par")
    vul = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}
    players = _players()
    result = par(table, vul[board_vulnerability(board).value], players[board_dealer(board)])
    score = int(result.score)
    # copied as they come: endplay 0.5.12 hands out both seats of "NS 1NT" as views of
    # one record it rewrites in between (kept, both came out as S)
    contracts = [c.copy() for c in result]
    strains = {d: s for s, d in _denoms().items()}
    seats = {p: s for s, p in players.items()}
    found = tuple(
        ParContract(
            level=int(c.level),
            strain=strains[c.denom],
            declarer=seats[c.declarer],
            doubled=int(c.penalty) > 1,
            over=int(c.result),
        )
        for c in contracts
    )
    return DoubleDummy(board, deal, MappingProxyType(tricks), score, _by_seat(found))


def _by_seat(contracts: tuple[ParContract, ...]) -> tuple[ParContract, ...]:
    """Par contracts in a sheet's order (NT down to ♣; N, S, E, W), each once."""
    order = {s: i for i, s in enumerate(SEATS)}
    key = {s: i for i, s in enumerate(STRAINS)}
    unique = dict.fromkeys(contracts)
    return tuple(sorted(unique, key=lambda c: (key[c.strain], order[c.declarer])))


__all__ = [
    "DDS_LOCK",
    "DoubleDummy",
    "HandRecordError",
    "ParContract",
    "dds_one_thread",
    "double_dummy",
    "from_tricks",
    "makeable",
    "par_text",
    "tricks_of",
]
