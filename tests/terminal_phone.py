"""The table's phone for the browser terminal tests (issue 15 [ENTRY]): headless chromium
(tests/browser.py) at a phone's size on the hub's terminal page (docs/web-terminal.md),
tapped by the buttons' ``data-k`` names, and what the hub stored of it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from browser import PHONE, WAIT_S, By, Page, body_text, chromium
from web_terminal_hub import WebHub

from hub.store.values import StoredResult


class Phone(Page):
    """The table's phone: chromium showing the terminal page, tapped by the buttons'
    ``data-k`` names, on the test's thread; every wait bounded, every failure saying what
    the page showed."""

    KIND = "web_terminal"

    def open(self, url: str) -> None:
        self.driver.get(url)

    def reads(self) -> str:
        body = body_text(self.driver)
        return f"screen {self.screen()!r}, the page reads:\n{body}"

    def screen(self) -> str:
        return str(self.driver.find_element(By.ID, "screen").get_attribute("data-screen"))

    def on(self, screen: str) -> None:
        self.until(lambda: self.screen() == screen, f"the {screen!r} screen")

    def _now(self, css: str, usable: bool = True) -> Any:
        """The first shown element matching ``css`` now, or None."""
        for e in self.driver.find_elements(By.CSS_SELECTOR, css):
            if e.is_displayed() and (not usable or e.is_enabled()):
                return e
        return None

    def _do(self, css: str, act: Callable[[Any], Any], what: str) -> Any:
        """``act`` on the element, found again whenever the page redraws it under us (every
        message from the hub redraws the screen)."""

        def attempt() -> Any:
            e = self._now(css)
            return e is not None and (act(e), True)[-1]

        self.until(attempt, what)
        return None

    def tap(self, k: str) -> None:
        self._do(f'[data-k="{k}"]', lambda e: e.click(), f"the {k!r} button to tap")

    def text(self, k: str) -> str:
        seen: list[str] = []
        self._do(f'[data-k="{k}"]', lambda e: seen.append(e.text), f"the {k!r} text")
        return seen[-1]

    def type(self, k: str, text: str) -> None:
        def fill(box: Any) -> None:
            box.clear()
            box.send_keys(text)

        self._do(f'[data-k="{k}"]', fill, f"the {k!r} box")

    def shows(self, css: str, what: str) -> str:
        """The text of what ``css`` names once the page shows it."""
        seen: list[str] = []

        def shown() -> bool:
            e = self._now(css, usable=False)
            if e is not None:
                seen.append(e.text)
            return e is not None

        self.until(shown, what)
        return seen[-1]

    def status(self) -> str:
        """The board's answer as the page shows it (sending, accepted, held, refused)."""
        seen: list[str] = []
        self._do(
            '[data-k="status"]', lambda e: seen.append(e.get_attribute("data-status")), "status"
        )
        return seen[-1]

    def kept(self) -> dict[str, Any]:
        """What the page keeps for table A1 in the browser's storage."""
        raw = self.driver.execute_script("return localStorage.getItem('bh.table.A1')")
        return dict(json.loads(raw)) if raw else {}

    def size(self, width: int, height: int) -> None:
        """The phone held upright (390x844) or turned (844x390)."""
        self.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {
                "width": width,
                "height": height,
                "deviceScaleFactor": 1,
                "mobile": True,
                "screenOrientation": {
                    "type": "portraitPrimary" if height > width else "landscapePrimary",
                    "angle": 0 if height > width else 90,
                },
            },
        )

    def enter(
        self,
        level: int,
        strain: str,
        declarer: str,
        made: int,
        double: str = "none",
        lead: str = "",
        shots: str = "",
    ) -> None:
        """A board in the Bridgemate order, from its contract screen to the confirmation
        screen: level and strain, doubles, declarer, lead (suit, rank; or skipped), tricks
        as the result (0 made, +1, -1...). ``shots``: a name prefix for each step's picture."""
        snap = (lambda step: self.shot(f"{shots}-{step}")) if shots else (lambda step: None)
        self.on("contract")
        self.tap(f"level-{level}")
        snap("03-contract")
        self.tap(f"strain-{strain}")
        self.on("double")
        snap("04-double")
        self.tap(f"dbl-{double}")
        self.on("declarer")
        snap("05-declarer")
        self.tap(f"decl-{declarer}")
        self.on("lead")
        snap("06-lead")
        if lead:
            self.tap(f"lead-{lead[0]}")
            self.on("rank")
            snap("07-lead-rank")
            self.tap(f"rank-{lead[1:]}")
        else:
            self.tap("lead-skip")
        self.on("tricks")
        snap("08-tricks")
        self.tap(f"tricks-{6 + level + made}")
        self.on("confirm")

    def agree(self) -> None:
        """The declarer's side confirms the score; the opponents agree on the same device."""
        self.tap("confirm")
        self.on("verify")
        self.tap("agree")
        self.on("outcome")


@contextlib.contextmanager
def phone(shots: Path) -> Iterator[Phone]:
    """A phone held upright (390x844), its screenshots to ``shots``."""
    with chromium(PHONE) as driver:
        p = Phone(driver, shots)
        p.size(*PHONE)
        yield p


def results(room: WebHub) -> list[StoredResult]:
    """Every stored row (accepted and held revisions), read in the hub's worker thread."""
    return room.run(asyncio.to_thread(room.store.results, room.event_id))


def stored(room: WebHub, table: int, rnd: int, board: int) -> list[StoredResult]:
    return [r for r in results(room) if (r.table, r.round, r.board) == (table, rnd, board)]


def wait_stored(room: WebHub, table: int, rnd: int, board: int, status: str) -> StoredResult:
    end = time.monotonic() + WAIT_S
    while True:
        rows = [r for r in stored(room, table, rnd, board) if r.status == status]
        if rows:
            return rows[-1]
        if time.monotonic() > end:
            seen = [(r.table, r.round, r.board, r.status) for r in results(room)]
            raise AssertionError(
                f"table {table} round {rnd} board {board} not stored {status}: {seen}"
            )
        time.sleep(0.1)
