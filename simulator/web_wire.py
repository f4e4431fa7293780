"""The browser terminal's words as the page writes them (docs/web-terminal.md): the hub's
WebSocket address from a table card's, a lead card, and a board's ``result`` fields from what
the players keyed (the simulator builds its JSON itself: it never takes the hub's)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

SEATS = "NESW"
NO_CONTRACT = 255  # PlayerBot's declarer and tricks without a contract (the wire's value)


def ws_url(url: str) -> str:
    """The terminal WebSocket of a hub given as ``http://host:port`` (the table cards'
    address), ``host:port`` or already ``ws://host:port/ws``."""
    if "://" not in url:
        url = f"http://{url}"
    parts = urlsplit(url)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    path = parts.path if parts.path.endswith("/ws") else parts.path.rstrip("/") + "/ws"
    return f"{scheme}://{parts.netloc}{path}"


def lead_text(lead: str) -> str:
    """The page's lead card: suit then rank, ten as ``10`` ("S10", "HK")."""
    return lead[:1] + ("10" if lead[1:] in ("T", "10") else lead[1:]) if lead else ""


def result_fields(contract: str, declarer: int, lead: str, tricks: int) -> dict[str, Any]:
    """A board's contract, declarer, lead and tricks as a ``result`` carries them: a
    pass-out or a board not played has no declarer, lead or tricks; ``""`` is not played."""
    played = contract not in ("", "PASS")
    return {
        "contract": contract,
        "declarer": SEATS[declarer] if played and declarer < 4 else None,
        "lead": lead_text(lead) if played else "",
        "tricks": tricks if played and tricks != NO_CONTRACT else None,
        "no_play": contract == "",
    }
