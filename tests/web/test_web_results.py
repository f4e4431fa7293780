"""The results pages without a browser (issue 14 [PUBLISH]; docs/web-results.md): one
renderer for the printed report, the live pages and the static export; the static export's
files and links; what the pages may show while the session runs (boards finished by every
table, the rankings and travellers of a barometer's hidden last rounds held back); the hub
API's read-only ``results`` request (docs/api.md); the live server's pages.

Reference values are the tiny evening's, worked by hand in tests/report_tiny.py, and a
deal made by hand (tests/web_results_room.py)."""

from __future__ import annotations

import asyncio
import html
import json
import re
import urllib.error
import urllib.request

import pytest
from report_tiny import EW_PLACES, NS_PLACES, tiny_event
from web_results_room import SEATING, SUIT_DEAL, create_barometer
from web_terminal_hub import web_terminal_hub
from websockets.asyncio.client import connect

from hub.api.results_requests import ResultRequests
from hub.report.build import build_report
from hub.report.hands import hands_of
from hub.report.release import released, section_releases
from hub.report.render import render_html
from hub.store.store import ResultEntry, Store
from hub.web_results.export import export_html
from hub.web_results.pages import index_page
from hub.web_results.server import ResultsServer

WAIT_S = 10.0


def text_of(page: str) -> str:
    """The page's text as a reader sees it: tags out (a red suit's span joins its card),
    entities read, spaces squeezed."""
    page = re.sub(r"</?span[^>]*>", "", page)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page))).strip()


def block(page: str, start: str, end: str = "</table>") -> str:
    """The first ``start``…``end`` of the page."""
    a = page.index(start)
    return page[a : page.index(end, a) + len(end)]


@pytest.fixture
def tiny(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'e.db'}")
    yield store, tiny_event(store)
    store.close()


def test_a_pbn_deal_reads_clockwise_from_its_first_seat():
    """PBN 2.1 §3.4.11: ``E:`` gives East's hand first, then South, West, North; a hand is
    spades.hearts.diamonds.clubs, "-" on the page for a void."""
    deal = "E:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    hands = hands_of(deal)
    assert hands is not None
    assert hands.east.spades == "AKQJT98765432"
    assert hands.south.hearts == "AKQJT98765432"
    assert hands.west.diamonds == "AKQJT98765432"
    assert hands.north.clubs == "AKQJT98765432"
    assert hands.north.suits()[0] == ("♠", "-")
    assert hands_of("N:AKQ") is None and hands_of(None) is None


def test_the_export_writes_index_boards_and_cards_with_links_that_resolve(tiny, tmp_path):
    """The static export: index.html, one page per board, one per pair (3 boards, 6 pairs),
    its style sheet beside them; every link and reference is a file it wrote (relative),
    nothing is fetched from elsewhere (no http:, https: or //)."""
    store, eid = tiny
    out = tmp_path / "site"
    written = export_html(store, eid, out)
    names = sorted(p.name for p in written)
    assert written[0].name == "index.html"
    assert names == sorted(
        ["index.html", "web.css"]
        + [f"board-A-{b}.html" for b in (1, 2, 3)]
        + [f"card-A-{p}.html" for p in range(1, 7)]
    )
    for path in written:
        page = path.read_text("utf-8")
        assert "http:" not in page and "https:" not in page, path.name
        assert not re.search(r"""(?:href|src)=["']//""", page), path.name
        assert "<script" not in page, f"{path.name}: an exported page has no live script"
        for ref in re.findall(r"""(?:href|src)=["']([^"']+)["']""", page):
            assert (out / ref).is_file(), f"{path.name} links to {ref}, which is not written"
    assert "url(" not in (out / "web.css").read_text("utf-8")


def test_the_exported_ranking_traveller_and_card_are_the_evening_worked_by_hand(tiny, tmp_path):
    """The index has both fields' places (tests/report_tiny.py), board 1's page its three
    results and NS 1's card its three boards with the matchpoints worked by hand."""
    store, eid = tiny
    export_html(store, eid, tmp_path)
    index = text_of((tmp_path / "index.html").read_text("utf-8"))
    for rank, label, names, percent, points in NS_PLACES + EW_PLACES:
        assert f"{rank} {label} {names} {percent} {points}" in index
    board = text_of((tmp_path / "board-A-1.html").read_text("utf-8"))
    assert "1 NS 1 EW 1 4♠ N = ♥A 420 2 2" in board  # T1: 420, 2 MPs each side
    assert "3 NS 3 EW 2 4♠ N +1 450 4 0" in board
    assert "2 NS 2 EW 3 3NT S -1 50 0 4" in board
    card = text_of((tmp_path / "card-A-1.html").read_text("utf-8"))
    assert "1 1 EW 1 Greta Ivarsson & Hans Jakobsson NS 4♠ N = 420 2" in card
    assert "2 2 EW 3 Karin Månsson & Lars Nyström NS 3NT N = 600 3" in card
    assert "3 3 EW 2 Ida Karlsson & Jan Lind NS 2♠ W = -110 0.5" in card
    assert "Total 5.5 / 12 45.83" in card


