"""Double-dummy tables and par (``hub.event.double_dummy``, endplay's DDS) against
independent references: the solver output RealBridge exported with the deals of "2021
Online Qual: Open R2" (``tests/data/realbridge_2021_online_qual_open_r2.pbn``: per board
``DoubleDummyTricks``, ``OptimumResultTable`` and ``OptimumScore``), and constructed deals
whose answer a player sees at a glance, par scores worked out by Law 77. And the TD's
traveller read carries a board's makeable contracts and par (``docs/api.md``)."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path

import pytest
from hub_stub import wait_until

from hub.event.double_dummy import (
    DoubleDummy,
    HandRecordError,
    ParContract,
    double_dummy,
    makeable,
    par_text,
)
from hub.event.hand_record_writer import double_dummy_tags, par_contract_tag
from hub.event.hand_records import read_hand_records
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from scoring.board import Seat
from scoring.contract import Strain

REALBRIDGE = Path(__file__).parents[1] / "data" / "realbridge_2021_online_qual_open_r2.pbn"
STRAIN = {"NT": Strain.NOTRUMP, "S": Strain.SPADES, "H": Strain.HEARTS, "D": Strain.DIAMONDS}
STRAIN["C"] = Strain.CLUBS
# Law 2: dealer and vulnerability of boards 1-16 (the cycle repeats), as the Laws print it
LAW_2 = {
    11: ("S", "None"), 12: ("W", "NS"), 13: ("N", "All"), 14: ("E", "None"),
    15: ("S", "NS"), 16: ("W", "EW"), 17: ("N", "None"), 18: ("E", "NS"),
    19: ("S", "EW"), 20: ("W", "All"),
}  # fmt: skip
# every spade North's, every heart East's, every diamond South's, every club West's
ONE_SUITERS = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


def realbridge() -> dict[int, dict[str, object]]:
    """Each board's first record in the file: its tags and its OptimumResultTable rows."""
    out: dict[int, dict[str, object]] = {}
    for game in REALBRIDGE.read_text("utf-8").split("\n\n"):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', game, re.M))
        if "Board" not in tags or int(tags["Board"]) in out:
            continue
        rows = re.findall(r"^[NESW] +(?:NT|[SHDC]) +\d+$", game, re.M)
        out[int(tags["Board"])] = {**tags, "rows": rows}
    return out


REFERENCE = realbridge()
DEALS = read_hand_records(REALBRIDGE)


def test_the_reference_boards_have_law_2s_dealer_and_vulnerability():
    """Par depends on them: the file's boards 11-20 are dealt and vulnerable as Law 2 says,
    so a par solved from the board number is solved on RealBridge's conditions."""
    assert {b: (r["Dealer"], r["Vulnerable"]) for b, r in REFERENCE.items()} == LAW_2


@pytest.mark.parametrize("board", range(11, 21))
def test_tricks_match_realbridges_optimum_result_table(board):
    """Every declarer and strain: endplay's DDS as we call it, RealBridge's solver table."""
    expected = {}
    for row in REFERENCE[board]["rows"]:  # type: ignore[union-attr]
        seat, strain, tricks = row.split()
        expected[Seat[seat], STRAIN[strain]] = int(tricks)
    assert dict(double_dummy(DEALS[board], board).tricks) == expected


@pytest.mark.parametrize("board", range(11, 21))
def test_par_scores_match_realbridges_optimum_score(board):
    """RealBridge's ``OptimumScore`` (``NS +620``, ``NS -400``) is our par score to NS."""
    side, score = str(REFERENCE[board]["OptimumScore"]).split()
    assert side == "NS"
    assert double_dummy(DEALS[board], board).par_score == int(score)


@pytest.mark.parametrize("board", range(11, 21))
def test_pbn_tags_read_as_realbridge_wrote_them(board):
    """Our ``DoubleDummyTricks``, ``OptimumScore`` and ``OptimumResultTable`` lines are the
    lines of RealBridge's export, character for character."""
    tags = double_dummy_tags(double_dummy(DEALS[board], board))
    ref = REFERENCE[board]
    assert tags[0] == f'[DoubleDummyTricks "{ref["DoubleDummyTricks"]}"]'
    assert tags[1] == f'[OptimumScore "{ref["OptimumScore"]}"]'
    assert tags[3] == f'[OptimumResultTable "{ref["OptimumResultTable"]}"]'
    assert tags[4:] == ref["rows"]


