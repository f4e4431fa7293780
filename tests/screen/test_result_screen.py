"""The projector screen (``bridgehub screen``): a client of the hub's feed (decisions D1,
D17) showing the standings the hub last published. The hub here is ``ScriptedHub`` (the
real API server and feed, a scripted room); how the hub computes published rows and their
previous ranks is tested with the hub, not here."""

from __future__ import annotations

import ast
import asyncio
from fractions import Fraction
from pathlib import Path

from barometer_standings import expected_places, published_rows
from click.testing import CliRunner
from hub_stub import ScriptedHub, pairs_row, section_state, teams_row, wait_until
from textual.widgets import Digits, Static

from drivers.clock.show import Phase
from hub.api.client import websocket_source
from hub.cli.screen import screen, served_command
from hub.result_screen.app import ScreenApp, pages
from hub.result_screen.barometer import ScreenRow, ScreenSection, screen_sections
from hub.result_screen.state import ScreenState
from hub.standings.places import overall_ranking

ROOT = Path(__file__).parents[2]


def barometer_night(**section) -> dict:
    return {"event": "Barometer night", "sections": {"A": section_state(3, 3, **section)}}


def _fed(state: dict, *events: dict, now: float = 0.0) -> ScreenState:
    screen_state = ScreenState()
    for m in [{"type": "snapshot", "seq": 1, "state": state}, *events]:
        screen_state.apply(m, now)
    return screen_state


def test_screen_waits_for_the_round_the_hub_published():
    """Decisions D12: rounds complete at every table but withheld by the hub (a held
    result, a suspicious score) are not on the screen until the hub publishes them; the
    live standings in the snapshot never are."""
    live = published_rows(2)
    state = barometer_night(standings=live)
    (sec,) = screen_sections(_fed(state))
    assert sec.after_round == 0 and sec.rows == []
    publication = {
        "type": "event",
        "seq": 2,
        "event": "standings",
        "section": "A",
        "round": 1,
        "released_by": None,
        "provisional": [],
        "rows": published_rows(1),
    }
    (sec,) = screen_sections(_fed(state, publication))
    assert sec.after_round == 1 and sec.provisional == ()
    assert [r.entrant for r in sec.rows] == [str(r["pair"]) for r in published_rows(1)]


def test_screen_shows_the_published_standings_with_movers():
    """After round 2: hand-counted places and totals; each pair moved by the places between
    its rank after round 1 and now (▲ gained, ▼ lost)."""
    rows = published_rows(2, names={1: "Ann Ek – Bo Lind"})
    (sec,) = screen_sections(_fed(barometer_night(published_round=2, published_rows=rows)))
    assert sec.after_round == 2 and sec.rounds == 3 and sec.unit == "%"
    now, avg = expected_places(2)
    before, _ = expected_places(1)
    shown = {int(r.entrant): r for r in sec.rows}
    assert {p: int(r.rank.rstrip("=")) for p, r in shown.items()} == now
    assert {p: r.score for p, r in shown.items()} == {
        1: "50.00",
        2: "50.00",
        3: "0.00",
        4: "100.00",
    }
    assert {p: Fraction(r.score) for p, r in shown.items()} == avg
    assert {p: r.moved for p, r in shown.items()} == {p: before[p] - now[p] for p in now}
    assert shown[1].names == "Ann Ek – Bo Lind"


def test_screen_after_the_first_round_shows_no_movers():
    (sec,) = screen_sections(
        _fed(barometer_night(published_round=1, published_rows=published_rows(1)))
    )
    assert sec.after_round == 1 and all(r.moved is None for r in sec.rows)


