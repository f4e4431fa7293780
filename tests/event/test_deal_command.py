"""``bridgehub deal --boards N --seed S --pbn FILE`` (issue [PUBLISH], hand records): a set
dealt from a seed is the same file, byte for byte, every time; each board is 52 different
cards, 13 to a hand; boards are numbered from 1 with Law 2's dealer and vulnerability; the
file reads back with endplay's PBN reader and the hub's own hand-record reader, and carries
each board's double-dummy table and par in the tags RealBridge's exports use."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from hub.cli.main import cli
from hub.event.dealer import seeded_deals
from hub.event.double_dummy import double_dummy
from hub.event.hand_records import read_hand_records
from scoring.board import Seat
from scoring.contract import Strain
from scoring.deal import parse_deal

# Law 2: the dealer and vulnerability of boards 1-16 as the Laws print them; the cycle
# repeats from board 17
LAW_2 = [
    ("N", "None"), ("E", "NS"), ("S", "EW"), ("W", "All"),
    ("N", "NS"), ("E", "EW"), ("S", "All"), ("W", "None"),
    ("N", "EW"), ("E", "All"), ("S", "None"), ("W", "NS"),
    ("N", "All"), ("E", "None"), ("S", "NS"), ("W", "EW"),
]  # fmt: skip
STRAINS = {"NT": Strain.NOTRUMP, "S": Strain.SPADES, "H": Strain.HEARTS, "D": Strain.DIAMONDS}
STRAINS["C"] = Strain.CLUBS


def dealt(tmp_path: Path, *args: str, name: str = "boards.pbn") -> Path:
    """Run ``bridgehub deal`` and return the file it wrote."""
    path = tmp_path / name
    result = CliRunner().invoke(cli, ["deal", *args, "--pbn", str(path)])
    assert result.exit_code == 0, result.output
    return path


def games(path: Path) -> list[dict[str, str]]:
    """Each board's tags, in the file's order."""
    text = path.read_text("utf-8")
    return [dict(re.findall(r'^\[(\w+) "(.*)"\]$', g, re.M)) for g in text.split("\n\n") if g]


def test_the_same_seed_writes_the_same_bytes(tmp_path):
    """A set can be dealt again from its seed: twice the same file, double dummy included."""
    first = dealt(tmp_path, "--boards", "4", "--seed", "2026", name="a.pbn")
    again = dealt(tmp_path, "--boards", "4", "--seed", "2026", name="b.pbn")
    assert first.read_bytes() == again.read_bytes()
    assert b"\r" not in first.read_bytes()  # LF on every system


def test_another_seed_deals_other_boards(tmp_path):
    """Seeds 1 and 2: no board alike (a repeated deal among 36 is a 1 in 10^28 chance)."""
    one = read_hand_records(dealt(tmp_path, "--boards", "36", "--seed", "1", "--no-double-dummy"))
    two = read_hand_records(
        dealt(tmp_path, "--boards", "36", "--seed", "2", "--no-double-dummy", name="two.pbn")
    )
    assert all(one[b] != two[b] for b in range(1, 37))
    assert len(set(one.values())) == 36  # and no board twice within a set


def test_every_board_is_52_different_cards_13_to_a_hand():
    for seed in (0, 1, 99, 2**40):
        for board, deal in seeded_deals(seed, 36).items():
            hands = parse_deal(deal)
            assert [len(hands[s]) for s in Seat] == [13] * 4, (seed, board)
            assert len(frozenset().union(*hands.values())) == 52, (seed, board)


def test_a_longer_set_begins_with_the_shorter_one():
    """Dealing 36 boards or 24 from one seed: boards 1-24 are the same."""
    long, short = seeded_deals(7, 36), seeded_deals(7, 24)
    assert {b: long[b] for b in short} == short


def test_the_cards_are_spread_evenly():
    """Not a proof of randomness, a guard against a broken shuffle: over 2,000 deals each
    seat holds each card about a quarter of the time (500 expected, standard deviation
    19.4: 400-600 is more than 5 of them, so a fair dealer does not fail it)."""
    counts: dict[tuple[Seat, str], int] = {}
    for deal in seeded_deals(12345, 2000).values():
        for seat, cards in parse_deal(deal).items():
            for card in cards:
                counts[seat, card] = counts.get((seat, card), 0) + 1
    assert len(counts) == 4 * 52
    assert all(400 < n < 600 for n in counts.values()), (min(counts.values()), max(counts.values()))


def test_boards_rotate_dealer_and_vulnerability_as_law_2_says(tmp_path):
    boards = games(dealt(tmp_path, "--boards", "36", "--seed", "5", "--no-double-dummy"))
    assert [int(g["Board"]) for g in boards] == list(range(1, 37))
    assert [(g["Dealer"], g["Vulnerable"]) for g in boards] == [LAW_2[b % 16] for b in range(36)]


def test_endplay_and_the_hubs_reader_read_the_file_back(tmp_path):
    """endplay's PBN reader: board numbers, deals, vulnerability, the double-dummy tags;
    the hub's reader (hub.event.hand_records): the same deals."""
    from endplay.parsers import pbn
    from endplay.types import Vul

    path = dealt(tmp_path, "--boards", "5", "--seed", "11")
    with path.open(encoding="utf-8") as f:
        boards = pbn.load(f)
    ours = read_hand_records(path)
    vul = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}
    assert [b.board_num for b in boards] == [1, 2, 3, 4, 5]
    assert {b.board_num: b.deal.to_pbn() for b in boards} == ours == seeded_deals(11, 5)
    for b in boards:
        assert b.vul == vul[LAW_2[(b.board_num - 1) % 16][1]]
        assert len(b.info["DoubleDummyTricks"]) == 20
        table = b.info["OptimumResultTable"]
        assert len(table["rows"]) == 20 and "OptimumScore" in b.info and "ParContract" in b.info


