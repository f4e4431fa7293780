"""One HTTP response for both web servers (``hub/http/responses.py``): the status line, the
body's length and type and the security headers, in the order both servers always sent
them; each server keeps its own Content-Security-Policy (and the browser terminals their
``Referrer-Policy``)."""

from __future__ import annotations

import asyncio
import email.utils
import http.client
from http import HTTPStatus

import pytest

from hub.http.responses import http_response, policy_host
from hub.web_results import server as results
from hub.web_results.server import ResultsServer
from hub.web_terminal import server as terminals

TEXT = "text/plain; charset=utf-8"
POLICY = "default-src 'self'"
TERMINALS_POLICY = (
    "default-src 'self'; connect-src 'self'{ws}; img-src 'self'; style-src 'self'; "
    "script-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
RESULTS_POLICY = (
    "default-src 'self'; connect-src 'self'{ws}; img-src 'self'; style-src 'self'; "
    "script-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


def fields(response) -> list[tuple[str, str]]:
    """The headers in order, ``Date`` checked as an HTTP date and left out."""
    items = list(response.headers.raw_items())
    assert items[0][0] == "Date"
    assert email.utils.parsedate_to_datetime(items[0][1]).tzinfo is not None
    return items[1:]


def security(kind: str, length: int, policy: str) -> list[tuple[str, str]]:
    return [
        ("Connection", "close"),
        ("Content-Length", str(length)),
        ("Content-Type", kind),
        ("Cache-Control", "no-store"),
        ("Content-Security-Policy", policy),
        ("X-Content-Type-Options", "nosniff"),
    ]


def test_a_response_carries_its_body_type_length_and_the_security_headers():
    r = http_response(HTTPStatus.NOT_FOUND, b"not found", TEXT, POLICY)
    assert (r.status_code, r.reason_phrase, r.body) == (404, "Not Found", b"not found")
    assert fields(r) == security(TEXT, 9, POLICY)


def test_a_referrer_policy_comes_last_when_asked_for():
    r = http_response(
        HTTPStatus.OK, b"", "text/html; charset=utf-8", POLICY, referrer_policy="no-referrer"
    )
    html = security("text/html; charset=utf-8", 0, POLICY)
    assert fields(r) == [*html, ("Referrer-Policy", "no-referrer")]


def test_the_length_counts_bytes_not_characters():
    body = "Västerås ♠".encode()
    assert dict(fields(http_response(HTTPStatus.OK, body, TEXT, POLICY)))["Content-Length"] == "14"


@pytest.mark.parametrize("host", ["10.0.0.2:7180", "hub.local", "[::1]:8080", "x" * 255])
def test_a_plain_host_may_be_named_in_a_policy(host):
    assert policy_host(host) == host


@pytest.mark.parametrize(
    "host", [None, "", "a b", "evil\r\nSet-Cookie: x=1", "h;script-src *", "h'", "x" * 256]
)
def test_any_other_host_is_named_in_no_policy(host):
    assert policy_host(host) is None


@pytest.mark.parametrize(
    ("host", "ws"),
    [("10.0.0.2:7180", " ws://10.0.0.2:7180"), (None, ""), ("a;b", ""), ("x\r\ny", "")],
)
def test_the_browser_terminals_responses_are_as_they_were(host, ws):
    """docs/web-terminal.md "What the server serves": no-store, this origin only, no
    referrer (a table's link carries its code)."""
    r = terminals.response(HTTPStatus.OK, b"page", "text/html; charset=utf-8", host)
    policy = TERMINALS_POLICY.format(ws=ws)
    want = [*security("text/html; charset=utf-8", 4, policy), ("Referrer-Policy", "no-referrer")]
    assert (r.status_code, r.body, fields(r)) == (200, b"page", want)
    missing = terminals.not_found(host, "index.html is missing")
    assert (missing.status_code, missing.body) == (404, b"index.html is missing")
    assert dict(fields(missing))["Content-Type"] == TEXT


@pytest.mark.parametrize(
    ("host", "ws"),
    [("10.0.0.2:8080", " ws://10.0.0.2:8080 wss://10.0.0.2:8080"), (None, ""), ("a b", "")],
)
def test_the_results_pages_responses_are_as_they_were(host, ws):
    """The results pages: no-store, this origin and its ``/live`` WebSocket only; no
    Referrer-Policy (the pages carry nothing secret)."""
    r = results.response(HTTPStatus.OK, b"<html>", "text/html; charset=utf-8", host)
    want = security("text/html; charset=utf-8", 6, RESULTS_POLICY.format(ws=ws))
    assert (r.status_code, r.body, fields(r)) == (200, b"<html>", want)
    assert fields(results.response(HTTPStatus.BAD_REQUEST, b"bad request", TEXT)) == security(
        TEXT, 11, RESULTS_POLICY.format(ws="")
    )


def test_the_results_server_sends_them_over_http():
    """On the wire, a page and a file of ``bridgehub web`` (no hub needed: the pages wait
    for it) with the helper's headers in its order (``websockets`` adds ``Server``)."""

    def get(port: int, path: str) -> tuple[int, list[tuple[str, str]], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            conn.request("GET", path)
            r = conn.getresponse()
            return r.status, r.getheaders(), r.read()
        finally:
            conn.close()

    async def scenario() -> None:
        server = ResultsServer("ws://127.0.0.1:9/v1", "127.0.0.1", 0)
        await server.start()
        try:
            host = f"127.0.0.1:{server.port}"
            policy = RESULTS_POLICY.format(ws=f" ws://{host} wss://{host}")
            kinds = {"/web.css": "text/css; charset=utf-8", "/": "text/html; charset=utf-8"}
            for path, kind in (*kinds.items(), ("/nope", TEXT)):
                status, headers, body = await asyncio.to_thread(get, server.port, path)
                assert status == (404 if path == "/nope" else 200), path
                sent = [(k, v) for k, v in headers if k not in ("Date", "Server")]
                assert sent == security(kind, len(body), policy), path
                assert headers[0][0] == "Date"
        finally:
            await server.stop()

    asyncio.run(scenario())