def test_the_printed_report_and_the_pages_render_the_same_tables(tiny, tmp_path):
    """One renderer: the report's ranking, board 1's traveller and NS 1's card are the same
    HTML as the exported pages' (the same partials, hub/report/templates/_*.html)."""
    store, eid = tiny
    report = render_html(build_report(store, eid))
    export_html(store, eid, tmp_path)
    index = (tmp_path / "index.html").read_text("utf-8")
    unlinked = re.sub(r'<a href="card-A-\d+\.html">([^<]*)</a>', r"\1", index)
    assert block(report, '<table class="rank">') == block(unlinked, '<table class="rank">')
    board = (tmp_path / "board-A-1.html").read_text("utf-8")
    assert block(report, '<table class="trav">') == block(board, '<table class="trav">')
    card = (tmp_path / "card-A-1.html").read_text("utf-8")
    unlinked = re.sub(r'<a href="board-A-\d+\.html">([^<]*)</a>', r"\1", card)
    assert block(report, '<div class="card">') == block(unlinked, '<div class="card">')


def _record(
    store: Store, eid: int, board: int, tables: tuple[int, ...], section: str = "A"
) -> None:
    entries = [
        ResultEntry(section, t, rnd, board, ns, ew, "4S", "N", tricks=10, entered_by="TD")
        for t, rnd, ns, ew in SEATING[board]
        if t in tables
    ]
    store.record(eid, entries)


def test_a_traveller_is_shown_when_every_table_has_played_the_board(tmp_path):
    """A board still in play at another table is not shown; once both tables of the
    barometer have played it, its traveller and the cards' lines of it are."""
    eid = create_barometer(tmp_path, hide=0)
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    try:
        _record(store, eid, 1, (1,))
        assert section_releases(store, eid)["A"].boards == frozenset()
        model = released(build_report(store, eid), section_releases(store, eid))
        assert model.sections[0].travellers == ()
        assert all(not c.rows for c in model.sections[0].cards)
        assert model.sections[0].rankings == ()  # the pages take the published standings
        _record(store, eid, 1, (2,))
        rel = section_releases(store, eid)["A"]
        assert rel.boards == frozenset({1}) and not rel.complete
        model = released(build_report(store, eid), section_releases(store, eid))
        assert [b.board for b in model.sections[0].travellers] == [1]
        assert model.sections[0].travellers[0].hands == hands_of(SUIT_DEAL)
    finally:
        store.close()


def test_a_board_still_in_play_in_another_section_is_not_shown_in_either(tmp_path):
    """Sections of a session play the same deals (one set of hand records): board 1,
    finished at both tables of section A but in play in section B, would show B's players
    the deal; it is shown in neither until B has played it too."""
    eid = create_barometer(tmp_path, hide=0, sections="AB")
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    try:
        _record(store, eid, 1, (1, 2), "A")
        _record(store, eid, 1, (1,), "B")
        rel = section_releases(store, eid)
        assert rel["A"].boards == rel["B"].boards == frozenset()
        model = released(build_report(store, eid), rel)
        assert all(s.travellers == () for s in model.sections)
        _record(store, eid, 1, (2,), "B")
        rel = section_releases(store, eid)
        assert rel["A"].boards == rel["B"].boards == frozenset({1})
        for board in (2, 3):
            _record(store, eid, board, (1, 2), "A")
        _publish(store, eid, "A", 3)  # A's final standings: B still plays boards 2 and 3
        rel = section_releases(store, eid)
        assert rel["A"].boards == frozenset({1}) and not rel["A"].played
        assert not rel["A"].complete, "B has not played boards 2 and 3: nothing final"
        for board in (2, 3):
            _record(store, eid, board, (1, 2), "B")
        _publish(store, eid, "B", 3)
        rel = section_releases(store, eid)
        assert rel["A"].complete and rel["B"].complete and rel["A"].played
        assert rel["A"].boards == frozenset({1, 2, 3})
    finally:
        store.close()


