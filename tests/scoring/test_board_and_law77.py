"""Board rotation (Law 2) and contract scores (Law 77) against real results and endplay."""

from __future__ import annotations

import itertools

import pytest
from oracle import by_board, oracle_rows, pbn_boards

from scoring.board import Seat, Side, Vulnerability, board_dealer, board_vulnerability
from scoring.contract import Contract, Doubling, Strain, parse_contract, parse_play
from scoring.law77 import declarer_score, possible_ns_scores, score_ns


def pbn_play(board):
    """A PBN record's contract and result as our Play (endplay parses the file)."""
    c = board.contract
    if c is None or c.is_passout():
        return parse_play("PASS")
    strain = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C", "nt": "NT"}
    dbl = {"passed": "", "doubled": "X", "redoubled": "XX"}
    text = f"{c.level}{strain[c.denom.name]}{dbl[c.penalty.name]}"
    return parse_play(text, c.declarer.abbr, str(c.level + 6 + c.result))


def test_law2_dealer_and_vulnerability_match_every_realbridge_board():
    """Law 2 / the 16-board cycle, against the Dealer and Vulnerable tags of a real event."""
    boards = pbn_boards()
    assert len(boards) == 299
    for b in boards:
        assert board_dealer(b.board_num).name == b.dealer.abbr
        tag = b.vul.name.lower()
        expected = {
            "none": Vulnerability.NONE,
            "ns": Vulnerability.NS,
            "ew": Vulnerability.EW,
            "both": Vulnerability.BOTH,
        }[tag]
        assert board_vulnerability(b.board_num) is expected


def test_law2_cycle_repeats_every_16_boards():
    for n in range(1, 17):
        assert board_vulnerability(n) is board_vulnerability(n + 16) is board_vulnerability(n + 32)
        assert board_dealer(n) is board_dealer(n + 16)


@pytest.mark.parametrize(
    ("contract", "tricks", "vul", "expected"),
    [
        # Spot values of shared/docs/scoring-rules.md §1.2 (endplay, confirmed by bridge-scorer).
        ("4S", 10, False, 420),
        ("4S", 10, True, 620),
        ("3NT", 11, False, 460),
        ("3NT", 11, True, 660),
        ("1CX", 7, False, 140),
        ("1CX", 7, True, 140),
        ("7NTXX", 13, False, 2280),
        ("7NTXX", 13, True, 2980),
        ("2HX", 4, False, -800),
        ("2HX", 4, True, -1100),
        # (listed there as "6S-13"; 13 down needs a grand slam, so the contract is 7S)
        ("7S", 0, False, -650),
        ("7S", 0, True, -1300),
        # Law 77 game judged on the doubled trick score: 2HX= is a game, 1CXX= a part-score.
        ("2HX", 8, False, 470),
        ("1CXX", 7, False, 230),
    ],
)
def test_law77_spot_values(contract, tricks, vul, expected):
    c = parse_contract(contract)
    assert c is not None
    assert declarer_score(c, tricks, vul) == expected


def test_law77_all_2940_combinations_agree_with_endplay():
    """endplay 0.5.12 as a test-only oracle: level × strain × doubling × vul × tricks."""
    from endplay.types import Contract as EPContract
    from endplay.types import Denom, Penalty, Player, Vul

    denoms = {
        Strain.CLUBS: Denom.clubs,
        Strain.DIAMONDS: Denom.diamonds,
        Strain.HEARTS: Denom.hearts,
        Strain.SPADES: Denom.spades,
        Strain.NOTRUMP: Denom.nt,
    }
    pens = {
        Doubling.NONE: Penalty.passed,
        Doubling.DOUBLED: Penalty.doubled,
        Doubling.REDOUBLED: Penalty.redoubled,
    }
    count = 0
    for level, strain, dbl, vul, tricks in itertools.product(
        range(1, 8), Strain, Doubling, (False, True), range(14)
    ):
        ours = declarer_score(Contract(level, strain, dbl), tricks, vul)
        ep = EPContract(
            level=level,
            denom=denoms[strain],
            declarer=Player.north,
            penalty=pens[dbl],
            result=tricks - (6 + level),
        )
        theirs = ep.score(Vul.ns if vul else Vul.none)
        assert ours == theirs, (level, strain, dbl, vul, tricks)
        count += 1
    assert count == 2940


def test_law77_every_score_of_the_realbridge_event():
    """Every `Score` tag of the real table records (RealBridge, 2021): 279 of 299 carry one."""
    checked = 0
    for b in pbn_boards():
        tag = b.info.get("Score")
        if not tag:
            continue
        side, value = tag.split()
        expected_ns = int(value) if side == "NS" else -int(value)
        play = pbn_play(b)
        assert score_ns(play, board_vulnerability(b.board_num)) == expected_ns, b.info
        checked += 1
    assert checked == 279


@pytest.mark.parametrize(
    "name",
    [
        "jfr_pary_travellers.csv",
        "kops_pch1003_mp_travellers.csv",
        "kops_sm0807_ximp_travellers.csv",
    ],
)
def test_law77_every_score_of_the_polish_club_events(name):
    rows = [r for r in oracle_rows(name) if r.played]
    for r in rows:
        play = parse_play(r.contract, r.declarer, r.result)
        assert score_ns(play, board_vulnerability(r.board)) == r.score_ns, r
    assert len(by_board(rows)) > 10


def test_possible_scores_know_the_vulnerability():
    assert 620 in possible_ns_scores(Vulnerability.NS)
    assert 620 not in possible_ns_scores(Vulnerability.EW)  # NS not vulnerable: 4S= is 420
    assert -620 in possible_ns_scores(Vulnerability.EW)
    assert 15 not in possible_ns_scores(Vulnerability.NONE)


def test_seats_and_sides():
    assert Seat.parse("w") is Seat.W and Seat.W.side is Side.EW and Side.NS.other is Side.EW
