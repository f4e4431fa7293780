"""Issue 14 [PUBLISH], "Acceptance": a 10-table club evening run in the simulator ends with
the web page showing final results and cards, and the HTML, PBN and USEBIO files written;
the PBN read back by endplay gives the same scores; the USEBIO file parses like the
reference files.

The processes are the ones a TD starts (tests/publish_evening.py): ``bridgehub deal`` (20
boards from seed 14, with double dummy), ``bridgehub simulate`` (10 tables on a pty, the
players playing the dealt hands, fast), ``bridgehub run`` on the simulator's station and
``bridgehub web`` following the hub; one headless chromium at a phone's size (390x844,
tests/results_reader.py's reader) keeps the ranking open while the evening is
played. The event: a Mitchell of 10 tables x 3 rounds x 2 boards, matchpoints.

Compared with sources apart from the files under test: the store's live results
(``Store.live_results``) and the offline rescore (``bridgehub event standings``); each
score by endplay's ``Contract.score`` (Law 77's table); matchpoints worked here (2/1 scale,
top 4); the deals and the makeable contracts from the hand-record file by endplay (its PBN
reader and its double-dummy solver); the USEBIO element paths against Compscore3's
reference file (tests/data/usebio, as tests/export/test_export_usebio.py checks them).
"""

from __future__ import annotations

import time
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import external_tools as tools
import pytest
from publish_evening import (
    BOARDS,
    BOARDS_PER_ROUND,
    ROUNDS,
    SEED,
    TABLES,
    Processes,
    dd_makeable,
    event_text,
    matchpoints,
    ns_score,
    offline_standings,
    shown_makeable,
    until,
)
from results_reader import reader

from campaign.pg_cluster import free_port
from hub.store.store import Store

pytestmark = tools.needs(tools.SELENIUM, tools.CHROMIUM, tools.CHROMEDRIVER, tools.ENDPLAY)

EVENING_S = 60.0  # the evening at --speed 5000: 2 s; the travellers on the pages: 2-20 s
FILES_S = 60.0  # the hub's final outputs (the PDF, double dummy for 20 boards): 5-15 s
RESULTS = TABLES * ROUNDS * BOARDS_PER_ROUND  # 60: every table plays 2 boards a round


@pytest.mark.slow
def test_a_10_table_evening_ends_with_final_results_on_the_web_and_in_each_file(
    tmp_path: Path,
) -> None:
    """Issue 14's acceptance run (the module docstring says what is compared with what)."""
    began = time.monotonic()
    (tmp_path / "club.toml").write_text(event_text(), "utf-8")
    (tmp_path / "screens").mkdir()
    procs = Processes(tmp_path)
    listen = f"127.0.0.1:{free_port()}"
    try:
        # chromium starts while the boards are dealt (the double dummy takes a while)
        with reader(f"http://{listen}/", tmp_path / "screens") as phone:
            start_evening(procs, tmp_path, listen)
            facts = read_pages(phone)
        procs.said("run", "final results written to", FILES_S, "the hub's final outputs")
        facts["run"] = procs.output("run")
    except AssertionError as e:  # what the processes said, too
        raise AssertionError(f"{e}\n{procs.tail()}") from None
    finally:
        procs.stop()
    print(f"the evening, the browser and the files: {time.monotonic() - began:.1f} s")

    store = Store.open(f"sqlite:///{tmp_path / 'club.db'}", migrate=False)
    try:
        live = store.live_results(1)
    finally:
        store.close()
    offline = offline_standings(tmp_path / "club.db")
    deals = hand_records(tmp_path / "hands.pbn")
    check_store(live, offline)
    mps = worked_matchpoints(live)
    check_pages(facts, live, offline, deals)
    results = tmp_path / "results"
    check_files(results, facts["run"])
    check_pbn(results / "results.pbn", live, mps, offline, deals)
    check_usebio(results / "usebio.xml", live, mps, offline, deals)
    print(f"the whole test: {time.monotonic() - began:.1f} s")


def start_evening(procs: Processes, folder: Path, listen: str) -> None:
    """As the TD starts them: the deal, the room (simulated), the hub on its station with
    the final outputs' folder, and the results pages on ``listen`` following the hub."""
    procs.start("deal", "--boards", str(BOARDS), "--seed", str(SEED), "--pbn", "hands.pbn")
    until(lambda: procs.procs["deal"].poll() is not None, 60, "the hand records", procs.tail)
    assert procs.procs["deal"].returncode == 0, procs.tail()
    procs.start(
        "simulate",
        *("--tables", str(TABLES), "--speed", "5000", "--seed", "1"),
        *("--dir", str(folder), "--hand-records", "hands.pbn", "--duration", "180"),
    )
    procs.said("simulate", "\n", 20, "the simulator's station line")
    first = procs.output("simulate").splitlines()[0]
    assert first.startswith("base station"), first
    api = f"127.0.0.1:{free_port()}"
    procs.start(
        "run",
        *("--event", "club.toml", "--station", first.rsplit(": ", 1)[1], "--api", api),
        *("--clock-speed", "1000", "--results-dir", str(folder / "results")),
    )
    procs.said("run", "hub running", 30, "the hub's API")
    procs.start("web", "--hub", f"ws://{api}/v1", "--listen", listen)
    procs.said("web", "results pages at", 30, "the results pages")


