"""Held results show what was sent and what accepting them would do (issue [EVENING], "Held
results show what was sent ..."; TD trial F7 and F4). The hub runs whole behind a recording
terminal port: terminals send through the port, the director decides through the API's
dispatcher.

Howell, 3 tables, 2 boards a round: round 1 is T1 NS 6 v EW 1 on boards 1-2. Board 7 is
vulnerable both ways (16-board cycle), so 4S N = there is NS +620 (120 + 500 game bonus);
board 1 nobody, so 4S N = is +420 and 4S N -1 is −50."""

from __future__ import annotations

import pytest
from desk_room import TD, DeskRoom, run_desk

from hub.api.server import CommandError


async def held(room: DeskRoom) -> list[dict]:
    return (await room.snapshot())["held"]


def test_a_held_result_shows_what_the_terminal_sent_and_why(tmp_path):
    """F7: the row showed only "board 117 ... is not played"; now the contract, declarer,
    result, tricks, lead, score, pairs and terminal, and "accept as sent" is offered only
    when it can succeed (board 7 is not in table 1's round: it cannot)."""

    async def scenario(room: DeskRoom) -> None:
        await room.logon(1, "BM-0001", 1)
        assert (await room.send(1, 1, 7, "4S", "N", 10, lead="SA")).outcome.value == "held"
        (row,) = await held(room)
        sent = {k: row[k] for k in row if k not in ("id", "reason")}
        assert sent == {
            "section": "A",
            "table": 1,
            "round": 1,
            "board": 7,
            "contract": "4S",
            "declarer": "N",
            "result": "=",
            "tricks": 10,
            "lead": "SA",
            "score_ns": 620,
            "adjusted": None,
            "entered_by": "BM-0001",
            "ns_pair": 6,
            "ew_pair": 1,
            "conflict": None,
            "can_accept_as_sent": False,
        }
        assert "board 7 is not played at table 1 in round 1" in row["reason"]
        # a console open at that moment reads the same from the feed (review R4)
        (alert,) = [e for e in room.hub.feed.since(0) or [] if e["event"] == "alert"]
        assert alert["held"] and alert["result"] == row["id"]
        (fed,) = [e for e in room.hub.feed.since(0) or [] if e["event"] == "held_details"]
        assert fed["id"] == row["id"] and fed["reason"] == row["reason"]
        assert {k: fed[k] for k in sent if k in fed} == {
            k: v for k, v in sent.items() if k not in ("section", "table", "round", "board")
        }
        with pytest.raises(CommandError) as e:
            await room.td("accept_held", result=row["id"])
        assert "board 7 is not played at table 1" in str(e.value)
        reply = await room.td("accept_held", result=row["id"], rekey={"board": 2})
        (r,) = [x for x in room.hub.store.live_results(room.hub.event_id) if x.board == 2]
        assert (r.id, r.entered_by, r.accepted_by) == (reply["result"], "BM-0001", TD)
        assert (r.contract, r.declarer, r.tricks, r.lead) == ("4S", "N", 10, "SA")
        assert await held(room) == []

    run_desk(tmp_path, scenario)


def test_accepting_over_a_live_result_names_it_and_needs_replace(tmp_path):
    """F7: "accepting both as board 17 silently replaced the first with the second". The
    same terminal sends board 1 twice with other content (4S N =, then 4S N -1): the second
    is held with the conflict; accept is refused without `replace`, naming the result
    there; with it, the held result is live, its author the terminal, accepted by the TD."""

    async def scenario(room: DeskRoom) -> None:
        await room.logon(1, "BM-0001", 1)
        assert (await room.send(1, 1, 1, "4S", "N", 10)).outcome.value == "accepted"
        assert (await room.send(1, 1, 1, "4S", "N", 9)).outcome.value == "held"
        (row,) = await held(room)
        assert row["conflict"] == "board 1 already has 4S N = from table A1 (round 1)"
        assert (row["result"], row["score_ns"], row["can_accept_as_sent"]) == ("-1", -50, True)
        with pytest.raises(CommandError) as e:
            await room.td("accept_held", result=row["id"])
        assert "board 1 already has 4S N = from table A1 (round 1)" in str(e.value)
        assert "replace" in str(e.value)
        await room.td("accept_held", result=row["id"], replace=True)
        rows = (await room.td("traveller", section="A", board=1))["results"]
        assert [(r["result"], r["entered_by"], r["accepted_by"]) for r in rows] == [
            ("-1", "BM-0001", TD)
        ]

    run_desk(tmp_path, scenario)


def test_a_rejected_result_is_asked_again_and_the_table_can_enter_it(tmp_path):
    """F4: "a rejected held result leaves the table at 2/3, and the hub sends the table no
    message". Pairs sent the wrong way round (NS 1 v EW 6) are held; the director rejects
    them; the table's terminal is told to enter the board again, and its new entry (the
    same terminal revision, now right) is accepted, not held as a clash with the rejected
    one (decisions D21 count only results that still stand)."""

    async def scenario(room: DeskRoom) -> None:
        await room.logon(1, "BM-0001", 1)
        verdict = await room.send(1, 1, 2, "3NT", "S", 9, pairs=(1, 6))
        assert verdict.outcome.value == "held"
        (row,) = await held(room)
        assert "wrong way round" in row["reason"] and row["can_accept_as_sent"] is False
        reply = await room.td("reject_held", result=row["id"])
        assert reply == {"table_told": True}
        assert room.port.messages(1)[-1] == (
            "board 2: your result was not accepted by the director; enter it again"
        )
        assert await held(room) == []
        assert (await room.send(1, 1, 2, "3NT", "S", 9)).outcome.value == "accepted"
        (live,) = [r for r in room.hub.store.live_results(room.hub.event_id) if r.board == 2]
        assert (live.ns_pair, live.ew_pair, live.entered_by) == (6, 1, "BM-0001")

    run_desk(tmp_path, scenario)
