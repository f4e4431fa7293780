"""The browser terminals' server (docs/web-terminal.md "What the server serves"): the page
over HTTP and the terminal protocol over a WebSocket, on one port, with the `websockets`
library (its ``process_request`` answers the plain HTTP requests). Only the page's own
files, from ``hub/web_terminal/page/``, by name: nothing else on the disk is reachable.
Every response says ``Cache-Control: no-store`` and allows the hub's own origin only.

``web_terminals`` builds the port, its table codes' check and this server for a hub.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from urllib.parse import urlsplit

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import MultipleValuesError
from websockets.http11 import Request, Response

from hub.event.pair_labels import numbering
from hub.http.responses import http_response, policy_host
from hub.live.results.intake import Intake
from hub.live.results.stored import Stored
from hub.store.store import Store
from hub.web_terminal.address import TerminalsUnavailable, listen_error, page_url
from hub.web_terminal.codes_check import CodesCheck
from hub.web_terminal.port import WebTerminalPort, peer_of

log = logging.getLogger(__name__)
PAGE = Path(__file__).parent / "page"
PAGE_FILE = "index.html"  # the form (/) and each table's terminal page (/t/A3?c=...)
TABLE_PAGE = re.compile(r"/t/[A-Za-z]{1,4}[0-9]{1,4}")
STATIC = re.compile(r"/static/([A-Za-z0-9_-][A-Za-z0-9_.-]{0,63})")
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".txt": "text/plain; charset=utf-8",
}
MAX_MESSAGE = 16 * 1024  # a terminal's message is a few hundred bytes
CLOSE_TIMEOUT = 2.0  # seconds a page has to answer the hub's close (the hub's stop waits)


def policy(host: str | None) -> str:
    """The Content-Security-Policy: this origin only (its WebSocket named as well, for
    browsers that do not count ws: as 'self')."""
    named = policy_host(host)
    ws = f" ws://{named}" if named else ""
    return (
        f"default-src 'self'; connect-src 'self'{ws}; img-src 'self'; style-src 'self'; "
        "script-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )


def response(status: HTTPStatus, body: bytes, kind: str, host: str | None) -> Response:
    """A response with this server's policy (``hub/http/responses.py``); no referrer: a
    table's link carries its code."""
    return http_response(status, body, kind, policy(host), referrer_policy="no-referrer")


def not_found(host: str | None, text: str = "not found") -> Response:
    return response(HTTPStatus.NOT_FOUND, text.encode(), TYPES[".txt"], host)


def page_file(path: str) -> str | None:
    """The page's file a request path names, or None (404): ``/`` and ``/t/<table>`` the
    page, ``/static/<name>`` a file by its bare name (no folders, no '..')."""
    if path == "/" or TABLE_PAGE.fullmatch(path):
        return PAGE_FILE
    m = STATIC.fullmatch(path)
    if m and ".." not in m.group(1) and Path(m.group(1)).suffix in TYPES:
        return m.group(1)
    return None


class WebTerminalServer:
    """HTTP and the terminals' WebSocket on one port; serves on the hub's asyncio loop (the
    page's files are read in worker threads)."""

    def __init__(
        self, port: WebTerminalPort, host: str, port_number: int, page: Path = PAGE
    ) -> None:
        self.port = port
        self.host, self.port_number = host, port_number
        self.page = page
        self._server: Server | None = None

    @property
    def url(self) -> str:
        return page_url(self.host, self.port_number)

    async def start(self) -> None:
        """Listen (``TerminalsUnavailable`` when the address cannot be had)."""
        try:
            self._server = await serve(
                self.port.serve,
                self.host,
                self.port_number,
                process_request=self._http,
                max_size=MAX_MESSAGE,
                close_timeout=CLOSE_TIMEOUT,
            )
        except OSError as e:
            raise TerminalsUnavailable(
                e.errno, listen_error(self.host, self.port_number, e)
            ) from None
        if self.port_number == 0:
            self.port_number = self._server.sockets[0].getsockname()[1]
        self.port.url = self.url

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _http(self, conn: ServerConnection, request: Request) -> Response | None:
        """A plain HTTP request answered (the page, its files, 404), or None: ``/ws`` goes
        on to the WebSocket handshake (unless this peer has too many connections open)."""
        try:
            host = request.headers.get("Host")
            origin = request.headers.get("Origin")
            path = urlsplit(request.path).path
            other_site = origin is not None and urlsplit(origin).netloc != host
        except (MultipleValuesError, ValueError) as e:  # two Host headers, a broken URL
            # not the path: a table's link carries its code
            log.warning("browser terminal server: bad request from %s (%s)", peer_of(conn), e)
            text = "bad request: one Host and one Origin header, and a plain path"
            return response(HTTPStatus.BAD_REQUEST, text.encode(), TYPES[".txt"], None)
        if path == "/ws":
            if other_site:
                log.warning("browser terminal from another site refused: origin %.80s", origin)
                text = "browser terminals connect from the hub's own page"
                return response(HTTPStatus.FORBIDDEN, text.encode(), TYPES[".txt"], host)
            full = self.port.full(peer_of(conn))
            if full:
                return response(HTTPStatus.SERVICE_UNAVAILABLE, full.encode(), TYPES[".txt"], host)
            return None
        name = page_file(path)
        if name is None:
            return not_found(host)
        file = self.page / name
        try:
            body = await asyncio.to_thread(file.read_bytes)
        except OSError:
            log.warning("the browser terminal's page has no %s (in %s)", name, self.page)
            return not_found(host, f"{name} is missing from the hub's page folder")
        return response(HTTPStatus.OK, body, TYPES[file.suffix], host)


@dataclass
class WebTerminals:
    """A hub's browser terminals: the port, its table codes and its server; on the hub's
    asyncio loop."""

    port: WebTerminalPort
    codes: CodesCheck
    server: WebTerminalServer

    async def start(self) -> None:
        """The codes first (made where missing) and the event's key (the pages keep their
        table's state under it), then the port opens."""
        await self.codes.load()
        codes = self.codes
        self.port.event_key = await asyncio.to_thread(codes.store.event_key, codes.event_id)
        await self.server.start()

    async def stop(self) -> None:
        await self.server.stop()
        await self.port.stop()


def web_terminals(
    store: Store, event_id: int, stored: Stored, intake: Intake, at: tuple[str, int] | None
) -> WebTerminals | None:
    """Browser terminals for the hub of ``stored``'s event on ``at`` (host, port; 0: any
    free port; None: no browser terminals), their log-ons checked against the table codes
    and ``intake``'s holders."""
    if at is None:
        return None
    tables = [(s, t) for s, m in stored.movements.items() for t in m.tables(s)]
    codes = CodesCheck(store, event_id, tables)
    codes.held_by = lambda section, table: intake.holders.get((section, table))
    codes.allow_takeover = intake.allow_takeover
    codes.is_table = lambda s, t: s in intake.movements and t in intake.movements[s].tables(s)
    info = stored.event.event
    language = "sv" if info.language == "sv" else "en"
    port = WebTerminalPort(codes, info.name, language)
    port.set_numbering(numbering(stored.movements))
    return WebTerminals(port, codes, WebTerminalServer(port, *at))
