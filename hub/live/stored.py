"""What the store holds when the hub starts, read in one worker thread and handed to the
parts on the loop (decisions D17: no blocking store call on the loop)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hub.event.event_file import EventFile
from hub.event.movement.model import Movement
from hub.standings.rows import names_of
from hub.store.store import LiveLine, Store, StoredResult


@dataclass
class Stored:
    """What the store holds at start, read in one worker thread."""

    event: EventFile
    movements: dict[str, Movement]
    clock_events: list[dict[str, Any]]
    live: list[StoredResult]
    lines: list[LiveLine]
    penalties: list[dict[str, Any]]
    deals: dict[int, str]
    names: dict[str, dict[int, str]]
    valid_marks: list[tuple[object, ...]]

    @classmethod
    def read(cls, store: Store, event_id: int) -> Stored:
        sections = store.sections(event_id)
        return cls(
            event=store.event(event_id),
            movements={s: store.movement(event_id, s) for s in sections},
            clock_events=store.clock_events(event_id),
            live=store.live_results(event_id),
            lines=store.live_lines(event_id),
            penalties=store.penalties(event_id),
            deals=store.hand_records(event_id),
            names={s: names_of(store.contestants(event_id, s)) for s in sections},
            valid_marks=[
                tuple(a["detail"]["mark"]) for a in store.audit_log(event_id, "contract_valid")
            ],
        )
