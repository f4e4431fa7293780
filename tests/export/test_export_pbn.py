"""PBN 2.1 export of a whole event (issue [PUBLISH]): written from a real SQLite store, read
back with endplay's PBN reader, and compared with the store and with values worked apart
from bridgehub's scoring.

The event is the report's tiny 3-table Mitchell (tests/report_tiny.py, one board a round,
every matchpoint worked by hand there) with hand records for boards 1 and 2 (RealBridge's
boards 11 and 12, tests/data/realbridge_2021_online_qual_open_r2.pbn) and none for board 3.
A contract's score is endplay's (``Contract.score``), never ours; cross-IMPs are summed here
from the IMP scale of Law 78B. PBN 2.1 sections: §5.2 tables (``^`` an artificial score,
``-`` irrelevant), §5.9 ScoreTable, §5.10 TotalScoreTable.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from export_readers import open_event, read_back, table_rows
from report_tiny import EVENT_FILE, EW_PLACES, NS_PLACES, results

from hub.export.pbn import write_pbn
from hub.export.pbn_format import Align, Column, Game, Table, pbn_text
from hub.standings.rebuild import rebuild
from hub.store.store import ResultEntry, Store

pytest.importorskip("endplay.parsers.pbn")
from endplay.types import Contract, Player, Vul

TABLES = 3  # the Mitchell's EW pair n is the hub's pair 3 + n

# report_tiny.py's hand-worked matchpoints (2/1 scale, top 4; Neuberg on board 3), by
# board and table: NS, EW.
HAND_MPS = {
    (1, 1): ("2", "2"),
    (1, 3): ("4", "0"),
    (1, 2): ("0", "4"),
    (2, 2): ("3", "1"),
    (2, 1): ("3", "1"),
    (2, 3): ("0", "4"),
    (3, 3): ("3.5", "0.5"),
    (3, 2): ("^2.4", "^1.6"),  # the artificial 60/40: 60 % and 40 % of the top
    (3, 1): ("0.5", "3.5"),
}

# Law 78B: the IMP scale, the upper bound of each band of score differences.
IMP_BANDS = [10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890, 1090, 1290]
IMP_BANDS += [1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990]


def imps(difference: int) -> int:
    size = sum(abs(difference) > bound for bound in IMP_BANDS)
    return size if difference >= 0 else -size


def unquote(token: str) -> str:
    return token[1:-1].replace('\\"', '"').replace("\\\\", "\\") if token[:1] == '"' else token


def room_pair(entry: ResultEntry) -> tuple[str, str]:
    return str(entry.ns_pair), str(entry.ew_pair - TABLES)


def ns_score(entry: ResultEntry, board: int) -> int:
    """NS's score by endplay's Law 77 table (not ours): the declarer side's score, signed."""
    assert entry.contract is not None
    if entry.contract == "PASS":
        return 0
    made = entry.tricks - 6 - int(entry.contract[0])
    result = "=" if made == 0 else f"{made:+d}"
    score = Contract(f"{entry.contract}{entry.declarer}{result}").score(Vul.from_board(board))
    return score if entry.declarer in "NS" else -score


def test_every_board_with_its_deal_tags_and_one_total_table(tmp_path):
    """Boards 1-3 in order, each with the stored deal (board 3 has none: every hand unknown,
    no card), its vulnerability and dealer by the board number (endplay's own rule), the
    event's name, venue and date; the TotalScoreTable once, on the first board."""
    store, eid, deals = open_event(tmp_path)
    path = write_pbn(store, eid, tmp_path / "event.pbn")
    boards = read_back(path)
    assert [b.board_num for b in boards] == [1, 2, 3]
    stored = store.hand_records(eid, 0)
    for b in boards[:2]:
        assert b.deal.to_pbn() == stored[b.board_num] == deals[b.board_num]
    assert [len(boards[2].deal[p]) for p in Player] == [0, 0, 0, 0]
    text = path.read_bytes().decode("utf-8")  # as written: CRLF kept
    for b in boards:
        assert b.vul == Vul.from_board(b.board_num)
        assert b.info["Event"] == "Tuesday pairs" and b.info["Site"] == "Club room"
        assert b.info["Date"] == "2026.12.01" and b.info["Scoring"] == "MatchPoints"
        assert b.contract is None  # "?": no single contract for a board many tables play
        dealer = Player.from_board(b.board_num).abbr
        assert f'[Board "{b.board_num}"]\r\n' in text and f'[Dealer "{dealer}"]' in text
    assert "TotalScoreTable" in boards[0].info
    assert all("TotalScoreTable" not in b.info for b in boards[1:])
    assert text.count("[TotalScoreTable ") == 1
    assert text.startswith("% PBN 2.1\r\n% EXPORT\r\n")
    store.close()


