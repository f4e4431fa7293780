"""Issue 25 [MENDS], "HAND_RECORD never reaches some tables": an outside base station saw no
HAND_RECORD for the last rounds' boards at any table when the hub solved them after those
tables had played them. docs/protocol.md 0x28: every table gets the hand record of every
board it played, after its RESULT_VIEW, also when the board's double dummy is known only
later; and a hand-record file that carries ``DoubleDummyTricks`` is used as it is, never
solved again.

A whole 3-table Howell (5 rounds of 2 boards) on a base station over a real pty. Our
boards 1-10 carry RealBridge's boards 11-20 (tests/data): the tricks a table is shown must
be the ones RealBridge's own solver exported with those deals."""

from __future__ import annotations

import asyncio

from event_text import one_section_event
from hub_stub import wait_until
from suspicious_boards import REALBRIDGE, optimum_tables

from drivers.protocol.messages import Assignment, HandRecord, ResultView
from hub.event import double_dummy as dd_module
from hub.event.double_dummy import DDS_LOCK, SEATS, STRAINS, double_dummy
from hub.event.hand_record_tricks import double_dummy_tricks
from hub.event.hand_records import read_hand_records
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

EVENT = one_section_event("Hands", 'kind = "howell", tables = 3, boards_per_round = 2').replace(
    '[[sessions]]\nname = "Evening"', '[[sessions]]\nname = "Evening"\nhand_records = "deals.pbn"'
)
OURS = {ours: ours + 10 for ours in range(1, 11)}  # our board → RealBridge's board
DEALS = read_hand_records(REALBRIDGE)


def realbridge_digits() -> dict[int, str]:
    """RealBridge's ``DoubleDummyTricks`` tag of each of its boards, read as text."""
    out: dict[int, str] = {}
    board = 0
    for line in REALBRIDGE.read_text("utf-8").splitlines():
        if line.startswith('[Board "'):
            board = int(line.split('"')[1])
        elif line.startswith('[DoubleDummyTricks "'):
            out.setdefault(board, line.split('"')[1])
    return out


def hand_file(with_tricks: bool) -> str:
    """Our boards with RealBridge's deals; with its ``DoubleDummyTricks`` tags or without."""
    digits = realbridge_digits()
    games = []
    for ours, theirs in OURS.items():
        game = f'[Board "{ours}"]\n[Deal "{DEALS[theirs]}"]\n'
        if with_tricks:
            game += f'[DoubleDummyTricks "{digits[theirs]}"]\n'
        games.append(game)
    return "\n".join(games)


def played_boards(terminal: VirtualTerminal) -> set[int]:
    """Every board the table was told to play (its ASSIGNMENTs on the wire)."""
    return {b for m in terminal.log.received if isinstance(m, Assignment) for b in m.boards}


def hand_records(terminal: VirtualTerminal) -> dict[int, HandRecord]:
    return {m.board: m for m in terminal.log.received if isinstance(m, HandRecord)}


def every_table_has_its_hands(station: VirtualBaseStation) -> bool:
    return all(
        played_boards(t) and played_boards(t) <= set(hand_records(t))
        for t in station.terminals.values()
    )


async def evening(tmp_path, with_tricks: bool, hold_solver: bool):
    """The session played out; returns each table's messages, the store's tricks and
    whether any HAND_RECORD came while the solver was held."""
    (tmp_path / "deals.pbn").write_text(hand_file(with_tricks), "utf-8")
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(EVENT, base_dir=tmp_path)
    line = PtyLine(tmp_path / "base-1")
    station = VirtualBaseStation(line)
    dealt = {ours: DEALS[theirs] for ours, theirs in OURS.items()}  # leads from the hands
    for t in (1, 2, 3):
        station.add_terminal(
            VirtualTerminal(t, f"BM-{t}", "A", t, PlayerBot(seed=t, deals=dealt), speed=50_000)
        )
    hub = HubService(store, eid, [str(line.path)])
    held = False
    if hold_solver:  # no deal is solved meanwhile
        held = DDS_LOCK.acquire(timeout=30)
        assert held, "DDS is busy elsewhere in this process: it cannot be held for the test"
    early = False
    try:
        await hub.start()
        station.start()
        await wait_until(hub.session_done.is_set, 120, "all 5 rounds to be played")
        early = any(hand_records(t) for t in station.terminals.values())
        if held:
            DDS_LOCK.release()
            held = False
        await wait_until(
            lambda: every_table_has_its_hands(station),
            60,
            "a HAND_RECORD at every table for every board it played",
        )
        received = {t.table: list(t.log.received) for t in station.terminals.values()}
        kept = store.hand_record_tricks(eid)
    finally:
        if held:
            DDS_LOCK.release()
        await station.stop()
        await hub.stop()
        line.close()
        store.close()
    return received, kept, early


