"""An exclusive lock on a small file, held by one process for as long as it keeps the file
open: ``flock``, which the system releases when the process ends, ``kill -9`` included. The
file holds a note naming its holder, which a refused caller reads back for its message. Used
by the line locks here and by the hub's store lock; not tied to a loop (the command line
takes and releases them around the hub's run)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import IO


class FileLocked(RuntimeError):
    """The file is locked by another process; ``holder`` is its note ("" if none)."""

    def __init__(self, holder: str) -> None:
        super().__init__(holder)
        self.holder = holder


def try_lock(path: Path, note: str, shared: bool = False) -> IO[str]:
    """The open, locked file, with ``note`` written in it; raises ``FileLocked`` when another
    process holds it. ``shared``: a file other users may open too (made world-writable; one
    made by another user without write access is locked read-only, note unwritten)."""
    import fcntl  # POSIX only; imported here so the module loads everywhere

    try:
        f = path.open("a+", encoding="utf-8")
    except PermissionError:
        if not shared:
            raise
        f = path.open(encoding="utf-8")
    if shared:
        with contextlib.suppress(OSError):
            path.chmod(0o666)  # the next user may open it too (best effort)
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        f.seek(0)
        holder = f.read().strip()
        f.close()
        raise FileLocked(holder) from None
    except OSError:
        f.close()
        raise
    if f.writable():
        f.seek(0)
        f.truncate()
        f.write(note)
        f.flush()
    return f


def unlock(f: IO[str] | None) -> None:
    """Clear the note and close the file, which releases the lock (None: nothing held)."""
    if f is None:
        return
    if f.writable():
        with contextlib.suppress(OSError):
            f.truncate(0)
    f.close()
