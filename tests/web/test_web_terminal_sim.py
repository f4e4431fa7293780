"""Simulated browser terminals (issue 15 [ENTRY], docs/web-terminal.md "Simulated browser
terminals"): ``simulator/web_terminal.py`` plays a table over the browser-terminal WebSocket
as the page does.

First the protocol, against a stand-in hub for one table on a real WebSocket server (it
answers as the spec says and misbehaves on purpose: a dropped connection, a busy store, a
forgotten log-on); then the acceptance: a mixed room (hardware terminals on a pty station and
browser terminals) completes a session with standings equal to an all-hardware run."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from event_text import one_section_event
from hub_stub import wait_until
from web_terminal_hub import web_terminal_hub
from websockets.asyncio.server import ServerConnection, serve

from hub.live.service.hub_service import HubService
from hub.standings.rebuild import rebuild
from hub.store.store import Store
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal
from simulator.web_terminal import WebTerminal
from simulator.web_wire import lead_text, ws_url

CODE = "K7P2QX9M"
BOARDS = (1, 2, 3)


class OneTableHub:
    """A stand-in hub for table A1 speaking the browser protocol (docs/web-terminal.md), on
    the test's asyncio loop. It stores each result once by (round, board, revision) and
    answers a repeat ``duplicate``; scripted faults: it cuts the connection on the first
    result it receives (stored, not answered), answers the first result of board 2 ``busy``,
    and the first ``started`` of board 3 ``not_logged_on``."""

    def __init__(self) -> None:
        self.requests: list[tuple[int, float, dict[str, Any]]] = []  # (connection, time, msg)
        self.connections = 0
        self.code_used_by: str | None = None
        self.stored: dict[tuple[int, int, int], dict[str, Any]] = {}
        self.verified: set[int] = set()
        self.faults = {"cut", "busy", "forget"}

    def sent(self, kind: str) -> list[tuple[int, float, dict[str, Any]]]:
        return [r for r in self.requests if r[2]["type"] == kind]

    async def handler(self, ws: ServerConnection) -> None:
        self.connections += 1
        n, device, logged_on = self.connections, "", False

        async def answer(m: dict[str, Any], outcome: str, reason: str | None = None) -> None:
            text = {"busy": "busy: sending again", "not_logged_on": "log on first"}
            await ws.send(
                json.dumps(
                    {"type": "answer", "id": m["id"], "outcome": outcome, "reason": reason}
                    | {"text": text.get(reason or "", "")}
                )
            )

        async for raw in ws:
            m = json.loads(raw)
            self.requests.append((n, time.monotonic(), m))
            kind = m["type"]
            if kind == "hello":
                device = m["device"]
                await ws.send(
                    json.dumps(
                        {"type": "welcome", "serial": "web-1", "event": 1, "language": "en"}
                        | {"version": 1}
                    )
                )
            elif kind == "logon":
                fresh = m["code"] == CODE and self.code_used_by in (None, device)
                if not (fresh or (m["code"] == "" and self.code_used_by == device)):
                    await answer(m, "refused", "code_used")
                    continue
                self.code_used_by, logged_on = device, True
                await answer(m, "ok")
                await ws.send(
                    json.dumps(
                        {"type": "assignment", "section": "A", "table": 1, "round": 1}
                        | {"ns": 1, "ew": 2, "ns_label": "1", "ew_label": "2"}
                        | {"boards": list(BOARDS)}
                    )
                )
                await ws.send(json.dumps(self.session(final=False)))
            elif not logged_on:
                await answer(m, "refused", "not_logged_on")
            elif kind == "started" and m["board"] == 3 and "forget" in self.faults:
                self.faults.discard("forget")
                logged_on = False  # as a hub that lost the log-on
                await answer(m, "refused", "not_logged_on")
            elif kind == "result":
                key = (m["round"], m["board"], m["revision"])
                if m["board"] == 2 and "busy" in self.faults:
                    self.faults.discard("busy")
                    await answer(m, "refused", "busy")
                    continue
                outcome = "duplicate" if key in self.stored else "accepted"
                self.stored.setdefault(key, m)
                if "cut" in self.faults:  # stored, and the answer lost with the network
                    self.faults.discard("cut")
                    ws.transport.abort()
                    return
                await answer(m, outcome)
            else:
                if kind == "verify":
                    self.verified.add(m["board"])
                await answer(m, "ok")
                if self.verified == set(BOARDS):
                    await ws.send(json.dumps(self.session(final=True)))

    @staticmethod
    def session(final: bool) -> dict[str, Any]:
        return {"type": "session", "section": "A", "rounds": 1, "waiting": False, "final": final}


def expected_entries(seed: int) -> list[dict[str, Any]]:
    """What the players at the table enter: the bot's choices in VirtualTerminal's order."""
    bot, out = PlayerBot(seed=seed), []
    for board in BOARDS:
        bot.board_minutes()
        entry = bot.play(board)
        assert not bot.wrong_board(board) and not bot.corrects() and not bot.calls_td()
        played = entry.contract not in ("", "PASS")
        out.append(
            {
                "board": board,
                "contract": entry.contract,
                "declarer": "NESW"[entry.declarer] if played else None,
                "lead": lead_text(entry.lead) if played else "",
                "tricks": entry.tricks if played else None,
            }
        )
    return out


def test_the_page_s_protocol_survives_a_cut_a_busy_store_and_a_lost_log_on():
    """docs/web-terminal.md: hello with the device id, log-on with the table's code (without
    it once used), each board entered as ``result`` then ``verify``; a request without an
    answer goes again after the reconnect with its same id (a duplicate is stored), ``busy``
    goes again after a pause, "log on first" logs on again; "final results" ends it."""

    async def scenario() -> tuple[OneTableHub, WebTerminal]:
        hub = OneTableHub()
        async with serve(hub.handler, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            phone = WebTerminal(
                f"http://127.0.0.1:{port}", "A", 1, CODE, PlayerBot(seed=5), speed=50_000
            )
            phone.pause_s = 0.2
            phone.start()
            try:
                await wait_until(phone.session_over.is_set, 20, "final results at the table")
                await wait_until(lambda: not phone.unanswered, 5, "every answer")
            finally:
                await phone.stop()
        return hub, phone

    hub, phone = asyncio.run(scenario())
    hellos = hub.sent("hello")
    assert len(hellos) == 2 and hellos[0][2]["device"] == hellos[1][2]["device"] == phone.device
    assert len(phone.device) == 22
    # the code on the first log-on, never again once used (the reload logs on without it)
    codes = [m["code"] for _, _, m in hub.sent("logon")]
    assert codes[0] == CODE and codes[1:] == ["", ""], codes
    # the result cut off with the network went again with its id, and was a duplicate
    results = hub.sent("result")
    first, again = results[0], results[1]
    assert (first[0], again[0]) == (1, 2) and first[2] == again[2]
    assert phone.log.duplicates == 1 and phone.log.resent >= 1
    # busy: the same request again after the pause (0.2 s here; 1 s doubling to 8 s by default)
    board2 = [r for r in results if r[2]["board"] == 2]
    assert len(board2) == 2 and board2[0][2] == board2[1][2]
    assert board2[1][1] - board2[0][1] >= 0.2 and phone.log.busy == 1
    # "log on first": a log-on, then the same request again
    started3 = [r for r in hub.sent("started") if r[2]["board"] == 3]
    assert len(started3) == 2 and started3[0][2] == started3[1][2]
    between = [m["type"] for _, t, m in hub.requests if started3[0][1] <= t <= started3[1][1]]
    assert "logon" in between
    # what the players entered, as the bot plays it on a hardware terminal, stored once each
    stored = [hub.stored[(1, b, 1)] for b in BOARDS]
    assert len(hub.stored) == len(BOARDS)
    keys = ("board", "contract", "declarer", "lead", "tricks")
    assert [{k: m[k] for k in keys} for m in stored] == expected_entries(5)
    assert all((m["ns"], m["ew"], m["revision"], m["no_play"]) == (1, 2, 1, False) for m in stored)
    assert hub.verified == set(BOARDS)
    assert sorted(m["board"] for m in phone.log.accepted) == list(BOARDS)
    assert not phone.log.held and "final results" in phone.log.shown
    refused = [r for _, r, _ in phone.log.refused]  # the forgotten log-on (and what followed)
    assert refused and set(refused) == {"not_logged_on"}


def test_the_terminal_address_of_a_hub():
    """`bridgehub simulate --web URL` takes the table card's address or the socket's."""
    assert ws_url("http://10.0.0.2:7180") == "ws://10.0.0.2:7180/ws"
    assert ws_url("10.0.0.2:7180") == "ws://10.0.0.2:7180/ws"
    assert ws_url("ws://10.0.0.2:7180/ws") == "ws://10.0.0.2:7180/ws"
    assert lead_text("ST") == "S10" and lead_text("HK") == "HK" and lead_text("") == ""


# -- the acceptance: a mixed room scores as an all-hardware one ---------------------------------
MIXED_EVENT = one_section_event(
    "Mixed room", 'kind = "mitchell", pairs = 13, boards_per_round = 2'
)  # 7 tables, 7 rounds, 14 boards; EW 7 missing: a table sits out each round
TABLES = range(1, 8)
WEB = {4, 5, 6, 7}  # these tables score on phones in the mixed run
CORRECTS = {2, 6}  # these correct every board (revision 2): one hardware, one phone
CALLS_TD = {5}
RELOADS = 5  # this phone's page reloads between boards
CUT = 7  # this one loses the network the moment its 5th result has left it


@dataclass
class RoomHub:
    hub: HubService
    store: Store
    event_id: int
    url: str  # the browser terminals' server ("" without)
    codes: dict[tuple[str, int], str]


@contextlib.asynccontextmanager
async def room_hub(folder: Path, stations: list[str], web: bool) -> AsyncIterator[RoomHub]:
    """The hub of the room: the base-station lines; with ``web`` its browser-terminal
    server too (``bridgehub run --terminals``, tests/web_terminal_hub.py). Yields the hub,
    its store and event, its terminal server's address and the tables' codes."""
    if web:
        async with web_terminal_hub(folder, event=MIXED_EVENT, stations=stations) as room:
            yield RoomHub(room.hub, room.store, room.event_id, room.url, room.codes)
        return
    store = Store.open(f"sqlite:///{folder / 'event.db'}")
    eid = store.create_event(MIXED_EVENT)
    hub = HubService(store, eid, stations)
    await hub.start()
    try:
        yield RoomHub(hub, store, eid, "", {})
    finally:
        await hub.stop()
        store.close()


class CutAfterResult(WebTerminal):
    """A phone whose network goes the moment its ``nth`` result has left it: the hub gets
    the result (or not), the answer is lost either way; the page sends it again."""

    def __init__(self, *args: Any, nth: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.nth, self.results_sent = nth, 0

    async def _write(self, message: dict[str, Any]) -> None:
        await super()._write(message)
        if message["type"] == "result":
            self.results_sent += 1
            if self.results_sent == self.nth:
                self.drop()


def room_bot(table: int) -> PlayerBot:
    """Each table's players, the same in both runs (the seed is the table's)."""
    return PlayerBot(
        seed=100 + table,
        correction_rate=1.0 if table in CORRECTS else 0.0,
        td_call_rate=1.0 if table in CALLS_TD else 0.0,
    )


def play_session(tmp_path: Path, web: set[int]) -> tuple[list[Any], list[Any], dict[str, Any]]:
    """One session of MIXED_EVENT: the tables in ``web`` on browser terminals, the others on
    a base station on a real pty; one phone reloads mid-session, another loses the network
    with a result on its way. Returns the final standings, every board's traveller and what
    the tables saw."""

    async def scenario() -> tuple[dict[Any, list[Any]], list[Any], dict[int, Any]]:
        tmp_path.mkdir()
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        for t in TABLES:
            if t not in web:
                station.add_terminal(
                    VirtualTerminal(t, f"BM-{t:04d}", "A", t, room_bot(t), speed=50_000)
                )
        async with room_hub(tmp_path, [str(line.path)], bool(web)) as room:
            hub, store, eid = room.hub, room.store, room.event_id
            phones = [
                CutAfterResult(room.url, "A", t, room.codes[("A", t)], room_bot(t), nth=5)
                if t == CUT
                else WebTerminal(room.url, "A", t, room.codes[("A", t)], room_bot(t))
                for t in sorted(web)
            ]
            for phone in phones:
                phone.speed = 50_000
            station.start()
            for phone in phones:
                phone.start()

            async def until(condition: Any, timeout: float, what: str) -> None:
                """A bounded wait; its failure says what each table showed last."""
                try:
                    await wait_until(condition, timeout, what)
                except AssertionError as e:
                    hw = {t.table: t.log.shown[-3:] for t in station.terminals.values()}
                    at = {
                        p.table: (p.log.shown[-3:], list(p.unanswered.values())[:2]) for p in phones
                    }
                    raise AssertionError(f"{e}\nhardware {hw}\nphones {at}") from None

            try:
                if phones:  # a reload mid-session: it loses nothing
                    reloads = next(p for p in phones if p.table == RELOADS)
                    await until(lambda: len(reloads.log.accepted) >= 3, 60, "3 boards at A5")
                    reloads.drop()
                await until(hub.session_done.is_set, 120, "the session's end")
                await until(
                    lambda: (
                        all(not t.unacked for t in station.terminals.values())
                        and all(not p.pending_results for p in phones)
                    ),
                    30,
                    "every result answered",
                )
                await until(
                    lambda: all(p.session_over.is_set() for p in phones),
                    30,
                    "final results on every phone",
                )
            finally:
                for phone in phones:
                    await phone.stop()
                await station.stop()
            view = rebuild(store, eid)["A"]
            results = [  # each board's traveller as scored (a correction replaces a line)
                (b.traveller.board, sorted((x.round, x.ns, x.ew, x.score_ns) for x in lines))
                for b in view.boards
                for lines in [b.traveller.lines]
            ]
        line.close()
        logs = {t.table: t.log for t in station.terminals.values()}
        logs |= {p.table: p.log for p in phones}
        return view.standings, results, logs

    return asyncio.run(scenario())


@pytest.mark.slow
def test_a_mixed_room_scores_the_session_as_an_all_hardware_room(tmp_path):
    """Issue 15, acceptance: "a mixed room (hardware terminals on a pty station and browser
    terminals) completes a session in the simulator with standings equal to an all-hardware
    run" — the same players (bots, seeds) at the same tables, exact totals and ranks."""
    standings, results, _ = play_session(tmp_path / "hardware", web=set())
    mixed_standings, mixed_results, logs = play_session(tmp_path / "mixed", web=WEB)
    assert sorted(standings) == ["EW", "NS"] and len(results) == 14  # a Mitchell, 14 boards
    assert sum(len(table) for table in standings.values()) == 13
    assert all(len(lines) == 6 for _, lines in results)  # each board played at 6 tables
    assert mixed_results == results  # every board's traveller, line by line
    for direction, table in standings.items():  # the same ranks and exact totals
        mixed = [(s.pair, s.rank, s.total.total) for s in mixed_standings[direction]]
        assert mixed == [(s.pair, s.rank, s.total.total) for s in table], direction
    for table in WEB:  # each phone entered its boards (and table 6 each correction too:
        # an erase after the round's last board is refused, "round 1 is over", and the
        # corrected result is stored all the same, as a hardware terminal's revision 2)
        log = logs[table]
        boards = {m["board"] for m in log.accepted}
        assert len(boards) == 12 and not log.held, (table, boards, log.held)
        assert not [r for r in log.refused if r[0].get("type") in ("result", "verify")], table
        assert not [r for r in log.refused if not r[0]], table  # nothing it sent was unreadable
        assert "final results" in log.shown
    assert logs[RELOADS].connections >= 2 and logs[CUT].connections >= 2  # connected again
    assert logs[CUT].resent >= 1  # the result cut off went again (stored once: above)