def _publish(store: Store, eid: int, section: str, rnd: int) -> None:
    """The hub published the standings after round ``rnd`` (as hub/live/rounds/publication.py
    records them: audit ``standings_published``)."""
    detail = {"section": section, "round": rnd, "provisional": []}
    store.audit(eid, "hub", "standings_published", detail)


def test_a_barometers_hidden_rounds_keep_their_travellers_until_the_end(tmp_path):
    """TD trial F13: with the last two rounds' rankings hidden, board 2 (round 2), played
    at both tables, stays hidden; with every board in it still does, until the final
    standings are published (the TD may hold them for a suspicious score, decisions D12):
    then everything is shown."""
    eid = create_barometer(tmp_path, hide=2)
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    try:
        _record(store, eid, 1, (1, 2))
        _record(store, eid, 2, (1, 2))
        rel = section_releases(store, eid)["A"]
        assert rel.boards == frozenset({1}) and not rel.complete
        model = released(build_report(store, eid), {"A": rel})
        for card in model.sections[0].cards:
            assert [r.board for r in card.rows] == [1], card.label
            assert card.rank == card.total == ""
        _record(store, eid, 3, (1, 2))
        _publish(store, eid, "A", 2)  # hidden: round 2 of 3, the last two hidden
        rel = section_releases(store, eid)["A"]
        assert rel.boards == frozenset({1}) and rel.played and not rel.complete
        model = released(build_report(store, eid), {"A": rel})
        assert [b.board for b in model.sections[0].travellers] == [1]
        assert all(c.rank == c.total == "" for c in model.sections[0].cards)
        _publish(store, eid, "A", 3)  # the final standings
        rel = section_releases(store, eid)["A"]
        assert rel.boards == frozenset({1, 2, 3}) and rel.complete
    finally:
        store.close()


async def _api(url: str, *messages: dict) -> list[dict]:
    """Say hello, take the snapshot, send ``messages``; their replies."""
    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "version": 1}))
        assert json.loads(await ws.recv())["type"] == "snapshot"
        out = []
        for m in messages:
            await ws.send(json.dumps(m))
            while True:
                reply = json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))
                if reply.get("type") == "reply":
                    out.append(reply)
                    break
        return out


def test_the_api_answers_the_results_request_without_a_session(tmp_path):
    """docs/api.md "Read-only requests": ``results`` needs no session (the feed's rule
    applies), answers the released report; an unknown request is refused by name; a hub
    without the request says so."""
    create_barometer(tmp_path, hide=2)

    async def scenario() -> None:
        async with web_terminal_hub(tmp_path, 2, api=("127.0.0.1", 0)) as room:
            assert room.hub.api is not None
            url = f"ws://127.0.0.1:{room.hub.api.port}/v1"
            ask = {"type": "request", "id": "1", "name": "results"}
            if room.hub.api.requests is None:
                (reply,) = await _api(url, ask)
                assert reply == {
                    "type": "reply",
                    "id": "1",
                    "ok": False,
                    "error": "this hub serves no requests",
                }
                room.hub.api.requests = ResultRequests(room.store, room.event_id)
            await _director_enters_board_1(room)
            other = {"type": "request", "id": "2", "name": "travellers_all"}
            bad = {"type": "request", "id": "3", "name": "results", "args": {"board": 1}}
            ok, unknown, wrong = await _api(url, ask, other, bad)
            assert ok["ok"] and ok["complete"] == {"A": False}
            (section,) = ok["report"]["sections"]
            assert [b["board"] for b in section["travellers"]] == [1]
            assert section["travellers"][0]["hands"]["north"]["spades"] == "AKQJT98765432"
            assert unknown["ok"] is False and "travellers_all" in unknown["error"]
            assert wrong["ok"] is False and "board" in wrong["error"]

    asyncio.run(scenario())


