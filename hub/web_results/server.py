"""The results pages' server (``bridgehub web``): plain HTTP for the pages and their two
files, and one WebSocket, ``/live``, that tells every open page the pages' version when
anything changed, on one port with the ``websockets`` library (its ``process_request``
answers the HTTP requests, as the browser terminals' server does). Only the named pages
and files: nothing on the disk is reachable by path."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from http import HTTPStatus
from urllib.parse import urlsplit

from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.http11 import Request, Response

from hub.http.responses import http_response, policy_host
from hub.report.render import TEMPLATES
from hub.web_results.hub_link import HubLink
from hub.web_results.live_view import live_view
from hub.web_results.pages import CSS, ResultsView, board_page, card_page, index_page
from hub.web_terminal.address import page_url

log = logging.getLogger(__name__)
LIVE_JS = TEMPLATES / "live.js"  # the pages' one script, beside their templates
BOARD = re.compile(r"/board-([A-Za-z]{1,4})-([0-9]{1,5})\.html")
CARD = re.compile(r"/card-([A-Za-z]{1,4})-([0-9]{1,5})\.html")
HTML = "text/html; charset=utf-8"
TEXT = "text/plain; charset=utf-8"


def policy(host: str | None) -> str:
    """The Content-Security-Policy: this origin only, its ``/live`` WebSocket named as well
    (for browsers that do not count ws: as 'self'), never any other host."""
    named = policy_host(host)
    ws = f" ws://{named} wss://{named}" if named else ""
    return (
        f"default-src 'self'; connect-src 'self'{ws}; img-src 'self'; style-src 'self'; "
        "script-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )


def response(status: HTTPStatus, body: bytes, kind: str, host: str | None = None) -> Response:
    """A response with this server's policy (``hub/http/responses.py``)."""
    return http_response(status, body, kind, policy(host))


class ResultsServer:
    """The pages for every browser, drawn from ``link`` (the hub's feed and results) on
    the loop; ``version`` goes up with every change and is pushed to the open pages."""

    def __init__(
        self,
        link_url: str,
        host: str,
        port: int,
        *,
        pin: str | None = None,
        language: str | None = None,
    ) -> None:
        self.host, self.port = host, port
        self.language = language
        self.link = HubLink(link_url, self._changed, pin=pin, language=language)
        self.version = 0
        self._pages: set[ServerConnection] = set()
        self._server: Server | None = None
        self._link_task: asyncio.Future[None] | None = None
        self._files = {
            "/web.css": (CSS.read_bytes(), "text/css; charset=utf-8"),
            "/live.js": (LIVE_JS.read_bytes(), "text/javascript; charset=utf-8"),
        }

    @property
    def url(self) -> str:
        return page_url(self.host, self.port)  # 0.0.0.0: the address phones reach

    async def start(self) -> None:
        self._server = await serve(self._live, self.host, self.port, process_request=self._http)
        if self.port == 0:
            self.port = self._server.sockets[0].getsockname()[1]
        self._link_task = asyncio.ensure_future(self.link.run())

    async def stop(self) -> None:
        if self._link_task is not None:
            self._link_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._link_task
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    def view(self) -> ResultsView:
        link = self.link
        return live_view(
            link.state, link.report, link.complete, self.version, self.language or "en"
        )

    def _changed(self) -> None:
        self.version += 1
        broadcast(self._pages, json.dumps({"version": self.version, "up": self.link.up}))

    def page(self, path: str) -> str | None:
        """The page at ``path`` (None: no such page)."""
        view = self.view()
        if path in ("/", "/index.html"):
            return index_page(view)
        board, card = BOARD.fullmatch(path), CARD.fullmatch(path)
        if (board or card) and not view.sections:  # not linked yet: "waiting", then live
            return index_page(view)
        if board:
            return board_page(view, board.group(1).upper(), int(board.group(2)))
        if card:
            return card_page(view, card.group(1).upper(), int(card.group(2)))
        return None

    async def _http(self, conn: ServerConnection, request: Request) -> Response | None:
        try:
            path = urlsplit(request.path).path
        except ValueError:
            return response(HTTPStatus.BAD_REQUEST, b"bad request", TEXT)
        if path == "/live":
            return None  # the WebSocket handshake goes on
        hosts = request.headers.get_all("Host")  # two: named in no policy
        host = hosts[0] if len(hosts) == 1 else None
        if path in self._files:
            body, kind = self._files[path]
            return response(HTTPStatus.OK, body, kind, host)
        try:
            html = self.page(path)
        except Exception:  # a page that cannot be drawn: logged, never the server's end
            log.exception("drawing %s", path)
            return response(HTTPStatus.INTERNAL_SERVER_ERROR, b"internal error", TEXT, host)
        if html is None:
            return response(HTTPStatus.NOT_FOUND, b"no such page", TEXT, host)
        return response(HTTPStatus.OK, html.encode(), HTML, host)

    async def _live(self, ws: ServerConnection) -> None:
        """An open page: told the version now and on every change, until it closes."""
        self._pages.add(ws)
        try:
            await ws.send(json.dumps({"version": self.version, "up": self.link.up}))
            await ws.wait_closed()
        finally:
            self._pages.discard(ws)
