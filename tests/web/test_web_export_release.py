"""The results pages, issue [MENDS] #25:

- their own words in Czech and Polish (before: English for both);
- the overall ranking's rows link to each pair's card in its own section;
- `bridgehub event export --html DIR` during the session follows the live pages' release
  rules (only the boards every table has played, no ranking before the final one),
  unless asked for everything (`--all`).

The room: tests/web_results_room.py's barometer, 2 tables, 3 rounds of one board (board r
in round r at both tables), with the rankings shown every round (``hide = 0``).
"""

from __future__ import annotations

from pathlib import Path

import browser
import pytest
from click.testing import CliRunner
from web_results_room import SEATING, create_barometer

from hub.cli.main import cli
from hub.report.build import build_report
from hub.result_screen.state import ScreenState, SectionFeed
from hub.store.store import ResultEntry, Store
from hub.web_results.live_view import live_view
from hub.web_results.pages import index_page
from hub.web_results.web_words import WEB_WORDS

# words that read the same in a language as in English
SAME = {"par", "no_double_dummy", "live"}


@pytest.mark.parametrize("language", ["cs", "pl", "sv"])
def test_the_pages_words_exist_in_every_language_of_the_event_file(language: str):
    """Every key English has, in the language's own words (placeholders kept)."""
    en, mine = WEB_WORDS["en"], WEB_WORDS[language]
    assert set(mine) == set(en)
    for key, text in en.items():
        for slot in ("{round}", "{rounds}", "{pair}"):
            assert (slot in text) == (slot in mine[key]), (language, key)
        if key not in SAME | ({"live"} if language != "sv" else set()):
            assert mine[key] != text or not text, (language, key)


def _record(store: Store, eid: int, board: int, tables: tuple[int, ...]) -> None:
    store.record(
        eid,
        [
            ResultEntry("A", t, rnd, board, ns, ew, "4S", "N", tricks=10, entered_by="TD")
            for t, rnd, ns, ew in SEATING[board]
            if t in tables
        ],
    )


def _export(tmp_path: Path, folder: str, *more: str) -> Path:
    out = tmp_path / folder
    db = f"sqlite:///{tmp_path / 'event.db'}"
    result = CliRunner().invoke(
        cli, ["event", "export", "--db", db, "--event", "1", "--html", str(out), *more]
    )
    assert result.exit_code == 0, result.output
    return out


def test_an_export_during_the_session_shows_what_the_live_pages_show(tmp_path: Path):
    """Board 1 played at both tables, board 2 at table 1 only: the export has board 1's
    traveller and not board 2's, no ranking yet (its note says why), and no card line of
    board 2; `--all` has both boards and the ranking. Once every board is played the
    export is the final one."""
    create_barometer(tmp_path, hide=0)
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    try:
        _record(store, 1, 1, (1, 2))
        _record(store, 1, 2, (1,))
        early = _export(tmp_path, "early")
        everything = _export(tmp_path, "all", "--all")
        _record(store, 1, 2, (2,))
        _record(store, 1, 3, (1, 2))
        final = _export(tmp_path, "final")
    finally:
        store.close()
    index = (early / "index.html").read_text("utf-8")
    assert (early / "board-A-1.html").exists() and not (early / "board-A-2.html").exists()
    assert WEB_WORDS["en"]["export_during"] in index
    assert 'class="rank"' not in index
    card = (early / "card-A-1.html").read_text("utf-8")
    assert "board-A-2.html" not in card
    assert (everything / "board-A-2.html").exists()
    assert 'class="rank"' in (everything / "index.html").read_text("utf-8")
    final_index = (final / "index.html").read_text("utf-8")
    assert 'class="rank"' in final_index and WEB_WORDS["en"]["final"] in final_index
    assert WEB_WORDS["en"]["export_during"] not in final_index


def test_the_overall_ranking_links_each_row_to_its_own_sections_card(tmp_path: Path):
    """Two sections of one barometer, both finished; the overall ranking (the live pages',
    from the published standings) links B's pair 1 to card-B-1.html and A's pair 1 to
    card-A-1.html, though both are pair 1."""
    create_barometer(tmp_path, hide=0, sections="AB")
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    try:
        for board in (1, 2, 3):
            _record(store, 1, board, (1, 2))
            store.record(
                1,
                [
                    ResultEntry("B", t, rnd, board, ns, ew, "3NT", "N", tricks=9)
                    for t, rnd, ns, ew in SEATING[board]
                ],
            )
        report = build_report(store, 1)
    finally:
        store.close()

    def feed(letter: str) -> SectionFeed:
        rows = [
            {"pair": 1, "label": "1", "rank": "1", "total": "60", "text": "60.00"},
            {"pair": 4, "label": "4", "rank": "2", "total": "40", "text": "40.00"},
        ]
        return SectionFeed(letter, 3, 3, "%", "pairs", 3, rows=rows, final=True)

    state = ScreenState("Barometer night", {"A": feed("A"), "B": feed("B")})
    view = live_view(state, report, {"A": True, "B": True}, 1)
    assert view.overall is not None
    page = index_page(view)
    overall = page[page.index('id="ranking-overall"') :]
    assert '<a href="card-A-1.html">A1</a>' in overall
    assert '<a href="card-B-1.html">B1</a>' in overall


@pytest.mark.slow
def test_a_czech_export_during_the_session_says_so_in_czech(tmp_path: Path):
    create_barometer(tmp_path, hide=0)
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    try:
        _record(store, 1, 1, (1, 2))
    finally:
        store.close()
    from hub.web_results.export import export_html

    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    try:
        (index, *_) = export_html(store, 1, tmp_path / "cs", language="cs")
    finally:
        store.close()
    assert WEB_WORDS["cs"]["export_during"] in index.read_text("utf-8")


@browser.NEEDS
def test_a_polish_export_in_a_browser_reads_polish_and_hides_the_board_in_play(tmp_path: Path):
    """Headless chromium opens the exported pages as files: the index reads the Polish
    note, links board 1 and not board 2 (still in play), and board 1's page opens."""
    from selenium.webdriver.common.by import By

    from hub.web_results.export import export_html

    create_barometer(tmp_path, hide=0)
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    try:
        _record(store, 1, 1, (1, 2))
        _record(store, 1, 2, (1,))
        (index, *_) = export_html(store, 1, tmp_path / "pl", language="pl")
    finally:
        store.close()
    with browser.chromium(window=None, script_errors=False) as driver:
        driver.get(index.as_uri())
        body = browser.body_text(driver)
        assert " ".join(WEB_WORDS["pl"]["export_during"].split()) in " ".join(body.split())
        links = [a.get_attribute("href") or "" for a in driver.find_elements(By.CSS_SELECTOR, "a")]
        assert any(x.endswith("board-A-1.html") for x in links)
        assert not any(x.endswith("board-A-2.html") for x in links)
        driver.get((index.parent / "board-A-1.html").as_uri())
        assert "4S" in browser.body_text(driver).replace("♠", "S")
