"""The end of the session (issue 13 "the end of the evening"): when a section's last round
is complete (its results in, or the director's "next round" in the last round), the hub
records it in the store (audited, so a restarted hub knows), tells the feed
(``session_complete``) and the director; the tables are told by their SETTINGS (``final``)
and get the final ranking pages when the last round's standings go out.

``SessionEnd`` belongs to the hub's asyncio loop; the store is read and written in worker
threads.
"""

from __future__ import annotations

import asyncio
import logging

from hub.api.feed import Feed
from hub.live.oversight.alerts import Alerts
from hub.store.store import Store

log = logging.getLogger(__name__)
KIND = "session_complete"  # the audit row's kind


class SessionEnd:
    """Records and announces the end of each section's session, once; on the hub's loop."""

    def __init__(self, store: Store, event_id: int, feed: Feed, alerts: Alerts) -> None:
        self.store = store
        self.event_id = event_id
        self.feed = feed
        self.alerts = alerts
        self.recorded: set[str] = set()

    async def load(self) -> set[str]:
        """The sections whose session a hub before this one recorded as complete."""
        rows = await asyncio.to_thread(self.store.audit_log, self.event_id, KIND)
        self.recorded = {r["detail"].get("section") for r in rows if r.get("detail")}
        return set(self.recorded)

    async def complete(self, section: str) -> None:
        """The section's session is over: recorded, then told to the feed and the
        director, once (a restarted hub finds it recorded and says nothing again)."""
        if section in self.recorded:
            return
        self.recorded.add(section)
        try:
            await asyncio.to_thread(
                self.store.audit, self.event_id, "hub", KIND, {"section": section}
            )
        except Exception:  # the room is told all the same; the next start records it again
            self.recorded.discard(section)
            log.exception("recording the end of the session of section %s", section)
        self.feed.publish(KIND, section=section)
        self.alerts.raise_(
            "the session is complete: final results (the hub stays up for corrections)",
            section=section,
        )
        log.warning("section %s: the session is complete: final results", section)
