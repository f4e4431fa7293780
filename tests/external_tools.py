"""The programs outside the venv that some tests drive: poppler, chromium and its driver,
tmux, umockdev, PostgreSQL, WeasyPrint's pango (decisions D25, issue [MENDS] #25).

``bash dev.sh test`` installs them when run as root on Debian (so on CI, which runs it as
root). Anywhere else a test that needs one it cannot have is **skipped**, its reason naming
the tool and where to get it; it never fails for a missing tool (decisions D25, binding).

In a test or fixture: ``need(PDFTOTEXT)``; for a whole module or test:
``pytestmark = needs(CHROMIUM, CHROMEDRIVER)`` (conftest.py imports the hooks below).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

HOW = "bash dev.sh test installs it when run as root"


@dataclass(frozen=True)
class Tool:
    """One thing a test needs from outside the project: what it is called in a reason,
    where it comes from (a Debian package or a pip extra) and how to tell it is missing
    (``None`` when present, else why not)."""

    name: str
    why_missing: Callable[[], str | None]
    debian: str = ""  # the Debian packages that bring it, as dev.sh installs them
    pip: str = ""  # or the pip requirement

    def missing(self) -> str | None:
        why = self.why_missing()
        if why is None:
            return None
        where = f"Debian: apt-get install {self.debian}" if self.debian else f"pip {self.pip}"
        return f"{self.name}: {why} ({where}; {HOW})"


def program(name: str) -> Callable[[], str | None]:
    """A program on PATH."""
    return lambda: None if shutil.which(name) else f"no {name} on PATH"


def file_at(path: str) -> Callable[[], str | None]:
    """A program at a fixed place (Debian's chromium and chromedriver)."""
    return lambda: None if Path(path).exists() else f"no {path}"


def module(name: str) -> Callable[[], str | None]:
    """A Python module the venv should hold."""
    return lambda: None if importlib.util.find_spec(name) else f"no Python module {name}"


def _weasyprint() -> str | None:
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as e:  # OSError: pango's libraries are missing
        return f"WeasyPrint cannot load ({e})"
    return None


def _umockdev() -> str | None:
    from simulator import usb_line

    return usb_line.available()


def _private_cluster() -> str | None:
    from campaign.pg_cluster import PrivateCluster

    return PrivateCluster.available()


def _test_server() -> str | None:
    if os.environ.get("BRIDGEHUB_TEST_PG_URL"):
        return None
    return "BRIDGEHUB_TEST_PG_URL is not set (dev.sh sets it: 127.0.0.1:5432 or a private cluster)"


PDFTOTEXT = Tool("pdftotext", program("pdftotext"), debian="poppler-utils")
PDFTOPPM = Tool("pdftoppm", program("pdftoppm"), debian="poppler-utils")
TMUX = Tool("tmux", program("tmux"), debian="tmux")
CHROMIUM = Tool("chromium", file_at("/usr/bin/chromium"), debian="chromium")
CHROMEDRIVER = Tool("chromedriver", file_at("/usr/bin/chromedriver"), debian="chromium-driver")
SELENIUM = Tool("selenium", module("selenium"), pip="install -e '.[test]'")
ENDPLAY = Tool("endplay", module("endplay"), pip="install -e '.[dd]'")
WEASYPRINT = Tool(
    "WeasyPrint", _weasyprint, debian="libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0"
)
UMOCKDEV = Tool(
    "umockdev", _umockdev, debian="umockdev libumockdev0 gir1.2-umockdev-1.0 libusb-1.0-0"
)
POSTGRES = Tool("a private PostgreSQL cluster", _private_cluster, debian="postgresql")
PG_SERVER = Tool("a PostgreSQL server for the tests", _test_server, debian="postgresql")
ALL = (
    PDFTOTEXT, PDFTOPPM, TMUX, CHROMIUM, CHROMEDRIVER, SELENIUM, ENDPLAY, WEASYPRINT,
    UMOCKDEV, POSTGRES, PG_SERVER,
)  # fmt: skip


def missing(*tools: Tool) -> list[str]:
    """The reason for each of ``tools`` that is missing here."""
    return [why for why in (t.missing() for t in tools) if why is not None]


def need(*tools: Tool) -> None:
    """Skip the running test when one of ``tools`` is missing, saying which and how to get
    it (D25: never a failure)."""
    reasons = missing(*tools)
    if not reasons:
        return
    pytest.skip("needs " + "; ".join(reasons))


def needs(*tools: Tool) -> pytest.MarkDecorator:
    """``need(*tools)`` as a mark, checked before the test's fixtures are set up."""
    return pytest.mark.needs_tools(*tools)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "needs_tools(*tools): external programs (tests/external_tools.py)"
    )


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("needs_tools"):
        need(*mark.args)
