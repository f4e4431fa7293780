"""Browser terminals (issue 15 [ENTRY]): phones and tablets at the tables, through the
terminal port (decisions D18). The server is imported only by a hub that serves them."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hub.live.results.intake import Intake
    from hub.live.results.stored import Stored
    from hub.store.store import Store
    from hub.web_terminal.server import WebTerminals


def web_terminals(
    store: Store, event_id: int, stored: Stored, intake: Intake, at: tuple[str, int] | None
) -> WebTerminals | None:
    """The hub's browser terminals on ``at`` (host, port), or None without ``--terminals``;
    see ``hub.web_terminal.server.web_terminals``."""
    if at is None:
        return None
    from hub.web_terminal.server import web_terminals as build

    return build(store, event_id, stored, intake, at)
