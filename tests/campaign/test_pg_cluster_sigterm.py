"""Issue [MENDS] #25: "The campaign leaves its private PostgreSQL cluster running when stopped
with SIGTERM: stop it." A process that owns a private cluster (decisions D13) is sent
SIGTERM, as a CI runner or ``kill`` does; afterwards its postmaster must be gone and the
cluster's directory removed. pg_ctl starts the postmaster in a session of its own, so only
the owner can stop it. Real servers, real signals; every wait bounded."""

from __future__ import annotations

import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from external_tools import POSTGRES, need

START_S = 120.0  # initdb and the first start, on a busy machine
GONE_S = 60.0  # SIGTERM → the owner exited and its server stopped

OWNER = textwrap.dedent(
    """
    import sys, time
    from campaign.pg_cluster import PrivateCluster

    with PrivateCluster("sigterm") as pg:
        print("cluster", pg.dir, flush=True)
        time.sleep(600)
    """
)


def bridgehub() -> str:
    beside = Path(sys.executable).parent / "bridgehub"
    return str(beside) if beside.exists() else shutil.which("bridgehub") or "bridgehub"


def alive(pid: int) -> bool:
    """The process exists and is not a zombie (a reaped-late child is gone for us)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def postmaster_pid(data: Path) -> int:
    """The server's pid, from the first line of its postmaster.pid."""
    return int((data / "postmaster.pid").read_text().splitlines()[0])


def read_line_with(proc: subprocess.Popen[str], marker: str, timeout: float) -> tuple[str, str]:
    """The first stdout line containing ``marker`` (and all output so far), within
    ``timeout`` seconds; fails saying what the process printed."""
    assert proc.stdout is not None
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        while time.monotonic() < deadline:
            if not sel.select(timeout=0.5):
                if proc.poll() is not None:
                    break
                continue
            line = proc.stdout.readline()
            if not line:
                break
            seen.append(line)
            if marker in line:
                return line, "".join(seen)
    pytest.fail(f"no line with {marker!r} within {timeout:g} s; it printed:\n{''.join(seen)}")


@pytest.fixture
def cluster_tmp() -> Iterator[Path]:
    """A temporary directory the owner's clusters go in (TMPDIR), reachable by the
    ``postgres`` user when the tests run as root; any server still running in it at the
    end is stopped hard, so a failing test leaves nothing behind."""
    folder = Path(tempfile.mkdtemp(prefix="bridgehub-sigterm-"))
    folder.chmod(0o755)
    yield folder
    for pid_file in folder.glob("bridgehub-pg-*/data/postmaster.pid"):
        pid = postmaster_pid(pid_file.parent)
        if alive(pid):
            os.kill(pid, signal.SIGQUIT)  # postgres's immediate shutdown
    shutil.rmtree(folder, ignore_errors=True)


def wait_gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def sigterm_and_check(proc: subprocess.Popen[str], data: Path, printed: str) -> None:
    """SIGTERM the owner; it must end within GONE_S, its postmaster gone, its folder removed."""
    pid = postmaster_pid(data)
    assert alive(pid), f"the cluster's postmaster {pid} is not running\n{printed}"
    proc.send_signal(signal.SIGTERM)
    try:
        out, err = proc.communicate(timeout=GONE_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate(timeout=30)
        pytest.fail(f"the owner did not end within {GONE_S:g} s of SIGTERM\n{printed}{out}{err}")
    assert wait_gone(pid, GONE_S), (
        f"postmaster {pid} still runs {GONE_S:g} s after its owner got SIGTERM "
        f"(exit {proc.returncode})\n{printed}{out}\n{err[-3000:]}"
    )
    assert not data.parent.exists(), f"the cluster's folder {data.parent} was left behind"


def owner_env(tmp: Path) -> dict[str, str]:
    root = str(Path(__file__).parents[2])
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": path, "PYTHONUNBUFFERED": "1"}


def test_sigterm_stops_the_owners_private_cluster_mends(cluster_tmp):
    """[MENDS]: a process holding a PrivateCluster (the context manager, as tests and the
    campaign use it) is sent SIGTERM: the process ends and its server is stopped."""
    need(POSTGRES)
    proc = subprocess.Popen(
        [sys.executable, "-c", OWNER],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=owner_env(cluster_tmp),
    )
    try:
        line, printed = read_line_with(proc, "cluster ", START_S)
        sigterm_and_check(proc, Path(line.split(" ", 1)[1].strip()) / "data", printed)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=30)


@pytest.mark.slow
def test_sigterm_stops_the_campaigns_private_cluster_mends(cluster_tmp):
    """[MENDS] #25, as reported: ``bridgehub campaign --db postgres`` stopped with SIGTERM
    mid-run leaves no PostgreSQL server running."""
    need(POSTGRES)
    args = ["campaign", "--ci", "--db", "postgres", "--no-usb", "--sections", "1"]
    args += ["--tables", "5", "--rounds", "5", "--boards", "4", "--unplugs", "0"]
    args += ["--reboots", "0", "--kills", "0", "--speed", "5", "--timeout", "300"]
    args += ["--dir", str(cluster_tmp / "run")]
    proc = subprocess.Popen(
        [bridgehub(), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=owner_env(cluster_tmp),
    )
    try:
        _, printed = read_line_with(proc, "plan: ", START_S)  # the cluster is up by then
        found = sorted(cluster_tmp.glob("bridgehub-pg-*/data"))
        assert len(found) == 1, f"expected one private cluster in {cluster_tmp}: {found}"
        sigterm_and_check(proc, found[0], printed)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=30)
