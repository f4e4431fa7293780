"""A private PostgreSQL cluster (decisions D13): initdb in a temporary directory, a port of
its own, trust authentication for ``postgres`` on 127.0.0.1, one database. A test or the
campaign that stops or restarts PostgreSQL uses one of these, never a shared server.

As root (initdb refuses root) every server command runs as the ``postgres`` user through
``su postgres -s /bin/sh -c …``, as ``.ci/run`` does, in a directory that user owns.

    with PrivateCluster() as pg:
        run_hub(pg.url)
        pg.restart("immediate", down_s=3)  # a crash-like stop, 3 s down, then back
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import os
import re
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

MODES = ("smart", "fast", "immediate")  # pg_ctl's stop modes; immediate is a crash
COMMAND_S = 120.0  # the longest any one pg_ctl/initdb command may take


class ClusterError(RuntimeError):
    """A server command failed; the message has its output and the server's log tail."""


def _version_key(path: str) -> tuple[int, ...]:
    found = re.search(r"/postgresql/([\d.]+)/", path)
    return tuple(int(x) for x in found.group(1).split(".") if x) if found else (0,)


def find_bin_dir() -> Path | None:
    """The newest PostgreSQL's bin directory: /usr/lib/postgresql/*/bin (Debian), else
    wherever ``initdb`` is on PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version_key)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on just now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PrivateCluster:
    """One private PostgreSQL server and its database, for one test or campaign run.
    ``start`` makes it (initdb on the first call) and starts it; ``stop`` and ``restart``
    take a pg_ctl mode: ``fast`` (clients are disconnected, a clean shutdown) or
    ``immediate`` (a crash-like stop: the next start replays the WAL). ``close`` stops it and
    removes its directory; the context manager does both. Not thread-safe: one owner."""

    def __init__(
        self, database: str = "bridgehub", *, port: int | None = None, bin_dir: Path | None = None
    ) -> None:
        self.database = database
        self.port = port or free_port()
        self._port_chosen = port is None  # ours to change if it is taken before the start
        self.bin_dir = bin_dir or find_bin_dir()
        self.dir: Path | None = None
        self.running = False
        self._created = False

    # -- what a caller needs --------------------------------------------------------------
    @property
    def url(self) -> str:
        """The SQLAlchemy URL of the cluster's database (psycopg 3 driver)."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{self.database}"

    @property
    def log_path(self) -> Path | None:
        return self.dir / "server.log" if self.dir else None

    @staticmethod
    def available() -> str | None:
        """None when a private cluster can be made here; else why not, in plain words."""
        if os.name != "posix":
            return "a private PostgreSQL cluster needs a POSIX system"
        if find_bin_dir() is None:
            return (
                "no initdb found (/usr/lib/postgresql/*/bin or PATH): install PostgreSQL "
                "(Debian: apt-get install postgresql)"
            )
        if _is_root():
            import pwd

            try:
                pwd.getpwnam("postgres")
            except KeyError:
                return "running as root, and there is no postgres user to run the server as"
            if shutil.which("su") is None:
                return "running as root, and there is no su to run the server as postgres"
        return None

    # -- life -----------------------------------------------------------------------------
    def start(self) -> None:
        """Make the cluster on the first call (initdb, its database), then start the server
        and wait until it accepts connections. Idempotent while running."""
        if self.running:
            return
        why = self.available()
        if why is not None:
            raise ClusterError(why)
        first = self.dir is None
        if first:
            self._init()
        try:
            self._start_server()
        except ClusterError as e:  # its free port taken meanwhile: another, once
            if not (first and self._port_chosen) or "already in use" not in str(e):
                raise
            self.port = free_port()
            self._start_server()
        self.running = True
        if not self._created:
            self._run(
                self._bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U",
                "postgres", self.database,
            )  # fmt: skip
            self._created = True

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``, ``immediate`` or ``smart``); nothing if not running."""
        if mode not in MODES:
            raise ValueError(f"stop mode {mode!r}: use one of {', '.join(MODES)}")
        if not self.running:
            return
        self._pg_ctl("-m", mode, "-w", "-t", "60", "stop")
        self.running = False

    def restart(self, mode: str = "fast", down_s: float = 0.0) -> None:
        """Stop the server (``mode``), leave it down ``down_s`` seconds, start it again on
        the same port: clients see their connections broken and must reconnect."""
        self.stop(mode)
        if down_s > 0:
            time.sleep(down_s)
        self.start()

    def close(self) -> None:
        """Stop the server (fast, else immediate) and remove the cluster's directory."""
        with contextlib.suppress(ClusterError, subprocess.TimeoutExpired):
            self.stop("fast")
        if self.running:
            with contextlib.suppress(ClusterError, subprocess.TimeoutExpired):
                self.stop("immediate")
        folder, self.dir = self.dir, None
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
        atexit.unregister(self.close)

    def __enter__(self) -> PrivateCluster:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def log_tail(self, chars: int = 3000) -> str:
        """The end of the server's log (for a failure message)."""
        path = self.log_path
        if path is None or not path.exists():
            return ""
        with contextlib.suppress(OSError):
            return path.read_text("utf-8", errors="replace")[-chars:]
        return ""

    # -- the commands ---------------------------------------------------------------------
    def _init(self) -> None:
        folder = Path(tempfile.mkdtemp(prefix="bridgehub-pg-"))
        if _is_root():
            import pwd

            user = pwd.getpwnam("postgres")
            os.chown(folder, user.pw_uid, user.pw_gid)
        self.dir = folder
        atexit.register(self.close)  # a test that dies leaves no server behind
        self._run(
            self._bin("initdb"), "-D", str(folder / "data"), "-A", "trust", "-U", "postgres",
            "-E", "UTF8", "--no-locale", "--no-sync",
        )  # fmt: skip

    def _start_server(self) -> None:
        self._pg_ctl(
            "-o",
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1",
            "-l",
            str(self.log_path),
            "-w",
            "-t",
            "60",
            "start",
        )

    def _bin(self, name: str) -> str:
        assert self.bin_dir is not None
        return str(self.bin_dir / name)

    def _pg_ctl(self, *args: str) -> None:
        assert self.dir is not None
        self._run(self._bin("pg_ctl"), "-D", str(self.dir / "data"), *args)

    def _run(self, *argv: str) -> None:
        """One server command, as the postgres user when this process is root."""
        command = list(argv)
        if _is_root():
            command = ["su", "postgres", "-s", "/bin/sh", "-c", shlex.join(command)]
        done = subprocess.run(
            command,
            cwd=self.dir,
            capture_output=True,
            text=True,
            timeout=COMMAND_S,
            check=False,
            stdin=subprocess.DEVNULL,
        )
        if done.returncode != 0:
            raise ClusterError(
                f"{Path(argv[0]).name} {' '.join(argv[1:])} failed ({done.returncode}): "
                f"{done.stderr.strip() or done.stdout.strip()}\n{self.log_tail()}"
            )