async def _director_enters_board_1(room) -> None:
    """4♠ by North made, at both tables of round 1: board 1 is finished."""
    for t in (1, 2):
        await room.command(
            "enter_result",
            section="A",
            table=t,
            round=1,
            board=1,
            contract="4S",
            declarer="N",
            result="=",
        )


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=WAIT_S) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_the_live_server_serves_the_pages_and_tells_open_pages_of_a_new_result(tmp_path):
    """``bridgehub web``'s server: the index with the published ranking, a finished board
    with its hands, a board still in play said to be not shown, no other path; an open
    page's /live socket hears of the next result (a newer version) within the wait."""
    create_barometer(tmp_path, hide=2)

    async def scenario() -> None:
        async with web_terminal_hub(tmp_path, 2, api=("127.0.0.1", 0)) as room:
            assert room.hub.api is not None
            room.hub.api.requests = room.hub.api.requests or ResultRequests(
                room.store, room.event_id
            )
            server = ResultsServer(f"ws://127.0.0.1:{room.hub.api.port}/v1", "127.0.0.1", 0)
            await server.start()
            try:
                async with connect(f"ws://127.0.0.1:{server.port}/live") as page:
                    first = json.loads(await asyncio.wait_for(page.recv(), WAIT_S))
                    await _director_enters_board_1(room)
                    deadline = asyncio.get_running_loop().time() + WAIT_S
                    while (
                        server.link.report is None or not server.link.report.sections[0].travellers
                    ):
                        news = json.loads(await asyncio.wait_for(page.recv(), WAIT_S))
                        assert news["version"] > first["version"]
                        assert asyncio.get_running_loop().time() < deadline, "no news of board 1"
                get = lambda p: asyncio.to_thread(_get, server.url + p)  # noqa: E731
                status, index = await get("")
                assert status == 200 and "After round 1 of 3" in text_of(index)
                status, board = await get("board-A-1.html")
                assert status == 200 and "♠ AKQJT98765432" in text_of(board)
                status, board2 = await get("board-A-2.html")
                assert status == 200 and "not shown yet" in text_of(board2)
                assert '<table class="trav">' not in board2
                status, early = await get("card-A-9.html")  # no card (yet) for a pair 9
                assert status == 200 and "No score card for pair 9 yet" in text_of(early)
                assert '<script src="live.js"' in early  # it comes on the open page
                for path in (
                    "x",
                    "../event.db",
                    "board-A-1.htm",
                    "static/live.js",
                    "card-Q-1.html",
                ):
                    assert (await get(path))[0] == 404, path
                status, css = await get("web.css")
                assert status == 200 and ".red" in css
            finally:
                await server.stop()

    asyncio.run(scenario())


def _published(rows: list[dict], rnd: int, hidden: bool = False) -> dict:
    return {
        "round": rnd,
        "provisional": [],
        "released_by": None,
        "rows": rows,
        "hidden": hidden,
        "final": False,
    }


def _pair(
    pair: int,
    label: str,
    direction: str | None,
    rank: str,
    total: str,
    text: str,
    points: str,
    top: str,
) -> dict:
    return {
        "pair": pair,
        "label": label,
        "direction": direction,
        "name": "",
        "rank": rank,
        "boards": 2,
        "total": total,
        "text": text,
        "points": points,
        "top": top,
    }


def test_the_live_ranking_is_the_published_one_by_field_and_overall():
    """The feed's published rows (docs/api.md snapshot ``published``): a two-winner
    Mitchell's NS and EW fields apart, NS first; a hidden round shows no rows and says
    why; with two sections, one overall ranking by the exact totals (decisions D4: 121/2 =
    60.5 before 181/3 = 60.33 before 60), labelled with the section."""
    from hub.result_screen.state import ScreenState
    from hub.web_results.live_view import live_view

    a_rows = [
        _pair(5, "EW 1", "EW", "1", "121/2", "60.50", "5/2", "4"),
        _pair(1, "NS 1", "NS", "1", "60", "60.00", "3", "4"),
    ]
    b_rows = [_pair(1, "3", None, "1", "181/3", "60.33", "7/2", "6")]
    section = {"round": 2, "rounds": 3, "unit": "%", "kind": "pairs", "clock": None}
    state = ScreenState()
    state.apply(
        {
            "type": "snapshot",
            "seq": 1,
            "state": {
                "event": "Two halls",
                "sections": {
                    "A": {**section, "published": _published(a_rows, 2)},
                    "B": {**section, "published": _published(b_rows, 2)},
                },
            },
        },
        0.0,
    )
    view = live_view(state, None, {}, 7)
    a = view.section("A")
    assert a is not None and a.note == "After round 2 of 3"
    assert [g.title for g in a.rankings] == ["NS", "EW"]
    assert [(r.label, r.total, r.points) for r in a.rankings[1].rows] == [
        ("EW 1", "60.50", "2.5 / 4")
    ]
    assert view.overall is not None
    assert [(r.rank, r.label) for r in view.overall.rows] == [
        ("1", "AEW 1"),
        ("2", "B3"),
        ("3", "ANS 1"),
    ]
    page = index_page(view)
    assert 'data-version="7"' in page and '<script src="live.js"' in page

    state.apply(
        {
            "type": "event",
            "seq": 2,
            "event": "standings",
            "section": "A",
            "round": 3,
            "released_by": None,
            "provisional": [],
            "rows": a_rows,
            "hidden": True,
            "final": False,
        },
        1.0,
    )
    view = live_view(state, None, {}, 8)
    a = view.section("A")
    assert a is not None and a.rankings == () and "hidden" in a.note
    assert view.overall is not None and view.overall.rows == ()
    assert "60.50" not in index_page(view)


