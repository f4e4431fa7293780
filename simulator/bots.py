"""Player bots: plausible results for the boards a table is given, at a realistic pace,
with the occasional wrong entry, correction and director call."""

from __future__ import annotations

import random
from dataclasses import dataclass

from drivers.protocol.messages import NO_DECLARER, NO_TRICKS, Seat
from scoring.contract import Contract, Doubling, Strain
from simulator.deals import played

STRAINS = [Strain.CLUBS, Strain.DIAMONDS, Strain.HEARTS, Strain.SPADES, Strain.NOTRUMP]


@dataclass(frozen=True, slots=True)
class Entry:
    board: int
    contract: str
    declarer: int
    lead: str
    tricks: int


@dataclass
class PlayerBot:
    """``minutes_per_board`` is the table's pace (a slow table plays slower)."""

    seed: int
    minutes_per_board: float = 7.0
    wrong_board_rate: float = 0.0
    correction_rate: float = 0.0
    td_call_rate: float = 0.0
    wrong_declarer_rate: float = 0.0  # keyed the other side's seat: a suspicious score
    deals: dict[int, str] | None = None  # board → PBN deal: play the real cards

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def board_minutes(self) -> float:
        return max(2.0, self.rng.gauss(self.minutes_per_board, self.minutes_per_board / 5))

    def play(self, board: int) -> Entry:
        """A legal result: mostly games and part-scores, now and then a slam or a pass-out;
        with the board's deal known, what its cards hold and a lead from the leader's hand."""
        entry = self._play(board)
        slip = self.wrong_declarer_rate and entry.declarer != NO_DECLARER
        if slip and self.rng.random() < self.wrong_declarer_rate:  # N keyed as E, and so on
            return Entry(board, entry.contract, (entry.declarer + 1) % 4, "", entry.tricks)
        return entry

    def _play(self, board: int) -> Entry:
        rng = self.rng
        cards = None if self.deals is None else self.deals.get(board)
        if cards is not None:
            contract_text, declarer_seat, lead_card, took = played(cards, rng)
            return Entry(board, contract_text, declarer_seat, lead_card, took)
        # every deal has its own "par" strain and level, so tables agree often
        deal = random.Random(board * 7919)
        strain = deal.choice(STRAINS)
        level = deal.choice([1, 2, 2, 3, 3, 4, 4, 4, 5, 6])
        side = deal.choice([0, 1])
        if rng.random() < 0.03:
            return Entry(board, "PASS", NO_DECLARER, "", NO_TRICKS)
        level = min(7, max(1, level + rng.choice([-1, 0, 0, 0, 1])))
        doubling = Doubling.DOUBLED if rng.random() < 0.08 else Doubling.NONE
        contract = Contract(level, strain, doubling)
        declarer = rng.choice([Seat.N, Seat.S] if side == 0 else [Seat.E, Seat.W])
        need = contract.tricks_needed
        tricks = max(0, min(13, need + round(rng.gauss(0, 1.1))))
        lead = rng.choice("SHDC") + rng.choice("AKQJT98765432")
        return Entry(board, str(contract), int(declarer), lead, tricks)

    def wrong_board(self, board: int) -> bool:
        return self.rng.random() < self.wrong_board_rate

    def corrects(self) -> bool:
        return self.rng.random() < self.correction_rate

    def calls_td(self) -> bool:
        return self.rng.random() < self.td_call_rate