def test_every_score_table_line_is_the_stored_result_and_its_matchpoints(tmp_path):
    """Each stored result once, on its board: table, round, the room's pair numbers,
    contract, declarer, tricks, lead, NS's score by endplay's scoring table on its side's
    column, and the hand-worked matchpoints and percentages (of the top 4); the artificial
    60/40 with ``-`` for its play and ``^`` before its points (PBN 2.1 §5.2, §5.9)."""
    store, eid, _ = open_event(tmp_path)
    boards = read_back(write_pbn(store, eid, tmp_path / "event.pbn"))
    lines = {(b.board_num, int(r["Table"])): r for b in boards for r in table_rows(b, "ScoreTable")}
    live = store.live_results(eid)
    assert len(lines) == len(live) == 9
    for e in live:
        row = lines[(e.board, e.table)]
        assert (row["Round"], row["PairId_NS"]) == (str(e.round), room_pair(e)[0])
        assert row["PairId_EW"] == room_pair(e)[1]
        ns_mp, ew_mp = HAND_MPS[(e.board, e.table)]
        assert (row["MP_NS"], row["MP_EW"]) == (ns_mp, ew_mp)
        for side, mp in (("NS", ns_mp), ("EW", ew_mp)):
            percent = Fraction(mp.lstrip("^")) * 100 / 4
            mark = "^" if mp.startswith("^") else ""
            assert row[f"Percentage_{side}"] == mark + f"{float(percent):.2f}"
        if e.adjusted:
            played = ("Contract", "Declarer", "Result", "Lead", "Score_NS", "Score_EW")
            assert [row[c] for c in played] == ["-"] * 6
            continue
        score = ns_score(e, e.board)
        if e.contract == "PASS":
            assert (row["Contract"], row["Score_NS"], row["Score_EW"]) == ("Pass", "0", "0")
            continue
        assert (row["Contract"], row["Declarer"]) == (e.contract, e.declarer)
        assert row["Result"] == str(e.tricks) and row["Lead"] == (e.lead or "?")
        expected = (str(score), "-") if score > 0 else ("-", str(-score))
        assert (row["Score_NS"], row["Score_EW"]) == expected
    assert (lines[(1, 1)]["Score_NS"], lines[(3, 1)]["Score_EW"]) == ("420", "110")
    store.close()


def test_a_lead_entered_as_the_td_typed_it_is_written_as_a_pbn_card(tmp_path):
    """A lead stored as typed (``h10``, ``10s``) is a PBN card, suit then rank with ``T``
    for the ten; one that is not a card is unknown, ``?`` (PBN 2.1 §5.2)."""
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(EVENT_FILE.read_text("utf-8"), base_dir=EVENT_FILE.parent)
    played = [e for e in results() if e.contract not in (None, "PASS")][:3]
    typed = dict(zip(((e.board, e.table) for e in played), ("h10", "10s", "x9"), strict=True))
    store.record(eid, [replace(e, lead=typed[(e.board, e.table)]) for e in played])
    boards = read_back(write_pbn(store, eid, tmp_path / "event.pbn"))
    leads = {
        (b.board_num, int(r["Table"])): r["Lead"]
        for b in boards
        if "ScoreTable" in b.info
        for r in table_rows(b, "ScoreTable")
    }
    assert sorted(leads.values()) == ["?", "HT", "ST"]
    assert {k: typed[k] for k in leads} == typed
    for key, lead in leads.items():
        assert lead == {"h10": "HT", "10s": "ST", "x9": "?"}[typed[key]]
    store.close()


def test_the_total_score_table_is_the_standings(tmp_path):
    """The TotalScoreTable is the rebuild's standings, NS field first (rank, the room's
    pair number, direction, boards), and its totals are the hand-worked ones of
    report_tiny.py (MPs out of 12 and percentages); names as PBN's ``<names>``: the two
    players ``;`` apart (§5.9)."""
    store, eid, _ = open_event(tmp_path)
    boards = read_back(write_pbn(store, eid, tmp_path / "event.pbn"))
    rows = table_rows(boards[0], "TotalScoreTable")
    hand = [
        (place, label.split()[0], label.split()[1], names, percent, points.split(" / ")[0])
        for place, label, names, percent, points in NS_PLACES + EW_PLACES
    ]
    got = [
        (
            r["Rank"],
            r["Direction"],
            r["PairId"],
            unquote(r["Names"]).replace(";", " & "),
            r["TotalPercentage"],
            r["TotalMP"],
        )
        for r in rows
    ]
    assert got == hand
    view = rebuild(store, eid)["A"]
    standings = [(d, s) for d in ("NS", "EW") for s in view.standings[d]]
    assert len(standings) == len(rows)
    for (direction, s), r in zip(standings, rows, strict=True):
        number = s.total.pair.number - (TABLES if direction == "EW" else 0)
        assert (r["Direction"], r["PairId"], r["Rank"]) == (
            direction,
            str(number),
            str(s.placed.place),
        )
        assert Fraction(r["TotalMP"]) == s.total.points
        assert abs(Fraction(r["TotalPercentage"]) - s.total.total) <= Fraction(1, 200)
        assert r["NrBoards"] == str(s.total.boards) == "3"
    store.close()