def test_four_one_suiters_make_a_grand_slam_in_their_sides_suits_and_nothing_else():
    """North holds every spade, East every heart, South every diamond, West every club.
    Trumps in your side's suit: the holder wins every trick (he ruffs the lead or draws
    trumps): 13 tricks for either partner. Anything else, the opening leader or his partner
    runs 13 tricks of a suit nobody else holds: 0. The par is 7♠ by N or S (7♥ by EW is
    outranked, and 7NT by EW goes 13 down): Law 77, 210 + 1000 grand slam + 300 game not
    vulnerable = 1510 on board 1; 210 + 1500 + 500 vulnerable = 2210 on board 2 (NS vul)."""
    for board, score in ((1, 1510), (2, 2210), (3, 1510), (4, 2210)):
        dd = double_dummy(ONE_SUITERS, board)
        for seat in Seat:
            ns = seat in (Seat.N, Seat.S)
            for strain in Strain:
                mine = (strain in (Strain.SPADES, Strain.DIAMONDS)) == ns
                expected = 13 if strain is not Strain.NOTRUMP and mine else 0
                assert dd.tricks[seat, strain] == expected, (board, seat, strain)
        assert dd.par_score == score
        assert dd.par_contracts == ("7♠ N", "7♠ S")
        assert par_text(dd) == f"NS {score}: 7♠ N, 7♠ S"
        assert makeable(dd) == ["NS 7♠", "NS 7♦", "EW 7♥", "EW 7♣"]
        assert par_contract_tag(dd.par) == "NS 7S"


def test_makeable_contracts_read_as_a_hand_record_prints_them():
    """RealBridge board 12's table: NS 9 tricks in NT (3NT), N 8 and S 9 in spades (2♠
    and 3♠: each declarer when partners differ), both 10 in hearts (4♥), 6 in the minors
    (nothing); EW 7 in clubs (1♣), 6 or fewer elsewhere."""
    dd = double_dummy(DEALS[12], 12)
    assert makeable(dd) == ["NS 3NT", "N 2♠", "S 3♠", "NS 4♥", "EW 1♣"]
    assert makeable(dd, symbols=False) == ["NS 3NT", "N 2S", "S 3S", "NS 4H", "EW 1C"]


def test_par_contracts_of_the_reference_boards():
    """From RealBridge's tables, by Law 77. Board 12 (NS vulnerable): 4♥ by N or S makes
    10 tricks, 120 + 500 = 620 (3NT makes 9, 600); EW's best sacrifice, 5♣x down 4 not
    vulnerable, would cost 800. Board 18 (NS vulnerable): EW make 9 tricks in NT, 3NT =
    400; their 10 diamonds make 4♦+1 only (130); NS take at most 5 tricks anywhere."""
    twelve = double_dummy(DEALS[12], 12)
    assert twelve.par_contracts == ("4♥ N", "4♥ S")
    assert par_text(twelve) == "NS 620: 4♥ N, 4♥ S"
    assert par_contract_tag(twelve.par) == "NS 4H"
    eighteen = double_dummy(DEALS[18], 18)
    assert (eighteen.par_score, eighteen.par_contracts) == (-400, ("3NT E", "3NT W"))
    assert par_text(eighteen) == "EW 400: 3NT E, 3NT W"
    assert par_contract_tag(eighteen.par) == "EW 3NT"


def test_sacrifices_and_overtricks_as_a_td_reads_them():
    """A doubled sacrifice goes down (``5♦x E -2``), a par with overtricks says so; PBN's
    ``ParContract`` joins partners who both make it. A pass-out has no contract."""
    sacrifice = (ParContract(5, Strain.DIAMONDS, Seat.E, True, -2),)
    assert sacrifice[0].text() == "5♦x E -2"
    assert sacrifice[0].text(symbols=False) == "5Dx E -2"
    both = (
        ParContract(3, Strain.NOTRUMP, Seat.N, over=1),
        ParContract(3, Strain.NOTRUMP, Seat.S, over=1),
    )
    assert par_contract_tag(both) == "NS 3NT+1"
    assert par_contract_tag((*sacrifice, ParContract(5, Strain.CLUBS, Seat.W, True, -2))) == (
        "E 5DX-2; W 5CX-2"
    )
    assert par_contract_tag(()) == "Pass"
    passed = DoubleDummy(1, ONE_SUITERS, {}, 0, ())
    assert par_text(passed) == "0: passed out"


def test_a_solution_is_cached_per_deal_and_board():
    """Solved once (about 0.1 s): the traveller, the web page and the report ask again."""
    assert double_dummy(DEALS[13], 13) is double_dummy(DEALS[13], 13)


