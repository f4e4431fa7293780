"""What the store holds when the hub starts, read in one worker thread and handed to the
parts on the loop (decisions D17: no blocking store call on the loop)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hub.event.event_file import EventFile
from hub.event.hand_records import section_deals
from hub.event.movement.model import Movement
from hub.live.results.no_play import ACTION, NoPlay, waiting
from hub.standings.rows import names_of
from hub.store.store import LiveLine, Store, StoredResult

Key = tuple[str, int, int, int]  # section, table, round, board


@dataclass
class Stored:
    """What the store holds at start, read in one worker thread."""

    event: EventFile
    movements: dict[str, Movement]
    clock_events: list[dict[str, Any]]
    live: list[StoredResult]
    lines: list[LiveLine]
    penalties: list[dict[str, Any]]
    deals: dict[tuple[str, int], str]  # (section, board): each section its session's deals
    names: dict[str, dict[int, str]]
    valid_marks: list[tuple[object, ...]]
    no_plays: list[NoPlay] = field(default_factory=list)  # boards still waiting for a score
    keys: list[Key] = field(default_factory=list)  # of every live result
    # (section, board): the double-dummy tricks the hand-record file carried (not solved)
    tricks: dict[tuple[str, int], str] = field(default_factory=dict)

    def played(self) -> dict[str, frozenset[tuple[int, int, int]]]:
        """(table, round, board) of every live result, by section (the rounds resume)."""
        by_section: dict[str, set[tuple[int, int, int]]] = {}
        for section, table, rnd, board in self.keys:
            by_section.setdefault(section, set()).add((table, rnd, board))
        return {s: frozenset(keys) for s, keys in by_section.items()}

    @classmethod
    def read(cls, store: Store, event_id: int) -> Stored:
        """Everything, the live results too."""
        live = store.live_results(event_id)
        return cls._read(store, event_id, live, [r.key for r in live])

    @classmethod
    def first(cls, store: Store, event_id: int) -> Stored:
        """What the hub needs before its lines open: the live results' keys, not the
        results (``live`` and ``lines`` empty: a store of 100,000 results takes seconds to
        read; the hub reads them once its lines are open, hub.live.service.warm_start)."""
        return cls._read(store, event_id, [], store.live_keys(event_id))

    @classmethod
    def _read(
        cls, store: Store, event_id: int, live: list[StoredResult], keys: list[Key]
    ) -> Stored:
        sections = store.sections(event_id)
        event = store.event(event_id)
        recorded = [
            NoPlay.from_audit(a["actor"], a["detail"]) for a in store.audit_log(event_id, ACTION)
        ]
        return cls(
            event=event,
            movements={s: store.movement(event_id, s) for s in sections},
            clock_events=store.clock_events(event_id),
            live=live,
            lines=[r.line() for r in live],  # the same rows: read once
            penalties=store.penalties(event_id),
            deals=section_deals(
                event, {s: store.hand_records(event_id, s) for s in range(len(event.sessions))}
            ),
            names={s: names_of(store.contestants(event_id, s)) for s in sections},
            valid_marks=[
                tuple(a["detail"]["mark"]) for a in store.audit_log(event_id, "contract_valid")
            ],
            no_plays=waiting([n for n in recorded if n is not None], set(keys)),
            keys=keys,
            tricks=section_deals(
                event,
                {s: store.hand_record_tricks(event_id, s) for s in range(len(event.sessions))},
            ),
        )