def test_bridgehub_web_refuses_a_bad_address_by_name():
    """``bridgehub web --listen`` takes HOST:PORT; ``--hub`` a WebSocket URL."""
    from click.testing import CliRunner

    from hub.cli.web import web

    bad = CliRunner().invoke(web, ["--listen", "8080"])
    assert bad.exit_code == 2 and "HOST:PORT" in bad.output
    bad = CliRunner().invoke(web, ["--hub", "http://127.0.0.1:7170/v1"])
    assert bad.exit_code == 2 and "WebSocket URL" in bad.output


def test_bridgehub_web_refuses_a_hub_url_whose_port_cannot_be():
    """A port past 65535 would fail every try for ever: refused at once, by name."""
    from click.testing import CliRunner

    from hub.cli.web import web

    bad = CliRunner().invoke(web, ["--hub", "ws://127.0.0.1:99999/v1"])
    assert bad.exit_code == 2 and "--hub" in bad.output and "65535" in bad.output


def test_the_link_to_a_hub_that_is_down_or_not_a_hub_says_so_and_keeps_trying():
    """docs/web-results.md: with no hub at the URL, or something else there (its messages
    not JSON), the link records a clear error and tries again; it never dies."""
    from websockets.asyncio.server import serve

    from hub.web_results.hub_link import HubLink

    async def not_a_hub(ws) -> None:
        await ws.recv()
        await ws.send("<html>hello</html>")
        await ws.wait_closed()

    async def scenario() -> None:
        async with serve(not_a_hub, "127.0.0.1", 0) as other:
            port = other.sockets[0].getsockname()[1]
            link = HubLink(f"ws://127.0.0.1:{port}/v1", lambda: None, retry_s=0.05)
            task = asyncio.ensure_future(link.run())
            deadline = asyncio.get_running_loop().time() + WAIT_S
            while "JSON" not in link.error and "Expecting value" not in link.error:
                assert not task.done(), "the link stopped"
                assert asyncio.get_running_loop().time() < deadline, link.error
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.2)  # several more tries
            assert not task.done() and not link.up
            task.cancel()
        link = HubLink(f"ws://127.0.0.1:{port}/v1", lambda: None, retry_s=0.05)
        task = asyncio.ensure_future(link.run())
        deadline = asyncio.get_running_loop().time() + WAIT_S
        while "refused" not in link.error.lower() and "111" not in link.error:
            assert asyncio.get_running_loop().time() < deadline, link.error
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.2)
        assert not task.done() and not link.up
        task.cancel()

    asyncio.run(scenario())


def test_every_text_of_the_event_is_escaped_on_every_page(tiny):
    """The pages are served to the venue network: a name or title typed as HTML
    (``<script>``, an attribute break-out) comes out as text, never as markup (OWASP XSS
    prevention rule 1: escape HTML entity content and attribute values)."""
    from dataclasses import replace

    from hub.web_results.export import export_view
    from hub.web_results.pages import all_pages

    store, eid = tiny
    evil = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
    model = build_report(store, eid)
    s = model.sections[0]
    s = replace(
        s,
        rankings=tuple(
            replace(g, rows=tuple(replace(r, names=evil, label=evil) for r in g.rows))
            for g in s.rankings
        ),
        cards=tuple(
            replace(
                c, names=evil, label=evil, rows=tuple(replace(r, opponents=evil) for r in c.rows)
            )
            for c in s.cards
        ),
        travellers=tuple(
            replace(b, rows=tuple(replace(r, ns=evil, contract=evil) for r in b.rows), par=evil)
            for b in s.travellers
        ),
    )
    model = replace(model, title=evil, subtitle=evil, sections=(s,))
    pages = all_pages(export_view(model))
    assert len(pages) == 1 + 3 + 6
    for name, page in pages.items():
        assert "<script>" not in page and "<img" not in page, name
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page, name