def test_cross_imps_line_by_line_and_in_total(tmp_path):
    """At cross-IMPs each line's IMPs are the IMP scale (Law 78B) of its score against each
    other real result on the board, averaged over those comparisons; the 60/40 is +3/-3
    (Law 86A: 60 % is average-plus), marked ``^``. Totals: the sum of a pair's IMPs, and
    the rebuild's standings."""
    store, eid, _ = open_event(tmp_path, "ximp")
    boards = read_back(write_pbn(store, eid, tmp_path / "event.pbn"))
    assert boards[0].info["Scoring"] == "IMP"
    lines = {(b.board_num, int(r["Table"])): r for b in boards for r in table_rows(b, "ScoreTable")}
    totals: dict[tuple[str, int], Fraction] = {}
    live = store.live_results(eid)
    for e in live:
        row = lines[(e.board, e.table)]
        if e.adjusted:
            assert (row["IMP_NS"], row["IMP_EW"]) == ("^3", "^-3")
            ns = Fraction(3)
        else:
            others = [o for o in live if o.board == e.board and not o.adjusted and o is not e]
            mine = ns_score(e, e.board)
            ns = Fraction(sum(imps(mine - ns_score(o, o.board)) for o in others), len(others))
            assert abs(Fraction(row["IMP_NS"]) - ns) <= Fraction(1, 200), (e, row)
            assert abs(Fraction(row["IMP_EW"]) + ns) <= Fraction(1, 200), (e, row)
        ew = -3 if e.adjusted else -ns
        totals[("NS", e.ns_pair)] = totals.get(("NS", e.ns_pair), Fraction(0)) + ns
        totals[("EW", e.ew_pair - TABLES)] = totals.get(("EW", e.ew_pair - TABLES), 0) + ew
    assert lines[(1, 2)]["IMP_NS"] == "-10.5"  # -50 against +420 (-10) and +450 (-11)
    rows = table_rows(boards[0], "TotalScoreTable")
    for r in rows:
        total = totals[(r["Direction"], int(r["PairId"]))]
        assert r["TotalIMP"] == f"{float(total):.2f}", r
    view = rebuild(store, eid)["A"]
    standings = [(d, s) for d in ("NS", "EW") for s in view.standings[d]]
    for (direction, s), r in zip(standings, rows, strict=True):
        number = s.total.pair.number - (TABLES if direction == "EW" else 0)
        assert (r["Direction"], r["PairId"], r["Rank"]) == (
            direction,
            str(number),
            str(s.placed.place),
        )
        assert abs(Fraction(r["TotalIMP"]) - s.total.total) <= Fraction(1, 200)
    store.close()


def test_the_text_follows_the_table_format():
    """PBN 2.1 §5.2: each column's minimum width and alignment in the tag value, cells
    padded to it; §3.2: a quote in a string token escaped; every mandatory tag of §3.4 in
    its order, ``?`` where nothing is known."""
    game = Game(
        (("Board", "7"), ("Event", 'The "Spring" pairs')),
        (
            Table(
                "TotalScoreTable",
                (Column("Rank"), Column("Names", Align.LEFT)),
                (("1", '"Ann;Bo"'), ("12", '"C;D"')),
            ),
        ),
    )
    lines = pbn_text([game]).split("\r\n")
    assert lines[4] == '[Event "The \\"Spring\\" pairs"]'
    assert lines[5:8] == ['[Site "?"]', '[Date "?"]', '[Board "7"]']
    assert lines[19] == '[TotalScoreTable "Rank\\2R;Names\\8L"]'
    assert lines[20:22] == [' 1 "Ann;Bo"', '12 "C;D"   ']
    assert lines[22:] == ["", ""]


TEAMS_MOVEMENT = """\
# kind: teams
# winners: 1
# copies: 2
# matches: 1+2, 3+4
section,table,round,ns_pair,ew_pair,low_board,high_board
A,1,1,1,4,1,3
A,2,1,4,1,1,3
A,3,1,2,3,1,3
A,4,1,3,2,1,3
"""
TEAMS_EVENT = """schema_version = 1
[event]
name = "Club teams"
[rules]
scoring = "teams"
vp_scale = "wbf_continuous_20"
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = "teams.csv"
""" + "".join(
    f'[[sessions.sections.teams]]\nnumber = {n}\nname = "{name}"\n'
    for n, name in {1: "Lund", 2: "Berg", 3: "Ek", 4: "Holm"}.items()
)
MATCH_PARTNER = {1: 2, 2: 1, 3: 4, 4: 3}  # open room and closed room of each match


