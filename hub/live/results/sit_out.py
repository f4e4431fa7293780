"""A result's pairs against the seating (issue [EVENING]; TD trial F2, F16).

No result is entered for a sit-out: a table with pair 0 on either side this round, or one
that does not play the round, has nobody to score against, and pair 0 is never a side of a
result. Pairs that do not sit where they keyed are held, and the reason names them as the
room does: in a Mitchell "EW 3", never the hub's internal "pair 10" (other movements number
their pairs once and keep the key check's words, ``hub.event.result_key``). Sans I/O:
intake asks on the hub's loop."""

from __future__ import annotations

from collections.abc import Mapping

from hub.event.movement.model import Movement
from hub.event.pair_labels import PairLabels
from hub.event.result_key import KeyCheck
from hub.live.port.terminal_port import ResultSubmission
from hub.store.store import ResultEntry


def sit_out_reason(movements: Mapping[str, Movement], s: ResultSubmission) -> str | None:
    """Why the submission is for a sit-out (the players' words), or None."""
    movement = movements.get(s.section)
    row = None if movement is None else movement.row(s.section, s.table, s.round)
    where = f"table {s.section}{s.table}"
    if row is not None and 0 in (row.ns_pair, row.ew_pair):
        return f"{where} sits out in round {s.round}: no result to enter"
    plays = movement is not None and s.table in movement.tables(s.section)
    if movement is not None and plays and row is None and 1 <= s.round <= movement.rounds:
        return f"{where} does not play in round {s.round}: no result to enter"
    if 0 in (s.ns_pair, s.ew_pair):
        return (
            f"pair 0 is the sit-out: no result is entered against it ({where} round "
            f"{s.round}); check the pair numbers"
        )
    return None


def held_reason(movement: Movement, e: ResultEntry, key: KeyCheck) -> str:
    """The reason ``key`` holds ``e``, a Mitchell's pairs named "NS 1" and "EW 3"."""
    row = movement.row(e.section, e.table, e.round)
    if row is None or e.board not in row.boards:
        return key.reason  # the board, not the pairs: no pair is named
    labels = PairLabels.of(movement, e.section)
    if not labels.mitchell:
        return key.reason
    name = labels.label
    seated = f"NS is {name(row.ns_pair)}, EW is {name(row.ew_pair)}"
    if (e.ns_pair, e.ew_pair) == (row.ew_pair, row.ns_pair):
        return (
            f"pairs {name(e.ns_pair)} and {name(e.ew_pair)} are the wrong way round at "
            f"table {e.section}{e.table} in round {e.round}: {seated}"
        )
    return (
        f"pairs {name(e.ns_pair)} v {name(e.ew_pair)} do not sit at table "
        f"{e.section}{e.table} in round {e.round}: {seated}"
    )


def held_text(reason: str | None) -> str:
    """What the players read of a held result: that the director decides, and why, so
    they can tell the director what happened."""
    return f"held for the director: {reason}" if reason else "held for the director"
