"""Slow play, measured from each table's own timestamps against the round clock.

Minutes behind: how long the table's next board is overdue against an even pace from the
official start (ahead, shown negative: how early it finished its last board). At round end
the lateness is the time of the last accepted result minus (official start + allowed time)
(decisions D10), and the event's scale proposes a penalty that the TD confirms or waives,
saying who pays.

Time is the clock the room sees (TD trial F20): given ``elapsed`` (wall time → seconds of
the round used on the room's clock, ``RoundClock.room_elapsed``), pauses and breaks do not
count and the director's adjustments do; without it, the time since the official start.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from scoring.penalties import Penalty, PenaltyScale


@dataclass
class TableRound:
    """One table's round: its boards and when each result was accepted."""

    section: str
    table: int
    round: int
    boards: tuple[int, ...]
    ns_pair: int
    ew_pair: int
    finished_at: dict[int, float] = field(default_factory=dict)
    first_action_at: float | None = None

    @property
    def done(self) -> bool:
        return all(b in self.finished_at for b in self.boards)

    @property
    def ended_at(self) -> float | None:
        return max(self.finished_at.values()) if self.done and self.finished_at else None


Elapsed = Callable[[float], float]  # wall time → seconds of the round used on the room's clock


def _since(official_start: float, elapsed: Elapsed | None) -> Elapsed:
    return elapsed if elapsed is not None else (lambda t: t - official_start)


def minutes_behind(
    tr: TableRound,
    official_start: float,
    per_board_s: float,
    at: float,
    elapsed: Elapsed | None = None,
) -> float:
    """How far the table is behind an even pace (0 when on time)."""
    used = _since(official_start, elapsed)
    done = sum(1 for b in tr.boards if b in tr.finished_at)
    if done >= len(tr.boards):
        end = tr.ended_at or at
        return max(0.0, used(end) - len(tr.boards) * per_board_s) / 60
    return max(0.0, used(at) - (done + 1) * per_board_s) / 60


def minutes_off_pace(
    tr: TableRound,
    official_start: float,
    per_board_s: float,
    at: float,
    elapsed: Elapsed | None = None,
) -> float:
    """Minutes behind (+) or ahead (−) of an even pace: behind as ``minutes_behind``;
    ahead by how long before its due time the table finished its last board (while the
    next is not yet overdue)."""
    behind = minutes_behind(tr, official_start, per_board_s, at, elapsed)
    finished = [tr.finished_at[b] for b in tr.boards if b in tr.finished_at]
    if behind > 0 or not finished:
        return behind
    used = _since(official_start, elapsed)
    return min(0.0, used(max(finished)) - len(finished) * per_board_s) / 60


def lateness_minutes(
    tr: TableRound, official_start: float, allowed_s: float, elapsed: Elapsed | None = None
) -> float | None:
    """D10: end of the table's round minus (official start + allowed time), on the room's
    clock when ``elapsed`` is given (``allowed_s`` then the time the rules allow, before
    the director's changes); None while the round is not finished at the table."""
    end = tr.ended_at
    if end is None:
        return None
    return (_since(official_start, elapsed)(end) - allowed_s) / 60


def late_arrival_minutes(tr: TableRound, official_start: float) -> float | None:
    if tr.first_action_at is None:
        return None
    return (tr.first_action_at - official_start) / 60


class Payer(Enum):
    NS = "NS"
    EW = "EW"
    BOTH = "both"
    SHARED = "shared"  # in proportion, as the TD sets


@dataclass(frozen=True, slots=True)
class Proposal:
    """What the scale proposes for a late table; the TD confirms (with who pays) or waives."""

    section: str
    table: int
    round: int
    ns_pair: int
    ew_pair: int
    minutes_late: float
    penalty: Penalty
    kind: str = "slow_play"

    @property
    def text(self) -> str:
        return (
            f"section {self.section} table {self.table} round {self.round}: "
            f"{self.minutes_late:.1f} min late ({self.kind.replace('_', ' ')}) → "
            f"{self.penalty} (NS {self.ns_pair}, EW {self.ew_pair})"
        )


def propose(
    tr: TableRound, scale: PenaltyScale, minutes: float, offences: int, kind: str = "slow_play"
) -> Proposal | None:
    """The scale's proposal for ``minutes`` late at the contestants' ``offences``-th time."""
    penalty = scale.penalty(Fraction(minutes).limit_denominator(600), offences)
    if penalty is None:
        return None
    return Proposal(tr.section, tr.table, tr.round, tr.ns_pair, tr.ew_pair, minutes, penalty, kind)