def test_a_team_match_line_by_line_and_the_vp_ranking(tmp_path):
    """Teams: each line's IMPs are the IMP scale (Law 78B) of its NS score against the
    other room's, on the same board of the match; a board one room has no score for (an
    artificial A+/A-) is irrelevant on its lines, ``-`` (PBN 2.1 §5.2), and in the match it
    is worth its assigned IMPs (Law 86A: +3 to the side given A+, [RULINGS] #29). The
    TotalScoreTable is the rebuild's VP ranking, with each team's net IMPs summed here."""
    (tmp_path / "teams.csv").write_text(TEAMS_MOVEMENT, "utf-8")
    store = Store.open(f"sqlite:///{tmp_path / 'teams.db'}")
    eid = store.create_event(TEAMS_EVENT, base_dir=tmp_path)
    e = ResultEntry
    store.record(
        eid,
        [
            e("A", 1, 1, 1, 1, 4, "4S", "N", tricks=10),
            e("A", 2, 1, 1, 4, 1, "4S", "N", tricks=9),
            e("A", 3, 1, 1, 2, 3, "3NT", "S", tricks=9),
            e("A", 4, 1, 1, 3, 2, "2H", "E", tricks=8),
            e("A", 1, 1, 2, 1, 4, "3NT", "N", tricks=9),
            e("A", 2, 1, 2, 4, 1, "3NT", "N", tricks=9),
            e("A", 3, 1, 2, 2, 3, "1NT", "N", tricks=7),
            e("A", 4, 1, 2, 3, 2, "PASS", None),
            e("A", 1, 1, 3, 1, 4, "4H", "E", tricks=10),
            e("A", 2, 1, 3, 4, 1, "4H", "E", tricks=9),
            e("A", 3, 1, 3, 2, 3, adjusted="A+/A-"),
            e("A", 4, 1, 3, 3, 2, "3NT", "W", tricks=9),
        ],
    )
    boards = read_back(write_pbn(store, eid, tmp_path / "teams.pbn"))
    assert [b.board_num for b in boards] == [1, 2, 3]
    assert boards[0].info["Competition"] == "Teams"
    live = {(x.table, x.board): x for x in store.live_results(eid)}
    net = {team: 0 for team in (1, 2, 3, 4)}
    for b in boards:
        for row in table_rows(b, "ScoreTable"):
            mine = live[(int(row["Table"]), b.board_num)]
            other = live[(MATCH_PARTNER[mine.table], b.board_num)]
            assert (row["PairId_NS"], row["PairId_EW"]) == (str(mine.ns_pair), str(mine.ew_pair))
            if mine.adjusted or other.adjusted:
                assert (row["IMP_NS"], row["IMP_EW"]) == ("-", "-")
                continue
            won = imps(ns_score(mine, b.board_num) - ns_score(other, b.board_num))
            assert (row["IMP_NS"], row["IMP_EW"]) == (str(won), str(-won))
            net[mine.ns_pair] += won
    assert net == {1: 10 + 0 - 12, 2: 11 + 3, 3: -14, 4: 2}  # 470, 510 and 720 apart: 10, 11, 12
    net[2], net[3] = net[2] + 3, net[3] - 3  # board 3: A+ to team 2 (NS at table 3), A- to 3
    rows = table_rows(boards[0], "TotalScoreTable")
    ranked = rebuild(store, eid)["A"].team_standings
    assert [r["PairId"] for r in rows] == [str(ts.record.team) for ts in ranked]
    for r, ts in zip(rows, ranked, strict=True):
        team = int(r["PairId"])
        assert r["Rank"] == str(ts.placed.place)
        assert r["TotalIMP"] == f"{net[team]:.2f}"
        assert abs(Fraction(r["TotalVP"]) - Fraction(ts.record.vp)) <= Fraction(1, 200)
        assert unquote(r["Names"]) == {1: "Lund", 2: "Berg", 3: "Ek", 4: "Holm"}[team]
    store.close()


def test_a_session_without_a_date_is_dated_the_day_it_was_played(tmp_path):
    """PBN 2.1 §3.4.3 Date: the day the game was played. An event file may leave the
    session's date out; the export then dates it by its first stored result (as the USEBIO
    export does), never "????.??.??" for a session that was played."""
    text = EVENT_FILE.read_text("utf-8").replace("date = 2026-12-01\n", "")
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(text, base_dir=tmp_path)
    store.record(eid, results())
    day = min(r.received_at for r in store.live_results(eid)).date()
    path = write_pbn(store, eid, tmp_path / "event.pbn")
    store.close()
    dates = {b.info["Date"] for b in read_back(path)}
    assert dates == {day.strftime("%Y.%m.%d")}