def test_the_api_form_is_plain_json():
    """``as_dict`` is what the traveller read sends (docs/api.md): tricks by declarer and
    strain, par score to NS, the par and makeable contracts as text."""
    sent = json.loads(json.dumps(double_dummy(DEALS[12], 12).as_dict()))
    assert sent["tricks"]["S"] == {"NT": 9, "S": 9, "H": 10, "D": 6, "C": 5}
    assert sent["tricks"]["E"]["C"] == 7
    assert sent["par_score"] == 620
    assert sent["par_contracts"] == ["4♥ N", "4♥ S"]
    assert sent["par"] == "NS 620: 4♥ N, 4♥ S"
    assert sent["makeable"] == ["NS 3NT", "N 2♠", "S 3♠", "NS 4♥", "EW 1♣"]


def test_a_deal_that_is_not_a_whole_deal_is_refused():
    """Four hands of 13 of the 52 cards, or ``HandRecordError`` naming the board."""
    with pytest.raises(HandRecordError, match="board 5"):
        double_dummy("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT9876543. ...AKQJT98765432", 5)


def test_without_endplay_the_extra_is_named(monkeypatch):
    """endplay is the ``dd`` extra: without it, an error that says what to install."""
    for name in [m for m in sys.modules if m == "endplay" or m.startswith("endplay.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "endplay", None)
    double_dummy.cache_clear()
    with pytest.raises(HandRecordError, match=r"install bridgehub\[dd\]"):
        double_dummy(DEALS[14], 14)


def test_two_threads_asking_for_one_deal_at_once_solve_it_once(monkeypatch):
    """The hub solving its hand records and the results pages' request ask for the same
    deals at the same time: the second waits for the first's solution instead of solving
    the deal again after it (decisions D17: DDS is the slow part of a page)."""
    import threading

    import endplay.dds

    from hub.event import double_dummy as module

    solve = endplay.dds.calc_dd_table
    calls = []

    def slow(deal):
        calls.append(deal)
        threading.Event().wait(0.3)  # both threads are in double_dummy meanwhile
        return solve(deal)

    monkeypatch.setattr(endplay.dds, "calc_dd_table", slow)
    monkeypatch.setattr(module, "_SOLVED", {})
    double_dummy.cache_clear()
    start = threading.Barrier(2)
    got = []

    def ask() -> None:
        start.wait(5)
        got.append(double_dummy(DEALS[15], 15))

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    double_dummy.cache_clear()
    assert len(got) == 2 and got[0] == got[1]
    assert len(calls) == 1, f"solved {len(calls)} times"


EVENT = """schema_version = 1
[event]
name = "Hand records"
[rules]
scoring = "mp"
[[sessions]]
name = "Evening"
hand_records = "boards.pbn"
[[sessions.sections]]
letter = "A"
movement = { kind = "howell", tables = 3, boards_per_round = 2 }
"""


def test_the_directors_traveller_carries_makeable_contracts_and_par(tmp_path):
    """The ``traveller`` read (docs/api.md) of a board with a hand record sends its double
    dummy, solved off the hub's loop; RealBridge board 12's deal as our board 12 gives
    RealBridge's table and par. A board the file lacks has none (null)."""
    (tmp_path / "boards.pbn").write_text(f'[Board "12"]\n[Deal "{DEALS[12]}"]\n', "utf-8")
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    store.create_event(EVENT, base_dir=tmp_path)

    async def read() -> tuple[dict, dict]:
        hub = HubService(store, 1, [], auto_advance=False)
        await hub.start()
        try:
            await wait_until(lambda: hub.commands is not None, 10, "the hub's commands")
            twelve = await hub.commands.dispatch("traveller", {"section": "A", "board": 12}, "TD")
            one = await hub.commands.dispatch("traveller", {"section": "A", "board": 1}, "TD")
            return twelve, one
        finally:
            await hub.stop()

    try:
        twelve, one = asyncio.run(read())
    finally:
        store.close()
    dd = twelve["double_dummy"]
    assert dd["tricks"]["N"] == {"NT": 9, "S": 8, "H": 10, "D": 6, "C": 5}
    assert (dd["par_score"], dd["par"]) == (620, "NS 620: 4♥ N, 4♥ S")
    assert dd["makeable"] == ["NS 3NT", "N 2♠", "S 3♠", "NS 4♥", "EW 1♣"]
    assert one["double_dummy"] is None and one["results"] == []
