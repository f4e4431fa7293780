"""One HTTP response, as both web servers send it: the status line, ``Date``, ``Connection:
close``, the body's length and type, and the security headers (``Cache-Control: no-store``,
the server's own ``Content-Security-Policy``, ``X-Content-Type-Options: nosniff`` and, where
a server asks for it, a ``Referrer-Policy``). Each server keeps its own policy text (which
WebSockets it names, where its forms may go) and passes it in; ``policy_host`` is the one
check of the ``Host`` a policy may name.

Pure: builds a ``websockets`` ``Response`` (the servers' ``process_request`` sends it); any
thread.
"""

from __future__ import annotations

import email.utils
import re
from http import HTTPStatus

from websockets.datastructures import Headers
from websockets.http11 import Response

HOST = re.compile(r"[A-Za-z0-9.:\[\]-]{1,255}")  # a host[:port] safe to write into a policy


def policy_host(host: str | None) -> str | None:
    """The request's ``Host`` when a policy may name it (its WebSocket's address), else
    None: missing, or anything but letters, digits and ``.:[]-`` (no header injection)."""
    return host if host and HOST.fullmatch(host) else None


def http_response(
    status: HTTPStatus,
    body: bytes,
    content_type: str,
    policy: str,
    *,
    referrer_policy: str | None = None,
) -> Response:
    """A complete response: ``body`` as ``content_type`` under the server's
    Content-Security-Policy ``policy``; never cached, never type-sniffed; with
    ``referrer_policy`` when given (the browser terminals': a table's link carries its
    code)."""
    headers = Headers(
        [
            ("Date", email.utils.formatdate(usegmt=True)),
            ("Connection", "close"),
            ("Content-Length", str(len(body))),
            ("Content-Type", content_type),
            ("Cache-Control", "no-store"),
            ("Content-Security-Policy", policy),
            ("X-Content-Type-Options", "nosniff"),
        ]
    )
    if referrer_policy is not None:
        headers["Referrer-Policy"] = referrer_policy
    return Response(status.value, status.phrase, headers, body)
