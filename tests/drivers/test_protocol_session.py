"""docs/protocol.md §4 as the hub does it (issue 11, "a protocol an outside builder can
implement from the page alone"): the end of a round and of the session on the wire
(SETTINGS, NEXT_SEATING), the one encoding of a pass-out and of a board not played, ranking
lines with names, values rounded half away from zero, and the worked session example kept
equal to the code."""

from __future__ import annotations

import asyncio
from fractions import Fraction
from pathlib import Path

from hub_stub import wait_until

from drivers.protocol.link import Received
from drivers.protocol.messages import (
    NO_DECLARER,
    NO_TRICKS,
    Assignment,
    NextSeating,
    PlayerName,
    PlayerNumber,
    RankingPage,
    Result,
    ResultView,
    Settings,
    decode_message,
)
from hub.event.movement.model import Movement, MovementRow
from hub.live.port.base_station import request, result_view
from hub.live.port.next_seating import next_seating
from hub.live.port.terminal_port import ResultSubmission
from hub.live.results.intake import Intake
from hub.live.rounds.publication import hundredths
from hub.live.service.hub_service import HubService
from hub.live.views.base import TravellerRow, TravellerView
from hub.store.store import Store
from scoring.errors import ScoringInputError
from simulator.bots import Entry, PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

ROOT = Path(__file__).parents[2]
NAMES = {
    1: "Anna Berg & Bo Ek",
    2: "Cilla Dahl & Dan Ek",
    3: "Eva Fors & Gun Holm",
    4: "Åsa Öberg & Ivar Jonsson",
}
EVENT = """schema_version = 1
[event]
name = "Two-table Howell"
[rules]
scoring = "mp"
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = { kind = "howell", tables = 2, boards_per_round = 2 }
""" + "".join(
    f"""[[sessions.sections.pairs]]
number = {n}
players = [{{ name = "{a}", number = "{n}01" }}, {{ name = "{b}", number = "{n}02" }}]
"""
    for n, (a, b) in ((n, text.split(" & ")) for n, text in NAMES.items())
)


class PassesFirstBoard(PlayerBot):
    """A table whose first board is passed out."""

    passed: int | None = None

    def play(self, board: int) -> Entry:
        if self.passed in (None, board):
            self.passed = board
            return Entry(board, "PASS", NO_DECLARER, "", NO_TRICKS)
        return super().play(board)


def submission(contract: str, declarer: int, tricks: int) -> ResultSubmission:
    msg = Result("A", 1, 1, 1, 1, 2, contract, declarer, "", tricks, 0, 1)
    sub = request("line", Received(1, 1, 1, msg))
    assert isinstance(sub, ResultSubmission)
    return sub


def test_pass_out_and_no_play_have_one_encoding():
    """§4 Result: "PASS" with declarer and tricks 255 is a pass-out (scored 0), an empty
    contract a board not played; a contract with tricks 255 is invalid, not "no play"."""
    passed = submission("PASS", NO_DECLARER, NO_TRICKS)
    assert (passed.contract, passed.tricks, passed.no_play) == ("PASS", None, False)
    assert submission("PASS", NO_DECLARER, 0).no_play is False  # older terminals: 0 ignored
    assert submission("", NO_DECLARER, NO_TRICKS).no_play is True
    intake = Intake({}, lambda who, what, detail: None)
    assert intake.entry("BM-1", passed).contract == "PASS"
    bad = submission("4S", 0, NO_TRICKS)
    assert bad.no_play is False
    try:
        intake.entry("BM-1", bad)
    except ScoringInputError as e:
        assert "255" in e.message
    else:
        raise AssertionError("4S with tricks 255 was taken")


def test_values_on_the_wire_are_rounded_half_away_from_zero():
    """§4 TravellerEntry, RankLine: hundredths rounded half away from zero (docs/scoring.md:
    half-up), 78.125 % → 7813, −15.625 IMPs → −1563; Python's round() would give 7812."""
    row = TravellerRow(1, 2, "4S", "N", 10, 420, Fraction(-125, 8))
    view = result_view(TravellerView("A", 1, 420, Fraction(625, 8), False, (row,)))
    assert view.own_value == 7813 and view.lines[0].ns_value == -1563
    assert hundredths("625/8") == 7813 and hundredths("-125/8") == -1563
    passed = TravellerRow(1, 2, "PASS", None, None, 0, Fraction(50))
    (line,) = result_view(TravellerView("A", 1, 0, Fraction(50), False, (passed,))).lines
    assert (line.contract, line.declarer, line.tricks) == ("PASS", 255, 255)