def test_screen_clock_follows_what_the_hub_sends():
    """The hub's clock ticks: between two ticks a running clock counts down on the screen's
    own time; a paused one stands still however long the pause."""
    state = _fed(barometer_night(clock={"phase": "play", "seconds_left": 480.0}))
    clock = state.sections["A"].clock
    assert clock is not None and clock.show(0).seconds_left == 480
    assert clock.show(60).seconds_left == 420 and clock.show(60).round == 3
    state.apply(
        {
            "type": "event",
            "seq": 2,
            "event": "clock",
            "section": "A",
            "round": 3,
            "phase": "paused",
            "seconds_left": 360.0,
        },
        120.0,
    )
    paused = state.sections["A"].clock
    assert paused is not None
    later, much_later = paused.show(300.0), paused.show(3000.0)
    assert later.phase is Phase.PAUSED and later.seconds_left == much_later.seconds_left == 360
    assert clock.show(60).seconds_left - later.seconds_left == 60


def test_pages_cut_every_section():
    rows = [ScreenRow(str(i), str(i), "", "50.00", None) for i in range(1, 26)]
    sec = ScreenSection("A", 1, 3, "%", rows)
    cut = pages([sec, ScreenSection("B", 0, 3, "%", [])], 10)
    assert [(s.section, len(r), n, of) for s, r, n, of in cut] == [
        ("A", 10, 1, 3),
        ("A", 10, 2, 3),
        ("A", 5, 3, 3),
        ("B", 0, 1, 1),
    ]


def test_screen_app_follows_the_hub_pages_and_shows_the_clock():
    """Over the real API: before any publication the screen says so; the hub publishes
    round 2 released with board 2 provisional; the clock shows what the hub sends."""

    async def scenario():
        hub = ScriptedHub(barometer_night(clock={"phase": "last_board", "seconds_left": 300}))
        await hub.start()
        try:
            source, _ = websocket_source(hub.url, name="screen", retry_s=0.05)
            app = ScreenApp(source, page_s=3600, now=lambda: 1000.0, redraw_s=0.05)
            async with app.run_test(size=(80, 24)) as pilot:
                title = app.query_one("#title", Static)
                await wait_until(
                    lambda: "no standings published yet" in str(title.render()), 10, "snapshot"
                )
                assert "No standings published yet" in str(app.query_one("#rows", Static).render())
                hub.publish_standings("A", 2, published_rows(2), provisional=[2])
                await wait_until(lambda: "after round 2 of 3" in str(title.render()), 10, "round 2")
                await pilot.pause(0.1)
                text = str(title.render())
                assert "Section A" in text and "Barometer night" in text
                assert "provisional: board 2" in text  # released by the TD with a question
                shown = app.export_screenshot()
                assert "▲" in shown and "▼" in shown  # somebody moved up, somebody down
                assert "Ann" not in shown and "Place" in shown
                assert app.query_one("#clock", Digits).value == "05:00"
                assert "round 3: last board" in str(app.query_one("#phase", Static).render())
                await pilot.press("q")
        finally:
            await hub.stop()

    asyncio.run(scenario())


def test_screen_reconnects_and_resumes_from_the_last_event():
    """The hub goes away and comes back: the screen says it lost the hub, reconnects by
    itself, and resumes from the last event it saw (``resume_from``): the round published
    meanwhile arrives as an event, with no second snapshot."""

    async def scenario():
        hub = ScriptedHub(barometer_night())
        await hub.start()
        try:
            source, _ = websocket_source(hub.url, name="screen", retry_s=0.05)
            app = ScreenApp(source, page_s=3600, redraw_s=0.05)
            async with app.run_test(size=(80, 24)):
                title = app.query_one("#title", Static)
                hub.publish_standings("A", 1, published_rows(1))
                await wait_until(lambda: "after round 1" in str(title.render()), 10, "round 1")
                await hub.stop()
                await wait_until(lambda: "lost the hub" in str(title.render()), 10, "lost link")
                hub.publish_standings("A", 2, published_rows(2))  # while the screen is away
                await hub.start()
                await wait_until(lambda: "after round 2" in str(title.render()), 10, "round 2")
                assert hub.snapshots == 1 and "lost the hub" not in str(title.render())
        finally:
            await hub.stop()

    asyncio.run(scenario())


