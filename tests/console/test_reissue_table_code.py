"""The director re-issues a table's code for phones (issue 15: "the TD can re-issue a table's
code (a lost phone) from the console"; docs/web-terminal.md "Table codes"), and the console's
room and devices views tell browser terminals from hardware ones ("which kind, last heard").

Real parts: the hub (``HubService``) on SQLite with a recording terminal port; the command
through the hub's dispatcher; the console over the API's WebSocket with the director's PIN,
driven by keys in Textual's pilot."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from console_feeds import SNAPSHOT, scripted_hub
from console_pilot import popup_shows, popup_title
from desk_room import EVENT, TD, DeskRoom, RecordingPort, run_desk
from hub_stub import wait_until
from textual.widgets import DataTable

from hub.api.client import websocket_source
from hub.api.server import CommandError
from hub.console.app import ConsoleApp
from hub.console.devices import device_rows
from hub.live.port import terminal_port as tp
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from hub.store.table_codes import (
    ALPHABET,
    TableCode,
    ensure_codes,
    reissue_code,
    table_codes,
    use_code,
)

BROWSER = "web-0123456789ab"  # a phone's serial (docs/web-terminal.md, device identity)


class WebCodesSeen:
    """Stands in for the browser terminals' server: what it was told."""

    def __init__(self) -> None:
        self.told: list[TableCode] = []

    def reissued(self, code: TableCode) -> None:
        self.told.append(code)


def test_the_reissued_code_is_stored_audited_told_and_replied(tmp_path):
    async def scenario(room: DeskRoom) -> None:
        hub = room.hub
        store, eid = hub.store, hub.event_id
        old = (await asyncio.to_thread(ensure_codes, store, eid, [("A", 2)]))[("A", 2)]
        await asyncio.to_thread(use_code, store, eid, "A", 2, BROWSER)
        # without --terminals: stored and replied, nobody else to tell
        reply = await room.td("reissue_table_code", section="A", table=2)
        assert reply["section"] == "A" and reply["table"] == 2 and reply["generation"] == 2
        assert reply["code"] != old.code and set(reply["code"]) <= set(ALPHABET)
        stored = table_codes(store, eid)[("A", 2)]
        assert stored == TableCode("A", 2, reply["code"], 2, None)  # the phone forgotten
        # with --terminals: the web terminals' server is told the new code at once
        web = WebCodesSeen()
        handler: Any = hub.commands.handlers["reissue_table_code"]
        handler.__self__.web_codes = lambda: web
        again = await room.td("reissue_table_code", section="A", table=3)
        assert web.told == [table_codes(store, eid)[("A", 3)]]
        assert again["code"] == web.told[0].code and again["generation"] == 2
        # audited without the code itself (a credential), and as a command of the session
        audit = store.audit_log(eid, "table_code_reissued")
        assert [(a["actor"], a["detail"]) for a in audit] == [
            (TD, {"section": "A", "table": 2, "generation": 2}),
            (TD, {"section": "A", "table": 3, "generation": 2}),
        ]
        assert all(reply["code"] not in str(a) for a in store.audit_log(eid))
        # a table the section does not have: refused, naming its tables; nothing stored
        with pytest.raises(CommandError, match="section A has no table 9: its tables are 1-3"):
            await room.td("reissue_table_code", section="A", table=9)
        assert sorted(table_codes(store, eid)) == [("A", 2), ("A", 3)]

    run_desk(tmp_path, scenario)


def test_the_room_snapshot_says_which_kind_of_terminal_holds_a_table(tmp_path):
    async def scenario(room: DeskRoom) -> None:
        assert (await room.logon(1, "BM-0001", 1)).outcome is tp.Outcome.OK
        assert (await room.logon(2, BROWSER, 2)).outcome is tp.Outcome.OK
        tables = (await room.snapshot())["sections"]["A"]["tables"]
        assert [t["terminal"] for t in tables] == ["terminal", "browser", None]

    run_desk(tmp_path, scenario)


def test_the_devices_tab_shows_the_kind_of_each_terminal():
    """A hardware terminal and a phone side by side, each with when it was last heard; a
    terminal port that gives no link counters (a browser terminals' server) still shows."""
    reply = {
        "stations": [{"url": "http://10.0.0.2:7180", "connected": True, "kind": "web terminals"}],
        "terminals": [
            {
                "station": 0,
                "address": k,
                "serial": serial,
                "section": "A",
                "table": k,
                "online": True,
                "battery": None,
                "signal": None,
                "seconds_ago": 3.0 * k,
            }
            for k, serial in ((1, "BM-0001"), (2, BROWSER))
        ],
    }
    rows = list(device_rows(reply))
    assert [(r[0], r[3], r[6]) for r in rows] == [
        ("web terminals", "web terminals", ""),
        ("BM-0001", "terminal", "3 s ago"),
        (BROWSER, "browser", "6 s ago"),
    ]