def test_next_seating_keeps_a_teams_pair_in_its_direction_and_ends_the_session():
    """§4 NEXT_SEATING: a team at two tables sends its NS pair where it sits NS; after the
    last round every pair gets table 0 (the session is over)."""
    rows = (
        MovementRow("A", 1, 1, 1, 2, (1, 2)),
        MovementRow("A", 2, 1, 2, 1, (3, 4)),
        MovementRow("A", 1, 2, 1, 2, (3, 4)),
        MovementRow("A", 2, 2, 2, 1, (1, 2)),
    )
    movement = Movement(rows)
    ns, ew = next_seating(movement, "A", 2, 1)  # table 2: team 2 NS, team 1 EW
    assert (ns.pair, ns.table, ns.ns, ns.opponents, ns.boards) == (2, 2, True, 1, (1, 2))
    assert (ew.pair, ew.table, ew.ns, ew.opponents) == (1, 2, False, 2)
    over = next_seating(movement, "A", 1, 2)
    assert [(v.round, v.table, v.boards) for v in over] == [(3, 0, ()), (3, 0, ())]


def test_a_session_tells_each_table_where_its_pairs_go_and_when_it_is_over(tmp_path):
    """§4 "A session, step by step": SETTINGS (rounds) before every ASSIGNMENT; when a
    table has finished a round, one NEXT_SEATING per pair, before the next ASSIGNMENT;
    after the last round NEXT_SEATING with table 0; a pass-out (PASS, 255, 255) is a
    played board; ranking lines carry the players' names; PLAYER_NAME answers a known and
    an unknown member number."""

    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        movement = store.movement(eid, "A")
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        for t in (1, 2):
            bot = PassesFirstBoard(seed=t) if t == 1 else PlayerBot(seed=t)
            station.add_terminal(VirtualTerminal(t, f"BM-{t}", "A", t, bot, speed=50_000))
        hub = HubService(store, eid, [str(line.path)])
        await hub.start()
        station.start()
        terminals = list(station.terminals.values())
        first = terminals[0]
        try:
            await wait_until(lambda: first.assignment is not None, 20, "table 1's log-on")
            ns = movement.row("A", 1, 1).ns_pair
            first.send(PlayerNumber("A", 1, 1, 0, f"{ns}01"))  # North: a number the event knows
            first.send(PlayerNumber("A", 1, 1, 1, "9999"))  # East: one it does not know
            await wait_until(hub.session_done.is_set, 60, "the three rounds to be played")
            await wait_until(
                lambda: all(t.session_over.is_set() for t in terminals),
                30,
                "NEXT_SEATING after the last round at every table",
            )
            await wait_until(
                lambda: all(
                    sum(isinstance(m, RankingPage) for m in t.log.received) == 3 for t in terminals
                ),
                30,
                "the last ranking page",
            )
        finally:
            await station.stop()
            await hub.stop()
        store.close()
        line.close()
        return movement, terminals

    movement, terminals = asyncio.run(scenario())
    assert movement.rounds == 3  # a 2-table Howell: 2T − 1 rounds
    for term in terminals:
        got = [m for m in term.log.received if m.NEEDS_ACK]  # CLOCK is not queued: it overtakes
        assigned = [i for i, m in enumerate(got) if isinstance(m, Assignment)]
        assert [got[i].round for i in assigned] == [1, 2, 3]
        for i in assigned:  # the number of rounds comes just before each assignment
            settings = got[i - 1]
            assert isinstance(settings, Settings)
            assert dict((e.key, e.value) for e in settings.entries)["rounds"] == "3"
        for rnd in (1, 2, 3):
            row = movement.row("A", term.table, rnd)
            views = [
                i for i, m in enumerate(got) if isinstance(m, ResultView) and m.board in row.boards
            ]
            moves = [
                i for i, m in enumerate(got) if isinstance(m, NextSeating) and m.round == rnd + 1
            ]
            assert len(moves) == 2, f"table {term.table} round {rnd}: one NEXT_SEATING per pair"
            assert min(moves) > max(views)  # after the table's last board
            if rnd < 3:
                assert max(moves) < assigned[rnd]  # before the next round's assignment
            for i in moves:
                m = got[i]
                assert m.pair in (row.ns_pair, row.ew_pair)
                nxt = [r for r in movement.round_rows(rnd + 1, "A") if m.pair in r.pairs()]
                if not nxt:
                    assert (m.table, m.boards) == (0, ())
                    continue
                (to,) = nxt
                assert (m.table, m.boards) == (to.table, to.boards)
                assert bool(m.seat_ns) == (to.ns_pair == m.pair)
                assert m.opponents == (to.ew_pair if m.seat_ns else to.ns_pair)
        assert not term.unacked and not term.log.held
        pages = [m for m in got if isinstance(m, RankingPage)]
        last_moves = [i for i, m in enumerate(got) if isinstance(m, NextSeating) and m.round == 4]
        assert all(got[i].table == 0 for i in last_moves)  # past the last round: over
        assert got.index(pages[-1]) > max(last_moves)  # as in the worked session
        # issue 25 [MENDS] (§4.3 step 9 and the worked session): SETTINGS final = 1 after
        # the last NEXT_SEATINGs, before the final ranking page
        finals = [
            i
            for i, m in enumerate(got)
            if isinstance(m, Settings) and ("final", "1") in [(e.key, e.value) for e in m.entries]
        ]
        assert finals, f"table {term.table}: no SETTINGS final = 1"
        assert max(last_moves) < finals[0] < got.index(pages[-1])
        assert {x.pair: x.names for x in pages[-1].lines} == NAMES
    names = [m for m in terminals[0].log.received if isinstance(m, PlayerName)]
    ns = movement.row("A", 1, 1).ns_pair
    assert [(m.seat, m.number, m.name) for m in names] == [
        (0, f"{ns}01", NAMES[ns].split(" & ")[0]),
        (1, "9999", ""),  # PLAYER_NAME answers an unknown number with an empty name
    ]
    passed = [r for r in terminals[0].log.accepted if r.contract == "PASS"]
    assert passed and passed[0].tricks == NO_TRICKS
    view = next(
        m
        for m in terminals[0].log.received
        if isinstance(m, ResultView) and m.board == passed[0].board
    )
    mine = next(x for x in view.lines if x.contract == "PASS")
    assert (mine.declarer, mine.tricks, mine.score_ns) == (255, 255, 0)