def read_pages(phone: Any) -> dict[str, Any]:
    """The index open while the room plays, until it says "Final results" after the last
    round and links every board (photographed); then NS 1's card and board 1's traveller."""
    phone.open("index.html")
    final = f"Final results (after round {ROUNDS} of {ROUNDS})"
    phone.until(lambda: final in phone.text(), f"{final!r} on the index", EVENING_S)
    # the travellers and cards come with the hub's `results` answer, after the ranking
    phone.until(lambda: phone.count(".board-link") == BOARDS, "every board's link", EVENING_S)
    facts = {"index": phone.text()}
    facts["ranking"] = phone.driver.execute_script(
        "return [...document.querySelectorAll('table.rank tbody tr')]"
        ".map(r => [...r.cells].map(c => c.innerText))"
    )
    phone.shot("publish-final-index")
    phone.open("card-A-1.html")  # NS 1: the hub's pair 1
    boards = ROUNDS * BOARDS_PER_ROUND
    phone.until(lambda: phone.count("table.sc tbody tr") == boards, "NS 1's 6 boards")
    facts["card_boards"] = phone.texts("table.sc tbody tr td:nth-child(2)")
    facts["card"] = phone.text()
    phone.open("board-A-1.html")
    phone.until(lambda: phone.count("table.trav tbody tr") == ROUNDS, "board 1's 3 lines")
    facts["board"] = phone.text()
    facts["hands"] = phone.texts(".deal .hand")
    facts["board_rows"] = phone.count("table.trav tbody tr")
    return facts


def hand_records(path: Path) -> dict[int, str]:
    """Board → deal, as endplay's PBN reader reads ``bridgehub deal``'s file."""
    from endplay.parsers import pbn

    with path.open(encoding="utf-8") as f:
        return {int(b.board_num or 0): b.deal.to_pbn() for b in pbn.load(f)}


def label(pair: int) -> str:
    """The room's label of a hub pair number (in a Mitchell EW n is pair TABLES + n)."""
    return f"NS {pair}" if pair <= TABLES else f"EW {pair - TABLES}"


def check_store(live: list, offline: dict) -> None:
    """Every table played every board of its rounds, once; 20 pairs of 6 boards each."""
    keys = {(r.table, r.round, r.board) for r in live}
    assert len(live) == len(keys) == RESULTS, sorted(keys)
    assert not [r for r in live if r.adjusted], "the simulated room plays every board"
    assert len(offline) == 2 * TABLES and {v["boards"] for v in offline.values()} == {"6"}


def worked_matchpoints(live: list) -> dict[tuple[int, int], tuple[Fraction, Fraction]]:
    """(board, table) → (NS, EW) matchpoints, from endplay's scores of the stored results."""
    by_board: dict[int, dict[int, int]] = defaultdict(dict)
    for r in live:
        by_board[r.board][r.table] = ns_score(r.contract, r.declarer, r.tricks, r.board)
    out = {}
    for board, scores in by_board.items():
        assert len(scores) == ROUNDS, (board, scores)  # each board at 3 tables
        for table, points in matchpoints(scores).items():
            out[(board, table)] = points
    return out


def check_pages(facts: dict, live: list, offline: dict, deals: dict[int, str]) -> None:
    """The index: the final ranking, place and percent as the offline rescore; NS 1's card:
    the boards it played; board 1: the dealt hands and endplay's makeable contracts."""
    assert "Final results" in facts["index"], facts["index"]
    ranking = {row[1]: (row[0], row[3]) for row in facts["ranking"]}
    assert ranking == {k: (v["place"], v["percent"]) for k, v in offline.items()}, facts["index"]
    played = sorted(r.board for r in live if r.ns_pair == 1)
    assert sorted(int(b) for b in facts["card_boards"]) == played, facts["card"]
    assert "Place " + offline["NS 1"]["place"] in facts["card"], facts["card"]
    assert facts["board_rows"] == ROUNDS, facts["board"]
    hands = {}
    for text in facts["hands"]:
        seat, *suits = [line.strip() for line in text.splitlines() if line.strip()]
        hands[seat] = ".".join(s.split(" ", 1)[1].replace("-", "") for s in suits)
    from endplay.types import Deal, Player

    deal = Deal(deals[1])
    assert hands == {p.abbr: deal[p].to_pbn() for p in Player}, facts["hands"]
    assert shown_makeable(facts["board"]) == dd_makeable(deals[1]), facts["board"]


