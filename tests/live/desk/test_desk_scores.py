"""The director's desk: a score for any table, round and board, the boards not played, a
paper traveller in one command, and the traveller a TD checks (issue [EVENING], "The
director's desk"; TD trial F4, F14). The hub runs whole behind a recording terminal port;
the director's commands go through the API's dispatcher with their models.

Howell, 3 tables, 2 boards a round: round 1 is T1 NS 6 v EW 1, T2 5 v 2, T3 4 v 3 on boards
1-2; round 2 is T1 6 v 2, T2 1 v 3, T3 5 v 4 on boards 3-4. Three results a board: top 4."""

from __future__ import annotations

import pytest
from desk_room import TD, DeskRoom, run_desk

from hub.api.server import CommandError


def test_a_board_nobody_played_is_scored_with_pairs_from_the_movement(tmp_path):
    """F4: "enter result ... for any table, round and board": no stored result, no pairs
    given: table 2 round 1 is NS 5 v EW 2 by the movement."""

    async def scenario(room: DeskRoom) -> None:
        reply = await room.td(
            "enter_result", section="A", table=2, round=1, board=2, adjusted="A+/A-"
        )
        live = room.hub.store.live_results(room.hub.event_id, "A")
        (r,) = [x for x in live if x.id == reply["result"]]
        assert (r.table, r.round, r.board, r.ns_pair, r.ew_pair) == (2, 1, 2, 5, 2)
        assert (r.adjusted, r.entered_by) == ("A+/A-", TD)

    run_desk(tmp_path, scenario)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ({"table": 1, "round": 1, "board": 3, "adjusted": "A/A"}, "board 3 is not played"),
        ({"table": 4, "round": 1, "board": 1, "adjusted": "A/A"}, "has no table 4"),
        ({"table": 1, "round": 9, "board": 1, "adjusted": "A/A"}, "round 9 is not in"),
        ({"table": 1, "round": 1, "board": 1, "ns_pair": 1, "ew_pair": 6}, "wrong way round"),
        ({"table": 1, "round": 1, "board": 1}, "give the contract, declarer and result"),
        ({"table": 1, "round": 1, "board": 1, "adjusted": "70/A+"}, None),
        ({"table": 1, "round": 1, "board": 1, "adjusted": "110/0"}, "percentage 0-100"),
        (
            {"table": 1, "round": 1, "board": 1, "contract": "4S", "declarer": "N", "result": "+4"},
            "impossible",
        ),
        (
            {"table": 1, "round": 1, "board": 1, "contract": "4S", "declarer": "N", "result": "="}
            | {"lead": "Q7"},
            "not a card",
        ),
    ],
)
def test_a_score_the_hub_cannot_store_is_refused_with_its_reason(tmp_path, args, says):
    """Bad input never crashes the hub: a refusal names what to change (common rules)."""

    async def scenario(room: DeskRoom) -> None:
        if says is None:  # 70/A+ is a legal artificial score (Law 12C2, a percentage per side)
            await room.td("enter_result", section="A", **args)
            return
        with pytest.raises(CommandError) as e:
            await room.td("enter_result", section="A", **args)
        assert says in str(e.value)

    run_desk(tmp_path, scenario)


def test_a_weighted_score_is_matchpointed_part_by_part(tmp_path):
    """Law 12C1(c), board 1 (nobody vulnerable), top 4: T1 4S N = (+420), T2 4S N -1 (-50),
    T3 ½ of 4S N = and ½ of 4S N -1.
    T3 as +420: NS MPs T1 3 (ties T3, beats T2), T2 0, T3 3.
    T3 as  -50: T1 4, T2 1, T3 1.
    Weighted: T1 3½ (87.5 %), T2 ½ (12.5 %), T3 2 (50 %)."""

    async def scenario(room: DeskRoom) -> None:
        for table, result in ((1, "="), (2, "-1")):
            await room.td(
                "enter_result",
                section="A",
                table=table,
                round=1,
                board=1,
                contract="4S",
                declarer="N",
                result=result,
            )
        weighted = [
            {"weight": "1/2", "contract": "4S", "declarer": "N", "result": "="},
            {"weight": "1/2", "contract": "4S", "declarer": "N", "result": "-1"},
        ]
        await room.td("enter_result", section="A", table=3, round=1, board=1, weighted=weighted)
        rows = (await room.td("traveller", section="A", board=1))["results"]
        assert [(r["table"], r["ns_score"], r["ns_mp"]) for r in rows] == [
            (1, 87.5, 3.5),
            (2, 12.5, 0.5),
            (3, 50.0, 2.0),
        ]
        assert rows[2]["adjusted"] == "1/2 4S N =; 1/2 4S N -1"
        with pytest.raises(CommandError) as e:
            await room.td(
                "enter_result",
                section="A",
                table=3,
                round=1,
                board=1,
                weighted=[dict(weighted[0], weight="1/3"), weighted[1]],
            )
        assert "sum to 1" in str(e.value)

    run_desk(tmp_path, scenario)


