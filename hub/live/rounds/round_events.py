"""What a section's round controller takes in (timed events: results, checks, TD entries
and erasures, "next round", clock ticks) and gives out (effects for the hub to carry out),
as values (D10, D12, D17). Sans-I/O."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hub.event.movement.model import Movement
from hub.live.rounds.slow_play import Elapsed, TableRound

Key = tuple[int, int, int]  # table, round, board


@dataclass(frozen=True, slots=True)
class _Board:
    table: int
    round: int
    board: int


@dataclass(frozen=True, slots=True)
class _BoardAt(_Board):
    at: float


@dataclass(frozen=True, slots=True)
class Resume:
    """At start: ``played`` = (table, round, board) of every live stored result;
    ``started_round`` = the last round the stored clock events started (None: none, then
    the first round not complete). That round is current; complete, it ends now."""

    played: frozenset[Key]
    started_round: int | None
    at: float


@dataclass(frozen=True, slots=True)
class ResultAccepted(_BoardAt): ...  # a terminal's result, stored and accepted (D9)


@dataclass(frozen=True, slots=True)
class Verified(_BoardAt): ...  # the opponents agreed (D10: a board ends entered and verified)


@dataclass(frozen=True, slots=True)
class DirectorEntered(_BoardAt): ...  # the TD entered a result or accepted a held one


@dataclass(frozen=True, slots=True)
class ResultHeld(_BoardAt): ...  # the table entered the board; it waits for the TD (D9)


@dataclass(frozen=True, slots=True)
class Erased(_Board): ...  # the TD erased the board's result


@dataclass(frozen=True, slots=True)
class FirstAction:
    table: int  # the table's first board or round start: late arrival (D10)
    round: int
    at: float


@dataclass(frozen=True, slots=True)
class NextRound:
    at: float  # the director moves the section on now


@dataclass(frozen=True, slots=True)
class Tick:
    at: float
    official_start: float | None  # pace runs from the official start, not a table's own (D10)
    per_board_s: float
    elapsed: Elapsed | None = None  # the room's clock (F20): pauses out, adjustments in


@dataclass(frozen=True)
class Drawn:
    """A round's draw is published (D19): ``movement`` holds it; a section waiting for it
    at the end of the round before moves on now."""

    movement: Movement
    at: float


Event = (
    Resume
    | Drawn
    | ResultAccepted
    | ResultHeld
    | Verified
    | DirectorEntered
    | Erased
    | FirstAction
    | NextRound
    | Tick
)


@dataclass(frozen=True, slots=True)
class TableFinished:
    table_round: TableRound  # once per table and round: the hub proposes slow play from it


@dataclass(frozen=True, slots=True)
class Unplayed:
    table: int
    boards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundComplete:
    round: int  # D12: its standings may be published; ``forced``: the director ended it
    unplayed: tuple[Unplayed, ...] = ()
    forced: bool = False


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int  # start its clock at ``at``, give every table its assignment
    at: float
    resumed: bool = False


@dataclass(frozen=True, slots=True)
class SessionComplete: ...  # the section's last round is complete


@dataclass(frozen=True, slots=True)
class PaceChanged:
    round: int
    tables: tuple[tuple[int, float], ...]  # (table, minutes behind (+) or ahead (−)) changed


@dataclass(frozen=True, slots=True)
class BoardReopened(_Board): ...  # its terminal may enter it again


Effect = (
    TableFinished | RoundComplete | RoundStarted | SessionComplete | PaceChanged | BoardReopened
)


def ended_early(section: str, rnd: int, unplayed: Sequence[Unplayed]) -> str:
    """The alert of a round the director ended with boards not played."""
    what = ", ".join(f"table {u.table} boards {', '.join(map(str, u.boards))}" for u in unplayed)
    return f"round {rnd} of section {section} ended by the director; not played: {what}"