def check_files(results: Path, run_output: str) -> None:
    """The hub says where the final outputs went; the HTML report and the static pages
    are the final results."""
    assert f"final results written to {results}" in run_output, run_output
    for name in ("report.html", "results.pbn", "usebio.xml", "web/index.html"):
        assert (results / name).is_file(), f"{name} not written: {sorted(results.iterdir())}"
    assert "Final results" in (results / "web" / "index.html").read_text("utf-8")
    cards = sorted((results / "web").glob("card-A-*.html"))
    boards = sorted((results / "web").glob("board-A-*.html"))
    assert (len(cards), len(boards)) == (2 * TABLES, BOARDS)
    report = (results / "report.html").read_text("utf-8")
    assert "Final results" in report and "Anna Berg" in report


def check_pbn(path: Path, live: list, mps: dict, offline: dict, deals: dict[int, str]) -> None:
    """Read back by endplay: every board with its dealt hand; each ScoreTable line the
    stored result with endplay's score and the worked matchpoints; the TotalScoreTable's
    totals the sums of those and its places and percents the offline rescore's."""
    from endplay.parsers import pbn
    from export_readers import table_rows

    with path.open(encoding="utf-8") as f:
        boards = pbn.load(f)
    assert [b.board_num for b in boards] == list(range(1, BOARDS + 1))
    assert {b.board_num: b.deal.to_pbn() for b in boards} == deals
    lines = {(b.board_num, int(r["Table"])): r for b in boards for r in table_rows(b, "ScoreTable")}
    assert len(lines) == len(live) == RESULTS
    totals: dict[str, Fraction] = defaultdict(Fraction)
    for r in live:
        row = lines[(r.board, r.table)]
        assert (row["Round"], row["PairId_NS"], row["PairId_EW"]) == (
            str(r.round),
            str(r.ns_pair),
            str(r.ew_pair - TABLES),
        )
        score = ns_score(r.contract, r.declarer, r.tricks, r.board)
        if r.contract == "PASS":
            assert (row["Contract"], row["Score_NS"], row["Score_EW"]) == ("Pass", "0", "0")
        else:
            assert (row["Contract"], row["Declarer"]) == (r.contract, r.declarer), row
            assert row["Result"] == str(r.tricks), row
            expected = (str(score), "-") if score > 0 else ("-", str(-score))
            assert (row["Score_NS"], row["Score_EW"]) == expected, (row, r)
        ns, ew = mps[(r.board, r.table)]
        assert (Fraction(row["MP_NS"]), Fraction(row["MP_EW"])) == (ns, ew), row
        totals[label(r.ns_pair)] += ns
        totals[label(r.ew_pair)] += ew
    total = {f"{r['Direction']} {r['PairId']}": r for r in table_rows(boards[0], "TotalScoreTable")}
    assert set(total) == set(offline)
    for pair, row in total.items():
        assert Fraction(row["TotalMP"]) == totals[pair] == Fraction(offline[pair]["mp"]), pair
        top = ROUNDS * BOARDS_PER_ROUND * 2 * (ROUNDS - 1)  # 6 boards, a top of 4 each
        assert offline[pair]["percent"] == f"{float(totals[pair] * 100 / top):.2f}", pair
        assert (row["Rank"], row["TotalPercentage"]) == (
            offline[pair]["place"].rstrip("="),
            offline[pair]["percent"],
        ), (pair, row)


def check_usebio(path: Path, live: list, mps: dict, offline: dict, deals: dict[int, str]) -> None:
    """Read with the reader of the reference files: the element paths of Compscore3's
    Mitchell (less what the hub does not hold), the entrants' places and percents as the
    offline rescore's, each traveller line the stored result with the worked matchpoints,
    the hand set the dealt hands."""
    from export_readers import COMPSCORE, NOT_HELD, left_out
    from usebio_reader import read_usebio

    f = read_usebio(path)
    assert left_out(f, COMPSCORE / "mp_pairs_mitchell_03.xml") == NOT_HELD
    assert (f.version, f.event_type, f.winner_type) == ("1.2", "MP_PAIRS", 2)
    assert len(f.entrants) == 2 * TABLES
    for e in f.entrants:
        pair = f"{e.direction} {e.number.number}"
        assert (str(e.place), str(e.percentage)) == (
            offline[pair]["place"].rstrip("="),
            offline[pair]["percent"],
        ), (pair, e)
    by_pairs = {(b.number, x.ns.number, x.ew.number + TABLES): x for b in f.boards for x in b.lines}
    assert len(by_pairs) == RESULTS
    for r in live:
        x = by_pairs[(r.board, r.ns_pair, r.ew_pair)]
        if r.contract not in (None, "PASS"):
            assert (x.contract, x.played_by, x.tricks) == (r.contract, r.declarer, r.tricks)
        assert (Fraction(str(x.ns_points)), Fraction(str(x.ew_points))) == mps[(r.board, r.table)]
    seats = {"North": "N", "East": "E", "South": "S", "West": "W"}
    from endplay.types import Deal, Player

    for board, deal in deals.items():
        d = Deal(deal)
        expected = {p.abbr: deal_hand.to_pbn() for p, deal_hand in ((p, d[p]) for p in Player)}
        got = {
            seats[seat]: ".".join(suits[s] for s in ("SPADES", "HEARTS", "DIAMONDS", "CLUBS"))
            for seat, suits in f.hands[board].items()
        }
        assert got == expected, board