TWO_SECTIONS_ROUND_1 = {
    # A: each board a clear top (table 1's NS and table 2's EW: 100 %, the others 0 %);
    # B: both tables bring the same score (every pair 50 %)
    "A": [
        pairs_row(p, "1=" if t else "3=", Fraction(t), boards=1)
        for p, t in ((4, 100), (2, 100), (1, 0), (3, 0))
    ],
    "B": [pairs_row(p, "1=", Fraction(50), boards=1) for p in (1, 2, 3, 4)],
}


def test_screen_ranks_every_section_together_after_them():
    """One overall ranking follows the sections' pages: A's two winners share first, B's
    four pairs share third, A's two losers share seventh."""
    state = {
        "event": "Two sections",
        "sections": {
            s: section_state(2, 3, published_round=1, published_rows=rows)
            for s, rows in TWO_SECTIONS_ROUND_1.items()
        },
    }
    a, b, total = screen_sections(_fed(state))
    assert (a.section, b.section, total.heading) == ("A", "B", "Overall")
    ranks = {r.entrant: r.rank for r in total.rows}
    assert len(ranks) == 8 and {e for e, rank in ranks.items() if rank == "1="} == {"A4", "A2"}
    assert {e for e, rank in ranks.items() if rank == "3="} == {f"B{p}" for p in range(1, 5)}
    assert {e for e, rank in ranks.items() if rank == "7="} == {"A1", "A3"}
    assert total.after_round == 1 and all(r.moved is None for r in total.rows)


def test_overall_ranking_ties_only_exact_totals():
    """Decisions D4 (seed 002: "as many decimals as needed"): 56.15 % exactly and 73/130
    (56.1538… %) both display as 56.15 but are not level; 1123/20 and 2246/40 are."""
    a = [
        pairs_row(1, "1", Fraction(73 * 100, 130), boards=13),
        pairs_row(2, "2", Fraction(1123, 20), boards=20),
    ]
    b = [{**pairs_row(1, "1", Fraction(1123, 20), boards=20), "total": "2246/40"}]
    assert a[0]["text"] == a[1]["text"] == "56.15"
    ranked = overall_ranking([("A", a), ("B", b)])
    assert [(p.rank, p.section, p.row["pair"]) for p in ranked] == [
        ("1", "A", 1),
        ("2=", "A", 2),
        ("2=", "B", 1),
    ]


def test_teams_sections_have_no_overall_ranking():
    """Victory points of different sections' matches are not one ranking: a teams event
    shows each section alone, by team number, in VP."""
    rows = [
        teams_row(
            3, "1", Fraction(3327, 100), matches=2, boards=24, imps=Fraction(17), name="Team Lund"
        )
    ]
    state = {
        "event": "Teams",
        "sections": {
            s: section_state(3, 7, unit="VP", kind="teams", published_round=2, published_rows=rows)
            for s in "AB"
        },
    }
    shown = screen_sections(_fed(state))
    assert [s.section for s in shown] == ["A", "B"]
    assert shown[0].rows == [ScreenRow("1", "3", "Team Lund", "33.27", None)]


def test_screen_reads_no_store_and_no_live_service():
    """Decisions D1/D17: the screen is an API client; it imports neither the store, the
    live service nor the store-based standings."""
    forbidden = ("hub.store", "hub.live", "hub.standings.rebuild")
    bad = []
    for path in [
        *(ROOT / "hub" / "result_screen").glob("*.py"),
        ROOT / "hub" / "cli" / "screen.py",
    ]:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            bad += [f"{path.name}: {n}" for n in names if n.startswith(forbidden)]
    assert not bad, bad


def test_screen_command_takes_the_hub_api_not_a_database():
    """``--serve`` spawns this same client per browser, on the same feed."""
    command = served_command("ws://10.0.0.5:7170/v1", 12.0)
    assert command[command.index("--api") + 1] == "ws://10.0.0.5:7170/v1"
    assert command[command.index("--page-seconds") + 1] == "12.0"
    help_text = CliRunner().invoke(screen, ["--help"]).output
    assert "--api" in help_text and "--db" not in help_text
    bad = CliRunner().invoke(screen, ["--api", "sqlite:///e.db"])
    assert bad.exit_code != 0 and "WebSocket URL" in bad.output
