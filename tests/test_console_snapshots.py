"""SVG snapshots of every console view and of the result screen at 80×24 and 160×50
(issue [CONSOLE]): fixed data from a recorded feed, a fixed clock for the screen. A
change to how a view looks shows up as a diff; review it, then
``pytest --snapshot-update tests/test_console_snapshots.py``."""

from __future__ import annotations

import datetime as dt

import pytest
from test_console import EVENTS, SNAPSHOT, recorded
from test_result_screen import BAROMETER, T0, _play_round

from hub.console.app import ConsoleApp
from hub.result_screen.app import ScreenApp
from hub.result_screen.barometer import barometer
from hub.store.store import Store

SIZES = [(80, 24), (160, 50)]
VIEWS = ["r", "s", "c", "d", "l", "question_mark"]


async def _settle(pilot):
    await pilot.pause(0.3)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("key", VIEWS)
def test_console_view(snap_compare, key, size):
    async def before(pilot):
        await _settle(pilot)
        await pilot.press(key)
        await pilot.pause(0.2)

    app = ConsoleApp(recorded([SNAPSHOT, *EVENTS]), None, refresh_s=0.05)
    assert snap_compare(app, terminal_size=size, run_before=before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_result_screen(snap_compare, size, tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'e.db'}")
    eid = store.create_event(BAROMETER)
    store.add_clock_event(eid, "start", "A", 1, at=T0)
    store.set_player(eid, "A", 1, 0, name="Ann Ek", number=None)
    _play_round(store, eid, 1)
    _play_round(store, eid, 2)
    now = (T0 + dt.timedelta(minutes=3)).timestamp()
    app = ScreenApp(lambda: barometer(store, eid), "Barometer night", page_s=3600,
                    refresh_s=3600, now=lambda: now)
    assert snap_compare(app, terminal_size=size, run_before=_settle)