def check_hands(received: dict[int, list]) -> None:
    """Each table: a HAND_RECORD for every board it played, after the board's RESULT_VIEW,
    with the deal and RealBridge's double-dummy table."""
    tables = optimum_tables(REALBRIDGE)
    for table, messages in received.items():
        boards = {b for m in messages if isinstance(m, Assignment) for b in m.boards}
        hands = {m.board: m for m in messages if isinstance(m, HandRecord)}
        # 30 table-rounds of 2 boards over 3 tables: every table plays all 10 boards
        assert boards == set(OURS), f"table {table} played {sorted(boards)}"
        assert boards <= set(hands), f"table {table}: none for {sorted(boards - set(hands))}"
        for board in boards:
            hand = hands[board]
            assert hand.deal == DEALS[OURS[board]]
            tricks = dict(zip(((s, x) for x in STRAINS for s in SEATS), hand.tricks, strict=True))
            assert tricks == tables[OURS[board]], f"table {table} board {board}"
            view = next(
                k for k, m in enumerate(messages) if isinstance(m, ResultView) and m.board == board
            )
            assert view < messages.index(hand), f"table {table} board {board}: before its result"


def test_every_table_gets_the_hand_records_solved_after_it_played_them(tmp_path):
    """The solver is held until the session is over (DDS_LOCK: no deal can be solved):
    no table has a hand record then; once the deals are solved, every table gets one for
    every board it played, the last round's included."""
    received, kept, early = asyncio.run(evening(tmp_path, with_tricks=False, hold_solver=True))
    assert not early, "a hand record came out while no deal could be solved"
    assert kept == {}
    check_hands(received)


def test_a_hand_record_file_with_double_dummy_tricks_is_not_solved_again(tmp_path):
    """The file carries RealBridge's ``DoubleDummyTricks``: the store keeps them, the tables
    are shown them, and the hub's solver never solves one of the deals (its record of
    solutions holds none of them); the par is the one a full solution gives."""
    with DDS_LOCK:
        dd_module._SOLVED.clear()
        dd_module._FROM_FILES.clear()
    double_dummy.cache_clear()
    received, kept, _ = asyncio.run(evening(tmp_path, with_tricks=True, hold_solver=False))
    digits = realbridge_digits()
    assert kept == {ours: digits[theirs] for ours, theirs in OURS.items()}
    with DDS_LOCK:
        solved = [key for key in dd_module._SOLVED if key[0] in DEALS.values()]
    assert solved == [], f"deals solved again: boards {sorted(b for _, b in solved)}"
    check_hands(received)
    pars = {board: dds_par(DEALS[theirs], board) for board, theirs in OURS.items()}
    for messages in received.values():
        for hand in (m for m in messages if isinstance(m, HandRecord)):
            assert hand.par_score == pars[hand.board], f"board {hand.board}"


def dds_par(deal: str, board: int) -> int:
    """The par score to NS of a full DDS solution of the deal, endplay's own (not ours),
    on the board's dealer and vulnerability by Law 2 (board 1: N dealer, none vulnerable)."""
    from endplay.dds import calc_dd_table, par
    from endplay.types import Deal, Player, Vul

    vul = [Vul.none, Vul.ns, Vul.ew, Vul.both, Vul.ns, Vul.ew, Vul.both, Vul.none]
    vul += [Vul.ew, Vul.both, Vul.none, Vul.ns, Vul.both, Vul.none, Vul.ns, Vul.ew]
    dealer = [Player.north, Player.east, Player.south, Player.west][(board - 1) % 4]
    with DDS_LOCK:
        return int(par(calc_dd_table(Deal(deal)), vul[(board - 1) % 16], dealer).score)


def test_the_tricks_of_a_file_come_from_either_tag():
    """``DoubleDummyTricks`` as the file gives it; without it, the same digits from
    ``OptimumResultTable``'s rows (N S E W, each NT S H D C); a malformed tag is no tricks."""
    text = REALBRIDGE.read_text("utf-8")
    digits = realbridge_digits()
    assert double_dummy_tricks(text) == digits
    rows_only = "\n".join(
        line for line in text.splitlines() if not line.startswith("[DoubleDummyTricks")
    )
    assert double_dummy_tricks(rows_only) == digits
    bad = f'[Board "1"]\n[Deal "{DEALS[11]}"]\n[DoubleDummyTricks "77667"]\n'
    assert double_dummy_tricks(bad) == {}


