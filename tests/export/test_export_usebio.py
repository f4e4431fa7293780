"""USEBIO 1.2 export (issue 14 [PUBLISH]): ``hub.export.usebio.write_usebio``.

The USEBIO DTD is not public. Our file is checked against real USEBIO 1.2 files of two
scoring programs (``tests/data/usebio/``, provenance in ``tests/data/README.md``): the
same reader (``tests/usebio_reader.py``) reads theirs and ours, and our file must have
the same element paths as Compscore3's file of the same kind, less the few the hub does
not hold (masterpoints, the club's charge rate, the scorer's contact, players' club ids:
``NOT_HELD`` in ``tests/export_readers.py``).

Values are checked against results worked by hand: the tiny Mitchell of
``tests/report_tiny.py`` (matchpoints, Neuberg, a 60/40), the same boards at Butler with
the datum rule the Compscore3 files follow (drop the highest and lowest score, mean, round
to 10, halves away from zero), a 4-pair Howell counted on the 2/1 scale here, and four
teams whose VPs come from the official Danish WBF table.
"""

from __future__ import annotations

import csv
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from export_readers import COMPSCORE, NOT_HELD, NZ, left_out
from report_tiny import EVENT_FILE, EW_PLACES, NS_PLACES, results
from usebio_reader import PairNumber, UsebioFile, read_usebio

from hub.export.usebio import write_usebio
from hub.store.board_deals import replace_hand_records
from hub.store.store import ResultEntry, Store

DATA = Path(__file__).parents[1] / "data"
# Deals for the tiny Mitchell's three boards (PBN, first seat named)
DEALS = {
    1: "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765",
    2: "E:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765",
    3: "N:T98.765.432.AKQJ AKQJ.T98.765.432 432.AKQJ.T98.765 765.432.AKQJ.T98",
}


def two_dp(value: Fraction) -> Decimal:
    """A total as the file writes it: two decimals, halves away from zero."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def open_store(tmp_path: Path) -> Store:
    return Store.open(f"sqlite:///{tmp_path / 'event.db'}")


def exported(store: Store, eid: int, tmp_path: Path) -> UsebioFile:
    path = write_usebio(store, eid, tmp_path / "out" / "usebio.xml")
    return read_usebio(path)


def tiny_text(scoring: str = "mp", extra: str = "") -> str:
    """The tiny Mitchell's event file, players given member numbers 1001…, at ``scoring``."""
    text = EVENT_FILE.read_text("utf-8")
    numbers = iter(range(1001, 1100))
    text = re.sub(r"\{ name = ", lambda _: f'{{ number = "{next(numbers)}", name = ', text)
    text = text.replace('scoring = "mp"', f'scoring = "{scoring}"')
    return text.replace("[rules.matchpoints]", f"{extra}\n[rules.matchpoints]")


def tiny(store: Store, scoring: str = "mp", extra: str = "", deals: bool = True) -> int:
    eid = store.create_event(tiny_text(scoring, extra), base_dir=EVENT_FILE.parent)
    store.record(eid, results())
    if deals:
        replace_hand_records(store, eid, 0, DEALS, "test")
    return eid


# -- the reader on the reference files -------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "event_type", "scoring", "winners"),
    [
        (COMPSCORE / "mp_pairs_mitchell_03.xml", "MP_PAIRS", "mp", 2),
        (COMPSCORE / "mp_pairs_howell.xml", "MP_PAIRS", "mp", 1),
        (COMPSCORE / "butler_mitchell.xml", "BUTLER_PAIRS", "butler", 2),
        (COMPSCORE / "cross_imp_howell.xml", "CROSS_IMP", "ximp", 1),
        (NZ / "three_quarter_howell_with_phantom.xml", "PAIRS", "mp", 1),
    ],
)
def test_reader_reads_both_producers_files(path, event_type, scoring, winners):
    """Both producers' ways (MP_PAIRS or PAIRS, "2NS" or "2 NS" or "7") read to the same
    values: every traveller line's pairs are entrants of the file, with their directions
    in a two-winner field."""
    f = read_usebio(path)
    assert (f.version, f.event_type, f.scoring, f.winner_type) == (
        "1.2",
        event_type,
        scoring,
        winners,
    )
    numbers = {e.number for e in f.entrants}
    assert all(e.place >= 1 and len(e.players) == 2 for e in f.entrants)
    for b in f.boards:
        for line in b.lines:
            assert {line.ns, line.ew} <= numbers
            assert (line.ns.direction, line.ew.direction) == (
                ("NS", "EW") if winners == 2 else (None, None)
            )


