"""Simulated lines: a real pseudo-terminal the hub opens like a serial port (behind a
stable symlink, as udev gives real base stations), with unplug and replug; or a TCP line
where the platform has no pseudo-terminals (Windows)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path

NO_PTYS = (
    "this platform has no pseudo-terminals: serve the simulated lines over TCP with "
    "--listen HOST:PORT (or --port PORT) and give the hub socket://HOST:PORT"
)


class NoPtys(OSError):
    """Asked for a pty line where the platform has none."""


def ptys_available() -> bool:
    """Pseudo-terminals need ``os.openpty`` and the ``tty`` module (POSIX: Linux, macOS)."""
    if not hasattr(os, "openpty"):
        return False
    try:
        import tty  # noqa: F401
    except ImportError:
        return False
    return True


class PtyLine:
    """The device end of a pty pair. The hub opens ``path`` (a symlink to the pty).
    Used on the simulator's asyncio loop."""

    @property
    def url(self) -> str:
        return str(self.path)

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.master: int | None = None
        self._slave: int | None = None
        self.plug()

    def plug(self) -> None:
        if not ptys_available():
            raise NoPtys(NO_PTYS)
        import tty

        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no CR/LF translation before the hub opens it
        os.set_blocking(master, False)
        self.master, self._slave = master, slave
        tmp = self.path.with_name(self.path.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        tmp.symlink_to(os.ttyname(slave))
        tmp.replace(self.path)

    def unplug(self) -> None:
        """Like yanking the cable: the hub's next read fails, and the symlink goes as udev
        removes it (left in place, it would name a pty number that another process may
        take next, and the hub would open that one)."""
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        for fd in (self.master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.master = self._slave = None

    @property
    def plugged(self) -> bool:
        return self.master is not None

    def close(self) -> None:
        self.unplug()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()


class SocketLine:
    """The device end of a TCP line: the hub opens ``socket://host:port`` (decisions D8).
    One hub connection at a time; a closed connection is an unplug."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        import socket

        self._listener = socket.create_server((host, port))
        self._listener.setblocking(False)
        self.host, self.port = self._listener.getsockname()[:2]
        self._conn: socket.socket | None = None
        self.master: int | None = None
        self.on_connect: Callable[[], None] | None = None
        self.path = Path(f"{self.host}:{self.port}")

    @property
    def url(self) -> str:
        return f"socket://{self.host}:{self.port}"

    def listen(self) -> None:
        import asyncio

        asyncio.get_running_loop().add_reader(self._listener.fileno(), self._accept)

    def _accept(self) -> None:
        try:
            conn, _ = self._listener.accept()
        except BlockingIOError:
            return
        self.unplug()
        conn.setblocking(False)
        self._conn = conn
        self.master = conn.fileno()
        if self.on_connect is not None:
            self.on_connect()

    def plug(self) -> None:
        """Nothing to do: the next hub connection plugs the line in."""

    def unplug(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(OSError):
                self._conn.close()
        self._conn = None
        self.master = None

    @property
    def plugged(self) -> bool:
        return self.master is not None

    def close(self) -> None:
        import asyncio

        self.unplug()
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(self._listener.fileno())
        self._listener.close()
