"""A knockout section's bracket to the feed (issue [KNOCKOUT]): the view the console, the
screens and the web pages draw (``bracket_view``), sent after every decision and command
at once, and after results once a tick (a burst of results is one bracket, not one per
result); a correction that would change a fixed outcome is told to the director once
(D23). ``BracketFeed`` belongs to the hub's asyncio loop."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import Any

from hub.api.feed import Feed
from hub.api.server import CommandError
from hub.event.knockout_rounds import NextRound
from hub.event.movement.model import Movement
from hub.live.knockout.bracket_view import bracket_view, corrections
from hub.live.knockout.ko_section import KoSection
from hub.live.oversight.alerts import Alerts
from hub.live.views import TeamsLive

log = logging.getLogger(__name__)


class BracketFeed:
    """The knockout sections' brackets as the feed and the snapshot carry them; on the
    hub's asyncio loop."""

    def __init__(
        self,
        sections: Mapping[str, KoSection],
        movement: Callable[[str], Movement],
        live: Callable[[str], TeamsLive],
        proposals: Mapping[str, NextRound],
        feed: Feed,
        alerts: Alerts,
    ) -> None:
        self.sections, self.movement, self.live = sections, movement, live
        self.proposals, self.feed, self.alerts = proposals, feed, alerts
        self._due: set[str] = set()  # sections whose bracket goes out on the next tick
        self._told: set[tuple[str, str, Any]] = set()  # corrections told to the director

    def view(self, section: str) -> dict[str, Any]:
        """The bracket as the console, the screens and the web pages draw it."""
        ko = self.sections.get(section)
        if ko is None:
            raise CommandError(f"section {section} is not a knockout")
        movement = self.movement(section)
        return bracket_view(ko, movement, self.live(section), self.proposals.get(section))

    def shown(self, section: str) -> dict[str, Any] | None:
        """The bracket of a knockout section (None for another section): the snapshot's."""
        return self.view(section) if section in self.sections else None

    def publish(self, section: str) -> None:
        """The bracket to the feed now (after a decision, a command)."""
        if section not in self.sections:
            return
        view = self.view(section)
        self.feed.publish("knockout", **view)
        for key, text in corrections(view):
            if key not in self._told:  # once a match and a winner
                self._told.add(key)
                self.alerts.raise_(text, section=section)

    def result_in(self, section: str) -> None:
        """A result of the section was scored: its bracket goes out once the loop has
        taken the results that came with it (once a tick, not once a result)."""
        if section not in self.sections or section in self._due:
            return
        self._due.add(section)
        asyncio.get_running_loop().call_soon(self._publish_due, section)

    def _publish_due(self, section: str) -> None:
        self._due.discard(section)
        try:
            self.publish(section)
        except Exception:  # a bracket that cannot be drawn never stops the results
            log.exception("section %s: the bracket could not be drawn", section)
