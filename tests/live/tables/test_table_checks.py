"""Review R3 of the fuzzing (issue 12 [FAULTS]): what a terminal says about its table besides
results. A TD call is tied to the table like the other at-table messages (decisions D20); a
VERIFY, ROUND_STARTED, BOARD_STARTED or PLAYER_NUMBER that names a round the movement has
not, board 0, a seat past W, a number that cannot be printed or a round not started yet is
refused with its reason (D9: refused, the terminal shows why), where it was answered ACK 0
and changed nothing, or set the first action of a later round early (slow play, D10). The
harmless cases a real terminal sends stay accepted (``hub/live/tables/table_checks.py``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from hostile import SECTION, Sent, expect, hostile_room
from trust_room import Room, run_room

from drivers.protocol import messages as wire
from hub.live.port import terminal_port as tp

NOT_LOGGED_ON, NOT_IN_MOVEMENT, NOT_ALLOWED = (
    tp.Reason.NOT_LOGGED_ON,
    tp.Reason.NOT_IN_MOVEMENT,
    tp.Reason.NOT_ALLOWED,
)


def _refused(verdict: tp.Verdict, reason: tp.Reason, text: str) -> None:
    assert verdict.outcome is tp.Outcome.REFUSED, verdict
    assert verdict.reason is reason and verdict.text == text, verdict


def test_d20_a_td_call_needs_the_table_held_over_its_link(tmp_path):
    """D20 / issue 12: any link could open a TD call for any table, even one that does not
    exist (ACK 0, a call on the director's console). Refused NAK 16 like the other at-table
    messages; nothing opens. The holder's call still opens."""

    async def scenario(room: Room) -> None:
        await room.logon(1, "BM-1", 1)
        store, eid = room.hub.store, room.hub.event_id
        stranger = await room.say(tp.DirectorCall, 7, 1, "A", 1, 1, "come here")
        _refused(stranger, NOT_LOGGED_ON, "log on to table A1 first")
        other = await room.say(tp.DirectorCall, 1, 1, "A", 3, 1, "revoke")
        _refused(other, NOT_LOGGED_ON, "log on to table A3 first")
        nowhere = await room.say(tp.DirectorCall, 1, 1, "A", 99, 1, "revoke")
        _refused(nowhere, NOT_LOGGED_ON, "log on to table A99 first")
        assert store.td_calls(eid) == [] and room.events("td_call") == []
        ok = await room.say(tp.DirectorCall, 1, 1, "A", 1, 1, "revoke")
        assert ok.outcome is tp.Outcome.OK
        assert [c["table"] for c in store.td_calls(eid)] == [1]

    run_room(tmp_path, scenario)


def test_issue12_d9_player_number_for_no_seat_no_round_or_an_unprintable_number_is_refused(
    tmp_path,
):
    """Issue 12 / D9: PLAYER_NUMBER with seat 4, a round not in the movement or a number
    with a control character was answered ACK 0 (nothing stored, no name sent back, or the
    control character stored as a member number). Each is refused with its reason; a
    number for a later round of the movement is still recorded (numbers may be keyed
    ahead, docs/protocol.md PLAYER_NUMBER)."""

    async def scenario(room: Room) -> None:
        await room.logon(1, "BM-1", 1)
        seat = await room.say(tp.PlayerKeyed, 1, 1, "A", 1, 1, 4, "1001")
        _refused(seat, NOT_ALLOWED, "seat 4 is not a seat: 0 N, 1 E, 2 S, 3 W")
        rnd = await room.say(tp.PlayerKeyed, 1, 1, "A", 1, 12, 0, "1001")
        _refused(rnd, NOT_IN_MOVEMENT, "round 12 is not in the movement (rounds 1-5)")
        bell = await room.say(tp.PlayerKeyed, 1, 1, "A", 1, 1, 0, "10\x07")
        text = "member number '10\\x07' has characters that cannot be printed: key it again"
        _refused(bell, NOT_ALLOWED, text)
        assert not [s for s in room.port.sent if s[1] == "player_name"]
        later = await room.say(tp.PlayerKeyed, 1, 1, "A", 1, 5, 0, "1001")
        assert later.outcome is tp.Outcome.OK
        assert [s[2].number for s in room.port.sent if s[1] == "player_name"] == ["1001"]

    run_room(tmp_path, scenario)


def test_issue12_d9_verify_and_round_started_for_rounds_and_boards_not_played_are_refused(
    tmp_path,
):
    """Issue 12 / D9 / D10: VERIFY and ROUND_STARTED / BOARD_STARTED for a round not in the
    movement or board 0 were answered ACK 0 and changed nothing; a ROUND_STARTED for round
    2 during round 1 set round 2's first action before its start (no late arrival could be
    measured, D10). Refused with the reason, nothing changed. Kept accepted: a VERIFY or
    BOARD_STARTED for a board the table does not play (its result is held, D9), a VERIFY
    for a later round (intake takes its RESULT: it must stay verifiable)."""

    async def scenario(room: Room) -> None:
        await room.logon(1, "BM-1", 1)
        controller = room.hub.rounds.controller("A")
        nine = "round 12 is not in the movement (rounds 1-5)"
        _refused(await room.say(tp.VerifyNotice, 1, 1, "A", 1, 12, 1, True), NOT_IN_MOVEMENT, nine)
        board0 = "board 0 is not in the movement: boards are numbered from 1"
        _refused(await room.say(tp.VerifyNotice, 1, 1, "A", 1, 1, 0, True), NOT_IN_MOVEMENT, board0)
        _refused(await room.say(tp.PlayStarted, 1, 1, "A", 1, 1, 0), NOT_IN_MOVEMENT, board0)
        zero = "round 0 is not in the movement (rounds 1-5)"
        _refused(await room.say(tp.PlayStarted, 1, 1, "A", 1, 0), NOT_IN_MOVEMENT, zero)
        ahead = "round 2 has not started: table A1 plays round 1"
        _refused(await room.say(tp.PlayStarted, 1, 1, "A", 1, 2), NOT_ALLOWED, ahead)
        _refused(
            await room.say(tp.PlayStarted, 1, 1, "A", 1, 3, 5), NOT_ALLOWED, ahead.replace("2", "3")
        )
        later = controller.table_round(1, 2)
        assert later is not None and later.first_action_at is None
        for ok in (
            await room.say(tp.VerifyNotice, 1, 1, "A", 1, 1, 7, True),  # a held board's
            await room.say(tp.VerifyNotice, 1, 1, "A", 1, 2, 4, True),  # its RESULT is taken
            await room.say(tp.PlayStarted, 1, 1, "A", 1, 1, 7),
            await room.say(tp.PlayStarted, 1, 1, "A", 1, 1),
        ):
            assert ok.outcome is tp.Outcome.OK, ok
        first = controller.table_round(1, 1)
        assert first is not None and first.first_action_at == room.now[0]

    run_room(tmp_path, scenario)


def test_issue12_the_refusals_reach_the_terminal_as_nak_19_and_20_over_the_wire(tmp_path: Path):
    """Issue 12 through the real path (base-station driver and adapter, HubService): the
    new refusals are NAK 19 and 20 with their texts; a TDCALL from a terminal that does not
    hold the table NAK 16; a BOARD_STARTED for board 0 (the adapter now passes the board)
    NAK 19."""

    async def scenario() -> None:
        async with hostile_room(tmp_path) as room:
            holder, stranger = room.devices[1], room.devices[11]
            cases = [
                (stranger, wire.TDCall(SECTION, 1, 1, 0, "x"), "NAK 16", "log on to table A1"),
                (holder, wire.BoardStarted(SECTION, 1, 1, 0, 0), "NAK 19", "board 0"),
                (holder, wire.PlayerNumber(SECTION, 1, 1, 9, "1"), "NAK 20", "seat 9"),
                (holder, wire.RoundStarted(SECTION, 1, 2, 0), "NAK 20", "has not started"),
            ]
            sent = []
            for dev, msg, answer, names in cases:
                s = Sent("r3", expect(answer, names=names), message=msg)
                room.send(s, dev)
                sent.append(s)
            await room.drain(0)
            for s, (_, _, answer, names) in zip(sent, cases, strict=True):
                assert s.answer is not None and s.answer[0] == answer, (s.message, s.answer)
                assert names in s.answer[1], s.answer
            assert not room.report.failures and room.errors.records == []
            assert room.store.td_calls(room.event_id) == []

    asyncio.run(scenario())
