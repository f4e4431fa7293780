"""The browser-terminal adapter of the terminal port (decisions D18, docs/web-terminal.md):
JSON messages over WebSocket connections become the port's requests, and the hub's
verdicts and views become JSON messages.

A device (its random id, sent in ``hello``) is the terminal whose serial is ``web-`` and the
first 12 hex digits of the id's SHA-256; the id itself stays here. It keeps one address for
the hub's run (the link a table is bound to, D20), and each connection is a new session on
it, as a reboot is for a hardware terminal. Every request gets exactly one answer on the
connection it came over; an answer for a connection that has gone is dropped (the page sends
the request again, with its id, on its next connection).

Runs on the hub's asyncio loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from hub.event.pair_labels import Numbering, PairLabels
from hub.live.port import terminal_port as tp
from hub.live.views.base import TravellerView
from hub.web_terminal import messages, views
from hub.web_terminal.codes_check import CodesCheck
from hub.web_terminal.message_rate import TOO_FAST, MessageRate, TokenBucket
from hub.web_terminal.wrong_codes import WrongCodes

log = logging.getLogger(__name__)
NAME = "web"  # the port's name (the gateway's and the audit trail's)
OUTBOX = 2000  # messages waiting for a slow connection before it is closed
PENDING = 256  # requests of one connection waiting for the hub (a page has a few dozen)
# Limits, so that a script on the venue network cannot fill the hub's files and memory (nor
# the console's devices): per network address, 16 and 2 a table (the simulator drives every
# table of a room from one machine); in all, 256 or 8 (connections), 16 (devices) a table.
PEER_CONNECTIONS = 16  # open connections from one network address (a phone's tabs, reloads)
PEER_DEVICES = 16  # device ids one network address may bring in the hub's run
ROOM_CONNECTIONS = 256  # open connections in all, at least
ROOM_DEVICES = 256  # device ids in the hub's run, at least


def peer_of(ws: ServerConnection) -> str:
    """The network address a connection comes from (its IP), for the limits per peer."""
    address = ws.remote_address
    return str(address[0]) if isinstance(address, tuple) and address else "?"


def serial_of(device: str) -> str:
    """The terminal serial of a device id (the id never leaves the port)."""
    return "web-" + hashlib.sha256(device.encode()).hexdigest()[:12]


@dataclass(eq=False)
class Connection:
    """One WebSocket connection of a browser terminal; on the hub's asyncio loop.
    ``address`` and ``session`` are set by its ``hello``."""

    ws: ServerConnection
    peer: str = "?"
    outbox: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    serial: str = ""
    address: int = 0
    session: int = 0
    pending: set[int] = field(default_factory=set)  # ids sent and not yet answered
    closed: bool = False
    bucket: TokenBucket | None = None  # its message rate (``message_rate``)


@dataclass(frozen=True, eq=False)
class Ask:
    """A request's token: the connection and id its answer goes to. ``logon``: the table a
    log-on claims and its code's generation then, to record the code's use when the hub
    accepts it (not a code the director re-issued meanwhile)."""

    conn: Connection
    id: int | None
    kind: str
    logon: tuple[str, int, int] | None = None


class WebTerminalPort:
    """The browser terminals of a hub, on its asyncio loop. ``serve`` is the WebSocket
    handler (``hub/web_terminal/server.py``)."""

    def __init__(self, codes: CodesCheck, event: str, language: str, url: str = "") -> None:
        self.name = NAME
        self.inbound: asyncio.Queue[tp.Inbound] = asyncio.Queue()
        self.codes = codes
        self.wrong_codes = WrongCodes(tables=len(codes.tables))  # per device and address
        self.rate = MessageRate()  # per connection and device (decisions D20)
        self.event, self.language, self.url = event, language, url
        self.event_key = ""  # no other event's (Store.event_key): set before the port opens
        self.numbering: dict[str, PairLabels] = {}
        self.addresses: dict[str, int] = {}  # serial -> its address for the hub's run
        self.current: dict[int, Connection] = {}  # address -> its latest connection
        self.connections: set[Connection] = set()
        self.sessions = 0
        self.peers: dict[str, int] = {}  # network address -> its connections open now
        self.peer_devices: dict[str, int] = {}  # network address -> device ids it brought
        tables = len(codes.tables)
        self.peer_connections = PEER_CONNECTIONS + 2 * tables
        self.peer_devices_max = PEER_DEVICES + 2 * tables
        self.max_connections = max(ROOM_CONNECTIONS, 8 * tables)
        self.max_devices = max(ROOM_DEVICES, 16 * tables)
        self._closing: set[asyncio.Future[None]] = set()
        self.stats = {"connections": 0, "frames_in": 0, "frames_out": 0, "garbage": 0, "refused": 0}

    def set_numbering(self, numbering: Numbering) -> None:
        """Each section's pair labels (again after a movement change)."""
        self.numbering = dict(numbering)

    def tasks(self) -> dict[str, Callable[[], Awaitable[None]]]:
        return {}  # each connection is served by the server's own task

    async def stop(self) -> None:
        for conn in list(self.connections):
            with contextlib.suppress(Exception):
                await conn.ws.close(1001, "the hub is stopping")
        await self.codes.flush()

    # -- connections -------------------------------------------------------------------------
    def full(self, peer: str) -> str:
        """Why a new connection from ``peer`` is refused (a flood must not exhaust the
        hub's files and memory), or "" to take it."""
        if self.peers.get(peer, 0) >= self.peer_connections:
            log.warning("browser terminals: %s has %d connections open", peer, self.peers[peer])
            return "too many connections from this device: close the hub's page in other tabs"
        if len(self.connections) >= self.max_connections:
            log.warning("browser terminals: %d connections open, no more", len(self.connections))
            return "the hub has too many browser connections open: ask the director"
        return ""

    async def serve(self, ws: ServerConnection) -> None:
        """One connection, from its ``hello`` to its close."""
        conn = Connection(ws, peer_of(ws), bucket=self.rate.bucket())
        self.connections.add(conn)
        self.peers[conn.peer] = self.peers.get(conn.peer, 0) + 1
        self.stats["connections"] += 1
        writer = asyncio.ensure_future(self._write(conn))
        try:
            async for raw in ws:
                self.stats["frames_in"] += 1
                if conn.bucket is not None and not self.rate.take(conn.bucket, conn.serial):
                    await self._flooded(conn)
                    break
                try:
                    self._receive(conn, raw)
                except Exception:  # a fault of the port: said, logged, the connection stays
                    # not the message itself: a log-on carries the table's code or the PIN
                    log.exception("browser terminal %s: message of %d", conn.serial, len(raw))
                    self._bad(conn, None, "the hub could not read this message: call the director")
        except ConnectionClosed:
            pass
        finally:
            conn.closed = True
            writer.cancel()
            self.connections.discard(conn)
            if (left_open := self.peers.pop(conn.peer, 1) - 1) > 0:
                self.peers[conn.peer] = left_open
            if conn.address and self.current.get(conn.address) is conn:
                del self.current[conn.address]
                ask = Ask(conn, None, "left")
                left = tp.Left(self._ref(conn), ask, "connection closed", session=conn.session)
                self.inbound.put_nowait(left)

    async def _flooded(self, conn: Connection) -> None:
        """A connection over its message rate, or its device's: closed (1008; a page
        reconnects after its pause), logged, and told to the hub once for the audit trail
        (``frames_refused``, FLOOD); its further frames are never read."""
        log.warning(
            "browser terminal %s at %s sends too fast: connection closed",
            conn.serial or "(before hello)",
            conn.peer,
        )
        self.stats["refused"] += 1
        detail = {"session": conn.session, "peer": conn.peer}
        self.inbound.put_nowait(tp.Rejected(self._ref(conn), "FLOOD", TOO_FAST, detail))
        conn.closed = True
        with contextlib.suppress(ConnectionClosed):
            await conn.ws.close(1008, TOO_FAST)

    async def _write(self, conn: Connection) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                text = await conn.outbox.get()
                await conn.ws.send(text)
                self.stats["frames_out"] += 1

    def _send(self, conn: Connection | None, obj: dict[str, Any]) -> None:
        if conn is None or conn.closed:
            return
        if conn.outbox.qsize() >= OUTBOX:  # a page that reads nothing: it reconnects
            log.warning("browser terminal %s reads nothing: connection closed", conn.serial)
            conn.closed = True
            closing = asyncio.ensure_future(conn.ws.close(1008, "too many messages waiting"))
            self._closing.add(closing)
            closing.add_done_callback(self._closing.discard)
            return
        conn.outbox.put_nowait(json.dumps(obj))

    def _ref(self, conn: Connection) -> tp.TerminalRef:
        return tp.TerminalRef(self.name, conn.address)

    def _bad(
        self, conn: Connection, mid: int | None, text: str, reason: str = "bad_request"
    ) -> None:
        """A message the port refuses itself: answered, logged, and told to the hub (audited
        per terminal and minute); the connection stays open."""
        self.stats["garbage" if reason == "bad_request" else "refused"] += 1
        self._send(conn, views.refusal(mid, reason, text))
        detail = {"session": conn.session, "id": mid}
        self.inbound.put_nowait(tp.Rejected(self._ref(conn), reason.upper(), text, detail))

    def _receive(self, conn: Connection, raw: str | bytes) -> None:
        try:
            msg = messages.parse(raw)
        except messages.BadRequest as e:
            self._bad(conn, None, str(e))
            return
        mid = messages.request_id(msg)
        if msg.get("type") == "hello":
            self._hello(conn, msg)
            return
        if mid is None:
            self._bad(conn, None, "every message but hello carries id, a whole number")
            return
        if not conn.serial:
            self._bad(conn, mid, "say hello first (with the device id)")
            return
        if mid in conn.pending:
            text = f"request {mid} is still waiting for its answer: send it again after a reconnect"
            self._bad(conn, None, text)
            return
        if len(conn.pending) >= PENDING:  # a flood: the hub's queue stays bounded
            text = f"{PENDING} requests are waiting for the hub: this one goes again in a moment"
            self._bad(conn, mid, text, "busy")
            return
        try:
            kind, f = messages.fields(msg)
            ask = Ask(conn, mid, kind)
            req = messages.request(kind, f, self._ref(conn), ask, conn.session, conn.serial)
        except messages.BadRequest as e:
            self._bad(conn, mid, str(e))
            return
        if isinstance(req, tp.LogonRequest) and not req.director_pin:
            if wait := self.wrong_codes.wait(conn.peer, conn.serial):
                self._bad(conn, mid, wait, "bad_code")
                return
            verdict = self.codes.check(req.section, req.table, f["code"], conn.serial)
            where = f"{req.section}{req.table}"
            if verdict.wrong:  # a code given that is not the table's (docs/web-terminal.md)
                self.wrong_codes.failed(conn.peer, conn.serial, where)
            elif verdict.right:  # its typos of this table's code are forgiven
                self.wrong_codes.right(conn.peer, conn.serial, where)
            if verdict.reason is not None:
                self._bad(conn, mid, verdict.text, verdict.reason)
                return
        if isinstance(req, tp.LogonRequest):
            req = tp.LogonRequest(
                req.ref,
                Ask(conn, mid, kind, (req.section, req.table, self.codes.generation(req))),
                req.serial,
                req.section,
                req.table,
                req.director_pin,
                session=req.session,
            )
        conn.pending.add(mid)
        self.inbound.put_nowait(req)

    def _hello(self, conn: Connection, msg: dict[str, Any]) -> None:
        """A device introduces itself: its serial, its address (the same for the hub's run)
        and a new session on it; the hub's answer is the ``welcome``."""
        if conn.serial:
            self._bad(conn, None, "hello once per connection")
            return
        try:
            device = messages.hello(messages.fields(msg)[1])
        except messages.BadRequest as e:
            self._bad(conn, None, str(e))
            return
        serial = serial_of(device)
        if serial not in self.addresses and (refused := self._new_device(conn.peer)):
            self._bad(conn, None, refused, "not_allowed")
            return
        conn.serial = serial
        conn.address = self.addresses.setdefault(conn.serial, len(self.addresses) + 1)
        self.sessions += 1
        conn.session = self.sessions
        previous = self.current.get(conn.address)
        self.current[conn.address] = conn  # views go to the device's latest connection
        if previous is not None:
            log.info("%s connected again (session %d)", conn.serial, conn.session)
        ask = Ask(conn, None, "hello")
        joined = tp.Joined(self._ref(conn), ask, conn.serial, station=False, session=conn.session)
        self.inbound.put_nowait(joined)

    def _new_device(self, peer: str) -> str:
        """Why a device id not seen before in this run is refused (each is a terminal the
        hub and the console keep: a script making ids must not fill them), or ""."""
        if self.peer_devices.get(peer, 0) >= self.peer_devices_max:
            log.warning("browser terminals: %s brought %d device ids", peer, self.peer_devices_max)
            return (
                "too many new devices from this network address: reload the page in the "
                "browser used before, or ask the director"
            )
        if len(self.addresses) >= self.max_devices:
            log.warning("browser terminals: %d device ids, no more this run", len(self.addresses))
            return "the hub takes no more new devices this session: ask the director"
        self.peer_devices[peer] = self.peer_devices.get(peer, 0) + 1
        return ""

    # -- the port ----------------------------------------------------------------------------
    def answer(self, request: tp.Request, verdict: tp.Verdict) -> None:
        ask = request.token
        assert isinstance(ask, Ask)
        conn = ask.conn
        if ask.kind == "left":
            return
        if ask.kind == "hello":
            if verdict.outcome is tp.Outcome.REFUSED:
                self._send(conn, views.answer(None, verdict))
            else:
                self._send(
                    conn,
                    views.welcome(
                        conn.serial, self.event, self.event_key, self.language, messages.VERSION
                    ),
                )
            return
        assert ask.id is not None
        if ask.id not in conn.pending:  # answered already (never twice), or another session's
            log.warning("%s: request %d answered twice; dropped %r", conn.serial, ask.id, verdict)
            return
        conn.pending.discard(ask.id)
        if ask.logon is not None and verdict.outcome is tp.Outcome.OK:
            self.codes.used(*ask.logon, conn.serial)
        if verdict.outcome is tp.Outcome.REFUSED:
            self.stats["refused"] += 1
        self._send(conn, views.answer(ask.id, verdict))

    def assign(self, address: int, assignment: tp.TableAssignment) -> None:
        self._send(self.current.get(address), views.assignment(self.numbering, assignment))

    def show_result(self, address: int, view: TravellerView) -> None:
        self._send(self.current.get(address), views.traveller(self.numbering, view))

    def show_hand(self, address: int, view: tp.HandView) -> None:
        self._send(self.current.get(address), views.hand(view))

    def match_score(self, address: int, view: tp.MatchScoreView) -> None:
        self._send(self.current.get(address), views.match_score(self.numbering, view))

    def message(self, address: int, text: str, beep: bool) -> None:
        self._send(self.current.get(address), views.message(text, beep))

    def ranking(self, address: int, page: tp.RankingView) -> None:
        self._send(self.current.get(address), views.ranking(self.numbering, page))

    def clock(self, address: int, clock: tp.ClockView) -> None:
        self._send(self.current.get(address), views.clock(clock))

    def player_name(self, address: int, view: tp.PlayerNameView) -> None:
        self._send(self.current.get(address), views.player_name(view))

    def next_seating(self, address: int, view: tp.NextSeatingView) -> None:
        self._send(self.current.get(address), views.next_seating(self.numbering, view))

    def session(self, address: int, view: tp.SessionView) -> None:
        self._send(self.current.get(address), views.session(view))

    def status(self) -> dict[str, Any]:
        """The devices read's line for the browser terminals (as a base station's, so the
        console's Devices tab reads it too)."""
        return {
            "kind": "web",
            "url": self.url,
            "connected": True,
            "reconnects": max(0, self.stats["connections"] - len(self.addresses)),
            "online": len(self.current),
            "retransmits": 0,
            **self.stats,
        }
