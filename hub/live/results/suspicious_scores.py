"""The hub's suspicious-score flags (decisions D12): each board is checked again whenever
one of its results changes; open flags hold its round's standings back until the director
marks the result valid ("contract is valid") or corrects it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from hub.store.store import LiveLine
from scoring.board import Seat
from scoring.contract import Strain, parse_contract
from scoring.errors import ScoringInputError
from scoring.suspicious import PlayedResult, SuspicionLimits, suspicious

Makeable = dict[tuple[Seat, Strain], int]


@dataclass(frozen=True, slots=True)
class Flag:
    """One suspicious result, with what the director needs to decide."""

    section: str
    board: int
    table: int
    round: int
    ns_pair: int
    ew_pair: int
    result: str
    reason: str

    def as_dict(self) -> dict[str, object]:
        return {
            "section": self.section,
            "board": self.board,
            "table": self.table,
            "round": self.round,
            "ns": self.ns_pair,
            "ew": self.ew_pair,
            "result": self.result,
            "reason": self.reason,
        }


def valid_mark(line: LiveLine) -> tuple[object, ...]:
    """What the director marked valid: this result as it stands (a later change to it is
    checked afresh)."""
    return (
        line.section,
        line.board,
        line.table,
        line.round,
        line.contract,
        line.declarer,
        line.tricks,
    )


class SuspiciousScores:
    """Flags per board. ``limits`` None turns the check off (the event's choice). No I/O;
    its state belongs to the hub's loop (the live scores and the director's commands)."""

    def __init__(
        self, limits: SuspicionLimits | None, valid: Iterable[tuple[object, ...]] = ()
    ) -> None:
        self.limits = limits
        self.valid: set[tuple[object, ...]] = set(valid)
        self.makeable: dict[tuple[str, int], Makeable] = {}  # (section, board)
        self.lines: dict[tuple[str, int], dict[tuple[int, int], LiveLine]] = {}
        self.flags: dict[tuple[str, int], list[Flag]] = {}

    def load(self, lines: Iterable[LiveLine]) -> None:
        """Every live result at start, each board checked once (not once per result: a
        store of 100,000 results would take seconds, issue 12)."""
        for _ in self.load_steps(lines):
            pass

    def load_steps(self, lines: Iterable[LiveLine]) -> Iterator[None]:
        """``load`` one board at a time: the hub's loop answers its lines between steps."""
        boards = set()
        for line in lines:
            if line.ns_pair >= 1 and line.ew_pair >= 1:
                key = (line.section, line.board)
                self.lines.setdefault(key, {})[(line.table, line.round)] = line
                boards.add(key)
        for section, board in sorted(boards):
            self.check(section, board)
            yield

    def put(self, line: LiveLine) -> bool:
        """A new live result; True when the board's flags changed. A pair-0 line (the
        sit-out, kept by an older store) is never a result to question (F2)."""
        if line.ns_pair < 1 or line.ew_pair < 1:
            return False
        self.lines.setdefault((line.section, line.board), {})[(line.table, line.round)] = line
        return self.check(line.section, line.board)

    def reload(self, section: str, board: int, lines: Iterable[LiveLine]) -> bool:
        """The board's live results as the store now has them (after a TD change)."""
        self.lines[(section, board)] = {
            (x.table, x.round): x for x in lines if x.ns_pair >= 1 and x.ew_pair >= 1
        }
        return self.check(section, board)

    def deal_solved(self, section: str, board: int, makeable: Makeable) -> bool:
        """Double-dummy tricks arrived for a section's board (its own session's deal: board
        numbers repeat across sessions); True when its flags changed."""
        self.makeable[(section, board)] = makeable
        return (section, board) in self.lines and self.check(section, board)

    def check(self, section: str, board: int) -> bool:
        before = self.flags.get((section, board), [])
        after = self._flags(section, board)
        if after:
            self.flags[(section, board)] = after
        else:
            self.flags.pop((section, board), None)
        return after != before

    def _flags(self, section: str, board: int) -> list[Flag]:
        if self.limits is None:
            return []
        lines = self.lines.get((section, board), {})
        played = []
        for key, x in lines.items():
            if x.adjusted or x.declarer is None or x.tricks is None:
                continue
            try:
                contract = parse_contract(x.contract or "")
                seat = Seat.parse(x.declarer)
            except ScoringInputError:
                continue
            if contract is not None:
                played.append(PlayedResult(key, contract, seat, x.tricks))
        found = suspicious(played, self.limits, self.makeable.get((section, board)))
        out = []
        for key in sorted(lines):
            reason = found.get(key)
            x = lines[key]
            if reason is None or valid_mark(x) in self.valid:
                continue
            out.append(
                Flag(
                    section,
                    board,
                    x.table,
                    x.round,
                    x.ns_pair,
                    x.ew_pair,
                    f"{x.contract} {x.declarer} {x.tricks}",
                    reason,
                )
            )
        return out

    def mark_valid(
        self, section: str, board: int, table: int, rnd: int
    ) -> tuple[object, ...] | None:
        """The director says the flagged result is right: returns what to audit, None when
        no such flag is open."""
        if not any(
            f.table == table and f.round == rnd for f in self.flags.get((section, board), [])
        ):
            return None
        mark = valid_mark(self.lines[(section, board)][(table, rnd)])
        self.valid.add(mark)
        self.check(section, board)
        return mark

    def played(self, section: str, board: int) -> set[tuple[int, int]]:
        """(table, round) of every live result on the board, pairs and teams events alike."""
        return set(self.lines.get((section, board), {}))

    def open_boards(self, section: str, boards: Iterable[int]) -> set[int]:
        return {b for b in boards if (section, b) in self.flags}

    def board_flags(self, section: str, board: int) -> list[Flag]:
        return list(self.flags.get((section, board), []))

    def all_flags(self) -> list[Flag]:
        return [f for key in sorted(self.flags) for f in self.flags[key]]