def test_the_files_tricks_are_kept_by_a_backup_and_its_restore(tmp_path):
    """The tricks are part of the event (``boards.tricks``): a backup restored elsewhere
    still needs no solution."""
    from hub.store.exchange import backup_json, restore_json

    (tmp_path / "deals.pbn").write_text(hand_file(with_tricks=True), "utf-8")
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    other = Store.open(f"sqlite:///{tmp_path / 'restored.db'}")
    try:
        eid = store.create_event(EVENT, base_dir=tmp_path)
        restored = restore_json(other, backup_json(store, eid))
        digits = realbridge_digits()
        assert other.hand_record_tricks(restored) == {o: digits[t] for o, t in OURS.items()}
    finally:
        store.close()
        other.close()


def test_a_board_a_table_has_played_is_solved_before_the_others():
    """The solver takes the boards one at a time, in board order; a board some table has
    already played (and waits for) jumps the queue: here board 9, played while DDS was
    still busy (its lock held), comes out first, then the others in order."""
    from hub.live.port.gateway import TerminalGateway
    from hub.live.results.hand_record_solver import HandRecordSolver
    from hub.live.results.table_hands import TableHands

    async def scenario() -> list[int]:
        hands = TableHands(TerminalGateway([]))
        order: list[int] = []

        def known(section: str, dd) -> None:  # as the hub's live scores take it
            order.append(dd.board)
            hands.known(section, dd)

        solver = HandRecordSolver(hands, known)
        deals = {("A", b): DEALS[OURS[b]] for b in OURS}
        with DDS_LOCK:  # nothing solved before: each board is solved here
            dd_module._SOLVED.clear()
            dd_module._FROM_FILES.clear()
        double_dummy.cache_clear()
        DDS_LOCK.acquire()
        try:
            task = asyncio.ensure_future(solver.solve(deals, {}))
            await asyncio.sleep(0)  # the solver is on its way, waiting for DDS
            hands.played("A", 9, 2)  # table 2 played board 9: it is owed its hand record
        finally:
            DDS_LOCK.release()
        await asyncio.wait_for(task, 120)
        solver.close()
        assert hands.owed == {}, "every table owed a hand record got it"
        return order

    order = asyncio.run(scenario())
    assert order == [9, 1, 2, 3, 4, 5, 6, 7, 8, 10], order


def test_a_file_written_by_bridgehub_deal_is_read_back_with_its_tricks():
    """``bridgehub deal`` writes ``DoubleDummyTricks`` (hub/event/hand_record_writer.py):
    read back, each board's tricks are the ones written, 10-13 tricks as hex a-d."""
    from hub.event.double_dummy import tricks_of
    from hub.event.hand_record_writer import hand_record_pbn

    deals = {b: DEALS[OURS[b]] for b in (1, 2, 3, 4)}
    solutions = {b: double_dummy(d, b) for b, d in deals.items()}
    text = hand_record_pbn(deals, solutions, "bridgehub deal")
    read = double_dummy_tricks(text)
    assert set(read) == set(deals)
    for board, digits in read.items():
        assert tricks_of(digits) == dict(solutions[board].tricks), f"board {board}"


def test_hand_records_reloaded_for_one_section_leave_the_others_being_solved():
    """Review of [MENDS]: the director reloads section B's hand records while the start-up
    solve is under way; B's old boards are left (its new ones are solved in their own
    turn), and every board of section A is still solved, none left owed for ever."""
    from hub.live.port.gateway import TerminalGateway
    from hub.live.results.hand_record_solver import HandRecordSolver
    from hub.live.results.table_hands import TableHands

    async def scenario() -> list[tuple[str, int]]:
        hands = TableHands(TerminalGateway([]))
        known: list[tuple[str, int]] = []
        solver = HandRecordSolver(hands, lambda s, dd: known.append((s, dd.board)))
        boards = sorted(OURS)[:3]
        deals = {(s, b): DEALS[OURS[b]] for s in "AB" for b in boards}
        await asyncio.wait_for(solver.solve(deals, {}, lambda section: section != "B"), 120)
        solver.close()
        return known

    known = asyncio.run(scenario())
    assert sorted(known) == [("A", b) for b in sorted(OURS)[:3]]
