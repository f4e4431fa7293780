"""Where the browser terminals listen and the address the phones are given: ``--terminals
HOST:PORT`` read, the error when the port cannot be had, and the link to print. Kept apart
from the server so that ``bridgehub run`` without ``--terminals`` never imports it."""

from __future__ import annotations

import contextlib
import errno
import socket

WILDCARDS = {"", "0.0.0.0", "::"}  # listen on every address: not an address to give a phone


class TerminalsUnavailable(OSError):
    """The browser terminals' port cannot be opened; the message says why and what to do."""


def terminals_address(given: str) -> tuple[str, int]:
    """``--terminals HOST:PORT`` read (port 0: any free one; ``ValueError`` saying how to
    write it)."""
    host, _, port = given.rpartition(":")
    if not host or not port.isdigit() or int(port) > 65535:
        raise ValueError(
            f"{given!r}: write HOST:PORT, e.g. 10.0.0.2:7180 (this machine's address on the "
            "venue network, which the phones reach)"
        )
    return host.strip("[]"), int(port)


def listen_error(
    host: str,
    port: int,
    e: OSError,
    what: str = "the browser terminals",
    option: str = "--terminals",
) -> str:
    """Why ``what`` cannot have the port, and what the TD does about it (``option``)."""
    where = f"{what} cannot listen on {host}:{port}"
    if e.errno == errno.EADDRINUSE:
        return (
            f"{where}: port {port} is already in use (another hub, or another program?): "
            f"stop it or give another {option} HOST:PORT"
        )
    if e.errno == errno.EADDRNOTAVAIL:
        return f"{where}: {host} is not an address of this machine (see `ip address`)"
    return f"{where}: {e.strerror or e}"


def venue_host(host: str) -> str:
    """The address to put in the phones' link for a server on ``host``: ``host`` itself,
    or for a wildcard (0.0.0.0, ::) the address this machine's default route leaves from
    (a UDP socket's ``connect`` picks it without sending anything), else its name."""
    if host not in WILDCARDS:
        return host
    family = socket.AF_INET6 if host == "::" else socket.AF_INET
    probe = "2001:db8::1" if family == socket.AF_INET6 else "192.0.2.1"  # documentation nets
    with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as s:
        s.connect((probe, 9))
        found = str(s.getsockname()[0])
        if found not in WILDCARDS:
            return found
    return socket.gethostname()


def page_url(host: str, port: int) -> str:
    """The terminals' page as a phone on the venue network opens it."""
    shown = venue_host(host)
    return f"http://{f'[{shown}]' if ':' in shown else shown}:{port}/"
