"""The round controller of one section, sans I/O (D17): timed events in (results, checks, TD
entries and erasures, "next round", clock ticks); effects out (a table finished, a round
complete, the next started, the pace changed) for the hub to carry out (D10, D12)."""

from __future__ import annotations

from dataclasses import replace

from hub.event.movement.model import Movement
from hub.live.rounds.round_events import (
    BoardReopened,
    DirectorEntered,
    Drawn,
    Effect,
    Erased,
    Event,
    FirstAction,
    Key,
    NextRound,
    PaceChanged,
    ResultAccepted,
    ResultHeld,
    Resume,
    RoundComplete,
    RoundStarted,
    SessionComplete,
    TableFinished,
    Tick,
    Unplayed,
    Verified,
)
from hub.live.rounds.slow_play import Elapsed, TableRound, minutes_off_pace

__all__ = [
    "BoardReopened",
    "DirectorEntered",
    "Drawn",
    "Effect",
    "Erased",
    "Event",
    "FirstAction",
    "Key",
    "NextRound",
    "PaceChanged",
    "ResultAccepted",
    "ResultHeld",
    "Resume",
    "RoundComplete",
    "RoundController",
    "RoundRefused",
    "RoundStarted",
    "SessionComplete",
    "TableFinished",
    "Tick",
    "Unplayed",
    "Verified",
]


class RoundRefused(ValueError):
    """The director asked for something the movement does not allow (state unchanged)."""


