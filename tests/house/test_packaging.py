"""The program as installed elsewhere: it imports where POSIX terminals do not exist
(Windows), and optional parts (PostgreSQL, hand records) say which extra to install.

Each check runs in a fresh interpreter in which the missing modules are made unimportable
(``sys.modules[name] = None``) before anything of ours is imported."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).parents[2]
POSIX_ONLY = ("termios", "fcntl", "pty", "tty")

# pyserial picks its backend when imported (serialposix here, serialwin32 on Windows), so it
# is imported first, as on its own platform; then the POSIX-only modules go.
WITHOUT_POSIX_TERMINALS = f"""
import sys
import serial, serial.tools.list_ports, serial_asyncio_fast
for name in {POSIX_ONLY!r}:
    sys.modules[name] = None
"""

# Modules that are not imported as libraries: `python -m` entry points run the program, and
# Alembic's env script runs only inside Alembic. simulator.usb_device is the Linux-only
# umockdev emulation of the USB tests (it needs PyGObject).
NOT_LIBRARIES = ("hub.cli.__main__", "hub.store.migrations.env", "simulator.usb_device")


def python(prelude: str, body: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Runs ``prelude`` then ``body`` in a new interpreter in the repository root."""
    return subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(body), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def bridgehub(prelude: str, *args: str) -> subprocess.CompletedProcess[str]:
    return python(
        prelude,
        """
        from hub.cli.main import main
        sys.argv = ["bridgehub", *sys.argv[1:]]
        main()
        """,
        *args,
    )


def test_every_module_imports_without_posix_terminals():
    """scoring/, drivers/, hub/ and simulator/ import on Windows: no termios, fcntl, pty or
    tty at import time (they are imported where a pty or a serial port is opened)."""
    r = python(
        WITHOUT_POSIX_TERMINALS,
        f"""
        import importlib, json, pkgutil
        failed, imported = {{}}, []
        for top in ("scoring", "drivers", "hub", "simulator"):
            package = importlib.import_module(top)
            for info in pkgutil.walk_packages(package.__path__, top + "."):
                if info.name in {NOT_LIBRARIES!r}:
                    continue
                try:
                    importlib.import_module(info.name)
                    imported.append(info.name)
                except Exception as e:
                    failed[info.name] = repr(e)
        print(json.dumps({{"failed": failed, "imported": imported}}))
        """,
    )
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["failed"] == {}
    for module in ("drivers.transport", "simulator.line", "simulator.cli", "hub.cli.main"):
        assert module in report["imported"]


def test_bridgehub_help_runs_without_posix_terminals():
    r = bridgehub(WITHOUT_POSIX_TERMINALS, "--help")
    assert r.returncode == 0, r.stderr
    assert "simulate" in r.stdout and "event" in r.stdout
    assert "unavailable" not in r.stderr  # the simulator's plugin loaded too


def test_simulator_without_ptys_asks_for_tcp():
    """Where the platform has no pseudo-terminals the simulator names --listen instead."""
    r = bridgehub(WITHOUT_POSIX_TERMINALS, "simulate", "--tables", "1", "--duration", "0")
    assert r.returncode == 2
    assert "this platform has no pseudo-terminals" in r.stderr and "--listen" in r.stderr


WITHOUT_PSYCOPG = """
import sys
sys.modules["psycopg"] = None
sys.modules["psycopg2"] = None
"""


def test_postgresql_without_psycopg_names_the_extra():
    """SQLite needs nothing more; a PostgreSQL URL without psycopg says what to install."""
    for url in ("postgresql+psycopg://hub@127.0.0.1:9/event", "postgresql://hub@127.0.0.1:9/e"):
        r = bridgehub(WITHOUT_PSYCOPG, "event", "standings", "--db", url, "--event", "1")
        assert r.returncode == 1, r.stderr
        assert "install bridgehub[postgres]" in r.stderr, r.stderr


WITHOUT_ENDPLAY = """
import sys
sys.modules["endplay"] = None
"""


def test_hand_records_without_endplay_name_the_extra(tmp_path):
    """An event without hand records needs no endplay; one with a PBN file says which extra
    reads it."""
    plain = tmp_path / "club.toml"
    plain.write_text((ROOT / "examples" / "club_howell.toml").read_text("utf-8"), "utf-8")
    r = bridgehub(WITHOUT_ENDPLAY, "event", "create", str(plain))
    assert r.returncode == 0, r.stderr
    pbn = ROOT / "tests" / "data" / "realbridge_2021_online_qual_open_r2.pbn"
    with_deals = tmp_path / "deals.toml"
    with_deals.write_text(
        plain.read_text("utf-8").replace(
            'name = "Evening"', f'name = "Evening"\nhand_records = "{pbn.as_posix()}"'
        ),
        "utf-8",
    )
    r = bridgehub(WITHOUT_ENDPLAY, "event", "create", str(with_deals))
    assert r.returncode == 1
    assert "endplay is not installed; install bridgehub[dd]" in r.stderr, r.stderr