def test_the_traveller_shows_what_a_td_checks(tmp_path):
    """F14: contract, by, result in the +1/-2 form, lead, NS and EW points (Law 77), the
    matchpoints, who entered it. Board 3 is EW vulnerable (16-board cycle: board 3 EW).
    T1 (round 2) 3NT S +1 with lead HA: NS +430 (not vulnerable: 40+60+300+30).
    T2 4H E -2 doubled: EW vulnerable, 2 down doubled = 500 to NS.
    T3 2S W =: EW +110, NS −110."""

    async def scenario(room: DeskRoom) -> None:
        await room.hub.commands.dispatch("next_round", {"section": "A"}, TD)
        entries = [
            {"table": 1, "contract": "3NT", "declarer": "S", "result": "+1", "lead": "ha"},
            {"table": 2, "contract": "4HX", "declarer": "E", "result": "-2"},
            {"table": 3, "contract": "2S", "declarer": "W", "result": "="},
        ]
        reply = await room.td(
            "enter_results",
            entries=[{"section": "A", "round": 2, "board": 3, **e} for e in entries],
        )
        assert reply["stored"] == 3
        rows = (await room.td("traveller", section="A", board=3))["results"]
        got = [
            (
                r["table"],
                r["contract"],
                r["declarer"],
                r["result"],
                r["lead"],
                r["points_ns"],
                r["points_ew"],
                r["ns_mp"],
                r["entered_by"],
            )
            for r in rows
        ]
        assert got == [
            (1, "3NT", "S", "+1", "HA", 430, None, 2.0, TD),
            (2, "4HX", "E", "-2", None, 500, None, 4.0, TD),
            (3, "2S", "W", "=", None, None, 110, 0.0, TD),
        ]

    run_desk(tmp_path, scenario)


def test_a_paper_traveller_stores_the_good_lines_and_names_each_refusal(tmp_path):
    """Issue [EVENING]: "a paper traveller or a whole round's slips typed in one screen":
    every entry checked first, the good ones stored, a reply per entry in the order sent."""

    async def scenario(room: DeskRoom) -> None:
        one = {"section": "A", "round": 1, "board": 1}
        reply = await room.td(
            "enter_results",
            entries=[
                {**one, "table": 1, "contract": "4S", "declarer": "N", "result": "="},
                {**one, "table": 2, "contract": "4S", "declarer": "N", "result": "+7"},
                {**one, "table": 3, "adjusted": "60/40"},
                {**one, "table": 3, "adjusted": "A/A"},
                {**one, "section": "Z", "table": 1, "adjusted": "A/A"},
                {**one, "table": 2, "board": 4, "adjusted": "A/A"},
            ],
        )
        entries = reply["entries"]
        assert [e["status"] for e in entries] == [
            "stored",
            "refused",
            "stored",
            "refused",
            "refused",
            "refused",
        ]
        assert "+7 is impossible for 4S" in entries[1]["reason"]
        assert "table A3 round 1 board 1 is given twice" in entries[3]["reason"]
        assert "section Z is not in this event" in entries[4]["reason"]
        assert "board 4 is not played at table 2 in round 1" in entries[5]["reason"]
        assert (reply["stored"], reply["refused"]) == (2, 4)
        live = {(r.table, r.board) for r in room.hub.store.live_results(room.hub.event_id)}
        assert live == {(1, 1), (3, 1)}

    run_desk(tmp_path, scenario)


def test_boards_not_played_are_listed_after_a_forced_round_end_until_scored(tmp_path):
    """F4: "the log lists unplayed boards but the Calls tab has no row for them". After the
    director ends round 1 with only T1's board 1 played, the five other boards of round 1
    are listed (with the pairs that should have played them); they leave the list as the
    director scores them; round 2, still being played, is not listed."""

    async def scenario(room: DeskRoom) -> None:
        await room.logon(1, "BM-0001", 1)
        assert (await room.send(1, 1, 1, "4S", "N", 10)).outcome.value == "accepted"
        assert (await room.snapshot())["not_played"] == []
        await room.td("next_round", section="A")
        listed = (await room.snapshot())["not_played"]
        assert [(x["table"], x["board"], x["ns_pair"], x["ew_pair"]) for x in listed] == [
            (1, 2, 6, 1),
            (2, 1, 5, 2),
            (2, 2, 5, 2),
            (3, 1, 4, 3),
            (3, 2, 4, 3),
        ]
        assert all((x["section"], x["round"]) == ("A", 1) for x in listed)
        await room.td("enter_result", section="A", table=2, round=1, board=1, adjusted="A/A")
        await room.td(
            "enter_results",
            entries=[
                {"section": "A", "table": 3, "round": 1, "board": b, "adjusted": "A-/A-"}
                for b in (1, 2)
            ],
        )
        left = (await room.snapshot())["not_played"]
        assert [(x["table"], x["board"]) for x in left] == [(1, 2), (2, 2)]

    run_desk(tmp_path, scenario)