def test_the_worked_session_in_the_document_is_generated_from_the_code():
    """§4.4: the frames of docs/protocol.md's worked session come from real ``Link``s and
    message codecs (python -m drivers.protocol.example); the document holds them verbatim,
    and every frame decodes to what its line says."""
    from drivers.protocol import example

    doc = (ROOT / "docs" / "protocol.md").read_text("utf-8")
    assert example.generated() in doc, "run: python -m drivers.protocol.example, paste into docs"
    steps = example.play()
    names = [type(decode_message(s.frame.type, s.frame.payload)).__name__ for s in steps]
    assert names[:5] == ["Hello", "Ack", "Hello", "Ack", "TerminalJoined"]  # hub's first
    assert "Result" in names and "ResultView" in names and "Clock" in names
    assert names[-4:] == ["Settings", "Ack", "RankingPage", "Ack"]  # final = 1, then pages
    final = decode_message(steps[-4].frame.type, steps[-4].frame.payload)
    assert isinstance(final, Settings) and ("final", "1") in [
        (e.key, e.value) for e in final.entries
    ]
    seating = [decode_message(s.frame.type, s.frame.payload) for s in steps]
    over = [m for m in seating if isinstance(m, NextSeating)]
    assert len(over) == 2 and all(m.table == 0 and m.round == 4 for m in over)