def test_reader_reads_butler_datums_as_compscore3_computes_them():
    """Compscore3's BOARD_AVERAGE is the datum: drop the single highest and lowest score,
    mean of the rest, round to 10 halves away from zero (shared/reference-data README, all
    70 boards); the reader gives each board's average and played scores."""
    f = read_usebio(COMPSCORE / "butler_mitchell.xml")
    for b in f.boards:
        scores = sorted(int(x.score) for x in b.lines if not x.score.startswith("A"))
        kept = scores[1:-1]
        tens = Fraction(sum(kept), len(kept)) / 10
        rounded = int(abs(tens) + Fraction(1, 2)) * (1 if tens >= 0 else -1)
        assert b.average == rounded * 10, b.number


# -- matchpoints, two-winner Mitchell ---------------------------------------------------------
def test_mitchell_mp_has_compscore3_shape_and_the_hand_worked_results(tmp_path):
    store = open_store(tmp_path)
    eid = tiny(store)
    f = exported(store, eid, tmp_path)
    assert left_out(f, COMPSCORE / "mp_pairs_mitchell_03.xml") == NOT_HELD
    assert (f.event_type, f.program, f.winner_type, f.date.isoformat()) == (
        "MP_PAIRS",
        "bridgehub",
        2,
        "2026-12-01",
    )
    # the rankings of tests/report_tiny.py: place, "NS 3", names, percent, "7.5 / 12"
    for place, label, names, percent, points in NS_PLACES + EW_PLACES:
        direction, n = label.split()
        e = f.entrant(f"{n}{direction}")
        assert (e.place, e.direction, e.percentage) == (int(place), direction, Decimal(percent))
        assert e.total == Decimal(points.split(" / ")[0])
        assert " & ".join(name for name, _ in e.players) == names
        assert all(number and number.startswith("10") for _, number in e.players)


# board → (NS, EW, score, NS MPs, EW MPs), from tests/report_tiny.py's docstring
TINY_MP = {
    1: [("1NS", "1EW", "420", 2, 2), ("2NS", "3EW", "-50", 0, 4), ("3NS", "2EW", "450", 4, 0)],
    2: [("1NS", "3EW", "600", 3, 1), ("2NS", "2EW", "600", 3, 1), ("3NS", "1EW", "100", 0, 4)],
    3: [
        ("1NS", "2EW", "-110", Fraction(1, 2), Fraction(7, 2)),
        ("2NS", "1EW", "A6040", Fraction(12, 5), Fraction(8, 5)),
        ("3NS", "3EW", "0", Fraction(7, 2), Fraction(1, 2)),
    ],
}


def lines_of(f: UsebioFile, board: int) -> list[tuple]:
    out = []
    for x in f.board(board).lines:
        ns = f"{x.ns.number}{x.ns.direction or ''}"
        ew = f"{x.ew.number}{x.ew.direction or ''}"
        points = (Fraction(str(x.ns_points)), Fraction(str(x.ew_points)))
        out.append((ns, ew, x.score, *points))
    return sorted(out)


def test_mitchell_travellers_carry_the_matchpoints_and_the_artificial_score(tmp_path):
    """Neuberg on board 3 (two results and a 60/40 of a top of 4: 2.4 and 1.6); the
    artificial line has no contract, declarer, lead or tricks, as Compscore3 writes it."""
    store = open_store(tmp_path)
    eid = tiny(store)
    f = exported(store, eid, tmp_path)
    for board, expected in TINY_MP.items():
        assert lines_of(f, board) == sorted(expected), board
    art = next(x for x in f.board(3).lines if x.score.startswith("A"))
    assert (art.contract, art.played_by, art.lead, art.tricks) == (None, None, None, None)


