"""What a table's terminal may say about its own play besides results (decisions D9, D20,
issue 12 "every refusal specific"): a verification, the start of a round or a board, a
member number keyed at a seat. Once the link holds the table (``table_requests``), the
message must still name a round the movement has (and the table plays), a board and a
seat that exist, a number that can be printed, and, to start play, a round that has
started; otherwise it is refused with a text the terminal can act on, instead of an ACK 0
that changes nothing (or, for a ROUND_STARTED ahead of the room, sets that round's first
action before its official start: no late arrival could be measured, D10).

Kept accepted on purpose, because a real terminal sends them and refusing would confuse it
or lose a verification: a VERIFY or BOARD_STARTED for a board the table does not play in
that round (its RESULT is held for the director, D9, and the opponents verify what they
saw); a VERIFY for any round of the movement, a later one too (intake takes a RESULT for
any round of the movement, and its board must still be verifiable: a hub restarted during
a round change with the director moving the rounds on can be a round behind its
terminals); a ROUND_STARTED or BOARD_STARTED for an earlier round (sent again after a
reboot); a PLAYER_NUMBER for any round of the movement (numbers may be keyed ahead, and in
a Howell every round); a PLAYER_NUMBER at a sit-out seat (answered with an empty name).

Pure: no I/O; any thread.
"""

from __future__ import annotations

from hub.event.movement.model import Movement
from hub.live.port import terminal_port as tp

SEATS = "0 N, 1 E, 2 S, 3 W"
Checked = tp.VerifyNotice | tp.PlayStarted | tp.PlayerKeyed


def refusal(ev: Checked, movement: Movement | None, current: int) -> tp.Verdict | None:
    """Why the table's message ``ev`` cannot be taken (``current``: the section's round
    now), or None when it can."""
    where = f"{ev.section}{ev.table}"
    if movement is None:
        return _refused(tp.Reason.NOT_IN_MOVEMENT, f"section {ev.section} is not in this event")
    if movement.row(ev.section, ev.table, ev.round) is None:
        text = f"round {ev.round} is not in the movement (rounds 1-{movement.rounds})"
        if 1 <= ev.round <= movement.rounds:
            text = f"table {where} does not play in round {ev.round}"
        return _refused(tp.Reason.NOT_IN_MOVEMENT, text)
    board = ev.board if isinstance(ev, tp.VerifyNotice | tp.PlayStarted) else None
    if board is not None and board < 1:
        text = f"board {board} is not in the movement: boards are numbered from 1"
        return _refused(tp.Reason.NOT_IN_MOVEMENT, text)
    if isinstance(ev, tp.PlayerKeyed):
        return _player_number(ev)
    if isinstance(ev, tp.PlayStarted) and ev.round > current:
        text = f"round {ev.round} has not started: table {where} plays round {current}"
        return _refused(tp.Reason.NOT_ALLOWED, text)
    return None


def _player_number(ev: tp.PlayerKeyed) -> tp.Verdict | None:
    if ev.seat > 3:
        return _refused(tp.Reason.NOT_ALLOWED, f"seat {ev.seat} is not a seat: {SEATS}")
    if not ev.number.isprintable():  # a control character: no name, no roster has it
        text = f"member number {ev.number!r} has characters that cannot be printed"
        return _refused(tp.Reason.NOT_ALLOWED, text + ": key it again")
    return None


def _refused(reason: tp.Reason, text: str) -> tp.Verdict:
    return tp.Verdict.refused(reason, text)
