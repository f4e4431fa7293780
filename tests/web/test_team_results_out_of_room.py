"""[MENDS] #25 (TD trial G10, G9): team results out of the room carry the matches. The PDF
report, the results pages (exported and live) and ``bridgehub event standings`` list every
round's matches ("Round 1: 1 Hawks 6 – 12 2 Foxes, 5.61 – 14.39") and byes, a card per team
with each round's opponent, IMPs and VPs, a cross-table, and each team traveller line's
IMPs.

The evening is ``tests/team_results_room.py``: the NS scores worked by Law 77 there, the
IMPs here by the WBF IMP table and the VPs by the WBF continuous formula, never from our
own output.
"""

from __future__ import annotations

import re
import subprocess
import sys
from html.parser import HTMLParser

import pytest
from external_tools import PDFTOTEXT, WEASYPRINT, needs
from team_results_room import NAMES, team_evening, wbf_imps, wbf_vp

from hub.report.build import build_report
from hub.report.model_json import model_from_json, model_to_json
from hub.report.release import released, section_releases
from hub.report.render import html_to_pdf, render_html
from hub.result_screen.state import ScreenState
from hub.store.store import Store
from hub.web_results.export import export_html
from hub.web_results.live_view import live_view
from hub.web_results.pages import index_page

# round → (home, away, [(NS score where home sits NS, NS score where home sits EW), …])
PLAYED = {
    1: [(1, 2, [(420, 170), (-100, 600)]), (3, 4, [(120, 120), (620, -100)])],
    2: [(5, 1, [(110, 110), (630, 600)]), (2, 3, [(-620, 100), (1440, 1440)])],
}
BYES = {1: 5, 2: 4}
BYE_VP = "12.00"  # [rules.teams.bye] fixed 12


def label(team: int) -> str:
    return f"{team} {NAMES[team]}"


def expected_matches() -> list[tuple[int, int, int, int, int, str, str]]:
    """(round, home, away, home IMPs, away IMPs, home VPs, away VPs) by the WBF tables."""
    out = []
    for rnd, matches in PLAYED.items():
        for home, away, boards in matches:
            board_imps = [wbf_imps(ns - ew) for ns, ew in boards]
            won = sum(i for i in board_imps if i > 0)
            lost = -sum(i for i in board_imps if i < 0)
            h, a = wbf_vp(won - lost, len(boards))
            out.append((rnd, home, away, won, lost, f"{h:.2f}", f"{a:.2f}"))
    return out


def expected_totals() -> dict[int, str]:
    totals = dict.fromkeys(NAMES, 0.0)
    for _rnd, home, away, _w, _l, h, a in expected_matches():
        totals[home] += float(h)
        totals[away] += float(a)
    for team in BYES.values():
        totals[team] += float(BYE_VP)
    return {t: f"{v:.2f}" for t, v in totals.items()}


def match_text(m: tuple[int, int, int, int, int, str, str]) -> str:
    rnd, home, away, won, lost, h, a = m
    return f"Round {rnd}: {label(home)} {won} – {lost} {label(away)}, {h} – {a}"


def test_the_reference_is_the_wbf_tables():
    """The worked values the trial quotes: 5 IMPs over 2 boards 13.78 (TD trial B.2); and
    the IMP table's steps (Law 78B: 220-260 is 6, 600-740 is 12, 20-40 is 1)."""
    assert tuple(map(str, wbf_vp(5, 2))) == ("13.78", "6.22")
    assert [wbf_imps(d) for d in (250, 700, 720, 30, 10, -700)] == [6, 12, 12, 1, 0, -12]
    assert expected_matches()[0] == (1, 1, 2, 6, 12, "5.61", "14.39")


@pytest.fixture
def evening(tmp_path):
    url, eid = team_evening(tmp_path)
    store = Store.open(url)
    yield store, eid, url
    store.close()


