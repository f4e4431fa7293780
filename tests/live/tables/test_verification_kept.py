"""Decisions D10 (a board is finished when its result is entered and verified) and D21 (no
result a terminal was told is stored is ever lost), as the fault campaign found them on
PostgreSQL (issue 12 [FAULTS]): a verification answered OK while its board's result was
still on its way to the store lived only in the hub's memory; a hub killed before the
commit forgot it, the terminal (told OK) never sent it again, the resent result was
accepted by the next hub and the board, its round and the section waited for ever. The
hub now answers such a verification BUSY (send it again after the pause) and takes it once
the result is stored; a stored result counts as played after a restart."""

from __future__ import annotations

from event_text import one_section_event
from trust_room import Room, run_room

from hub.live.port import terminal_port as tp

VERIFIED = one_section_event("Kept", 'kind = "howell", tables = 3, boards_per_round = 2')


def test_a_verification_before_its_result_is_stored_is_answered_busy_not_ok(tmp_path):
    async def scenario(room: Room) -> None:
        assert (await room.logon(1, "BM-1", 1)).outcome is tp.Outcome.OK
        controller = room.hub.rounds.controller("A")
        board = room.row(1).boards[0]
        early = await room.say(tp.VerifyNotice, 1, 1, "A", 1, 1, board, True)
        assert early.outcome is tp.Outcome.REFUSED and early.reason is tp.Reason.BUSY, early
        assert "not stored yet" in early.text
        assert controller.done(1) == 0
        assert (await room.result(1, 1, board)).outcome is tp.Outcome.ACCEPTED
        assert controller.done(1) == 0  # entered, not yet verified (D10)
        again = await room.say(tp.VerifyNotice, 1, 1, "A", 1, 1, board, True)
        assert again.outcome is tp.Outcome.OK, again
        assert controller.done(1) == 1  # entered and verified: finished

    run_room(tmp_path, scenario, VERIFIED)


def test_a_rejection_goes_to_the_director_whatever_the_result(tmp_path):
    """D10: the opponents' "disagree" is the director's, answered at once."""

    async def scenario(room: Room) -> None:
        assert (await room.logon(1, "BM-1", 1)).outcome is tp.Outcome.OK
        board = room.row(1).boards[0]
        no = await room.say(tp.VerifyNotice, 1, 1, "A", 1, 1, board, False)
        assert no.outcome is tp.Outcome.OK
        alerts = [e["text"] for e in room.events("alert")]
        assert any("rejected the result of board" in t for t in alerts), alerts

    run_room(tmp_path, scenario, VERIFIED)
