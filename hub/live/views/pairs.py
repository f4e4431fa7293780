"""Live scores of a pairs section (matchpoints, cross-IMPs or Butler): each result rescores
its board and replaces that board in the section's exact running tally ([SCORE] ``Tally``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hub.event.event_file import EventFile
from hub.event.movement.model import Movement
from hub.event.pair_labels import PairLabels
from hub.live.views.base import TravellerRow, TravellerView, traveller_row
from hub.standings.left_out import LeftOut, board_plays, score_without_bad
from hub.standings.rebuild import traveller_line
from hub.standings.rows import pairs_rows
from hub.store.store import LiveLine
from scoring.board import Side
from scoring.board_score import BoardScore, ScoreKind
from scoring.methods import PairsRules, kind_of, section_rules
from scoring.standings import PairKey, Tally, pair_keys, standings_by_direction

PAYERS: dict[str, tuple[Side, ...]] = {
    "NS": (Side.NS,),
    "EW": (Side.EW,),
    "both": (Side.NS, Side.EW),
    "shared": (Side.NS, Side.EW),
}


def payer_shares(penalty: dict[str, Any]) -> list[tuple[Side, int, Fraction]]:
    """Who pays a confirmed penalty (decisions D10: the TD sets it): (side, contestant,
    share of the amount). ``shared`` splits it half and half; a side the penalty does not
    name pays nothing."""
    payer = penalty.get("payer") or ""
    share = Fraction(1, 2) if payer == "shared" else Fraction(1)
    ns, ew = penalty["contestants"]
    out = []
    for side in PAYERS.get(payer, ()):
        number = ns if side is Side.NS else ew
        if number:
            out.append((side, int(number), share))
    return out


@dataclass(frozen=True, slots=True)
class _Penalty:
    unit: str  # "percent_of_top" (at MP) or "IMP" (at IMPs)
    amount: Fraction
    payers: tuple[tuple[Side, int, Fraction], ...]


class PairsLive:
    """One pairs section's live standings and travellers. Owned by the hub's asyncio loop
    (no store access: the hub hands the lines in)."""

    def __init__(
        self, event: EventFile, section: str, movement: Movement, names: dict[int, str]
    ) -> None:
        self.section = section
        self.rules = event.pairs_rules()
        self.kind = kind_of(self.rules)
        self.unit = "%" if self.kind is ScoreKind.MATCHPOINTS else "IMPs"
        self.tie_breaks = tuple(event.rules.tie_breaks)
        self.lot_seed = event.rules.lot_seed
        self.names = dict(names)
        # rows carry the room's label ("EW 3"), published standings as the snapshot's
        self.labels = PairLabels.of(movement, section)
        self.tally = Tally(self.kind, movement.layout.winners)
        self._lines: dict[int, dict[tuple[int, int], LiveLine]] = {}
        # a board's score and its lines in traveller order (table, round): the store's order
        self._boards: dict[int, tuple[BoardScore, list[LiveLine]]] = {}
        # each board's usable results and the rules with the section's common top (D22)
        self._plays: dict[int, int] = {}
        self._board_rules: PairsRules = section_rules(self.rules, ())
        self._penalties: list[_Penalty] = []
        self._deducted: dict[PairKey, Fraction] = {}
        self._rows: list[dict[str, Any]] | None = None
        # told of each stored line a board is scored without (F2); the hub alerts the TD
        self.on_left_out: Callable[[LeftOut], None] | None = None

    # -- results in ------------------------------------------------------------------------
    def put(self, line: LiveLine) -> None:
        self._lines.setdefault(line.board, {})[(line.table, line.round)] = line
        self._rescore(line.board)

    def reload_board(self, board: int, lines: list[LiveLine]) -> None:
        self._lines[board] = {(x.table, x.round): x for x in lines if x.board == board}
        self._rescore(board)

    def _rescore(self, board: int) -> None:
        """Score the board again; when its count of results changes the section's common
        top (decisions D22: a board played once fewer is factored to the most any board
        has), every board is scored again to the new top."""
        self._rows = None
        mine = self._lines.get(board) or {}
        if mine:
            self._plays[board] = board_plays(list(mine.values()), traveller_line)
        else:
            self._lines.pop(board, None)
            self._plays.pop(board, None)
        rules = section_rules(self.rules, self._plays.values())
        if rules != self._board_rules:
            self._board_rules = rules
            for other in sorted(self._lines.keys() - {board}):
                self._score(other)
        self._score(board)

    def _score(self, board: int) -> None:
        mine = self._lines.get(board) or {}
        if not mine:
            self._boards.pop(board, None)
            self.tally.remove_board(board)
            return
        ordered = [mine[k] for k in sorted(mine)]
        score, lines, bad = score_without_bad(board, ordered, self._board_rules, traveller_line)
        for item in bad:
            if self.on_left_out is not None:
                self.on_left_out(item)
        if score is None:  # nothing on the board can be scored: as if unplayed
            self._boards.pop(board, None)
            self.tally.remove_board(board)
            return
        self._boards[board] = (score, lines)
        self.tally.set_board(score)

    # -- penalties -------------------------------------------------------------------------
    def apply_penalty(self, penalty: dict[str, Any]) -> bool:
        """``percent_of_top`` of a board's top (MP) or IMPs (IMP scoring) off each payer's
        points. The top is the section's largest board top as scored now, so the deduction
        is the same live and after a restart; VP, warnings and the director's own decisions
        are not pairs standings' units (False)."""
        unit = penalty["unit"]
        fits = (unit == "percent_of_top" and self.kind is ScoreKind.MATCHPOINTS) or (
            unit == "IMP" and self.kind is ScoreKind.IMPS
        )
        payers = tuple(payer_shares(penalty))
        if not fits or not payers:
            return False
        self._penalties.append(_Penalty(unit, Fraction(penalty["amount"]), payers))
        self._rows = None
        return True

    def _top(self) -> int:
        return max(
            (int(s.top.max()) for s, _ in self._boards.values() if s.top is not None), default=0
        )

    def _settle_penalties(self) -> None:
        """Bring the tally's deductions to what the confirmed penalties take now."""
        if not self._penalties and not self._deducted:
            return
        top = self._top()
        due: dict[PairKey, Fraction] = {}
        for p in self._penalties:
            points = p.amount * top / 100 if p.unit == "percent_of_top" else p.amount
            for side, number, share in p.payers:
                key = pair_keys(number, side, self.tally.winners)
                due[key] = due.get(key, Fraction(0)) + points * share
        for key in due.keys() | self._deducted.keys():
            change = due.get(key, Fraction(0)) - self._deducted.get(key, Fraction(0))
            if change:
                self.tally.adjust(key, -change)
        self._deducted = due

    # -- views out -------------------------------------------------------------------------
    def rename(self, names: dict[int, str]) -> None:
        self.names = dict(names)
        self._rows = None

    def rows(self) -> list[dict[str, Any]]:
        if self._rows is None:
            self._settle_penalties()
            table = standings_by_direction(self.tally, self.tie_breaks, self.lot_seed)
            self._rows = pairs_rows(table, self.kind, self.names, self.labels)
        return list(self._rows)

    def scored_board(self, board: int) -> BoardScore | None:
        hit = self._boards.get(board)
        return None if hit is None else hit[0]

    def traveller(self, board: int, table: int, rnd: int) -> TravellerView | None:
        """The board's whole traveller with NS's value on each line (percent or IMPs)."""
        hit = self._boards.get(board)
        if hit is None:
            return None
        score, lines = hit
        mine = _index_of(lines, table, rnd)
        if mine is None:
            return None
        rows = tuple(_row(score, i, x) for i, x in enumerate(lines))
        return TravellerView(
            self.section,
            board,
            rows[mine].score_ns,
            rows[mine].value,
            self.kind is ScoreKind.IMPS,
            rows,
        )


def _index_of(lines: Iterable[LiveLine], table: int, rnd: int) -> int | None:
    for i, x in enumerate(lines):
        if (x.table, x.round) == (table, rnd):
            return i
    return None


def _row(score: BoardScore, i: int, x: LiveLine) -> TravellerRow:
    return traveller_row(x, score.traveller.lines[i].score_ns, score.score(i, Side.NS))