def test_mitchell_lines_are_the_stored_results(tmp_path):
    """Contract, declarer, tricks and lead (rank first: HA → AH) of every stored result;
    the pass-out as PASS with an empty TRICKS, as Compscore3 writes it (its
    cross_imp_howell.xml)."""
    store = open_store(tmp_path)
    eid = tiny(store)
    f = exported(store, eid, tmp_path)
    # EW n is internal pair 3 + n in the store (3 tables: hub/event/pair_labels.py)
    by_pairs = {(b.number, x.ns.number, x.ew.number + 3): x for b in f.boards for x in b.lines}
    for r in store.live_results(eid):
        x = by_pairs[(r.board, r.ns_pair, r.ew_pair)]
        if r.adjusted:
            continue
        contract = None if r.contract in (None, "PASS") else r.contract
        if contract:
            assert (x.contract, x.played_by, x.tricks) == (contract, r.declarer, r.tricks)
        else:
            assert (x.contract, x.tricks, x.score) == ("PASS", None, "0")
        assert x.lead == (r.lead[1] + r.lead[0] if r.lead else None)
    ours = pass_tricks(tmp_path / "out" / "usebio.xml")
    assert ours == pass_tricks(COMPSCORE / "cross_imp_howell.xml") == {""}


def pass_tricks(path: Path) -> set[str | None]:
    """The TRICKS texts of a file's passed-out lines (None where the element is missing)."""
    root = ET.parse(path).getroot()
    lines = [x for x in root.iter("TRAVELLER_LINE") if x.findtext("CONTRACT") == "PASS"]
    return {x.findtext("TRICKS") for x in lines}


def test_handset_holds_the_stored_deals(tmp_path):
    """HANDSET/BOARD/HAND: each seat's cards by suit, as in the PBN deal."""
    store = open_store(tmp_path)
    eid = tiny(store)
    f = exported(store, eid, tmp_path)
    seats = ["North", "East", "South", "West"]
    for board, deal in DEALS.items():
        first, hands = deal.split(":")
        start = "NESW".index(first)
        expected = {}
        for k, hand in enumerate(hands.split()):
            spades, hearts, diamonds, clubs = hand.split(".")
            expected[seats[(start + k) % 4]] = {
                "SPADES": spades,
                "HEARTS": hearts,
                "DIAMONDS": diamonds,
                "CLUBS": clubs,
            }
        assert f.hands[board] == expected


def test_no_handset_without_hand_records(tmp_path):
    store = open_store(tmp_path)
    eid = tiny(store, deals=False)
    f = exported(store, eid, tmp_path)
    assert f.hands == {}
    assert left_out(f, COMPSCORE / "mp_pairs_mitchell_03.xml") - NOT_HELD == {
        p
        for p in read_usebio(COMPSCORE / "mp_pairs_mitchell_03.xml").paths
        if p.startswith("USEBIO/HANDSET")
    }


# -- matchpoints, Howell -------------------------------------------------------------------
HOWELL = """schema_version = 1
[event]
name = "Howell"
[rules]
scoring = "mp"
tie_breaks = []
[[sessions]]
name = "Afternoon"
date = 2026-11-30
[[sessions.sections]]
letter = "A"
movement = { kind = "howell", pairs = 4, boards_per_round = 1 }
pairs = [
  { number = 1, players = [{ number = "11", name = "Ada" }, { number = "12", name = "Bea" }] },
  { number = 2, players = [{ number = "21", name = "Cid" }, { number = "22", name = "Dag" }] },
  { number = 3, players = [{ number = "31", name = "Eli" }, { number = "32", name = "Fia" }] },
  { number = 4, players = [{ number = "41", name = "Gus" }, { number = "42", name = "Hal" }] },
]
"""
# (table, round, board, NS, EW) → contract, declarer, tricks, NS score (Law 77 by hand:
# board 1 none vul, board 2 NS vul, board 3 EW vul)
HOWELL_RESULTS = {
    (1, 1, 1, 4, 1): ("4S", "N", 10, 420),
    (2, 1, 1, 3, 2): ("4S", "N", 9, -50),
    (1, 2, 2, 4, 2): ("3NT", "N", 9, 600),
    (2, 2, 2, 1, 3): ("3NT", "N", 9, 600),
    (1, 3, 3, 4, 3): ("2H", "E", 9, -140),
    (2, 3, 3, 2, 1): ("2H", "E", 8, -110),
}


def mp_2_1(scores: list[int]) -> list[int]:
    """Matchpoints on the 2/1 scale: 2 for each score beaten, 1 for each equalled."""
    return [sum(2 * (s > o) + (s == o) for o in scores) - 1 for s in scores]


