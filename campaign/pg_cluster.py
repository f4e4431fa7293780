"""A private PostgreSQL cluster (decisions D13): initdb in a temporary directory, a port of
its own, trust authentication for ``postgres`` on 127.0.0.1, one database. A test or the
campaign that stops or restarts PostgreSQL uses one of these, never a shared server.

As root (initdb refuses root) every server command runs as the ``postgres`` user through
``su postgres -s /bin/sh -c …``, in a directory that user owns.

The server never outlives its owner: ``close`` runs from the context manager, from
``atexit`` and, while a cluster runs, when the process is sent SIGTERM or SIGHUP (pg_ctl
starts the postmaster in a session of its own, so no signal reaches it otherwise; issue
[MENDS]: a campaign stopped with SIGTERM left its cluster running).

``python -m campaign.pg_cluster COMMAND…`` runs a command with a private cluster's URL in
``BRIDGEHUB_TEST_PG_URL`` (``bash dev.sh test`` does, when no server answers on 5432).

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
import signal
import socket
import subprocess
import sys
import tempfile
import threading
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


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP while a private cluster runs: raised like Ctrl-C, so the program
    unwinds (its ``finally`` blocks, the context manager, ``atexit``) and the cluster is
    stopped and removed, instead of the process vanishing with its server left running."""


_STOP_SIGNALS = ("SIGTERM", "SIGHUP")
_running: set[int] = set()  # id() of the clusters this process has running
_installed: dict[int, object] = {}  # signal number -> the handler it had before ours


def _terminated(signum: int, frame: object) -> None:
    raise Terminated(f"{signal.Signals(signum).name}: stopping the private PostgreSQL cluster")


def _catch_stop_signals(cluster: PrivateCluster) -> None:
    """While ``cluster`` runs, SIGTERM/SIGHUP raise ``Terminated`` (main thread only, and only
    where the signal would otherwise kill the process outright)."""
    _running.add(id(cluster))
    if threading.current_thread() is not threading.main_thread():
        return
    for name in _STOP_SIGNALS:
        number = getattr(signal, name, None)
        if number is None or number in _installed:
            continue
        if signal.getsignal(number) is signal.SIG_DFL:
            _installed[number] = signal.signal(number, _terminated)


def _release_stop_signals(cluster: PrivateCluster) -> None:
    """The last running cluster closed: the signals' own handlers back."""
    _running.discard(id(cluster))
    if _running or threading.current_thread() is not threading.main_thread():
        return
    for number, before in list(_installed.items()):
        if signal.getsignal(number) is _terminated:
            signal.signal(number, before)  # type: ignore[arg-type]
        del _installed[number]


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
        _catch_stop_signals(self)
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
        _release_stop_signals(self)

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


def run_with_cluster(command: list[str], *, database: str = "test") -> int:
    """Run ``command`` with a private cluster's URL in ``BRIDGEHUB_TEST_PG_URL`` and stop the
    cluster when it ends (``bash dev.sh test`` where no server answers on 127.0.0.1:5432).
    A SIGTERM to this process is passed on to the command before the cluster stops."""
    if not command:
        raise SystemExit("usage: python -m campaign.pg_cluster COMMAND [ARG...]")
    with PrivateCluster(database) as pg:
        print(
            f"PostgreSQL for the tests: a private cluster, {pg.url} (stopped at the end)",
            file=sys.stderr,
        )
        child = subprocess.Popen(command, env={**os.environ, "BRIDGEHUB_TEST_PG_URL": pg.url})
        try:
            return child.wait()
        except KeyboardInterrupt as stop:  # Ctrl-C reached the command too; SIGTERM did not
            if isinstance(stop, Terminated) and child.poll() is None:
                child.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.wait(60)
            if child.poll() is None:
                child.kill()
                child.wait(30)
            raise


if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(run_with_cluster(args[1:] if args[:1] == ["--"] else args))