class Cells(HTMLParser):
    """Every table row of a page as its cells' text, by the table's class."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._table: list[str] = []
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._table.append(dict(attrs).get("class") or "")
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None and self._table:
            self.tables.setdefault(self._table[-1], []).append(self._row)
            self._row = None
        elif tag == "table" and self._table:
            self._table.pop()

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def tables_of(html: str) -> dict[str, list[list[str]]]:
    parser = Cells()
    parser.feed(html)
    return parser.tables


def test_the_exported_index_lists_every_rounds_matches_byes_and_the_cross_table(evening, tmp_path):
    """G10: the index has each match with both teams, the IMPs and the VPs, the round's
    bye with its VPs, and a cross-table of VPs against each opponent in the ranking's
    order (Eagles 34.62 first), each team's total the ranking's."""
    store, eid, _ = evening
    export_html(store, eid, tmp_path / "web")
    tables = tables_of((tmp_path / "web" / "index.html").read_text("utf-8"))
    rows = [r for r in tables["matches"] if r and r[0] != "Match"]
    for rnd, home, away, won, lost, h, a in expected_matches():
        assert any(
            r[1:5] == [label(home), f"{won} – {lost}", label(away), f"{h} – {a}"] for r in rows
        ), (rnd, home, away, rows)
    for _rnd, team in BYES.items():
        assert ["", label(team), "", "bye", BYE_VP] in [r[:5] for r in rows]
    totals = expected_totals()
    order = sorted(NAMES, key=lambda t: -float(totals[t]))
    cross = tables["cross"]
    assert cross[0] == ["Team", *map(str, order), "VPs"]
    by_team = {int(r[0].split()[0]): r for r in cross[1:]}
    assert [int(r[0].split()[0]) for r in cross[1:]] == order
    for _rnd, home, away, _w, _l, h, a in expected_matches():
        assert by_team[home][1 + order.index(away)] == h
        assert by_team[away][1 + order.index(home)] == a
    for team in NAMES:
        assert by_team[team][1 + order.index(team)] == "–"
        assert by_team[team][-1] == totals[team]


def test_each_team_has_a_card_with_every_round(evening, tmp_path):
    """A team's card: each round's opponent, the tables it sat NS and EW at (the line-up
    by table), IMPs won and lost, VPs and the running total; the bye with its VPs; the
    players the store knows. Hawks: 6-12 v Foxes at NS 1/EW 2, then 0-1 v Aces at NS 2/EW 1
    (Aces are at home)."""
    store, eid, _ = evening
    export_html(store, eid, tmp_path / "web")
    index = (tmp_path / "web" / "index.html").read_text("utf-8")
    assert 'href="card-A-1.html"' in index
    page = (tmp_path / "web" / "card-A-1.html").read_text("utf-8")
    assert "Ann Holm, Bo Ek, Cia Lund, Dan Berg" in page
    m = {(x[0], x[1]): x for x in expected_matches()}
    r1, r2 = m[(1, 1)], m[(2, 5)]
    running = f"{float(r1[5]) + float(r2[6]):.2f}"
    rows = [r for r in tables_of(page)["sc"] if r and r[0].isdigit()]
    assert rows == [
        ["1", label(2), "NS 1 · EW 2", str(r1[3]), str(r1[4]), r1[5], r1[5]],
        ["2", label(5), "NS 2 · EW 1", str(r2[4]), str(r2[3]), r2[6], running],
    ]
    bears = [r for r in tables_of((tmp_path / "web" / "card-A-4.html").read_text("utf-8"))["sc"]]
    assert bears[2][:6] == ["2", "bye", "", "", "", BYE_VP]
    assert bears[-1][:2] == ["Total", expected_totals()[4]]


def test_a_team_traveller_shows_each_lines_imps(evening, tmp_path):
    """G9: board 2's lines each carry the IMPs of their NS and EW teams against the match's
    other room: table 1 (Hawks NS) -100 against +600 at table 2: -12 to Hawks, +12 to
    Foxes; table 2 (Foxes NS) the other way round."""
    store, eid, _ = evening
    export_html(store, eid, tmp_path / "web")
    rows = tables_of((tmp_path / "web" / "board-A-2.html").read_text("utf-8"))["trav"]
    assert rows[0][-2:] == ["IMPs NS", "IMPs EW"]
    by_table = {r[0]: r[-2:] for r in rows[1:]}
    hawks = wbf_imps(-100 - 600)
    assert by_table["1"] == [f"{hawks:+d}", f"{-hawks:+d}"]
    assert by_table["2"] == [f"{-hawks:+d}", f"{hawks:+d}"]
    eagles = wbf_imps(620 - -100)
    assert by_table["3"] == [f"{eagles:+d}", f"{-eagles:+d}"]


@needs(WEASYPRINT, PDFTOTEXT)
def test_the_pdf_report_has_the_match_list_cross_table_and_team_cards(evening, tmp_path):
    """The printed report: after the ranking, the cross-table and the matches round by
    round with their byes; the travellers with each line's IMPs; a card per team."""
    store, eid, _ = evening
    pdf = html_to_pdf(render_html(build_report(store, eid)), tmp_path / "report.pdf")
    done = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    text = re.sub(r"[ \t]+", " ", done.stdout)
    assert text.index("Cross-table") < text.index("Matches") < text.index("Travellers")
    matches = text.split("Matches")[1].split("Travellers")[0]
    for _rnd, home, away, won, lost, h, a in expected_matches():
        line = rf"{label(home)} {won} ?– ?{lost} {label(away)} {h} – {a}"
        assert re.search(line, matches), line
    assert f"{label(5)} bye {BYE_VP}" in matches
    travellers = text.split("Travellers")[1].split("Team cards")[0]
    assert "IMPs NS IMPs EW" in travellers
    cards = text.split("Team cards")[1]
    totals = expected_totals()
    assert f"3 Eagles Place 1 · {totals[3]} VPs" in cards
    assert f"1 {label(2)} NS 1 · EW 2 6 12 5.61 5.61" in cards  # Hawks' round 1


