"""``bridgehub run`` as the campaign runs it: its own process, started, killed with SIGKILL
(by the campaign, or by itself at a crash point: ``BRIDGEHUB_CRASH_AT``), started again,
and the time from each start to the first result acknowledged after it."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

CRASH_ENV = "BRIDGEHUB_CRASH_AT"


def hub_command() -> list[str]:
    """This checkout's installed ``bridgehub`` (the venv's, beside this interpreter)."""
    beside = Path(sys.executable).parent / "bridgehub"
    return [str(beside) if beside.exists() else shutil.which("bridgehub") or "bridgehub"]


@dataclass
class Recovery:
    """One start after a kill: why it died, the results stored when it started again, and
    how long from that start to the first result acknowledged (None: none came)."""

    cause: str
    stored: int
    started: float
    first_ack_s: float | None = None


@dataclass
class Exit:
    """How a hub process ended: by SIGKILL (``killed``) or otherwise (a finding)."""

    returncode: int
    cause: str
    stderr_tail: str = ""


@dataclass
class HubProcess:
    """The hub's process: ``args`` after ``bridgehub``, ``env`` added to this one's."""

    args: list[str]
    env: dict[str, str]
    folder: Path
    proc: subprocess.Popen[bytes] | None = None
    starts: int = 0
    crash_at: str | None = None  # what the running process was started with
    exits: list[Exit] = field(default_factory=list)
    _err_mark: int = 0

    @property
    def out_path(self) -> Path:
        return self.folder / "hub.out"

    @property
    def err_path(self) -> Path:
        return self.folder / "hub.err"

    def start(self, crash_at: str | None = None) -> float:
        """Start ``bridgehub run``; returns the monotonic time it was started."""
        env = {**os.environ, **self.env, "PYTHONUNBUFFERED": "1"}
        env.pop(CRASH_ENV, None)
        if crash_at:
            env[CRASH_ENV] = crash_at
        self.crash_at = crash_at
        self._err_mark = self.err_path.stat().st_size if self.err_path.exists() else 0
        with self.out_path.open("ab") as out, self.err_path.open("ab") as err:
            self.proc = subprocess.Popen(
                [*hub_command(), *self.args], stdout=out, stderr=err, env=env
            )
        self.starts += 1
        return time.monotonic()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def ended(self) -> Exit | None:
        """The exit of a process that ended by itself since the last look (else None)."""
        if self.proc is None or self.proc.poll() is None:
            return None
        code = self.proc.returncode
        tail = self.stderr_since_start()
        if code == -signal.SIGKILL and self.crash_at:
            cause = f"crash point {self.crash_at}"
        elif code == -signal.SIGKILL:
            cause = "SIGKILL from elsewhere"
        else:
            cause = f"exited with status {code}"
        self.proc = None
        found = Exit(code, cause, tail[-2000:])
        self.exits.append(found)
        return found

    def kill(self) -> Exit:
        """kill -9, now, and wait for the process to be gone."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)
        found = Exit(self.proc.returncode, "kill -9 by the campaign")
        self.proc = None
        self.exits.append(found)
        return found

    def stop(self, timeout: float = 30.0) -> int | None:
        """SIGTERM and wait (SIGKILL after ``timeout``); the status, None if not running."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(30)
        code = self.proc.returncode
        self.proc = None
        return code

    def stderr_since_start(self) -> str:
        if not self.err_path.exists():
            return ""
        with self.err_path.open("rb") as f:
            f.seek(self._err_mark)
            return f.read().decode("utf-8", "replace")
