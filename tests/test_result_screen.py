"""The projector screen (``bridgehub screen``): a barometer read from the store alone."""

from __future__ import annotations

import asyncio
import datetime as dt
from fractions import Fraction

from event_text import one_section_event
from textual.widgets import Digits, Static

from drivers.clock.show import Phase
from hub.result_screen.app import ScreenApp, pages
from hub.result_screen.barometer import barometer
from hub.store.store import ResultEntry, Store

BAROMETER = one_section_event(
    "Barometer night", 'kind = "barometer", tables = 2, boards_per_round = 1'
)
T0 = dt.datetime(2026, 11, 29, 19, 0, tzinfo=dt.UTC)


def _play_round(store, eid, rnd):
    """Every board of the round: table 1's N makes 4S (+420), table 2's N goes one down
    (-50), so on each board table 1's NS and table 2's EW get the top."""
    entries = []
    for row in store.movement(eid, "A").round_rows(rnd, "A"):
        for b in row.boards:
            tricks = 10 if row.table == 1 else 9
            entries.append(
                ResultEntry(
                    "A",
                    row.table,
                    rnd,
                    b,
                    row.ns_pair,
                    row.ew_pair,
                    "4S",
                    "N",
                    tricks=tricks,
                    submission_key=f"{rnd}:{row.table}:{b}",
                )
            )
    store.record(eid, entries)


def _expected_places(store, eid, rounds):
    """Count tops by hand: with two results a board is 100 % or 0 % (no ties here);
    a pair's total is its average. Standard competition places (1, 1, 3, 3)."""
    tops: dict[int, list[int]] = {}
    for rnd in range(1, rounds + 1):
        for row in store.movement(eid, "A").round_rows(rnd, "A"):
            won_ns = row.table == 1
            tops.setdefault(row.ns_pair, []).append(100 if won_ns else 0)
            tops.setdefault(row.ew_pair, []).append(0 if won_ns else 100)
    avg = {p: Fraction(sum(v), len(v)) for p, v in tops.items()}
    return {p: 1 + sum(1 for q in avg.values() if q > a) for p, a in avg.items()}, avg


def published(store, eid, rnd, provisional=(), section="A"):
    """What the hub writes when it publishes a round's standings."""
    store.audit(
        eid,
        "hub",
        "standings_published",
        {"section": section, "round": rnd, "provisional": list(provisional)},
    )


def test_screen_waits_for_the_round_the_hub_published(tmp_path):
    """Decisions D12: a round complete at every table but withheld by the hub (a held
    result, a suspicious score) is not on the screen until the hub publishes it."""
    store = Store.open(f"sqlite:///{tmp_path / 'e.db'}")
    eid = store.create_event(BAROMETER)
    store.add_clock_event(eid, "start", "A", 1, at=T0)  # the hub runs this event
    _play_round(store, eid, 1)
    _play_round(store, eid, 2)
    (sec,) = barometer(store, eid)
    assert sec.after_round == 0
    published(store, eid, 1)
    (sec,) = barometer(store, eid)
    assert sec.after_round == 1 and sec.provisional == ()


def test_screen_shows_standings_after_the_last_complete_round_with_movers(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'e.db'}")
    eid = store.create_event(BAROMETER)
    store.set_player(eid, "A", 1, 0, name="Ann Ek", number=None)
    store.set_player(eid, "A", 1, 1, name="Bo Lind", number=None)
    _play_round(store, eid, 1)
    _play_round(store, eid, 2)
    row = store.movement(eid, "A").round_rows(3, "A")[0]  # round 3 under way: one table
    store.record(
        eid,
        [
            ResultEntry(
                "A", row.table, 3, row.boards[0], row.ns_pair, row.ew_pair, "3NT", "S", tricks=9
            )
        ],
    )
    (sec,) = barometer(store, eid)
    assert sec.after_round == 2 and sec.rounds == 3 and sec.unit == "%"
    now, avg = _expected_places(store, eid, 2)
    before, _ = _expected_places(store, eid, 1)
    shown = {int(r.entrant): r for r in sec.rows}
    assert {p: int(r.rank.rstrip("=")) for p, r in shown.items()} == now
    assert {p: Fraction(r.score) for p, r in shown.items()} == avg
    assert {p: r.moved for p, r in shown.items()} == {p: before[p] - now[p] for p in now}
    assert shown[1].names == "Ann Ek – Bo Lind"


def test_screen_before_any_complete_round_shows_no_movers(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'e.db'}")
    eid = store.create_event(BAROMETER)
    _play_round(store, eid, 1)
    (sec,) = barometer(store, eid)
    assert sec.after_round == 1 and all(r.moved is None for r in sec.rows)