@pytest.mark.slow
def test_event_standings_prints_a_header_the_imps_and_the_matches(evening):
    """G10: ``bridgehub event standings`` has a header, VPs and IMPs won, lost and net,
    then "Round 1: 1 Hawks 6 – 12 2 Foxes, 5.61 – 14.39" for every match and the byes."""
    _store, eid, url = evening
    done = subprocess.run(
        [sys.executable, "-m", "hub.cli", "event", "standings", "--db", url, "--event", str(eid)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Section A"
    assert lines[1].split() == ["place", "team", "name", "VPs", "IMPs+", "IMPs-", "net", "matches"]
    totals = expected_totals()
    eagles = lines[2].split()
    won = sum(x[3] if x[1] == 3 else x[4] for x in expected_matches() if 3 in x[1:3])
    assert eagles == ["1", "3", "Eagles", totals[3], str(won), "0", f"+{won}", "2"]
    for m in expected_matches():
        assert f"  {match_text(m)}" in lines
    for rnd, team in BYES.items():
        assert f"  Round {rnd}: {label(team)} bye, {BYE_VP}" in lines


def test_standings_txt_lists_the_matches_after_the_ranking(evening):
    """The evening's standings.txt (written at the session's end) has the match list."""
    from hub.report.final import standings_text

    store, eid, _ = evening
    text = standings_text(build_report(store, eid))
    assert text.index("Ranking") < text.index("Matches")
    for m in expected_matches():
        assert f"  {match_text(m)}" in text.splitlines()


def test_live_pages_show_the_matches_whose_boards_are_released(tmp_path):
    """While round 2 is at the tables only round 1's matches (every board in from both
    rooms), its bye and the cross-table of those go to the live pages; no places or
    totals (the published standings bring those); the JSON the hub sends reads back."""
    url, eid = team_evening(tmp_path, played=8)  # round 1's eight results
    store = Store.open(url)
    try:
        model = build_report(store, eid, double_dummy=False)
        shown = released(model, section_releases(store, eid))
    finally:
        store.close()
    s = model_from_json(model_to_json(shown)).sections[0]
    assert [(m.round, m.home, m.away) for m in s.matches] == [(1, 1, 2), (1, 3, 4)]
    assert [(b.round, b.team) for b in s.byes] == [(1, 5)]
    hawks = next(c for c in s.team_cards if c.team == 1)
    assert [r.round for r in hawks.rows] == [1] and hawks.total == "" and hawks.rank == ""
    assert s.cross_table is not None
    cross = {r.team: r for r in s.cross_table.rows}
    assert cross[1].cells[s.cross_table.teams.index(2)] == expected_matches()[0][5]
    assert model_from_json(model_to_json(model)) == model  # the full model too
    page = index_page(live_view(ScreenState(), model_from_json(model_to_json(shown)), {}, 1))
    rows = [r[1:5] for r in tables_of(page)["matches"] if r and r[0] != "Match"]
    won, lost, h, a = expected_matches()[0][3:]
    assert rows[0] == [label(1), f"{won} – {lost}", label(2), f"{h} – {a}"]
    assert rows[2] == [label(5), "", "bye", BYE_VP]
    assert len(rows) == 3  # round 1's two matches and its bye; nothing of round 2


SEGMENTED = """schema_version = 1
[event]
name = "Four teams in halves"
[rules]
scoring = "teams"
vp_scale = "wbf_continuous_20"
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = { kind = "teams", teams = 4, boards_per_round = 2, segments = 2 }
teams = [
  { number = 1, name = "Lions" },
  { number = 2, name = "Bears" },
  { number = 3, name = "Owls" },
  { number = 4, name = "Foxes" },
]
"""


def test_a_match_in_two_halves_is_one_line_over_both_halves(tmp_path):
    """Seed 004's halves with the half-time switch: each match is listed once, over its
    four boards, its IMPs and VPs on the whole match (the WBF scale for 4 boards); each
    board's IMPs from the room where the home team sat NS against the one where it sat EW,
    found here by the teams alone (not the hub's table plan); each team's card adds up to
    its total in the ranking."""
    from hub.store.store import ResultEntry

    store = Store.open(f"sqlite:///{tmp_path / 'halves.db'}")
    eid = store.create_event(SEGMENTED)
    movement = store.movement(eid, "A")
    scores: dict[tuple[int, int, int], int] = {}  # (NS team, EW team, board) → NS score
    entries = []
    for row in movement.rows:
        for b in row.boards:
            score = ((row.table * 7 + row.round * 3 + b * 11) % 13) * 50 - 200
            scores[(row.ns_pair, row.ew_pair, b)] = score
            entries.append(
                ResultEntry("A", row.table, row.round, b, row.ns_pair, row.ew_pair, score_ns=score)
            )
    store.record(eid, entries)
    (s,) = build_report(store, eid).sections
    store.close()
    assert len(s.matches) == 6  # a round robin of 4 teams: 3 rounds of 2 matches
    for m in s.matches:
        boards = [b.board for b in m.boards]
        assert len(boards) == 4, m
        nets = [wbf_imps(scores[(m.home, m.away, b)] - scores[(m.away, m.home, b)]) for b in boards]
        won, lost = sum(i for i in nets if i > 0), -sum(i for i in nets if i < 0)
        h, a = wbf_vp(won - lost, 4)
        assert (m.home_imps, m.away_imps, m.home_vp, m.away_vp) == (
            str(won),
            str(lost),
            f"{h:.2f}",
            f"{a:.2f}",
        ), m
    ranking = {r.pair: r.total for r in s.rankings[0].rows}
    for card in s.team_cards:
        assert card.other_vp == "" and len(card.rows) == 3
        assert f"{sum(float(r.vp) for r in card.rows):.2f}" == ranking[card.team] == card.total
