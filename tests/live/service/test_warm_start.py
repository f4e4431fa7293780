"""Review R4 of the hub's two-step start (issue 12 [FAULTS]: "recovery after each kill -9
to the first ACK in under 2 s"): the lines open before the live results are loaded, and
nothing a terminal or the director does in that window may stop the lines or hang.

- a table's ERASE in the window is refused at once, by name (it used to wait for the load
  inside the port's request loop, so no terminal of that base station was answered until
  the load ended: a load that keeps failing kept the whole station silent);
- a director's command in the window waits a bounded time, then is refused by name (it
  used to wait for as long as the load took, for ever if it kept failing).

The hub runs whole (``HubService``, real SQLite store) behind a recording terminal port;
the store's full read of the live results is held back until the test lets it go."""

from __future__ import annotations

import asyncio
import contextlib
import threading

import pytest
from event_text import one_section_event
from hub_stub import wait_until
from trust_room import PIN, RecordingPort, Room

from hub.api.server import CommandError
from hub.live.port import terminal_port as tp
from hub.live.service import warm_start
from hub.live.service.hub_service import HubService
from hub.store.store import ResultEntry, Store

EVENT = one_section_event("Warm", 'kind = "howell", tables = 3, boards_per_round = 2').replace(
    "[[sessions]]", '[rules.display]\nverification = "none"\n[[sessions]]'
)


class HeldBackStore(Store):
    """A real store whose full read of the live results waits until ``go`` (the window in
    which a restarted hub answers its lines before its live results are loaded)."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.go = threading.Event()

    def live_results(self, event_id, section=None):  # type: ignore[no-untyped-def]
        if section is None:
            self.go.wait(60)
        return super().live_results(event_id, section)


def run_loading(tmp_path, scenario) -> None:
    """A store with table 1's result of its first board (stored before the "restart"),
    then a hub that starts on it; ``scenario(room, store, starting)`` runs in the window."""

    async def main() -> None:
        first = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = first.create_event(EVENT)
        row = first.movement(eid, "A").row("A", 1, 1)
        assert row is not None
        entry = ResultEntry(
            "A", 1, 1, row.boards[0], row.ns_pair, row.ew_pair, "4S", "N", None, 10,
            entered_by="BM-1", submission_key=f"BM-1:A:1:1:{row.boards[0]}:1",
        )  # fmt: skip
        first.record(eid, [entry])
        store = HeldBackStore(first.engine)
        now = [1_000_000.0]
        hub = HubService(store, eid, [], clock=lambda: now[0], td_pin=PIN)
        port = RecordingPort()
        hub.ports = [port]  # type: ignore[list-item]
        starting = asyncio.ensure_future(hub.start())
        try:
            await wait_until(lambda: hasattr(hub, "warm"), 20, "the hub's parts")
            await scenario(Room(hub, port, now), store, starting)
        finally:
            store.go.set()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(starting, 30)
            await hub.stop()
            first.close()

    asyncio.run(main())


def test_an_erase_while_the_hub_loads_is_refused_at_once_and_the_station_still_answered(
    tmp_path,
):
    """Issue 12 (the lines open before the live results load), docs/protocol.md ERASE: an
    ERASE in that window is refused at once with a text the players can act on, and the
    other terminals of its base station are answered meanwhile; once loaded, the same ERASE
    erases the result."""

    async def scenario(room: Room, store: HeldBackStore, starting: asyncio.Future) -> None:
        board = room.row(1).boards[0]
        assert (await room.logon(1, "BM-1", 1)).outcome is tp.Outcome.OK
        early = await room.erase(1, 1, board, revision=1)
        assert early.reason is tp.Reason.NOT_ALLOWED, early
        assert "starting" in early.text and "again" in early.text, early.text
        assert (await room.logon(2, "BM-2", 2)).outcome is tp.Outcome.OK
        other = room.row(2).boards[0]
        assert (await room.result(2, 2, other)).outcome is tp.Outcome.ACCEPTED
        assert not room.hub.warm.ready.is_set(), "the window ended before the test ran in it"
        store.go.set()
        await asyncio.wait_for(starting, 30)
        late = await room.erase(1, 1, board, revision=1)
        assert late.outcome is tp.Outcome.OK, late
        assert [r.table for r in store.live_results(room.hub.event_id)] == [2]

    run_loading(tmp_path, scenario)


def test_a_directors_command_while_the_hub_loads_is_refused_by_name_after_a_bounded_wait(
    tmp_path, monkeypatch
):
    """Issue 12, D1: a command that reaches the hub before its live results are loaded (a
    console that resumed its feed after the restart) waits at most
    ``warm_start.COMMAND_WAIT_S``, then is refused saying why, never left hanging; once
    loaded, the same command is carried out."""
    monkeypatch.setattr(warm_start, "COMMAND_WAIT_S", 0.2)

    async def scenario(room: Room, store: HeldBackStore, starting: asyncio.Future) -> None:
        dispatch = room.hub.warm.command(room.hub.commands.dispatch)
        args = {"section": "A", "table": 1}
        with pytest.raises(CommandError, match="still loading"):
            await asyncio.wait_for(dispatch("allow_takeover", args, "TD test"), 10)
        assert not room.hub.warm.ready.is_set()
        store.go.set()
        await asyncio.wait_for(starting, 30)
        assert await asyncio.wait_for(dispatch("allow_takeover", args, "TD test"), 10) == {}

    run_loading(tmp_path, scenario)


def test_a_load_that_keeps_failing_is_told_to_the_director_once_per_cause(tmp_path):
    """Issue 12 (a database restart), D17: the second step of the start is a supervised
    task retried with backoff while its store read fails; the director is told once, not
    at every try (six alerts a minute would push the held results out of the console's
    recent alerts)."""
    from types import SimpleNamespace

    from hub.api.feed import Feed
    from hub.live.oversight.alerts import Alerts
    from hub.store.engine import make_engine

    down = Store(make_engine(f"sqlite:///{tmp_path / 'gone' / 'club.db'}"))  # no such folder
    alerts = Alerts(Feed())
    loading = SimpleNamespace(begin_loading=lambda: None, live={})

    async def main() -> None:
        warm = warm_start.WarmStart(down, 1, loading, loading, loading, alerts)  # type: ignore[arg-type]
        for _ in range(3):
            with pytest.raises(Exception, match="unable to open database file"):
                await warm.run()
        assert not warm.ready.is_set()

    asyncio.run(main())
    told = [t for t in alerts.texts if "could not load its live scores" in t]
    assert len(told) == 1, told
    assert "OperationalError" in told[0] and "tries again" in told[0]