class RoundController:
    """One section's rounds, as a state machine: ``handle(event) -> effects``; every playing
    table of every round is known up front, or, in an event drawn while it runs (D19),
    once its round's draw is published. Belongs to the hub's asyncio loop (D17)."""

    def __init__(
        self,
        section: str,
        movement: Movement,
        *,
        auto_advance: bool = True,
        needs_verification: bool = False,
    ) -> None:
        self.section, self.movement = section, movement
        self.auto_advance, self.needs_verification = auto_advance, needs_verification
        self.rounds, self._round = movement.rounds, 1
        self._playing: dict[int, list[TableRound]] = {r: [] for r in range(1, self.rounds + 1)}
        self._tables: dict[tuple[int, int], TableRound] = {}
        self._seat(movement, 1)
        self._complete: set[int] = set()
        self._told: set[tuple[int, int]] = set()  # (table, round) whose TableFinished went out
        self._accepted: set[Key] = set()  # accepted, waiting for the opponents' verification
        self._verified: set[Key] = set()  # verified, waiting for the accepted result
        self._reported: dict[int, float] = {}  # table: minutes off pace last reported
        self._held_at: dict[Key, float] = {}  # entered at the table, held for the director

    def _seat(self, movement: Movement, first: int) -> None:
        """The playing tables of rounds ``first`` on, from ``movement``."""
        for row in sorted(movement.rows, key=lambda row: row.table):
            if row.round < first or row.section != self.section:
                continue
            if row.ns_pair and row.ew_pair and row.boards:
                tr = TableRound(
                    self.section, row.table, row.round, row.boards, row.ns_pair, row.ew_pair
                )
                self._playing[row.round].append(tr)
                self._tables[(tr.table, tr.round)] = tr

    def _drawn(self, movement: Movement, at: float) -> list[Effect]:
        """Rounds drawn since (D19) join, and a knockout's rounds appended after the last;
        a section waiting for them moves on now, or ends when no round is to come."""
        first = min(self.movement.layout.drawn, self.rounds) + 1
        self.movement, self.rounds = movement, max(self.rounds, movement.rounds)
        for rnd in range(first, self.rounds + 1):
            self._playing[rnd] = []
            self._tables = {k: v for k, v in self._tables.items() if k[1] != rnd}
        self._seat(movement, first)
        if first == self._round and not self.is_complete(first):  # it waited for its draw
            return [RoundStarted(self._round, at)]
        complete = self._round in self._complete
        if complete and self._round >= self.rounds and not movement.layout.to_come:
            return [SessionComplete()]  # a knockout decided after its last round
        over = complete and self.auto_advance and self._round < self.rounds
        return self._start(self._round + 1, at) if over and not self.waits_for_draw() else []

    def waits_for_draw(self) -> bool:
        """The next round is not drawn yet (D19), or not appended yet (a knockout): the
        section cannot move on to it."""
        if self._round >= self.rounds:
            return self.movement.layout.to_come
        return self.movement.layout.undrawn(self._round + 1)

    @property
    def round(self) -> int:
        return self._round

    def table_round(self, table: int, rnd: int) -> TableRound | None:
        return self._tables.get((table, rnd))

    def playing(self, rnd: int) -> list[TableRound]:
        """The round's playing tables in table order (sit-outs and phantoms left out)."""
        return self._playing.get(rnd, [])

    def done(self, table: int) -> int:
        """Boards finished at the table in the current round."""
        tr = self._tables.get((table, self._round))
        return 0 if tr is None else len(tr.finished_at)

    def unverified(self, table: int) -> int:
        """Boards of the current round accepted at the table, waiting for verification."""
        return sum(1 for t, r, _ in self._accepted if (t, r) == (table, self._round))

    def waits_for_result(self, table: int, rnd: int, board: int) -> bool:
        """A board of the table's round still open whose result this hub has neither
        accepted nor held (a verification of it could only be kept in memory)."""
        key = (table, rnd, board)
        return self._open(*key) and key not in self._accepted and key not in self._held_at

    def is_complete(self, rnd: int) -> bool:
        return rnd in self._complete

    def finished_at(self, table: int, rnd: int, board: int) -> float | None:
        return tr.finished_at.get(board) if (tr := self._tables.get((table, rnd))) else None

    def handle(self, event: Event) -> list[Effect]:
        """Apply one event; return what the hub must do, in order (unknown boards: nothing)."""
        match event:
            case ResultAccepted(t, r, b, at) if self.needs_verification:
                return self._half((t, r, b), at, self._accepted, self._verified)
            case Verified(t, r, b, at) if self.needs_verification:
                return self._half((t, r, b), at, self._verified, self._accepted)
            case ResultHeld(t, r, b, at):
                self._held_at.setdefault((t, r, b), at)
            case DirectorEntered(t, r, b, at):
                # a held result the TD decides later was played when the table entered it:
                # the time at the desk is not the table's (slow play, D10)
                return self._finish(t, r, b, min(at, self._held_at.pop((t, r, b), at)))
            case ResultAccepted(t, r, b, at):
                return self._finish(t, r, b, at)
            case Erased(t, r, b) if (tr := self._tables.get((t, r))) and (
                r not in self._complete or r == self._round  # complete, waiting: open again
            ):
                had = tr.finished_at.pop(b, None) is not None or (t, r, b) in self._accepted
                self._accepted.discard((t, r, b))
                self._verified.discard((t, r, b))
                return [BoardReopened(t, r, b)] if had and r == self._round else []
            case FirstAction(t, r, at) if tr := self._tables.get((t, r)):
                tr.first_action_at = at if tr.first_action_at is None else tr.first_action_at
            case NextRound(at):
                return self._next_round(at)
            case Tick(at, start, per_board_s, elapsed) if start is not None:
                return self._pace(at, start, per_board_s, elapsed)
            case Resume(played, started_round, at):
                return self._resume(played, started_round, at)
            case Drawn(movement, at):
                return self._drawn(movement, at)
        return []

    def _half(self, key: Key, at: float, mine: set[Key], other: set[Key]) -> list[Effect]:
        """D10: entered and verified, in either order; the board ends with the second."""
        if key in other:
            return self._finish(*key, at)
        mine.update([key] if self._open(*key) else [])
        return []

    def _open(self, table: int, rnd: int, board: int) -> bool:
        tr = self._tables.get((table, rnd))
        return tr is not None and board in tr.boards and board not in tr.finished_at

    def _finish(self, table: int, rnd: int, board: int, at: float) -> list[Effect]:
        """The board ends at ``at``; a result for an earlier or a later round is only recorded."""
        if not self._open(table, rnd, board):
            return []
        tr = self._tables[(table, rnd)]
        tr.finished_at[board] = at
        self._accepted.discard((table, rnd, board))
        self._verified.discard((table, rnd, board))
        if not tr.done or (rnd not in self._complete and rnd != self._round):
            return []
        out = self._tell_finished(rnd)  # this table (late after a forced end too: slow play)
        done = rnd not in self._complete and self._all_done(rnd)  # a round ends once
        return out + self._complete_round(at) if done else out

    def _next_round(self, at: float) -> list[Effect]:
        """The director moves on; in the last round that ends the session. A board
        accepted but not yet verified was played."""
        rnd = self._round
        if self.movement.layout.undrawn(rnd):
            raise RoundRefused(
                f"round {rnd} of section {self.section} is not drawn yet: publish its draw"
            )
        if rnd >= self.rounds and rnd in self._complete and self.movement.layout.to_come:
            raise RoundRefused(
                f"round {rnd} is the last round of section {self.section} so far: the "
                "knockout's next round is not published yet"
            )
        if rnd >= self.rounds and rnd in self._complete:
            raise RoundRefused(
                f"round {rnd} is the last round of section {self.section}: the session is over"
            )
        if rnd in self._complete and self.waits_for_draw():
            raise RoundRefused(
                f"round {rnd + 1} of section {self.section} is not drawn yet: publish its "
                "draw first"
            )
        if rnd in self._complete:  # complete, waiting for the director
            return self._start(rnd + 1, at)
        unplayed = []
        for tr in self.playing(rnd):
            missing = [b for b in tr.boards if b not in tr.finished_at]
            missing = [b for b in missing if (tr.table, rnd, b) not in self._accepted]
            unplayed += [Unplayed(tr.table, tuple(missing))] if missing else []
        return self._complete_round(at, unplayed)

    def _complete_round(self, at: float, forced: list[Unplayed] | None = None) -> list[Effect]:
        """The current round ends, exactly once: the finished table not yet told (the one
        that finished last), the round, then the next round or the end of the session."""
        rnd = self._round
        self._complete.add(rnd)
        over = RoundComplete(rnd, tuple(forced or ()), forced is not None)
        out = [*self._tell_finished(rnd), over]
        if rnd >= self.rounds and not self.movement.layout.to_come:
            return [*out, SessionComplete()]
        if self.waits_for_draw():  # D19: the next round starts when its draw is published
            return out
        return out + self._start(rnd + 1, at) if forced is not None or self.auto_advance else out

    def _start(self, rnd: int, at: float, resumed: bool = False) -> list[Effect]:
        """The round starts at ``at``; a round whose results all came early completes now."""
        self._round = rnd
        self._reported = {tr.table: 0.0 for tr in self.playing(rnd)}
        out = [RoundStarted(rnd, at, resumed), *self._tell_finished(rnd)]
        return out + self._complete_round(at) if self._all_done(rnd) else out

    def _all_done(self, rnd: int) -> bool:
        """Every table of the round finished (a round not drawn yet has not begun, D19)."""
        return not self.movement.layout.undrawn(rnd) and all(tr.done for tr in self.playing(rnd))

    def _tell_finished(self, rnd: int) -> list[Effect]:
        """TableFinished (a snapshot) for the round's finished tables not yet told, in
        finishing order."""
        fresh = [tr for tr in self.playing(rnd) if tr.done and (tr.table, rnd) not in self._told]
        fresh.sort(key=lambda tr: (tr.ended_at or 0.0, tr.table))
        self._told.update((tr.table, rnd) for tr in fresh)
        return [TableFinished(replace(tr, finished_at=dict(tr.finished_at))) for tr in fresh]

    def _resume(self, played: frozenset[Key], started_round: int | None, at: float) -> list[Effect]:
        """Earlier rounds are over without effects; a complete current round ends now, once."""
        for table, rnd, board in played:
            if self._open(table, rnd, board):
                self._tables[(table, rnd)].finished_at[board] = at
        last = max(self.rounds, 1)
        drawn = self.movement.layout.drawn if self.movement.layout.draw else last
        last_open = max(min(last, drawn), 1)  # D19: rounds not drawn yet cannot be current
        first_open = next((r for r in range(1, last_open + 1) if not self._all_done(r)), last_open)
        current = self._round = min(started_round, last_open) if started_round else first_open
        self._complete.update(range(1, current))
        self._told.update(k for k, tr in self._tables.items() if k[1] <= current and tr.done)
        if self.playing(current) and self._all_done(current):  # ended before the restart
            ended = max(self.playing(current), key=lambda tr: (tr.ended_at or 0.0, tr.table))
            self._told.discard((ended.table, current))  # told now, before the round ends
        if started_round is None:  # the hub starts the clock (a complete round also ends)
            return self._start(current, at, resumed=True)
        return self._complete_round(at) if self._all_done(current) else []

    def _pace(
        self, at: float, start: float, per_board_s: float, elapsed: Elapsed | None
    ) -> list[Effect]:
        """D10: pace against the official start on the room's clock; only the values that
        changed are reported."""
        changed = []
        for tr in self.playing(self._round):
            off = minutes_off_pace(tr, start, per_board_s, at, elapsed)
            minutes = round(off, 1) + 0.0  # no −0.0
            if self._reported.get(tr.table) != minutes:
                self._reported[tr.table] = minutes
                changed.append((tr.table, minutes))
        return [PaceChanged(self._round, tuple(changed))] if changed else []