class Recorder:
    """A terminal port that records every view the hub sends, in order (on the loop)."""

    name = "recorder"

    def __init__(self) -> None:
        self.sent: list[tuple[str, object]] = []

    def __getattr__(self, what: str):
        if what.startswith("_"):
            raise AttributeError(what)
        return lambda address, *view: self.sent.append((what, view[0] if view else None))


def test_a_round_the_director_ends_early_still_tells_each_table_where_to_go(tmp_path):
    """§4.3 step 6: when the director ends a round before a table has finished, the table
    gets its NEXT_SEATING then, before the next round's SETTINGS and ASSIGNMENT."""
    from hub.live.port.terminal_port import NextSeatingView, SessionView, TerminalRef

    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        hub = HubService(store, eid, [], auto_advance=False)
        await hub.start()
        port = Recorder()
        try:
            hub.gateway.ports[port.name] = port
            seat = hub.gateway.seat(TerminalRef(port.name, 5))
            hub.gateway.seat_at(seat, "A", 1)
            moved = await hub.commands.dispatch("next_round", {"section": "A"}, "TD Anna")
        finally:
            await hub.stop()
        movement = store.movement(eid, "A")
        store.close()
        return moved, port.sent, movement

    moved, sent, movement = asyncio.run(scenario())
    assert moved["round"] == 2
    kinds = [k for k, _ in sent if k in ("next_seating", "session", "assign")]
    assert kinds == ["next_seating", "next_seating", "session", "assign"]
    row = movement.row("A", 1, 1)
    seatings = [v for k, v in sent if k == "next_seating"]
    assert all(isinstance(v, NextSeatingView) and v.round == 2 for v in seatings)
    assert [v.pair for v in seatings] == [row.ns_pair, row.ew_pair]
    (session,) = [v for k, v in sent if k == "session"]
    assert session == SessionView("A", 3)


def test_a_table_that_finished_its_round_is_told_where_to_go_again_after_a_restart(tmp_path):
    """§4.3 steps 2 and 6: table 1 finished round 1 and waits for table 2; the hub is then
    stopped, as a killed hub would lose a NEXT_SEATING still queued (the test forgets the
    one table 1 got). The restarted hub, when table 1 logs on again (its HELLO in a new
    epoch), sends the NEXT_SEATING again, one per pair, as the movement says; the round's
    ASSIGNMENT sent again changes nothing at the terminal."""

    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        movement = store.movement(eid, "A")
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        quick = VirtualTerminal(1, "BM-1", "A", 1, PlayerBot(seed=1), speed=50_000)
        slow = VirtualTerminal(2, "BM-2", "A", 2, PlayerBot(seed=2), speed=1e-6)  # never done
        station.add_terminal(quick)
        station.add_terminal(slow)
        hub = HubService(store, eid, [str(line.path)])
        await hub.start()
        station.start()
        try:
            await wait_until(lambda: len(quick.moves) == 2, 30, "table 1's NEXT_SEATING")
            await hub.stop()
            assert hub.rounds.current("A") == 1  # table 2 still plays round 1
            quick.moves.clear()  # lost with the hub, as if it had not gone out
            hub = HubService(store, eid, [str(line.path)])  # the restarted hub
            await hub.start()
            await wait_until(
                lambda: len(quick.moves) == 2, 30, "table 1's NEXT_SEATING after the restart"
            )
            moves = list(quick.moves)
            assigned = [m for m in quick.log.received if isinstance(m, Assignment)]
        finally:
            await station.stop()
            await hub.stop()
            store.close()
            line.close()
        return movement, moves, assigned, slow

    movement, moves, assigned, slow = asyncio.run(scenario())
    row = movement.row("A", 1, 1)
    assert [m.pair for m in moves] == [row.ns_pair, row.ew_pair]  # NS pair first
    for m in moves:
        (to,) = [r for r in movement.round_rows(2, "A") if m.pair in r.pairs()]
        assert (m.round, m.table, m.boards) == (2, to.table, to.boards)
        assert bool(m.seat_ns) == (to.ns_pair == m.pair)
    assert [a.round for a in assigned] == [1, 1]  # the same round again: nothing to change
    assert not slow.moves  # table 2 has not finished: not told to move
