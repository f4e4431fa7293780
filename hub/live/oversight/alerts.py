"""The director's alerts: what needs a decision (a held result, a rejected verification, a
board not played, a round ended early) goes to the feed and stays in the snapshot.

``Alerts`` belongs to the hub's asyncio loop."""

from __future__ import annotations

import re

from hub.api.feed import Feed

KEPT = 50  # the snapshot's most recent alerts


class Alerts:
    """The director's recent alerts, published to the feed; on the hub's asyncio loop."""

    def __init__(self, feed: Feed) -> None:
        self.feed = feed
        self.texts: list[str] = []

    def raise_(
        self,
        text: str,
        *,
        section: str | None = None,
        table: int | None = None,
        round: int | None = None,
        board: int | None = None,
        result: int | None = None,
        held: bool = False,
    ) -> None:
        """Publish an alert; its text names the section (a room of several sections
        reads it in the log and the snapshot, where only the text is kept)."""
        text = with_section(text, section)
        self.texts = [*self.texts[-(KEPT * 4) :], text]
        self.feed.publish(
            "alert",
            text=text,
            section=section,
            table=table,
            round=round,
            board=board,
            result=result,
            held=held,
        )

    def note(self, text: str) -> None:
        """Kept for the snapshot without a feed event of its own (the event that caused it
        carries the details)."""
        self.texts = [*self.texts[-(KEPT * 4) :], text]

    def recent(self) -> list[str]:
        return self.texts[-KEPT:]


def with_section(text: str, section: str | None) -> str:
    """``text`` naming ``section``: as it is when it already says "section X" or names a
    table as "X<number>", else with "section X: " in front."""
    if section is None or re.search(rf"\bsection {re.escape(section)}\b", text):
        return text
    if re.search(rf"\b{re.escape(section)}\d+\b", text):
        return text
    return f"section {section}: {text}"