def test_simulate_says_what_a_browser_room_needs(tmp_path):
    """`bridgehub simulate --web URL --web-tables N --web-codes FILE`: every browser table
    needs its code (from the cards, as JSON {"A1": "CODE"}); a missing one is named."""
    from click.testing import CliRunner

    from simulator.cli import read_codes, simulate

    runner = CliRunner()
    out = runner.invoke(simulate, ["--web", "http://127.0.0.1:9", "--duration", "0"])
    assert out.exit_code == 2 and "--web needs --web-codes FILE" in out.output
    out = runner.invoke(simulate, ["--web-tables", "2", "--duration", "0"])
    assert out.exit_code == 2 and "need --web URL" in out.output
    codes = tmp_path / "codes.json"
    codes.write_text(json.dumps({"A3": "K7P2QX9M"}))
    args = ["--tables", "4", "--web", "http://127.0.0.1:9", "--web-tables", "2"]
    out = runner.invoke(simulate, [*args, "--web-codes", str(codes), "--duration", "0"])
    assert out.exit_code == 2 and "has no code for table A4" in out.output
    codes.write_text("[1, 2]")
    out = runner.invoke(simulate, [*args, "--web-codes", str(codes), "--duration", "0"])
    assert out.exit_code == 2 and 'expected {"A1": "CODE", ...}' in out.output
    # JSON, or the table cards' text with their links
    codes.write_text(json.dumps({"A3": "K7P2QX9M", "A4": "Q2W3E4R5"}))
    assert read_codes(codes, "A", range(3, 5)) == {"A3": "K7P2QX9M", "A4": "Q2W3E4R5"}
    codes.write_text("Table 3\n  phones: http://10.0.0.2:7180/t/A3?c=K7P2QX9M  (code K7P2QX9M)\n")
    assert read_codes(codes, "A", range(3, 4)) == {"A3": "K7P2QX9M"}


