"""The TD's hands on the console in the tests: Textual's pilot driving ``ConsoleApp`` by
keys as a director would (issue13), and what its screens show. The hubs the console is fed
from: tests/console_feeds.py (scripted) or a real hub."""

from __future__ import annotations

from typing import Any

from hub_stub import wait_until
from textual.widgets import DataTable, Label, Static

from hub.console.app import ConsoleApp
from hub.console.choice import ChoiceScreen


def popup_title(app: ConsoleApp) -> str:
    """The title of the pop-up on top ("" when none is up, or not yet composed)."""
    labels = app.screen.query(Label)
    return str(labels.first().render()) if labels else ""


async def popup_shows(app: ConsoleApp, text: str, exact: bool = False) -> None:
    """Wait (bounded) for the pop-up on top to show ``text`` (all of its title: ``exact``)."""
    await wait_until(
        lambda: popup_title(app) == text if exact else text in popup_title(app),
        5,
        f"the pop-up {text!r} (showing {popup_title(app)!r})",
    )


async def type_text(pilot: Any, text: str) -> None:
    """``text`` typed key by key into the focused box."""
    await pilot.press(*["space" if c == " " else c for c in text])


def error_at(app: ConsoleApp, line: str) -> str:
    """The refusal a form shows next to its ``line``."""
    return str(app.screen.query_one(f"#e-{line}", Static).render())


async def confirm(app: ConsoleApp, pilot: Any) -> None:
    """Send the form (Ctrl+S), and say yes to its question."""
    await pilot.press("ctrl+s")
    await wait_until(lambda: isinstance(app.screen, ChoiceScreen), 5, "the confirmation")
    await pilot.press("enter")


async def quiet(app: ConsoleApp, pilot: Any) -> None:
    """Stop following the hub before the app closes: the app's redraw timer may still fire
    while Textual takes its screens down (it then finds no clock line to draw)."""
    app.workers.cancel_all()
    await pilot.pause(0.3)


def rows(table: DataTable) -> list[tuple[str, ...]]:
    """Every row of ``table`` as its cells' text."""
    return [tuple(str(c) for c in table.get_row_at(i)) for i in range(table.row_count)]
