"""Live views: each accepted result rescores its board and updates the section's exact
standings at once (the [SCORE] engine's incremental tally)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from hub.event.event_file import EventFile, Scoring
from hub.standings.rebuild import traveller_line
from hub.store.store import LiveLine, Store
from scoring.board import Side
from scoring.board_score import BoardScore, ScoreKind
from scoring.methods import PairsRules, kind_of, score_board
from scoring.standings import Standing, Tally, pair_keys, standings_by_direction
from scoring.traveller import Traveller


@dataclass
class SectionLive:
    rules: PairsRules
    tally: Tally
    lines: dict[int, dict[tuple[int, int], LiveLine]] = field(
        default_factory=lambda: defaultdict(dict)
    )
    boards: dict[int, BoardScore] = field(default_factory=dict)


class LiveViews:
    def __init__(
        self, store: Store, event_id: int, event: EventFile, winners: dict[str, int]
    ) -> None:
        self.store = store
        self.event_id = event_id
        self.event = event
        self.pairs_event = event.rules.scoring is not Scoring.TEAMS
        self.sections: dict[str, SectionLive] = {}
        if self.pairs_event:
            rules = event.pairs_rules()
            for section, w in winners.items():
                self.sections[section] = SectionLive(rules, Tally(kind_of(rules), w))

    def load(self) -> None:
        """Everything already stored (after a restart), confirmed penalties included."""
        for line in self.store.live_lines(self.event_id):
            self._put(line)
        for section, live in self.sections.items():
            for board in list(live.lines):
                self._rescore(section, board)
        for p in self.store.penalties(self.event_id):
            if p["status"] == "confirmed":
                self.apply_penalty(p)

    def apply_penalty(self, penalty: dict) -> bool:
        """Take a confirmed penalty off the payer's total (MPs at MP, IMPs at IMP scoring):
        ``percent_of_top`` of a board's top, or IMPs. Returns False for units that pairs
        standings cannot carry (VP, warnings, the director's own decision)."""
        live = self.sections.get(penalty["section"])
        if live is None:
            return False
        amount = Fraction(penalty["amount"])
        unit = penalty["unit"]
        if unit == "percent_of_top" and live.tally.kind is ScoreKind.MATCHPOINTS:
            tops = [int(b.top[0]) for b in live.boards.values() if b.top is not None]
            points = amount * (max(tops) if tops else 0) / 100
        elif unit == "IMP" and live.tally.kind is ScoreKind.IMPS:
            points = amount
        else:
            return False
        payers = PAYERS.get(penalty.get("payer") or "", ())
        ns, ew = penalty["contestants"]
        share = Fraction(1, 2) if penalty.get("payer") == "shared" else Fraction(1)
        for side in payers:
            number = ns if side is Side.NS else ew
            live.tally.adjust(pair_keys(number, side, live.tally.winners), -points * share)
        return bool(payers)

    def _put(self, line: LiveLine) -> None:
        live = self.sections.get(line.section)
        if live is not None:
            live.lines[line.board][(line.table, line.round)] = line

    def _rescore(self, section: str, board: int) -> BoardScore | None:
        live = self.sections[section]
        lines = list(live.lines[board].values())
        if not lines:
            return None
        score = score_board(Traveller.of(board, [traveller_line(x) for x in lines]), live.rules)
        live.boards[board] = score
        live.tally.set_board(score)
        return score

    def result_stored(self, line: LiveLine) -> BoardScore | None:
        """A new live result: rescore its board, update the standings."""
        if line.section not in self.sections:
            return None
        self._put(line)
        return self._rescore(line.section, line.board)

    def reload_board(self, section: str, board: int) -> BoardScore | None:
        """Read a board's live results again (after a TD correction, erasure or accept)."""
        live = self.sections.get(section)
        if live is None:
            return None
        live.lines[board] = {
            (x.table, x.round): x
            for x in self.store.live_lines(self.event_id, section)
            if x.board == board
        }
        if not live.lines[board]:
            live.boards.pop(board, None)
            live.tally.remove_board(board)
            return None
        return self._rescore(section, board)

    def standings(self, section: str) -> dict[str | None, list[Standing]]:
        live = self.sections[section]
        return standings_by_direction(
            live.tally, self.event.rules.tie_breaks, self.event.rules.lot_seed
        )

    def board(self, section: str, board: int) -> BoardScore | None:
        live = self.sections.get(section)
        return None if live is None else live.boards.get(board)


PAYERS = {
    "NS": (Side.NS,),
    "EW": (Side.EW,),
    "both": (Side.NS, Side.EW),
    "shared": (Side.NS, Side.EW),
}


def own_line(score: BoardScore, table_lines: list[LiveLine], table: int, rnd: int) -> int | None:
    """Index of the table's own result in a scored traveller."""
    for i, x in enumerate(table_lines):
        if (x.table, x.round) == (table, rnd):
            return i
    return None


def value_hundredths(score: BoardScore, i: int) -> int:
    return round(float(score.score(i, Side.NS)) * 100)


def is_imps(score: BoardScore) -> bool:
    return score.kind is ScoreKind.IMPS