def test_screen_clock_replays_what_the_hub_stored(tmp_path):
    """The clock the hub ran (start, pause) replayed from the store: frozen while paused."""
    store = Store.open(f"sqlite:///{tmp_path / 'e.db'}")
    eid = store.create_event(BAROMETER)
    store.add_clock_event(eid, "start", "A", 1, at=T0)
    store.add_clock_event(eid, "pause", "A", None, at=T0 + dt.timedelta(minutes=2))
    (sec,) = barometer(store, eid)
    later = sec.clock.show((T0 + dt.timedelta(minutes=5)).timestamp())
    much_later = sec.clock.show((T0 + dt.timedelta(minutes=50)).timestamp())
    assert later.phase is Phase.PAUSED and later.seconds_left == much_later.seconds_left
    running = sec.clock.show((T0 + dt.timedelta(minutes=1)).timestamp())
    assert running.seconds_left - later.seconds_left == 60


def test_pages_cut_every_section():
    from hub.result_screen.barometer import ScreenRow, ScreenSection

    rows = [ScreenRow(str(i), str(i), "", "50.00", None) for i in range(1, 26)]
    sec = ScreenSection("A", 1, 3, "%", rows, None)  # type: ignore[arg-type]
    cut = pages([sec, ScreenSection("B", 0, 3, "%", [], None)], 10)  # type: ignore[arg-type]
    assert [(s.section, len(r), n, of) for s, r, n, of in cut] == [
        ("A", 10, 1, 3),
        ("A", 10, 2, 3),
        ("A", 5, 3, 3),
        ("B", 0, 1, 1),
    ]


def test_screen_app_pages_and_shows_the_clock(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'e.db'}")
    eid = store.create_event(BAROMETER)
    store.add_clock_event(eid, "start", "A", 1, at=T0)
    _play_round(store, eid, 1)
    _play_round(store, eid, 2)
    published(store, eid, 2, provisional=[2])
    now = (T0 + dt.timedelta(minutes=3)).timestamp()

    async def scenario():
        app = ScreenApp(
            lambda: barometer(store, eid),
            "Barometer night",
            page_s=3600,
            refresh_s=3600,
            now=lambda: now,
        )
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.2)
            title = str(app.query_one("#title", Static).render())
            assert "Section A" in title and "after round 2 of 3" in title
            assert "provisional: board 2" in title  # released by the TD with a question
            screen = app.export_screenshot()
            assert "▲" in screen and "▼" in screen  # somebody moved up, somebody down
            assert "Ann" not in screen and "Place" in screen
            # default 7.5 minutes a board, rounded up to whole minutes: 8; 3 gone
            assert app.query_one("#clock", Digits).value == "05:00"
            await pilot.press("q")

    asyncio.run(scenario())


TWO_SECTIONS = (
    BAROMETER
    + """
[[sessions.sections]]
letter = "B"
movement = { kind = "barometer", tables = 2, boards_per_round = 1 }
"""
)


def test_screen_ranks_every_section_together_after_them(tmp_path):
    """Round 1 in A: each board a clear top (100 % / 0 %); in B both tables bring the same
    score (every pair 50 %). One overall ranking follows the sections' pages: A's two
    winners share first, B's four pairs share third, A's two losers share seventh."""
    store = Store.open(f"sqlite:///{tmp_path / 'e.db'}")
    eid = store.create_event(TWO_SECTIONS)
    _play_round(store, eid, 1)
    store.record(
        eid,
        [
            ResultEntry(
                "B",
                row.table,
                1,
                b,
                row.ns_pair,
                row.ew_pair,
                "3NT",
                "S",
                tricks=9,
                submission_key=f"B:{row.table}:{b}",
            )
            for row in store.movement(eid, "B").round_rows(1, "B")
            for b in row.boards
        ],
    )
    a, b, total = barometer(store, eid)
    assert (a.section, b.section, total.heading) == ("A", "B", "Overall")
    winners = {
        f"A{r.ns_pair}" for r in store.movement(eid, "A").round_rows(1, "A") if r.table == 1
    } | {f"A{r.ew_pair}" for r in store.movement(eid, "A").round_rows(1, "A") if r.table == 2}
    ranks = {r.entrant: r.rank for r in total.rows}
    assert len(ranks) == 8 and {e for e, rank in ranks.items() if rank == "1="} == winners
    assert {e for e, rank in ranks.items() if rank == "3="} == {f"B{p}" for p in range(1, 5)}
    assert sum(1 for rank in ranks.values() if rank == "7=") == 2
    assert total.after_round == 1 and all(r.moved is None for r in total.rows)
