"""Sit-outs in the live path (issue [EVENING] "odd numbers and sit-outs"; TD trial F2): a
result for a sit-out is refused with a clear message and logged; scoring never sees pair 0;
one bad stored line never takes down a board's scoring, the live hub's or
`bridgehub event standings`', and the director is told once which stored result was left
out and why.

The room: a 3-table Mitchell of 5 pairs written as the movement file gives it (NS 1-3
stationary, EW 4-6 up one table, boards down), EW 6 replaced by 0, the sit-out:

    round 1: T1 1-4 boards 1-2, T2 2-5 boards 3-4, T3 3-0 boards 5-6 (T3 sits out)
    round 2: T1 1-0 boards 3-4, T2 2-4 boards 5-6, T3 3-5 boards 1-2 (T1 sits out)
    round 3: T1 1-5 boards 5-6, T2 2-0 boards 1-2, T3 3-4 boards 3-4 (T2 sits out)
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from click.testing import CliRunner
from hub_stub import wait_until

from drivers.protocol.link import Received
from drivers.protocol.messages import NO_DECLARER, NO_PLAY, Result
from hub.cli.main import cli
from hub.live.port.base_station import request
from hub.live.port.terminal_port import Outcome, ResultSubmission
from hub.live.results.intake import Intake, IntakeResult
from hub.live.results.result_writer import store_pending
from hub.live.service.hub_service import HubService
from hub.standings.rebuild import rebuild
from hub.store.store import ResultEntry, Store
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

EVENT = """schema_version = 1
[event]
name = "Five pairs"
[rules]
scoring = "mp"
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = "m.csv"
"""


def movement_csv() -> str:
    rows = []
    for r in (1, 2, 3):
        for t in (1, 2, 3):
            ew = 3 + ((t - r) % 3) + 1
            s = ((t + r - 2) % 3) + 1
            rows.append(f"A,{t},{r},{t},{0 if ew == 6 else ew},{2 * s - 1},{2 * s}")
    head = (
        "# kind: mitchell\n# winners: 2\nsection,table,round,ns_pair,ew_pair,low_board,high_board"
    )
    return "\n".join([head, *rows]) + "\n"


@pytest.fixture
def store(tmp_path: Path):
    (tmp_path / "m.csv").write_text(movement_csv(), "utf-8")
    s = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    s.create_event(EVENT, base_dir=tmp_path)
    yield s
    s.close()


def submission(table, rnd, board, ns, ew, contract="1NT", declarer=0, tricks=7) -> ResultSubmission:
    msg = Result("A", table, rnd, board, ns, ew, contract, declarer, "", tricks, 0, 1)
    sub = request("line", Received(1, 1, 1, msg))
    assert isinstance(sub, ResultSubmission)
    return sub


def refused_text(intake: Intake, serial: str, sub: ResultSubmission) -> str:
    out = intake.prepare(serial, sub)
    assert isinstance(out, IntakeResult), f"not refused: {out}"
    assert out.outcome is Outcome.REFUSED
    return out.verdict.text


def test_a_result_at_a_sit_out_table_is_refused_and_logged(store):
    """F2: table 3 sits out in round 1 (EW is 0). Whatever its terminal sends (a result
    against pair 0, a made-up opponent, a NO PLAY) is refused with the reason the players
    can act on, and the refusal is in the audit log; nothing is stored."""
    audit: list[tuple[str, str, dict]] = []
    intake = Intake({"A": store.movement(1, "A")}, lambda *a: audit.append(a))
    assert intake.logon("BM-3", "A", 3).outcome is Outcome.OK
    expected = "table A3 sits out in round 1: no result to enter"
    assert refused_text(intake, "BM-3", submission(3, 1, 5, 3, 0)) == expected
    assert refused_text(intake, "BM-3", submission(3, 1, 5, 3, 4)) == expected
    no_play = submission(3, 1, 6, 3, 0, contract="", declarer=NO_DECLARER, tricks=NO_PLAY)
    assert refused_text(intake, "BM-3", no_play) == expected
    refusals = [d["reason"] for who, what, d in audit if what == "refused"]
    assert refusals == [expected] * 3
    assert store.results(1) == []


def test_pair_0_at_a_playing_table_is_refused(store):
    """A table that plays this round (T1 1-4 in round 1) keying pair 0 as EW is refused,
    not held: no result is ever stored against the sit-out."""
    intake = Intake({"A": store.movement(1, "A")}, lambda *a: None)
    intake.logon("BM-1", "A", 1)
    text = refused_text(intake, "BM-1", submission(1, 1, 1, 1, 0))
    assert text.startswith("pair 0 is the sit-out: no result is entered against it")
    accepted = intake.prepare("BM-1", submission(1, 1, 1, 1, 4))
    assert not isinstance(accepted, IntakeResult)  # the real pairs: on to the writer
    (st,) = store_pending(store, 1, [accepted])
    assert intake.stored(accepted, st).outcome is Outcome.ACCEPTED


def _older_store(store: Store) -> None:
    """Board 1 as an older hub stored it (F2's reproduction): two real results and one
    against pair 0 from the sit-out table.
    T1 r1 1-4: 4S by N, 10 tricks, board 1 none vulnerable: NS +420.
    T3 r2 3-5: 3NT by N, 9 tricks: NS +400.
    T2 r3 2-0: 1NT by N, 7 tricks (the bad line)."""
    store.record(
        1,
        [
            ResultEntry("A", 1, 1, 1, 1, 4, contract="4S", declarer="N", tricks=10),
            ResultEntry("A", 3, 2, 1, 3, 5, contract="3NT", declarer="N", tricks=9),
            ResultEntry("A", 2, 3, 1, 2, 0, contract="1NT", declarer="N", tricks=7),
        ],
    )


def test_a_stored_pair_0_row_is_left_out_of_the_rebuilt_standings(store, tmp_path):
    """F2: `bridgehub event standings` ended in "internal error". Board 1 is scored from its
    two real results: top 2 (two results), +420 beats +400, so NS 1 has 2 of 2 (100 %) and
    NS 3 0 %; EW 5 100 %, EW 4 0 %. The pair-0 line is named, not scored."""
    _older_store(store)
    view = rebuild(store, 1)["A"]
    (board,) = view.boards
    assert [(x.ns, x.ew, x.score_ns) for x in board.traveller.lines] == [(1, 4, 420), (3, 5, 400)]
    totals = {s.total.pair.number: s.total.total for rows in view.standings.values() for s in rows}
    assert totals == {1: 100, 3: 0, 4: 0, 5: 100}
    (bad,) = view.left_out
    assert (bad.table, bad.round, bad.board, bad.ns_pair, bad.ew_pair) == (2, 3, 1, 2, 0)
    assert "pair 0 is the sit-out" in bad.text()
    out = CliRunner().invoke(
        cli, ["event", "standings", "--db", f"sqlite:///{tmp_path / 'event.db'}", "--event", "1"]
    )
    assert out.exit_code == 0, out.output
    assert "internal error" not in out.output


def test_the_live_hub_scores_the_board_without_the_bad_line_and_tells_the_td_once(store):
    """F2: the live hub starts on such a store; board 1 is scored from its real results
    (the same reference values as above), and one director's alert names the stored result
    (its pairs as the room writes them: NS 2, and the sit-out's pair 0) and why, once, also
    when the board is rescored after a director's change."""

    _older_store(store)

    async def scenario() -> tuple[dict[int, str], list[str]]:
        hub = HubService(store, 1, [], auto_advance=False)
        await hub.start()
        try:
            await hub.scores.changed("A", 1, "td_entry", None, None)  # rescored
            await wait_until(lambda: hub.alerts.texts, 5, "the director's alert")
            rows = {r["pair"]: r["total"] for r in hub.standings_rows("A")}
            return rows, [t for t in hub.alerts.texts if "left out" in t]
        finally:
            await hub.stop()

    rows, alerts = asyncio.run(scenario())
    assert rows == {1: "100", 3: "0", 4: "0", 5: "100"}
    assert alerts == [
        "the stored result of table A2 round 3 board 1 (NS 2 v pair 0) is left out of board 1's "
        "scoring: pair 0 is the sit-out: no result is scored against it; erase it or enter "
        "the right result"
    ]


def test_a_simulated_sit_out_table_shows_sit_out_and_enters_nothing(store, tmp_path):
    """Issue [EVENING]: a simulator terminal assigned a table with an empty seat shows
    "sit out" and enters nothing that round; the other tables play on and the session
    ends. Each round two tables play two boards: 3 rounds x 2 tables x 2 boards = 12
    results, every one accepted, none refused, none against pair 0."""

    async def scenario():
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        for t in (1, 2, 3):
            bot = PlayerBot(seed=t)
            station.add_terminal(VirtualTerminal(t, f"BM-{t}", "A", t, bot, speed=50_000))
        hub = HubService(store, 1, [str(line.path)])
        await hub.start()
        station.start()
        try:
            await wait_until(hub.session_done.is_set, 60, "the three rounds to be played")
        finally:
            await station.stop()
            await hub.stop()
            line.close()
        return station

    station = asyncio.run(scenario())
    shown = {t.table: t.log.shown for t in station.terminals.values()}
    assert any(s.startswith("table 3 round 1: sit out") for s in shown[3])
    assert any(s.startswith("table 1 round 2: sit out") for s in shown[1])
    assert any(s.startswith("table 2 round 3: sit out") for s in shown[2])
    assert all(not t.log.refused for t in station.terminals.values())
    stored = store.results(1)
    assert len(stored) == 12 and all(r.status == "accepted" for r in stored)
    assert all(r.ns_pair and r.ew_pair for r in stored)
    sat_out = {(3, 1), (1, 2), (2, 3)}
    assert not any((r.table, r.round) in sat_out for r in stored)


def test_a_13_pair_mitchell_with_hand_records_plays_to_the_end(tmp_path):
    """Issue [EVENING] acceptance, the room's part: a 13-pair Mitchell generated from the
    event file (`pairs = 13`: one pair sits out each round) with hand records, played by the
    simulator's players from the real cards (`--hand-records`). Every round six tables
    play two boards and one sits out: 7 rounds x 6 tables x 2 boards = 84 results, all
    accepted (every lead is in its leader's hand), none against pair 0, none refused, and
    the session ends with 13 pairs in the standings."""
    from hand_record_room import deals, pbn

    from hub.live.results.hand_record_check import lead_misfit

    room = deals()  # boards 1-10 have hand records; 11-14 are played without
    (tmp_path / "hands.pbn").write_text(pbn(room), "utf-8")
    event = EVENT.replace(
        'name = "Evening"', 'name = "Evening"\nhand_records = "hands.pbn"'
    ).replace(
        'movement = "m.csv"', 'movement = { kind = "mitchell", pairs = 13, boards_per_round = 2 }'
    )

    async def scenario():
        s = Store.open(f"sqlite:///{tmp_path / 'event13.db'}")
        eid = s.create_event(event, base_dir=tmp_path)
        tables = s.movement(eid, "A").tables("A")
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        for t in tables:
            bot = PlayerBot(seed=t, deals=room)
            station.add_terminal(VirtualTerminal(t, f"BM-{t}", "A", t, bot, speed=50_000))
        hub = HubService(s, eid, [str(line.path)])
        await hub.start()
        station.start()
        try:
            await wait_until(hub.session_done.is_set, 120, "the 7 rounds to be played")
            rows = hub.standings_rows("A")
        finally:
            await station.stop()
            await hub.stop()
            line.close()
        stored = s.results(eid)
        deals_by_board = {("A", b): d for b, d in room.items()}
        s.close()
        return station, stored, rows, tables, deals_by_board

    station, stored, rows, tables, by_board = asyncio.run(scenario())
    assert len(tables) == 7
    assert all(not t.log.refused for t in station.terminals.values())
    assert sum(any("sit out" in x for x in t.log.shown) for t in station.terminals.values()) == 7
    assert len(stored) == 84 and all(r.status == "accepted" for r in stored)
    assert all(r.ns_pair and r.ew_pair for r in stored)
    assert all(lead_misfit(by_board, r) is None for r in stored)
    assert sum(r.lead is not None for r in stored if r.board <= 10) > 0
    assert len(rows) == 13


def test_the_exported_travellers_leave_out_a_stored_pair_0_line(store, tmp_path):
    """F2 for the scorer: the travellers an older store exports hold the two real results of
    board 1 only, so `bridgehub score` reads them (it refuses pair 0) and gives the
    rebuilt standings' values: +420 beats +400, NS 1 100 %, NS 3 0 %."""
    _older_store(store)
    out = tmp_path / "travellers.csv"
    export = CliRunner().invoke(
        cli,
        [
            "event",
            "export",
            "--db",
            f"sqlite:///{tmp_path / 'event.db'}",
            "--event",
            "1",
            "--travellers",
            str(out),
        ],
    )
    assert export.exit_code == 0, export.output
    lines = out.read_text("utf-8").splitlines()[1:]
    assert [line.split(",")[1:3] for line in lines] == [["1", "4"], ["3", "5"]]
    scored = CliRunner().invoke(cli, ["score", str(out), "--method", "mp", "--json"])
    assert scored.exit_code == 0, scored.output
    assert "100" in scored.output
