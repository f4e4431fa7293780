"""Simulated lines: a real pseudo-terminal the hub opens like a serial port (behind a
stable symlink, as udev gives real base stations), with unplug and replug."""

from __future__ import annotations

import contextlib
import os
import tty
from pathlib import Path


class PtyLine:
    """The device end of a pty pair. The hub opens ``path`` (a symlink to the pty)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.master: int | None = None
        self._slave: int | None = None
        self.plug()

    def plug(self) -> None:
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
        """Like yanking the cable: the hub's next read fails."""
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