def test_the_console_reissues_a_tables_code_and_shows_browser_terminals(tmp_path):
    """Enter on a table in the room, "a new code for this table's phones": the hub's new
    code is shown in a box to read out (and in the log); the room and the devices tab say
    which table has a phone and which a hardware terminal."""

    async def scenario() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        hub = HubService(store, eid, [], api=("127.0.0.1", 0), td_pin="1357", auto_advance=False)
        port = RecordingPort()
        hub.ports = [port]  # type: ignore[list-item]
        await hub.start()
        try:
            room = DeskRoom(hub, port)
            assert (await room.logon(1, "BM-0001", 1)).outcome is tp.Outcome.OK
            assert (await room.logon(2, BROWSER, 2)).outcome is tp.Outcome.OK
            assert hub.api is not None
            source, send = websocket_source(f"ws://127.0.0.1:{hub.api.port}/v1", "1357")
            app = ConsoleApp(source, send, refresh_s=0.05)
            async with app.run_test(size=(160, 40)) as pilot:
                await wait_until(
                    lambda: "director session opened" in app.room.log, 10, "the TD session"
                )
                table = app.query_one("#room-table", DataTable)
                await wait_until(lambda: table.row_count == 3, 10, "the room's three tables")
                device = [str(table.get_row_at(i)[11]) for i in range(3)]
                assert device == ["terminal", "browser", ""]
                await pilot.press("r", "down", "enter")  # table A2, the lost phone's
                await popup_shows(app, "Table A2", exact=True)
                await pilot.press("down", "down", "enter")  # a new code for its phones
                await popup_shows(app, "Table A2: new code ")
                code = table_codes(store, eid)[("A", 2)]
                assert popup_title(app) == f"Table A2: new code {code.code}"
                assert code.generation == 2
                told = f"table A2: new code {code.code} (the old code no longer works)"
                assert told in app.room.log
                await pilot.press("enter")  # closed
                await wait_until(lambda: popup_title(app) == "", 5, "the box closed")
                await pilot.press("d")
                devices = app.query_one("#devices-table", DataTable)
                await wait_until(lambda: devices.row_count == 3, 10, "the devices read")
                kinds = {str(devices.get_row_at(i)[0]): devices.get_row_at(i)[3] for i in range(3)}
                assert kinds["BM-0001"] == "terminal" and kinds[BROWSER] == "browser"
        finally:
            await hub.stop()
            store.close()

    asyncio.run(scenario())


def test_a_refused_reissue_is_shown_and_no_code_box_comes_up():
    """A hub that refuses (an older hub without the command, a store fault): the refusal is
    shown where the director looks, and no box claims a new code."""
    feed, sent, source, send = scripted_hub(refuse={"reissue_table_code": "the store is busy"})

    async def scenario() -> None:
        feed.put_nowait(SNAPSHOT)
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(120, 30)) as pilot:
            await wait_until(lambda: app.room.sections, 5, "the room")
            await pilot.press("r", "enter")
            await popup_shows(app, "Table A1", exact=True)
            await pilot.press("down", "down", "enter")
            await wait_until(
                lambda: "! new code for table A1 refused: the store is busy" in app.room.log,
                5,
                "the refusal in the log",
            )
            assert sent[-1] == {
                "id": sent[-1]["id"],
                "name": "reissue_table_code",
                "args": {"section": "A", "table": 1},
            }
            await pilot.pause(0.2)
            assert popup_title(app) == ""

    asyncio.run(scenario())


def test_a_log_on_accepted_as_the_code_is_reissued_does_not_take_the_new_code(tmp_path):
    """docs/web-terminal.md "Re-issued by the director": the new code is the director's to
    give. A phone whose log-on was checked against the old code, and accepted by the hub
    just after the director re-issued it, is not made the user of the new code (in the
    hub's memory nor in the store): the device the director gives it to logs on with it."""
    from event_text import one_section_event

    from hub.web_terminal.codes_check import CodesCheck

    store = Store.open(f"sqlite:///{tmp_path / 'codes.db'}")
    try:
        eid = store.create_event(
            one_section_event("Codes", 'kind = "mitchell", tables = 2, boards_per_round = 2')
        )

        async def scenario() -> None:
            codes = CodesCheck(store, eid, [("A", 1), ("A", 2)])
            await codes.load()
            first = codes.codes[("A", 1)]
            assert codes.check("A", 1, first.code, "web-aaaaaaaaaaaa").reason is None
            ask = tp.LogonRequest(tp.TerminalRef("web", 1), None, "web-aaaaaaaaaaaa", "A", 1, "")
            checked = codes.generation(ask)  # the code the log-on was checked against
            new = await asyncio.to_thread(reissue_code, store, eid, "A", 1)
            codes.reissued(new)
            codes.used("A", 1, checked, "web-aaaaaaaaaaaa")  # the hub's ok, just after
            await codes.flush()
            assert codes.codes[("A", 1)].used_by is None, "the new code is still unused"
            assert table_codes(store, eid)[("A", 1)] == new
            assert codes.check("A", 1, new.code, "web-bbbbbbbbbbbb").reason is None
            codes.used("A", 1, new.generation, "web-bbbbbbbbbbbb")
            await codes.flush()
            assert table_codes(store, eid)[("A", 1)].used_by == "web-bbbbbbbbbbbb"

        asyncio.run(scenario())
    finally:
        store.close()