def test_howell_mp_has_one_numbering_and_places_counted_by_hand(tmp_path):
    """One field (WINNER_TYPE 1, pair numbers "4", empty DIRECTION as Compscore3's Howell
    file); each pair's total out of 6 (3 boards, top 2) and its place (shared on a tie)."""
    store = open_store(tmp_path)
    eid = store.create_event(HOWELL)
    store.record(
        eid,
        [
            ResultEntry("A", t, r, b, ns, ew, c, d, lead="C2", tricks=k)
            for (t, r, b, ns, ew), (c, d, k, _) in HOWELL_RESULTS.items()
        ],
    )
    f = exported(store, eid, tmp_path)
    assert left_out(f, COMPSCORE / "mp_pairs_howell.xml") == NOT_HELD | {
        p
        for p in read_usebio(COMPSCORE / "mp_pairs_howell.xml").paths
        if p.startswith("USEBIO/HANDSET")
    }
    assert (f.winner_type, f.date.isoformat()) == (1, "2026-11-30")
    points = {p: 0 for p in range(1, 5)}
    for board in (1, 2, 3):
        rows = [(k, v) for k, v in HOWELL_RESULTS.items() if k[2] == board]
        mps = mp_2_1([v[3] for _, v in rows])
        for ((_, _, _, ns, ew), _), mp in zip(rows, mps, strict=True):
            points[ns] += mp
            points[ew] += 2 - mp
        assert sorted(
            (x.ns.number, x.score, x.ns_points, x.ew_points) for x in f.board(board).lines
        ) == sorted(
            (k[3], str(v[3]), Decimal(mp), Decimal(2 - mp))
            for (k, v), mp in zip(rows, mps, strict=True)
        )
    for pair, total in points.items():
        e = f.entrant(str(pair))
        assert e.number == PairNumber(pair) and e.direction is None
        assert e.total == Decimal(total)
        assert e.percentage == two_dp(Fraction(total * 100, 6))
        assert e.place == 1 + sum(1 for t in points.values() if t > total)


# -- Butler and cross-IMPs ---------------------------------------------------------------------
# The tiny Mitchell at Butler, Compscore3's datum (drop 1 at each end). Board 1: 420, 450, −50
# → datum 420: 0, +1 (30), −10 (470). Board 2: 600, 600, 100 → 600: 0, 0, −11 (500).
# Board 3: real scores 0 and −110 (nothing dropped from two) → −55 → −60: the pass +2 (60),
# −110 −2 (50); the 60/40 +3/−3 (3 IMPs for each 10 % from 50, the event's default).
TINY_BUTLER = {
    1: (
        420,
        [("1NS", "1EW", "420", 0, 0), ("2NS", "3EW", "-50", -10, 10), ("3NS", "2EW", "450", 1, -1)],
    ),
    2: (
        600,
        [("1NS", "3EW", "600", 0, 0), ("2NS", "2EW", "600", 0, 0), ("3NS", "1EW", "100", -11, 11)],
    ),
    3: (
        -60,
        [("1NS", "2EW", "-110", -2, 2), ("2NS", "1EW", "A6040", 3, -3), ("3NS", "3EW", "0", 2, -2)],
    ),
}
BUTLER_TOTALS = {  # pair: (total IMPs, place)
    "1NS": (-2, 1), "2NS": (-7, 2), "3NS": (-8, 3), "1EW": (8, 1), "2EW": (1, 3), "3EW": (8, 1),
}  # fmt: skip


def test_butler_mitchell_datums_imps_and_totals_by_hand(tmp_path):
    store = open_store(tmp_path)
    eid = tiny(store, "butler", '[rules.butler]\ndrop = "1"')
    f = exported(store, eid, tmp_path)
    assert left_out(f, COMPSCORE / "butler_mitchell.xml") == NOT_HELD
    assert (f.event_type, f.scoring, f.winner_type) == ("BUTLER_PAIRS", "butler", 2)
    for board, (datum, expected) in TINY_BUTLER.items():
        assert f.board(board).average == datum
        assert lines_of(f, board) == sorted(expected), board
    for number, (total, place) in BUTLER_TOTALS.items():
        e = f.entrant(number)
        assert (e.total, e.place, e.percentage) == (Decimal(total), place, None)