def test_the_double_dummy_tags_agree_with_each_other_and_the_solver(tmp_path):
    """Each board's ``DoubleDummyTricks`` (N S E W × NT S H D C, hex), its
    ``OptimumResultTable`` rows and its ``OptimumScore`` are the solver's answer for the
    board's deal, dealer and vulnerability."""
    path = dealt(tmp_path, "--boards", "3", "--seed", "42")
    text = path.read_text("utf-8")
    for game, (board, deal) in zip(
        text.split("\n\n")[:3], seeded_deals(42, 3).items(), strict=True
    ):
        dd = double_dummy(deal, board)
        rows = re.findall(r"^([NESW]) +(NT|[SHDC]) +(\d+)$", game, re.M)
        assert {(Seat[s], STRAINS[d]): int(n) for s, d, n in rows} == dict(dd.tricks)
        digits = re.search(r'\[DoubleDummyTricks "(\w{20})"\]', game)
        assert digits is not None
        order = [(Seat[s], STRAINS[d]) for s in "NSEW" for d in ("NT", "S", "H", "D", "C")]
        assert [int(c, 16) for c in digits.group(1)] == [dd.tricks[k] for k in order]
        score = re.search(r'\[OptimumScore "NS ([-+]?\d+)"\]', game)
        assert score is not None and int(score.group(1)) == dd.par_score


def test_a_seed_can_be_left_out_and_is_printed(tmp_path):
    """Without ``--seed`` a new one is drawn and printed, so the set can be dealt again."""
    path = tmp_path / "x.pbn"
    result = CliRunner().invoke(
        cli, ["deal", "--boards", "2", "--no-double-dummy", "--pbn", str(path)]
    )
    assert result.exit_code == 0, result.output
    seed = re.search(r"seed (\d+)", result.output)
    assert seed is not None
    again = dealt(tmp_path, "--boards", "2", "--seed", seed.group(1), "--no-double-dummy")
    assert again.read_bytes() == path.read_bytes()


def test_a_negative_seed_is_refused(tmp_path):
    """Python's generator seeds -7 like 7: refused rather than dealing a set twice."""
    result = CliRunner().invoke(cli, ["deal", "--seed", "-7", "--pbn", str(tmp_path / "x.pbn")])
    assert result.exit_code != 0 and "-7" in result.output


def test_without_endplay_double_dummy_names_the_extra(tmp_path, monkeypatch):
    """endplay is the ``dd`` extra: without it the dealer says what to install, and
    ``--no-double-dummy`` deals anyway."""
    for name in [m for m in sys.modules if m == "endplay" or m.startswith("endplay.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "endplay", None)
    double_dummy.cache_clear()
    path = tmp_path / "x.pbn"
    result = CliRunner().invoke(cli, ["deal", "--boards", "2", "--seed", "3", "--pbn", str(path)])
    assert result.exit_code != 0
    assert "install bridgehub[dd]" in result.output and "--no-double-dummy" in result.output
    assert not path.exists()
    dealt(tmp_path, "--boards", "2", "--seed", "3", "--no-double-dummy")


@pytest.mark.parametrize("boards", ["0", "65536"])
def test_a_board_count_out_of_range_is_refused(tmp_path, boards):
    result = CliRunner().invoke(
        cli, ["deal", "--boards", boards, "--seed", "1", "--pbn", str(tmp_path / "x.pbn")]
    )
    assert result.exit_code != 0 and "--boards" in result.output
