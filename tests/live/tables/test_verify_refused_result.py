"""Issue 25 [MENDS]: "A VERIFY for a refused result is answered BUSY every 2 s for ever".
BUSY says "not stored yet, send it again" (issue 12, tests/live/tables/test_verification_kept.py),
but a refused result is never stored: the terminal would resend its VERIFY every 2 s all evening.
The VERIFY of a board whose result was refused gets a final refusal (NAK 20 on the wire,
docs/protocol.md 0x13) naming why; once the table enters a result the hub stores, the
VERIFY is taken and the board is finished (decisions D10)."""

from __future__ import annotations

from event_text import one_section_event
from trust_room import Room, run_room

from hub.live.port import terminal_port as tp

VERIFIED = one_section_event("Refused", 'kind = "howell", tables = 3, boards_per_round = 2')


def test_a_verification_of_a_refused_result_is_refused_for_good_not_busy(tmp_path):
    async def scenario(room: Room) -> None:
        assert (await room.logon(1, "BM-1", 1)).outcome is tp.Outcome.OK
        controller = room.hub.rounds.controller("A")
        row = room.row(1)
        board = row.boards[0]
        # 8NT: no such contract (Law 18: bids run 1 to 7), so the result cannot be scored
        bad = await room.say(
            tp.ResultSubmission, 1, 1, "A", 1, 1, board, row.ns_pair, row.ew_pair,
            "8NT", "N", "", 10, 1,
        )  # fmt: skip
        assert bad.outcome is tp.Outcome.REFUSED and bad.reason is tp.Reason.INVALID_RESULT, bad
        for _ in range(3):  # the same answer each time: nothing to wait for
            verify = await room.say(tp.VerifyNotice, 1, 1, "A", 1, 1, board, True)
            assert verify.outcome is tp.Outcome.REFUSED, verify
            assert verify.reason is tp.Reason.NOT_ALLOWED, verify
            assert f"board {board} has no result to verify" in verify.text, verify
            assert "enter it again" in verify.text and bad.text in verify.text, verify
        assert controller.done(1) == 0
        assert (await room.result(1, 1, board)).outcome is tp.Outcome.ACCEPTED
        again = await room.say(tp.VerifyNotice, 1, 1, "A", 1, 1, board, True)
        assert again.outcome is tp.Outcome.OK, again
        assert controller.done(1) == 1  # entered and verified: finished

    run_room(tmp_path, scenario, VERIFIED)


def test_a_verification_while_the_result_is_on_its_way_is_still_busy(tmp_path):
    """Only a refusal is final: before any result of the board, BUSY as before (issue 12)."""

    async def scenario(room: Room) -> None:
        assert (await room.logon(1, "BM-1", 1)).outcome is tp.Outcome.OK
        board = room.row(1).boards[1]
        early = await room.say(tp.VerifyNotice, 1, 1, "A", 1, 1, board, True)
        assert early.outcome is tp.Outcome.REFUSED and early.reason is tp.Reason.BUSY, early

    run_room(tmp_path, scenario, VERIFIED)
