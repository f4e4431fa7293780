"""One bad stored line never takes down a board's scoring (TD trial F2, issue [EVENING]).

A store may hold a line scoring cannot use: a result against pair 0 (the sit-out) kept by
an older hub, or a row with neither a contract, a score nor an adjustment. The board is
scored without it, and the line is named (``LeftOut``) so the director can be told which
stored result was left out and why; nothing here raises for one line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from hub.event.pair_labels import PairLabels
from scoring.board_score import BoardScore
from scoring.errors import ScoringInputError
from scoring.methods import PairsRules, score_board
from scoring.traveller import Traveller, TravellerLine


class ResultLike(Protocol):
    """What a stored result or a live line has in common (``StoredResult``, ``LiveLine``)."""

    @property
    def section(self) -> str: ...
    @property
    def table(self) -> int: ...
    @property
    def round(self) -> int: ...
    @property
    def board(self) -> int: ...
    @property
    def ns_pair(self) -> int: ...
    @property
    def ew_pair(self) -> int: ...


R = TypeVar("R", bound=ResultLike)


@dataclass(frozen=True, slots=True)
class LeftOut:
    """A stored result its board is scored without, and why."""

    section: str
    table: int
    round: int
    board: int
    ns_pair: int
    ew_pair: int
    reason: str

    @property
    def key(self) -> tuple[str, int, int, int, str]:
        return (self.section, self.table, self.round, self.board, self.reason)

    def text(self, labels: PairLabels | None = None) -> str:
        """What the director is told (once); with the section's ``labels`` a Mitchell's
        pairs read as the room writes them ("NS 2 v EW 3", never the hub's pair 6)."""
        pairs = f"pairs {self.ns_pair}-{self.ew_pair}"
        if labels is not None and labels.mitchell:
            ns, ew = (labels.label(p) if p > 0 else "pair 0" for p in (self.ns_pair, self.ew_pair))
            pairs = f"{ns} v {ew}"
        return (
            f"the stored result of table {self.section}{self.table} round {self.round} board "
            f"{self.board} ({pairs}) is left out of board {self.board}'s scoring: "
            f"{self.reason}; erase it or enter the right result"
        )


def left_out(r: ResultLike, reason: str) -> LeftOut:
    return LeftOut(r.section, r.table, r.round, r.board, r.ns_pair, r.ew_pair, reason)


def usable_lines(
    results: Sequence[R], line_of: Callable[[R], TravellerLine]
) -> tuple[list[tuple[R, TravellerLine]], list[LeftOut]]:
    """Each result as a traveller line, or left out with the reason: pair 0 (the sit-out:
    no result is scored against it) or a line scoring cannot read."""
    good: list[tuple[R, TravellerLine]] = []
    bad: list[LeftOut] = []
    for r in results:
        if r.ns_pair < 1 or r.ew_pair < 1:
            bad.append(left_out(r, "pair 0 is the sit-out: no result is scored against it"))
            continue
        try:
            good.append((r, line_of(r)))
        except (ScoringInputError, ValueError) as e:
            bad.append(left_out(r, str(e)))
    return good, bad


def board_plays(results: Sequence[R], line_of: Callable[[R], TravellerLine]) -> int:
    """The results a board's scoring can use: its count toward the section's common top
    (decisions D22)."""
    return len(usable_lines(results, line_of)[0])


def score_without_bad(
    board: int,
    results: Sequence[R],
    rules: PairsRules,
    line_of: Callable[[R], TravellerLine],
) -> tuple[BoardScore | None, list[R], list[LeftOut]]:
    """The board scored from the results it can use: (score or None when none is left, the
    results scored in traveller order, the results left out). When the method itself
    refuses the board, the one line whose removal lets it score is left out; a board no
    single line explains is not scored and every line is named."""
    good, bad = usable_lines(results, line_of)
    if not good:
        return None, [], bad
    try:
        return (
            score_board(Traveller.of(board, [x for _, x in good]), rules),
            [r for r, _ in good],
            bad,
        )
    except (ScoringInputError, ValueError) as e:
        why = str(e)
    for i in range(len(good)):
        rest = good[:i] + good[i + 1 :]
        if not rest:
            break
        try:
            score = score_board(Traveller.of(board, [x for _, x in rest]), rules)
        except (ScoringInputError, ValueError):
            continue
        return score, [r for r, _ in rest], [*bad, left_out(good[i][0], why)]
    return (
        None,
        [],
        [*bad, *(left_out(r, f"board {board} cannot be scored: {why}") for r, _ in good)],
    )
