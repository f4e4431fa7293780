"""Events in the store: the event file, its sections' movements and the boards' hand
records, all stored at once when the event is created (a movement's later changes:
``movements``)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from hub.event.event_diff import StoredSection, differences
from hub.event.event_file import EventFile, EventFileError, parse_event
from hub.event.hand_record_tricks import read_double_dummy_tricks
from hub.event.hand_records import HandRecordError, read_hand_records
from hub.event.movement.build import build_movement
from hub.event.movement.check import check_movement
from hub.event.movement.model import (
    Movement,
    MovementError,
)
from hub.event.pair_labels import PairLabels, check_pairs
from hub.event.roster_names import named, roster_names
from hub.event.vp_table_file import anchor_vp_table
from hub.store import schema as t
from hub.store.movements import layout_to_json, movement_records
from hub.store.part import StorePart
from hub.store.values import StoreError


def roster_problems(event: EventFile, base_dir: Path | None) -> list[tuple[str, str]]:
    """``[event] roster``: the club roster file must be there (beside the event file)."""
    roster = event.event.roster
    if roster is None:
        return []
    path = (base_dir or Path(".")) / roster
    if path.is_file():
        return []
    return [("event.roster", f"no roster file {roster!r} beside the event file ({path})")]


class EventStore(StorePart):
    """Part of ``Store``: events, sections, movements and hand records. A section's movement
    is read once and cached (the cache follows this store's own movement changes). Like
    ``Store``: worker threads and the command line, never the hub's loop."""

    def create_event(
        self,
        event_text: str,
        base_dir: Path | None = None,
        actor: str = "TD",
        source: str = "event file",
    ) -> int:
        """Validate the event file, build every section's movement, store all at once."""
        event_text = anchor_vp_table(event_text, base_dir, source)  # beside the event file
        event = parse_event(event_text, source)
        movements: list[tuple[int, str, Movement]] = []
        numbering: dict[str, PairLabels] = {}
        problems: list[tuple[str, str]] = []
        for s_index, session in enumerate(event.sessions):
            for c_index, section in enumerate(session.sections):
                try:
                    movement = build_movement(
                        section.movement,
                        section.letter,
                        base_dir,
                        teams=section.teams,
                        lot_seed=event.rules.lot_seed,
                    )
                except MovementError as e:  # which section's movement cannot be made
                    raise MovementError(
                        f"section {section.letter}: {e.message}", e.row, e.rule
                    ) from None
                report = check_movement(movement)
                if not report.ok:
                    first = report.errors[0]
                    raise MovementError(
                        f"section {section.letter}: {first.message}", first.row, first.rule
                    )
                movements.append((s_index, section.letter, movement))
                labels = numbering[section.letter] = PairLabels.of(movement, section.letter)
                at = f"sessions[{s_index}].sections[{c_index}].pairs"
                problems += [
                    (at if i < 0 else f"{at}[{i}]", why)
                    for i, why in check_pairs(section.pairs, labels, movement.layout.kind.value)
                ]
        names, unnamed = roster_names(event, base_dir)  # members given by number alone
        problems += roster_problems(event, base_dir) + unnamed
        if problems:
            raise EventFileError(problems, source)
        deals: dict[int, dict[int, str]] = {}
        tricks: dict[int, dict[int, str]] = {}  # the file's double dummy: not solved again
        for s_index, session in enumerate(event.sessions):
            if session.hand_records:
                path = (base_dir or Path(".")) / session.hand_records
                try:
                    deals[s_index] = read_hand_records(path)
                except HandRecordError as e:  # named as every event-file error is
                    raise StoreError(f"{source}: sessions[{s_index}].hand_records: {e}") from None
                tricks[s_index] = read_double_dummy_tricks(path)
        letters = [m[1] for m in movements]
        if len(letters) != len(set(letters)):
            raise StoreError("section letters must be unique across the event's sessions")
        with Session(self.engine) as db, db.begin():
            ev = t.Event(
                name=event.event.name,
                schema_version=event.schema_version,
                event_file=event_text,
                created_at=self.clock(),
            )
            db.add(ev)
            db.flush()
            for s_index, letter, movement in movements:
                db.add(
                    t.SectionRow(
                        event_id=ev.id,
                        session=s_index,
                        letter=letter,
                        layout=layout_to_json(movement.layout),
                    )
                )
                db.add_all(movement_records(ev.id, movement.rows))
            for s_index, session_deals in deals.items():
                db.add_all(
                    t.BoardRecord(
                        event_id=ev.id,
                        session=s_index,
                        number=n,
                        deal=d,
                        tricks=tricks.get(s_index, {}).get(n),
                    )
                    for n, d in sorted(session_deals.items())
                )
            for session in event.sessions:
                for section in session.sections:
                    for pair in section.pairs:
                        db.add(
                            t.Contestant(
                                event_id=ev.id,
                                section=section.letter,
                                kind="pair",
                                number=numbering[section.letter].internal(pair),
                                name=None,
                                not_competing=pair.not_competing,
                                players=[named(p, names) for p in pair.players],
                            )
                        )
                    for team in section.teams:
                        db.add(
                            t.Contestant(
                                event_id=ev.id,
                                section=section.letter,
                                kind="team",
                                number=team.number,
                                name=team.name,
                                not_competing=team.not_competing,
                                players=[named(p, names) for p in team.players],
                            )
                        )
            db.add(
                t.AuditEntry(
                    event_id=ev.id,
                    at=self.clock(),
                    actor=actor,
                    action="event_created",
                    detail={"name": event.event.name},
                )
            )
            return ev.id

    def event_ids(self) -> list[int]:
        with Session(self.engine) as db:
            return list(db.scalars(select(t.Event.id).order_by(t.Event.id)))

    def event(self, event_id: int) -> EventFile:
        with Session(self.engine) as db:
            ev = db.get(t.Event, event_id)
            if ev is None:
                raise StoreError(f"no event {event_id} in this store")
            return parse_event(ev.event_file, f"event {event_id} in the store", stored=True)

    def event_key(self, event_id: int) -> str:
        """A name of the event no other event shares, in this store or another: its number
        and the moment it was stored (a phone's page keeps its table's state under it, so
        next week's event on the same phone starts afresh)."""
        with Session(self.engine) as db:
            ev = db.get(t.Event, event_id)
            if ev is None:
                raise StoreError(f"no event {event_id} in this store")
            return f"{event_id}@{ev.created_at.timestamp():.6f}"

    def sections(self, event_id: int) -> list[str]:
        with Session(self.engine) as db:
            return list(
                db.scalars(
                    select(t.SectionRow.letter)
                    .where(t.SectionRow.event_id == event_id)
                    .order_by(t.SectionRow.letter)
                )
            )

    def differences_from_file(
        self, event_id: int, event_text: str, base_dir: Path | None = None, source: str = ""
    ) -> list[str]:
        """How an event file differs from stored event ``event_id`` (names, pairs,
        movements, rules) in plain sentences; empty when they agree (TD trial F11)."""
        text = anchor_vp_table(event_text, base_dir, source or "event file")
        file = parse_event(text, source or "event file")
        built: dict[str, Movement | str] = {}
        for session in file.sessions:
            for section in session.sections:
                try:
                    built[section.letter] = build_movement(
                        section.movement, section.letter, base_dir
                    )
                except MovementError as e:
                    built[section.letter] = e.message
        contestants = self.contestants(event_id)  # type: ignore[attr-defined]
        held = {
            letter: StoredSection(
                self.movement(event_id, letter),  # type: ignore[attr-defined]
                [c for c in contestants if c["section"] == letter],
            )
            for letter in self.sections(event_id)
        }
        return differences(file, built, self.event(event_id), held)

    def hand_records(self, event_id: int, session: int = 0) -> dict[int, str]:
        """Every board's deal of a session (empty without hand records)."""
        with Session(self.engine) as db:
            return {
                n: d
                for n, d in db.execute(
                    select(t.BoardRecord.number, t.BoardRecord.deal).where(
                        t.BoardRecord.event_id == event_id, t.BoardRecord.session == session
                    )
                )
            }

    def hand_record_tricks(self, event_id: int, session: int = 0) -> dict[int, str]:
        """The double-dummy tricks the session's hand-record file carried, by board
        (``DoubleDummyTricks`` digits; boards without them are left out)."""
        with Session(self.engine) as db:
            return {
                n: str(x)
                for n, x in db.execute(
                    select(t.BoardRecord.number, t.BoardRecord.tricks).where(
                        t.BoardRecord.event_id == event_id,
                        t.BoardRecord.session == session,
                        t.BoardRecord.tricks.is_not(None),
                    )
                )
            }

    def hand_record(self, event_id: int, board: int, session: int = 0) -> str | None:
        """The deal of a board (PBN ``N:…``), if the event has hand records."""
        with Session(self.engine) as db:
            return db.scalar(
                select(t.BoardRecord.deal).where(
                    t.BoardRecord.event_id == event_id,
                    t.BoardRecord.session == session,
                    t.BoardRecord.number == board,
                )
            )
