"""One hub per line (issue [TRUST]): a lock a program holds on a base station's line for its
whole life, whether or not the device is plugged in at the moment, so a second hub on the
same station refuses to start instead of fighting the first for the terminals.

The lock is an OS lock (``flock``) on a small file named after the line, in a directory
every user of the machine shares; the system releases it when the process ends, ``kill -9``
included. A serial device path is named by its real path (``/dev/bridgehub/base-1`` and the
``/dev/ttyUSB0`` it links to are one line); a pseudo-terminal (the simulator's lines) by the
path given, since its number is reused for another line once it is closed. The serial
transport also opens a device with pyserial's ``exclusive`` flag, so another program cannot
share an open port. Not tied to a loop: taken and released by the command line around the
hub's run.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from pathlib import Path
from typing import IO

from drivers.lock_file import FileLocked, try_lock, unlock


class LineLocked(RuntimeError):
    """Another program on this machine already holds the line."""


def line_identity(url: str) -> str:
    """What names a line whatever way it is written: a device path's real path, else the
    URL as given (``socket://``, ``usb:VID:PID[:SERIAL]``), lower-cased where case does not
    matter."""
    if "://" not in url and not url.lower().startswith("usb:"):
        real = os.path.realpath(url)
        # a pseudo-terminal's number is reused once it is closed: name it by its link
        return os.path.abspath(url) if real.startswith("/dev/pts/") else real
    if url.lower().startswith("usb:"):
        return url.lower()
    scheme, _, rest = url.partition("://")
    return f"{scheme.lower()}://{rest.lower()}"


def lock_dir() -> Path:
    """The shared directory of line locks (world-writable with the sticky bit, like /tmp)."""
    path = Path(os.environ.get("BRIDGEHUB_LOCK_DIR") or tempfile.gettempdir()) / "bridgehub-lines"
    if not path.is_dir():
        with contextlib.suppress(FileExistsError):
            path.mkdir()
        with contextlib.suppress(OSError):  # another user's directory: theirs to set
            path.chmod(0o1777)
    return path


class LineLock:
    """The lock of one line, held until ``release`` or the end of the process. Taken and
    released on the command line's main thread, outside the hub's loop."""

    def __init__(self, url: str, file: IO[str]) -> None:
        self.url = url
        self._file: IO[str] | None = file

    @classmethod
    def acquire(cls, url: str) -> LineLock:
        """Take the line's lock or raise ``LineLocked`` naming the holder."""
        identity = line_identity(url)
        digest = hashlib.sha256(identity.encode()).hexdigest()[:24]
        note = f"process {os.getpid()}, line {identity}"
        try:
            f = try_lock(lock_dir() / f"{digest}.lock", note, shared=True)
        except FileLocked as e:
            raise LineLocked(
                f"the base station {url} is already in use by another hub"
                f"{f' ({e.holder})' if e.holder else ''}: stop that hub first (one hub per line)"
            ) from None
        return cls(url, f)

    def release(self) -> None:
        """Give the line up (idempotent)."""
        f, self._file = self._file, None
        unlock(f)