def test_an_export_before_the_end_warns_that_it_shows_everything(tmp_path, caplog):
    """docs/web-results.md: asked for everything (`event export --html DIR --all`) while
    boards are still to be played, the TD is warned before uploading it (without --all the
    export follows the live pages' release rules: tests/web/test_web_export_release.py)."""
    eid = create_barometer(tmp_path, hide=2)
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    try:
        _record(store, eid, 1, (1, 2))
        with caplog.at_level("WARNING", logger="hub.web_results.export"):
            export_html(store, eid, tmp_path / "early", everything=True)
        assert "section A is still in play" in caplog.text
        caplog.clear()
        for board in (2, 3):
            _record(store, eid, board, (1, 2))
        with caplog.at_level("WARNING", logger="hub.web_results.export"):
            export_html(store, eid, tmp_path / "final")
        assert caplog.text == ""
    finally:
        store.close()


def test_a_wrong_pin_is_said_once_and_not_tried_again_at_once(tmp_path):
    """Decisions D20: every wrong PIN counts towards the hub's lock-out, so the link that
    was refused says why and waits (REFUSED_RETRY_S), not its usual second."""
    from hub.web_results.hub_link import REFUSED_RETRY_S, HubLink

    create_barometer(tmp_path, hide=2)

    async def scenario() -> None:
        async with web_terminal_hub(tmp_path, 2, api=("127.0.0.1", 0)) as room:
            assert room.hub.api is not None
            url = f"ws://127.0.0.1:{room.hub.api.port}/v1"
            link = HubLink(url, lambda: None, pin="NOT-THE-PIN", retry_s=0.05)
            task = asyncio.ensure_future(link.run())
            try:
                deadline = asyncio.get_running_loop().time() + WAIT_S
                while "refused the PIN" not in link.error:
                    assert asyncio.get_running_loop().time() < deadline, link.error
                    await asyncio.sleep(0.02)
                refused = lambda: room.store.audit_log(  # noqa: E731
                    room.event_id, "api_login_refused"
                )
                while not refused():  # the hub's audit trail writes in the background
                    assert asyncio.get_running_loop().time() < deadline, "no refusal audited"
                    await asyncio.sleep(0.02)
                await asyncio.sleep(1.5)  # 30 of its usual retries; the hub's 2nd wait is 1 s
                assert len(refused()) == 1, refused()
                assert REFUSED_RETRY_S >= 30 and not task.done()
            finally:
                task.cancel()

    asyncio.run(scenario())


def test_final_is_said_only_over_the_last_rounds_ranking():
    """The session can be over (every result in) before its last round's standings are
    published (a question still open, D12): the page then shows the ranking it has without
    calling it the final results (a reader of the acceptance run saw "Final results (after
    round 1 of 3)")."""
    from hub.result_screen.state import SectionFeed
    from hub.web_results.live_view import section_note
    from hub.web_results.pages import web_words

    words = web_words("en")
    over_early = SectionFeed("A", 3, 3, "%", "pairs", published_round=1, final=True)
    assert not section_note(over_early, words).startswith("Final results")
    last = SectionFeed("A", 3, 3, "%", "pairs", published_round=3, final=True)
    assert section_note(last, words).startswith("Final results")


def test_results_are_built_once_per_change_however_often_pages_ask(tmp_path):
    """Decisions D17/D20: any page on the venue network may ask for the results; asked
    twenty times at once and again with nothing changed, the hub builds them once, and
    again only after the feed moved (a new result)."""
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = tiny_event(store)
    seq = [1]
    requests = ResultRequests(store, eid, lambda: seq[0])
    built = []
    build = requests.results

    def counted(language=None):
        built.append(language)
        return build(language)

    requests.results = counted  # type: ignore[method-assign]

    async def ask(n: int) -> list[dict]:
        return await asyncio.gather(*(requests("results", {}) for _ in range(n)))

    async def pages() -> None:  # on one loop, as in the hub
        answers = await ask(20)
        assert len(built) == 1 and all(a == answers[0] for a in answers)
        await ask(3)
        assert len(built) == 1
        seq[0] = 2
        await ask(3)
        assert len(built) == 2

    asyncio.run(pages())
    store.close()
