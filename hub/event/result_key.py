"""Is a result's key in the movement? Decisions D9 sort the answers: a key outside the
movement (unknown section, table or round) is refused; a board the table does not play in
that round, or pairs that do not sit there, is plausible but irregular and is held."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from hub.event.movement.model import Movement


class KeyVerdict(Enum):
    OK = "ok"
    HOLD = "hold"
    REFUSE = "refuse"


@dataclass(frozen=True, slots=True)
class KeyCheck:
    verdict: KeyVerdict
    reason: str = ""


def check_key(
    movement: Movement, section: str, table: int, rnd: int, board: int, ns_pair: int, ew_pair: int
) -> KeyCheck:
    """Compare a result's key and pairs with the movement; the reason names the mismatch."""
    if section not in movement.sections:
        return KeyCheck(
            KeyVerdict.REFUSE,
            f"section {section} is not in this event (sections: {', '.join(movement.sections)})",
        )
    if table not in movement.tables(section):
        return KeyCheck(KeyVerdict.REFUSE, f"section {section} has no table {table}")
    row = movement.row(section, table, rnd)
    if row is None:
        return KeyCheck(
            KeyVerdict.REFUSE, f"round {rnd} is not in the movement (rounds 1-{movement.rounds})"
        )
    if board not in row.boards:
        plays = f"boards {row.low_board}-{row.high_board}" if row.boards else "no boards"
        return KeyCheck(
            KeyVerdict.HOLD,
            f"board {board} is not played at table {table} in round {rnd} (it plays {plays})",
        )
    if (ns_pair, ew_pair) == (row.ew_pair, row.ns_pair):
        return KeyCheck(
            KeyVerdict.HOLD,
            f"pairs {ns_pair} and {ew_pair} are the wrong way "
            f"round: NS is pair {row.ns_pair}, EW pair {row.ew_pair}",
        )
    if (ns_pair, ew_pair) != (row.ns_pair, row.ew_pair):
        return KeyCheck(
            KeyVerdict.HOLD,
            f"pairs {ns_pair}-{ew_pair} do not sit at table "
            f"{table} in round {rnd} (NS {row.ns_pair}, EW {row.ew_pair})",
        )
    return KeyCheck(KeyVerdict.OK)
