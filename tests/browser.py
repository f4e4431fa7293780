"""A real browser for the tests: Debian's chromium, headless, driven by selenium through
Debian's chromedriver (tests skip without them, the reason from tests/external_tools.py).

``chromium()`` starts it (by default at a phone's size, 390x844) and, on leaving, fails the
test when the page's script logged an error; ``Page`` is what every page a test drives
shares: bounded waits whose failure says what the page showed, and screenshots to the
test's folder, with ``BRIDGEHUB_SCREENSHOTS=1`` also kept with the tests
(tests/screenshots/<kind>/, in 64 colours). The pages themselves: tests/terminal_phone.py
(the table's phone) and tests/results_reader.py (a phone on the results pages).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import external_tools as tools

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SCREENSHOTS = Path(__file__).parent / "screenshots"
PHONE = (390, 844)
WAIT_S = 30.0  # the longest wait for anything a page shows

try:
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
except ImportError:  # pragma: no cover - the lead installs it in .venv
    webdriver = None  # type: ignore[assignment]
    WebDriverException = Exception  # type: ignore[assignment,misc]
    By = None  # type: ignore[assignment,misc]

NEEDS = tools.needs(tools.SELENIUM, tools.CHROMIUM, tools.CHROMEDRIVER)


@contextlib.contextmanager
def chromium(window: tuple[int, int] | None = PHONE, script_errors: bool = True) -> Iterator[Any]:
    """Headless chromium's driver (a window of ``window`` pixels, or chromium's own size);
    with ``script_errors`` the test fails on leaving when the page's script logged an error
    (a favicon the pages never name aside). The browser quits on leaving, whatever
    happened."""
    from selenium.webdriver.chrome.options import Options

    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(arg)
    if window is not None:
        options.add_argument(f"--window-size={window[0]},{window[1]}")
    options.add_argument("--no-first-run")
    options.add_argument("--hide-scrollbars")
    if script_errors:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        driver.set_page_load_timeout(WAIT_S)
        yield driver
        if script_errors:
            errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
            errors = [e for e in errors if "favicon.ico" not in e]  # the pages name none
            assert not errors, f"the page's script failed: {errors}"
    finally:
        driver.quit()


def body_text(driver: Any) -> str:
    """What the page shows, as a reader sees it."""
    return str(driver.find_element(By.TAG_NAME, "body").text)


def keep(path: Path, kind: str) -> None:
    """A screenshot kept with the tests in tests/screenshots/``kind``/, in 64 colours when
    Pillow is at hand (a third of the size, the same to the eye)."""
    kept = SCREENSHOTS / kind
    kept.mkdir(parents=True, exist_ok=True)
    try:
        from PIL import Image
    except ImportError:
        shutil.copyfile(path, kept / path.name)
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT)
        small.save(kept / path.name, optimize=True)


class Page:
    """A page a test drives in ``driver``, on the test's thread; every wait bounded, every
    failure saying what the page showed. ``KIND`` names the folder its kept screenshots go
    to; ``POLL_S`` how often a wait looks again."""

    KIND = "pages"
    POLL_S = 0.05

    def __init__(self, driver: Any, shots: Path) -> None:
        self.driver = driver
        self.shots = shots

    def until(self, check: Callable[[], Any], what: str, timeout: float = WAIT_S) -> Any:
        """``check``'s first true value, looked for until ``timeout`` (a page redrawn under
        the check only makes it look again)."""
        end = time.monotonic() + timeout
        while True:
            with contextlib.suppress(WebDriverException):
                value = check()
                if value:
                    return value
            if time.monotonic() > end:
                raise AssertionError(f"timed out after {timeout} s waiting for {what}\n{self}")
            time.sleep(self.POLL_S)

    def reads(self) -> str:
        """What a failure message quotes of the page."""
        return f"the page reads:\n{body_text(self.driver)}"

    def __str__(self) -> str:
        with contextlib.suppress(WebDriverException):
            return self.reads()
        return "(the page cannot be read)"

    def shot(self, name: str) -> None:
        """A screenshot ``name``.png in the test's folder (and kept, see the module)."""
        path = self.shots / f"{name}.png"
        assert self.driver.save_screenshot(str(path)), f"no screenshot {path}"
        if os.environ.get("BRIDGEHUB_SCREENSHOTS") == "1":
            keep(path, self.KIND)
