"""A simulated browser terminal: a phone at a table, speaking the hub's browser-terminal
protocol over its WebSocket as the page does (docs/web-terminal.md, and
hub/web_terminal/page/terminal.js step by step): hello with its device id; on the welcome,
the log-on with the table's code (without it once a log-on with it was accepted); once
logged on, every request still unanswered goes again with its same id, oldest first. The
players are a ``PlayerBot``, asked the same things in the same order as on a
``VirtualTerminal``, so a room can mix both and score the same; each board is ``started``,
its ``result`` sent, and the opponents' ``verify`` follows once the hub stored the result;
a correction erases the board and enters it again (revision 2), as the board list does.
Answers: ``busy`` sends the request again after 1 s doubling to 8 s; "log on first" logs
on again (twice at most in a connection) and the request goes after. A lost connection is
made again at once, then after 1 s doubling to 8 s. The simulator speaks only the wire:
the JSON messages are built here, never taken from the hub."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import secrets
from typing import Any
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException
from websockets.typing import Origin

from simulator.bots import PlayerBot
from simulator.table_log import WebLog, seating_text
from simulator.web_wire import result_fields, ws_url

Json = dict[str, Any]
MAX_PAUSE = 8.0  # the longest pause before a request goes again, or a reconnect (seconds)
STORED = ("accepted", "held", "duplicate")


class WebTerminal:
    """One table's browser terminal; runs on the simulator's asyncio loop (``start`` makes
    two tasks there: the connection and the table's play)."""

    def __init__(
        self,
        url: str,
        section: str,
        table: int,
        code: str,
        bot: PlayerBot,
        *,
        speed: float = 1.0,
        device: str | None = None,
        pin: str = "",
        pause_s: float = 1.0,
    ) -> None:
        """``url``: the hub's terminal server (``http://host:port``); ``code``: the
        table's code from its card; ``device``: the page's device id (default: a new
        random one, as a browser makes once); ``pin``: a director's takeover instead of
        the code; ``pause_s``: the first pause before a "busy" request or a reconnect."""
        self.url = ws_url(url)
        self.section = section
        self.table = table
        self.code = code
        self.bot = bot
        self.speed = speed
        self.device = device or secrets.token_urlsafe(16)[:22]
        self.pin = pin
        self.pause_s = pause_s
        self.serial: str | None = None  # the hub's name for this device (welcome)
        self.language: str | None = None
        self.code_used = False  # a log-on with the code was accepted: log on without it
        self.logged_on = False  # in the current connection
        self.assignment: Json | None = None
        self.rounds: int | None = None
        self.log = WebLog()
        self.unanswered: dict[int, Json] = {}  # by id, oldest first
        self.round_done = asyncio.Event()
        self.session_over = asyncio.Event()  # "final results" (session final)
        self._ids = itertools.count(1)
        self._ws: ClientConnection | None = None
        self._ready = False  # logged on in this connection: requests go out
        self._logon_id: int | None = None  # the log-on waiting for its answer
        self._relogons = 0  # log-ons after "log on first" in this connection
        self._in_flight: set[int] = set()  # ids sent in this connection, not yet answered
        self._tries: dict[int, int] = {}  # "busy" answers so far, per id
        self._later: set[asyncio.Task[None]] = set()
        self._answers: dict[int, asyncio.Future[str]] = {}  # results the players wait on
        self._tasks: list[asyncio.Task[None]] = []
        self._assigned = asyncio.Event()
        self._entered: set[tuple[str, int, int, int]] = set()

    @property
    def pending_results(self) -> list[Json]:
        """Results entered and not yet stored by the hub (nothing entered is lost)."""
        return [m for m in self.unanswered.values() if m["type"] == "result"]

    # -- running ------------------------------------------------------------------------------
    def start(self) -> None:
        loop = asyncio.get_running_loop()
        name = f"web terminal {self.section}{self.table}"
        self._tasks = [
            loop.create_task(self._connection(), name=f"{name} link"),
            loop.create_task(self.play(), name=f"{name} play"),
        ]

    async def stop(self) -> None:
        for task in [*self._tasks, *self._later]:
            task.cancel()
        for task in [*self._tasks, *self._later]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks, self._later = [], set()

    def drop(self) -> None:
        """The network lost under the page (or a reload): the connection is cut at once;
        whatever was on the way is lost, and the page connects again by itself."""
        if self._ws is not None:
            self._ws.transport.abort()

    async def _connection(self) -> None:
        """Connect, and connect again whenever the connection drops: at once after one
        that worked, then after a pause doubling up to 8 s."""
        parts = urlsplit(self.url)
        origin = Origin(f"{'https' if parts.scheme == 'wss' else 'http'}://{parts.netloc}")
        pause = 0.0
        while True:
            welcomed = self.log.connections
            try:
                async with connect(self.url, proxy=None, origin=origin, open_timeout=10) as ws:
                    await self._serve(ws)
            except (OSError, WebSocketException, TimeoutError):
                pass
            finally:
                self._ws, self._ready, self.logged_on = None, False, False
            if self.log.connections > welcomed:  # it worked: start the backoff afresh
                pause = 0.0
            await asyncio.sleep(pause)
            pause = min(max(pause * 2, self.pause_s), MAX_PAUSE)

    async def _serve(self, ws: ClientConnection) -> None:
        """One connection: hello; on the welcome, the log-on; once logged on, every
        request still unanswered (with its id, oldest first); then whatever the hub says."""
        for task in self._later:  # planned resends: everything unanswered goes again anyway
            task.cancel()
        self._later.clear()
        self._in_flight.clear()
        self._logon_id, self._relogons = None, 0
        self._ws = ws
        await ws.send(json.dumps({"type": "hello", "device": self.device, "version": 1}))
        async for raw in ws:
            try:
                msg = json.loads(raw)
            except ValueError:
                continue  # the page ignores what it cannot read
            if isinstance(msg, dict):
                await self._on_message(msg)

    async def _logon(self) -> None:
        """Log on to the table: with the code from the card until a log-on with it was
        accepted, without it after (a reload, a lost connection, a restarted hub)."""
        code = "" if self.code_used or self.pin else self.code
        self._logon_id = next(self._ids)
        logon = {"type": "logon", "id": self._logon_id, "section": self.section}
        logon |= {"table": self.table, "code": code, "pin": self.pin}
        await self._send(logon)

    async def _logged_on(self, answer: Json) -> None:
        """The log-on's answer: logged on, every request kept goes (oldest first); refused,
        the page shows why and waits for the players (a "busy" one: again after a pause)."""
        self._logon_id = None
        text = str(answer.get("text") or "")
        if answer.get("outcome") != "ok":
            reason = str(answer.get("reason"))
            logon = {"type": "logon", "id": answer.get("id"), "section": self.section}
            self.log.refused.append((logon | {"table": self.table}, reason, text))
            self.log.shown.append(text or reason)
            if reason == "busy":
                self._later_logon(self.pause_s)
            return
        self.code_used = self.code_used or not self.pin
        self.logged_on = True
        if text:
            self.log.shown.append(text)
        while pending := [m for i, m in self.unanswered.items() if i not in self._in_flight]:
            for message in pending:
                self.log.resent += 1
                await self._write(message)
        self._ready = True  # new requests go at once from now on, after the older ones

    def _later_logon(self, pause: float) -> None:
        """Log on again after ``pause`` seconds (not from the reading of the hub's
        messages, which goes on meanwhile)."""

        async def later() -> None:
            await asyncio.sleep(pause)
            await self._logon()

        task = asyncio.get_running_loop().create_task(later())
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    async def request(self, kind: str, **fields: Any) -> Json:
        """Send a request: kept until answered; sent now when logged on, else after the
        next log-on."""
        message = {"type": kind, "id": next(self._ids), **fields}
        self.unanswered[message["id"]] = message
        if kind == "result":  # the players wait for the score the hub stored
            self._answers[message["id"]] = asyncio.get_running_loop().create_future()
        if self._ready:
            await self._write(message)
        return message

    async def _write(self, message: Json) -> None:
        """Send a kept request, once per connection until it is answered."""
        if self._ws is None or message["id"] in self._in_flight:
            return
        self._in_flight.add(message["id"])
        await self._send(message)

    async def _send(self, message: Json) -> None:
        if self._ws is not None:
            with contextlib.suppress(WebSocketException, OSError):
                await self._ws.send(json.dumps(message))

    def _again(self, message: Json) -> None:
        """Send ``message`` again (same id) after a pause, 1 s doubling to 8 s, when still
        logged on (else the next log-on sends it)."""
        tries = self._tries[message["id"]] = self._tries.get(message["id"], 0) + 1
        pause = min(self.pause_s * 2 ** (tries - 1), MAX_PAUSE)

        async def later() -> None:
            await asyncio.sleep(pause)
            if self._ready and message["id"] in self.unanswered:
                await self._write(message)

        task = asyncio.get_running_loop().create_task(later())
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    # -- what the hub says -------------------------------------------------------------------
    async def _on_message(self, msg: Json) -> None:
        self.log.received.append(msg)
        kind = msg.get("type")
        if kind == "welcome":
            self.serial, self.language = msg.get("serial"), msg.get("language")
            self.log.connections += 1
            await self._logon()
        elif kind == "answer":
            await self._answer(msg)
        elif kind == "assignment":
            self._assign(msg)
        elif kind == "session":
            self.rounds = msg.get("rounds", self.rounds)
            if msg.get("final") and not self.session_over.is_set():
                self.log.shown.append("final results")
                self.session_over.set()
        elif kind == "message":
            self.log.shown.append(str(msg.get("text", "")))
        elif kind == "next_seating":
            self._next_seating(msg)
        elif kind == "match_score":  # a team match's running score: the home team's VP
            self.log.shown.append(f"match {msg.get('home')}: {msg.get('home_vp_text')} VP")

    async def _answer(self, answer: Json) -> None:
        mid = answer.get("id")
        if mid is not None and mid == self._logon_id:
            await self._logged_on(answer)
            return
        request = self.unanswered.get(mid)  # type: ignore[arg-type]
        if request is None:  # a refusal of no request kept (id null): a message it could
            if mid is None:  # not read; shown, so a test sees the simulator's own mistakes
                self.log.refused.append(({}, str(answer.get("reason")), str(answer.get("text"))))
                self.log.shown.append(str(answer.get("text")))
            return
        self._in_flight.discard(request["id"])
        outcome, reason = answer.get("outcome"), answer.get("reason")
        text = str(answer.get("text") or "")
        if reason == "busy":  # not stored now: again after a pause, never dropped
            self.log.busy += 1
            self._again(request)
            return
        if reason == "not_logged_on":  # kept: it goes again once logged on
            self.log.refused.append((request, reason, text))
            self.log.shown.append(text)
            self._lost_table()
            return
        del self.unanswered[request["id"]]
        self._tries.pop(request["id"], None)
        if text:
            self.log.shown.append(text)
        if outcome == "refused":
            self.log.refused.append((request, str(reason), text))
        elif request["type"] == "result":
            self.log.duplicates += outcome == "duplicate"
            (self.log.held if outcome == "held" else self.log.accepted).append(request)
        waiting = self._answers.get(request["id"])
        if waiting is not None and not waiting.done():
            waiting.set_result(str(outcome))

    def _lost_table(self) -> None:
        """ "Log on first": the hub does not know this device now (it restarted, or the
        table was taken over). Log on again, twice at most in a connection; then the page
        asks the players (here: it waits for the next connection)."""
        self._ready = self.logged_on = False
        if self._logon_id is None and self._relogons < 2:
            self._relogons += 1
            self._later_logon(0.0)

    def _assign(self, msg: Json) -> None:
        """A new round, or the round's seating changed by the director; the same seating
        again (a new log-on) changes nothing (as ``VirtualTerminal._assign``)."""
        old = self.assignment
        fields = ("section", "table", "round", "ns", "ew", "boards")
        if old is not None and all(old.get(k) == msg.get(k) for k in fields):
            return
        same_round = old is not None and all(
            old.get(k) == msg.get(k) for k in ("section", "table", "round")
        )
        self.assignment = msg
        seated = f"NS {msg['ns']} EW {msg['ew']}"
        if 0 in (msg["ns"], msg["ew"]):
            seated = f"sit out ({seated})"
        self.log.shown.append(f"table {msg['table']} round {msg['round']}: {seated}")
        sat_out = old is not None and 0 in (old["ns"], old["ew"])
        if not same_round or sat_out:
            self._assigned.set()

    def _next_seating(self, msg: Json) -> None:
        pair, opponents = msg.get("pair_label") or msg.get("pair"), msg.get("opponents")
        where = (msg["round"], msg.get("table", 0), bool(msg.get("ns")))
        self.log.shown.append(
            seating_text(pair, *where, msg.get("opponents_label") or opponents, self.rounds)
        )

    # -- the table's play (the bot's calls in VirtualTerminal.play's order) ----------------
    async def play(self) -> None:
        while True:
            await self._assigned.wait()
            self._assigned.clear()
            a = self.assignment
            assert a is not None
            self.round_done.clear()
            if 0 in (a["ns"], a["ew"]):  # a sit-out: nothing to enter this round
                self.round_done.set()
                continue
            where = {"section": a["section"], "table": a["table"], "round": a["round"]}
            for board in a["boards"]:
                if (a["section"], a["table"], a["round"], board) in self._entered:
                    continue
                await self.request("started", **where, board=board)
                await asyncio.sleep(self.bot.board_minutes() * 60 / self.speed)
                now = self._reseated(a)
                if now is None:  # the director made the table a sit-out mid-round
                    break
                a = now
                self._entered.add((a["section"], a["table"], a["round"], board))
                entry = self.bot.play(board)
                keyed = board + 100 if self.bot.wrong_board(board) else board
                await self.enter(a, keyed, entry.contract, entry.declarer, entry.lead, entry.tricks)
                if self.bot.corrects():  # from the board list: erase, then enter it again
                    fix = self.bot.play(board)
                    await self.request("erase", **where, board=keyed, revision=1)
                    await self.request("started", **where, board=keyed)
                    await self.enter(
                        a, keyed, fix.contract, fix.declarer, fix.lead, fix.tricks, revision=2
                    )
                if self.bot.calls_td():
                    await self.request("td_call", **where, text="")
            self.round_done.set()

    async def enter(
        self,
        a: Json,
        board: int,
        contract: str,
        declarer: int,
        lead: str,
        tricks: int,
        revision: int = 1,
    ) -> Json:
        """The page's entry of a board; once the hub has stored it (the score shown), the
        opponents agree on the same device (no verification of a board not played, or of
        a result held or refused: the page shows why instead)."""
        where = {"section": a["section"], "table": a["table"], "round": a["round"]}
        keyed = result_fields(contract, declarer, lead, tricks)
        result = await self.request(
            "result", **where, board=board, ns=a["ns"], ew=a["ew"], revision=revision, **keyed
        )
        outcome = await self._answers[result["id"]]
        del self._answers[result["id"]]
        if contract and outcome in ("accepted", "duplicate"):
            await self.request("verify", **where, board=board, agreed=True)
        return result

    def _reseated(self, a: Json) -> Json | None:
        """The round's seating now; None when the table sits out now."""
        now = self.assignment
        if now is None or any(now[k] != a[k] for k in ("section", "table", "round")):
            return a
        return None if 0 in (now["ns"], now["ew"]) else now