@pytest.mark.slow
def test_bridgehub_simulate_plays_browser_tables_beside_hardware_ones(tmp_path):
    """`bridgehub simulate --port P --web URL --web-tables 3 --web-codes CARDS`: tables 1-4
    on a simulated base station the hub opens at socket://…:P, tables 5-7 as phones on the
    hub's browser terminals, logging on with the codes of their table cards (as `bridgehub
    movement cards --join URL --db DB` prints them); the session completes."""
    from club_evening import exe

    from campaign.pg_cluster import free_port

    async def scenario() -> tuple[str, list[Any]]:
        port = free_port()
        station = f"socket://127.0.0.1:{port}"
        async with web_terminal_hub(tmp_path, event=MIXED_EVENT, stations=[station]) as room:
            codes = tmp_path / "cards.txt"  # the table cards, as the director prints them
            db = f"sqlite:///{tmp_path / 'event.db'}"
            cards = ["movement", "cards", "--db", db, "--join", room.url, "--only", "tables"]
            printed = await asyncio.create_subprocess_exec(
                exe(), *cards, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
            )
            text, err = await asyncio.wait_for(printed.communicate(), 60)
            assert printed.returncode == 0, err.decode()
            codes.write_bytes(text)
            args = ["simulate", "--tables", "7", "--port", str(port), "--speed", "50000"]
            args += ["--web", room.url, "--web-tables", "3", "--web-codes", str(codes)]
            sim = await asyncio.create_subprocess_exec(
                exe(), *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
            )
            try:
                await wait_until(room.hub.session_done.is_set, 120, "the session's end")
            finally:
                if sim.returncode is None:
                    sim.send_signal(signal.SIGINT)
                out, _ = await asyncio.wait_for(sim.communicate(), 30)
            view = rebuild(room.store, room.event_id)["A"]
            results = room.store.results(room.event_id)
        assert all(len(b.traveller.lines) == 6 for b in view.boards), out.decode()
        return out.decode(), results

    out, results = asyncio.run(scenario())
    assert "base station BS-0001 (4 terminals): socket://127.0.0.1:" in out
    assert "browser terminals at tables 5-7: ws://127.0.0.1:" in out
    assert "results acknowledged: " in out.splitlines()[-1], out
    by: dict[int, set[str]] = {}
    for r in results:
        by.setdefault(r.table, set()).add(r.entered_by)
    assert all(all("web-" in e for e in by[t]) for t in (5, 6, 7)), by
    assert not any("web-" in e for t in (1, 2, 3, 4) for e in by[t]), by
