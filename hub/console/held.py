"""What a held result says to the TD who decides it (TD trial F7): what the terminal sent
(contract, declarer, result, lead, score, the pairs, the terminal), why it is held, and
the result it would replace. Pure: rows and pop-ups read it; keys the hub does not send
are left out."""

from __future__ import annotations

from typing import Any

from hub.console.labels import pair_label
from hub.console.state import RoomState, where
from hub.console.traveller_rows import result_text


def sent_text(room: RoomState, h: dict[str, Any]) -> str:
    """What was sent: ``2NT E +1, lead HA, NS +150, NS 5 v EW 11, from BM-0005``."""
    sec = room.sections.get(h.get("section") or "", {})
    parts = []
    outcome = h.get("result") if isinstance(h.get("result"), str) else None
    if not outcome and h.get("tricks") is not None:  # from the contract and the tricks
        outcome = result_text({k: v for k, v in h.items() if k != "result"})
    played = " ".join(
        str(x) for x in (h.get("contract"), h.get("declarer"), outcome) if x not in (None, "")
    )
    if played:
        parts.append(played)
    if h.get("lead"):
        parts.append(f"lead {h['lead']}")
    if h.get("score_ns") is not None:
        parts.append(f"NS {int(h['score_ns']):+d}")
    if h.get("ns_pair") is not None and h.get("ew_pair") is not None:
        parts.append(f"{side(sec, h['ns_pair'], 'NS')} v {side(sec, h['ew_pair'], 'EW')}")
    if h.get("entered_by"):
        parts.append(f"from {h['entered_by']}")
    return ", ".join(parts)


def side(sec: dict[str, Any], pair: Any, direction: str) -> str:
    """A pair with its side: its label (``EW 5``), or the plain number after the side."""
    label = pair_label(sec, pair)
    return f"{direction} {label}" if label.isdigit() else label


def held_text(room: RoomState, h: dict[str, Any]) -> str:
    """The Calls row's text: what was sent, why it is held, and the conflict."""
    why = h.get("reason") or h.get("text") or ""
    parts = [x for x in (sent_text(room, h), why) if x]
    text = ": ".join(parts)
    if h.get("conflict"):
        text += f"; {h['conflict']}"
    return text


def held_title(room: RoomState, h: dict[str, Any]) -> str:
    """The pop-up's title: the result, where it was played, and what is wrong with it."""
    head = f"Held result {h.get('id')} at {where(h)}, round {h.get('round')}"
    head += f", board {h.get('board')}"
    return f"{head}\n{held_text(room, h)}"


def can_accept_as_sent(h: dict[str, Any]) -> bool:
    """ "Accept as sent" is offered only when the hub says it can succeed (a hub that does
    not say is trusted, as before)."""
    return bool(h.get("can_accept_as_sent", True))