# Cross-IMPs, each result against every other real one ÷ (n − 1). Board 1: 420 v 450 −1,
# v −50 +10 → 4.5; 450: +1 +11 → 6; −50: −10 −11 → −10.5. Board 2: 600: 0 and +11 → 5.5
# (twice); 100: −11 −11 → −11. Board 3: the pass v −110 +3, −110 −3; the 60/40 +3/−3.
TINY_XIMP = {
    1: [
        ("1NS", "1EW", "420", Fraction(9, 2), Fraction(-9, 2)),
        ("2NS", "3EW", "-50", Fraction(-21, 2), Fraction(21, 2)),
        ("3NS", "2EW", "450", 6, -6),
    ],
    2: [
        ("1NS", "3EW", "600", Fraction(11, 2), Fraction(-11, 2)),
        ("2NS", "2EW", "600", Fraction(11, 2), Fraction(-11, 2)),
        ("3NS", "1EW", "100", -11, 11),
    ],
    3: [("1NS", "2EW", "-110", -3, 3), ("2NS", "1EW", "A6040", 3, -3), ("3NS", "3EW", "0", 3, -3)],
}


def test_cross_imp_mitchell_values_by_hand(tmp_path):
    store = open_store(tmp_path)
    eid = tiny(store, "ximp")
    f = exported(store, eid, tmp_path)
    contact = {p for p in NOT_HELD if "CONTACT" in p}  # that file has no CONTACT either
    assert left_out(f, COMPSCORE / "cross_imp_howell.xml") == NOT_HELD - contact
    assert (f.event_type, f.scoring) == ("CROSS_IMP", "ximp")
    for board, expected in TINY_XIMP.items():
        assert lines_of(f, board) == sorted(expected), board
    totals: dict[str, Fraction] = {}
    for expected in TINY_XIMP.values():
        for ns, ew, _, ns_imps, ew_imps in expected:
            totals[ns] = totals.get(ns, Fraction(0)) + ns_imps
            totals[ew] = totals.get(ew, Fraction(0)) + ew_imps
    for number, total in totals.items():
        field = [t for n, t in totals.items() if n[-2:] == number[-2:]]
        e = f.entrant(number)
        assert e.total == two_dp(total)
        assert e.place == 1 + sum(1 for t in field if t > total)


# -- teams ---------------------------------------------------------------------------------
TEAMS_EVENT = """schema_version = 1
[event]
name = "Four teams"
[rules]
scoring = "teams"
tie_breaks = ["imp_quotient", "h2h_vp"]
[[sessions]]
name = "Evening"
date = 2026-12-02
[[sessions.sections]]
letter = "A"
movement = { kind = "teams", teams = 4, boards_per_round = 2 }
teams = [
  { number = 1, name = "Lions", players = [
    { name = "Ann" }, { name = "Bo" }, { name = "Cy" }, { name = "Di" },
  ] },
  { number = 2, name = "Bears" },
  { number = 3, name = "Owls" },
  { number = 4, name = "Foxes" },
]
"""
# As tests/live/views/test_live_views.py: (table, round, board) → NS score; round 1: 1 v 4 at tables
# 1-2, 2 v 3 at tables 3-4; round 2: 1 v 2, 4 v 3. Law 78B: 1 beats 4 by 10, 3 beats 2 by
# 12, 1 and 2 draw, 3 beats 4 by 1.
TEAM_SCORES = {
    (1, 1, 1): 420, (2, 1, 1): -50, (1, 1, 2): 100, (2, 1, 2): 100,
    (3, 1, 1): 110, (4, 1, 1): 140, (3, 1, 2): -200, (4, 1, 2): 300,
    (1, 2, 3): 50, (2, 2, 3): 50, (1, 2, 4): -100, (2, 2, 4): -100,
    (3, 2, 3): 600, (4, 2, 3): -100, (3, 2, 4): -420, (4, 2, 4): 420,
}  # fmt: skip


def danish_vp(boards: int, margin: int) -> tuple[Fraction, Fraction]:
    """Winner's and loser's VPs from the official Danish WBF table."""
    with (DATA / "wbf_vp_continuous_oracle.csv").open() as f:
        for row in csv.DictReader(f):
            if (int(row["boards"]), int(row["imp_margin"])) == (boards, margin):
                win = Fraction(row["official_dk_table"])
                return win, 20 - win
    raise AssertionError(f"no official value for {boards} boards, {margin} IMPs")


