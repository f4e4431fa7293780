"""A phone reading ``bridgehub web``'s results pages (hub/web_results/) in headless chromium
(tests/browser.py), for issue 14 [PUBLISH]'s acceptance tests. Each read is one script:
the page's live script may swap ``<main>`` between two webdriver calls."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from browser import PHONE, By, Page, chromium


class Reader(Page):
    """A phone reading the results pages at ``base``, on the test's thread; every wait
    bounded, every failure saying what the page showed."""

    KIND = "web_results"
    POLL_S = 0.02

    def __init__(self, driver: Any, base: str, shots: Path) -> None:
        super().__init__(driver, shots)
        self.base = base

    def open(self, page: str) -> None:
        """``page`` opened, once its live link to the server is up."""
        self.driver.get(self.base + page)
        self.until(lambda: self.live(), "the page's live link to be up")

    def live(self) -> bool:
        mark = self.driver.find_elements(By.ID, "link")
        return bool(mark) and "up" in (mark[0].get_attribute("class") or "")

    def reads(self) -> str:
        return f"the page reads:\n{self.text()}"

    def text(self) -> str:
        return str(self.driver.execute_script("return document.getElementById('main').innerText"))

    def version(self) -> int:
        return int(self.driver.execute_script("return document.body.dataset.version"))

    def count(self, css: str) -> int:
        return int(
            self.driver.execute_script("return document.querySelectorAll(arguments[0]).length", css)
        )

    def texts(self, css: str) -> list[str]:
        script = "return [...document.querySelectorAll(arguments[0])].map(e => e.innerText)"
        return list(self.driver.execute_script(script, css))


@contextlib.contextmanager
def reader(base: str, shots: Path) -> Iterator[Reader]:
    """A phone (390x844, a mobile's metrics) reading the pages under ``base``."""
    with chromium(PHONE) as driver:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 1, "mobile": True},
        )
        yield Reader(driver, base, shots)