def test_teams_have_team_entrants_with_vps_and_the_tables_results(tmp_path):
    """TEAM in PARTICIPANTS like a PAIR (our naming: no teams file of either producer was
    found): its number, name, players, VPs and place; the boards' lines hold the teams
    sitting NS and EW and the NS score, without points elements."""
    store = open_store(tmp_path)
    eid = store.create_event(TEAMS_EVENT)
    movement = store.movement(eid, "A")
    entries = []
    for (table, rnd, board), score in TEAM_SCORES.items():
        row = movement.row("A", table, rnd)
        assert row is not None
        entries.append(
            ResultEntry("A", table, rnd, board, row.ns_pair, row.ew_pair, score_ns=score)
        )
    store.record(eid, entries)
    f = exported(store, eid, tmp_path)
    assert (f.event_type, f.winner_type, f.scoring) == ("TEAMS", 1, "teams")
    pairs_shape = read_usebio(COMPSCORE / "mp_pairs_mitchell_03.xml").paths
    as_pairs = {
        p.replace("TEAM_NUMBER", "PAIR_NUMBER")
        .replace("TEAM_NAME", "DIRECTION")
        .replace("/TEAM", "/PAIR")
        for p in f.paths
    }
    assert as_pairs - pairs_shape == {"USEBIO/EVENT/SCORING_METHOD"}
    w10, l10 = danish_vp(2, 10)
    w12, l12 = danish_vp(2, 12)
    w1, l1 = danish_vp(2, 1)
    draw, _ = danish_vp(2, 0)
    vp = {1: w10 + draw, 2: l12 + draw, 3: w12 + w1, 4: l10 + l1}
    names = {1: "Lions", 2: "Bears", 3: "Owls", 4: "Foxes"}
    for team, total in vp.items():
        e = f.entrant(str(team))
        assert (e.kind, e.name, e.direction) == ("TEAM", names[team], None)
        assert e.total == two_dp(total)
        assert e.place == 1 + sum(1 for v in vp.values() if v > total)
    assert [n for n, _ in f.entrant("1").players] == ["Ann", "Bo", "Cy", "Di"]
    for (table, rnd, board), score in TEAM_SCORES.items():
        row = movement.row("A", table, rnd)
        assert row is not None
        (x,) = [
            x
            for x in f.board(board).lines
            if (x.ns.number, x.ew.number) == (row.ns_pair, row.ew_pair)
        ]
        assert (x.score, x.points, x.contract) == (str(score), None, None)


# -- several sections ------------------------------------------------------------------------
def test_sections_are_wrapped_as_the_nz_converter_does(tmp_path):
    """Two sections: each one's PARTICIPANTS and BOARDs inside SECTION SECTION_ID="A" (the
    NZ converter's multi-section files); inside, the single-section shape."""
    text = tiny_text()
    section = text[text.index("[[sessions.sections]]") :]
    text += "\n" + section.replace('letter = "A"', 'letter = "B"')
    store = open_store(tmp_path)
    eid = store.create_event(text, base_dir=EVENT_FILE.parent)
    store.record(eid, [*results(), *(replace(r, section="B") for r in results())])
    f = exported(store, eid, tmp_path)
    assert f.sections == ["A", "B"]
    flat = {
        p.replace("EVENT/SECTION/", "EVENT/")
        for p in f.paths
        if p not in ("USEBIO/EVENT/SECTION", "USEBIO/EVENT/SECTION[@SECTION_ID]")
    }
    assert flat == read_usebio(COMPSCORE / "mp_pairs_mitchell_03.xml").paths - NOT_HELD - {
        p for p in read_usebio(COMPSCORE / "mp_pairs_mitchell_03.xml").paths if "HANDSET" in p
    }
    for letter in ("A", "B"):
        for place, label, _, percent, _ in NS_PLACES + EW_PLACES:
            direction, n = label.split()
            e = f.entrant(f"{n}{direction}", letter)
            assert (e.place, e.percentage) == (int(place), Decimal(percent))
        assert lines_of_section(f, 1, letter) == sorted(TINY_MP[1])


def lines_of_section(f: UsebioFile, board: int, section: str) -> list[tuple]:
    out = []
    for x in f.board(board, section).lines:
        points = (Fraction(str(x.ns_points)), Fraction(str(x.ew_points)))
        out.append((f"{x.ns.number}NS", f"{x.ew.number}EW", x.score, *points))
    return sorted(out)
