"""The store's operations: events and their movements, append-only results with revisions,
the audit log, devices, TD calls, clock events and penalties.

A result is durable when ``record`` returns: its transaction has committed with the
database's full durability (decisions D11); several results may share one commit.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, NamedTuple

from sqlalchemy import Engine, and_, func, select, text, tuple_
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from hub.event.event_file import EventFile, parse_event
from hub.event.hand_records import HandRecordError, read_hand_records
from hub.event.movement.build import build_movement
from hub.event.movement.check import check_movement
from hub.event.movement.model import Layout, Movement, MovementError, MovementKind, MovementRow
from hub.event.result_key import KeyVerdict, check_key
from hub.store import schema as t
from hub.store.engine import make_engine, migrate


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _aware(value: dt.datetime | None) -> dt.datetime | None:
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=dt.UTC)
    return value


class StoreError(ValueError):
    """A request the store refuses; nothing was written."""


@dataclass(frozen=True, slots=True)
class ResultEntry:
    """A result as it arrives: from a terminal (``submission_key`` = device:epoch:seq, so a
    repeated frame can never become a second record) or from the TD."""

    section: str
    table: int
    round: int
    board: int
    ns_pair: int
    ew_pair: int
    contract: str | None = None
    declarer: str | None = None
    lead: str | None = None
    tricks: int | None = None
    score_ns: int | None = None
    adjusted: str | None = None
    entered_by: str = "TD"
    submission_key: str | None = None
    terminal_time: dt.datetime | None = None
    erased: bool = False
    note: str | None = None

    @property
    def key(self) -> tuple[str, int, int, int]:
        return (self.section, self.table, self.round, self.board)

    def same_result(self, other: ResultEntry | StoredResult) -> bool:
        """The same content (pairs, contract, play, score, adjustment, erasure)."""
        names = (
            "ns_pair",
            "ew_pair",
            "contract",
            "declarer",
            "lead",
            "tricks",
            "score_ns",
            "adjusted",
            "erased",
        )
        return all(getattr(self, n) == getattr(other, n) for n in names)


@dataclass(frozen=True, slots=True)
class StoredResult(ResultEntry):
    id: int = 0
    revision: int = 0
    status: str = "accepted"
    received_at: dt.datetime | None = None
    duplicate: bool = False

    def line(self) -> LiveLine:
        """The result as scoring needs it."""
        return LiveLine(
            self.section,
            self.table,
            self.round,
            self.board,
            self.ns_pair,
            self.ew_pair,
            self.contract,
            self.declarer,
            self.tricks,
            self.score_ns,
            self.adjusted,
        )


class LiveLine(NamedTuple):
    """A live result as scoring needs it."""

    section: str
    table: int
    round: int
    board: int
    ns_pair: int
    ew_pair: int
    contract: str | None
    declarer: str | None
    tricks: int | None
    score_ns: int | None
    adjusted: str | None


_ENTRY_FIELDS = [f.name for f in fields(ResultEntry)]
_COLUMN = {"table": "table_no"}


def _to_stored(row: t.ResultRecord, duplicate: bool = False) -> StoredResult:
    values = {name: getattr(row, _COLUMN.get(name, name)) for name in _ENTRY_FIELDS}
    values["terminal_time"] = _aware(values["terminal_time"])
    return StoredResult(
        **values,
        id=row.id,
        revision=row.revision,
        status=row.status,
        received_at=_aware(row.received_at),
        duplicate=duplicate,
    )


def layout_to_json(layout: Layout) -> dict[str, Any]:
    data = asdict(layout)
    data["kind"] = layout.kind.value
    return data


def layout_from_json(data: dict[str, Any]) -> Layout:
    def tuples(v: Any) -> tuple:
        return tuple(tuple(x) for x in v)

    return Layout(
        kind=MovementKind(data["kind"]),
        winners=data["winners"],
        copies=data["copies"],
        shares=tuples(data["shares"]),
        relays=tuples(data["relays"]),
        matches=tuples(data["matches"]),
        arrow_switch=tuples(data["arrow_switch"]),
        description=data["description"],
    )


class Store:
    """One database (one event file per SQLite file by default; many events in PostgreSQL)."""

    def __init__(self, engine: Engine, clock: Callable[[], dt.datetime] = utc_now) -> None:
        self.engine = engine
        self.clock = clock
        self._movements: dict[tuple[int, str], Movement] = {}

    @classmethod
    def open(cls, url: str, clock: Callable[[], dt.datetime] = utc_now) -> Store:
        engine = make_engine(url)
        migrate(engine)
        return cls(engine, clock)

    def close(self) -> None:
        self.engine.dispose()

    # -- events -------------------------------------------------------------------------
    def create_event(
        self,
        event_text: str,
        base_dir: Path | None = None,
        actor: str = "TD",
        source: str = "event file",
    ) -> int:
        """Validate the event file, build every section's movement, store all at once."""
        event = parse_event(event_text, source)
        movements: list[tuple[int, str, Movement]] = []
        for s_index, session in enumerate(event.sessions):
            for section in session.sections:
                movement = build_movement(section.movement, section.letter, base_dir)
                report = check_movement(movement)
                if not report.ok:
                    first = report.errors[0]
                    raise MovementError(
                        f"section {section.letter}: {first.message}", first.row, first.rule
                    )
                movements.append((s_index, section.letter, movement))
        deals: dict[int, dict[int, str]] = {}
        for s_index, session in enumerate(event.sessions):
            if session.hand_records:
                try:
                    deals[s_index] = read_hand_records(
                        (base_dir or Path(".")) / session.hand_records
                    )
                except HandRecordError as e:
                    raise StoreError(f"sessions[{s_index}].hand_records: {e}") from None
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
                db.add_all(self._movement_records(ev.id, movement.rows))
            for s_index, session_deals in deals.items():
                db.add_all(
                    t.BoardRecord(event_id=ev.id, session=s_index, number=n, deal=d)
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
                                number=pair.number,
                                name=None,
                                not_competing=pair.not_competing,
                                players=[p.model_dump(exclude_none=True) for p in pair.players],
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
                                players=[p.model_dump(exclude_none=True) for p in team.players],
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

    @staticmethod
    def _movement_records(event_id: int, rows: Iterable[MovementRow]) -> list[t.MovementRowRecord]:
        return [
            t.MovementRowRecord(
                event_id=event_id,
                section=r.section,
                table_no=r.table,
                round=r.round,
                ns_pair=r.ns_pair,
                ew_pair=r.ew_pair,
                boards=";".join(map(str, r.boards)),
            )
            for r in rows
        ]

    def event_ids(self) -> list[int]:
        with Session(self.engine) as db:
            return list(db.scalars(select(t.Event.id).order_by(t.Event.id)))

    def event(self, event_id: int) -> EventFile:
        with Session(self.engine) as db:
            ev = db.get(t.Event, event_id)
            if ev is None:
                raise StoreError(f"no event {event_id} in this store")
            return parse_event(ev.event_file)

    def sections(self, event_id: int) -> list[str]:
        with Session(self.engine) as db:
            return list(
                db.scalars(
                    select(t.SectionRow.letter)
                    .where(t.SectionRow.event_id == event_id)
                    .order_by(t.SectionRow.letter)
                )
            )

    def movement(self, event_id: int, section: str) -> Movement:
        cached = self._movements.get((event_id, section))
        if cached is not None:
            return cached
        with Session(self.engine) as db:
            sec = db.scalar(
                select(t.SectionRow).where(
                    t.SectionRow.event_id == event_id, t.SectionRow.letter == section
                )
            )
            if sec is None:
                raise StoreError(f"event {event_id} has no section {section}")
            m = t.MovementRowRecord
            rows = db.execute(
                select(m.section, m.table_no, m.round, m.ns_pair, m.ew_pair, m.boards).where(
                    m.event_id == event_id, m.section == section
                )
            )
            out = tuple(
                MovementRow(sec_, table, rnd, ns, ew, tuple(int(b) for b in boards.split(";") if b))
                for sec_, table, rnd, ns, ew, boards in rows
            )
            movement = Movement(out, layout_from_json(sec.layout)).sorted()
        self._movements[(event_id, section)] = movement
        return movement

    def replace_movement_from_round(
        self, event_id: int, section: str, first_round: int, movement: Movement, actor: str = "TD"
    ) -> Movement:
        """A mid-session change: rounds before ``first_round`` stay as played; results are
        never touched."""
        current = self.movement(event_id, section)
        moved = tuple(replace(r, section=section) for r in movement.rows)
        changed = current.from_round(first_round, replace(movement, rows=moved))
        report = check_movement(changed)
        if not report.ok:
            raise MovementError(
                report.errors[0].message, report.errors[0].row, report.errors[0].rule
            )
        with Session(self.engine) as db, db.begin():
            for rec in db.scalars(
                select(t.MovementRowRecord).where(
                    t.MovementRowRecord.event_id == event_id,
                    t.MovementRowRecord.section == section,
                    t.MovementRowRecord.round >= first_round,
                )
            ):
                db.delete(rec)
            db.flush()
            db.add_all(
                self._movement_records(
                    event_id, (r for r in changed.rows if r.round >= first_round)
                )
            )
            sec = db.scalar(
                select(t.SectionRow).where(
                    t.SectionRow.event_id == event_id, t.SectionRow.letter == section
                )
            )
            assert sec is not None
            sec.layout = layout_to_json(changed.layout)
            db.add(
                t.AuditEntry(
                    event_id=event_id,
                    at=self.clock(),
                    actor=actor,
                    action="movement_changed",
                    detail={"section": section, "from_round": first_round},
                )
            )
        self._movements[(event_id, section)] = changed
        return changed

    def set_player(
        self,
        event_id: int,
        section: str,
        pair: int,
        index: int,
        *,
        name: str | None,
        number: str | None,
        actor: str = "TD",
    ) -> None:
        """Set one player of a pair (index 0 or 1), creating the pair if needed. Audited."""
        with Session(self.engine) as db, db.begin():
            c = db.scalar(
                select(t.Contestant).where(
                    t.Contestant.event_id == event_id,
                    t.Contestant.section == section,
                    t.Contestant.kind == "pair",
                    t.Contestant.number == pair,
                )
            )
            if c is None:
                c = t.Contestant(
                    event_id=event_id,
                    section=section,
                    kind="pair",
                    number=pair,
                    name=None,
                    not_competing=False,
                    players=[],
                )
                db.add(c)
            players = [dict(p) for p in (c.players or [])]
            while len(players) <= index:
                players.append({"name": ""})
            if name is not None:
                players[index]["name"] = name
            if number is not None:
                players[index]["number"] = number
            c.players = players
            db.add(
                t.AuditEntry(
                    event_id=event_id,
                    at=self.clock(),
                    actor=actor,
                    action="player_set",
                    detail={"section": section, "pair": pair, "seat": index},
                )
            )

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

    def contestants(self, event_id: int, section: str | None = None) -> list[dict[str, Any]]:
        with Session(self.engine) as db:
            q = select(t.Contestant).where(t.Contestant.event_id == event_id)
            if section:
                q = q.where(t.Contestant.section == section)
            return [
                {
                    "section": c.section,
                    "kind": c.kind,
                    "number": c.number,
                    "name": c.name,
                    "not_competing": c.not_competing,
                    "players": c.players,
                }
                for c in db.scalars(q.order_by(t.Contestant.section, t.Contestant.number))
            ]

    # -- results ------------------------------------------------------------------------
    def record(
        self,
        event_id: int,
        entries: Sequence[ResultEntry],
        status: str = "accepted",
        also: Callable[[Session], None] | None = None,
    ) -> list[StoredResult]:
        """Store results in one transaction (group commit); each gets the next revision of
        its key. A ``submission_key`` seen before returns the stored record, marked
        ``duplicate``, and writes nothing. ``also`` runs in the same transaction."""
        if status not in ("accepted", "held"):
            raise StoreError(f"status {status!r}: results are stored accepted or held")
        self._check_keys(event_id, entries, status)
        for attempt in range(5):
            try:
                return self._record_once(event_id, entries, status, also)
            except IntegrityError:
                if attempt == 4:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _check_keys(self, event_id: int, entries: Sequence[ResultEntry], status: str) -> None:
        """Refuse the whole batch, naming each mismatch, if any key is outside the movement
        (for accepted results also a board or pairs that do not match: those are held)."""
        movements: dict[str, Movement] = {}
        problems = []
        for e in entries:
            if e.section not in movements:
                try:
                    movements[e.section] = self.movement(event_id, e.section)
                except StoreError:
                    problems.append(f"section {e.section} is not in event {event_id}")
                    continue
            verdict = check_key(
                movements[e.section], e.section, e.table, e.round, e.board, e.ns_pair, e.ew_pair
            )
            if verdict.verdict is KeyVerdict.REFUSE or (
                verdict.verdict is KeyVerdict.HOLD and status == "accepted"
            ):
                problems.append(
                    f"section {e.section} table {e.table} round {e.round} board "
                    f"{e.board}: {verdict.reason}"
                )
        if problems:
            raise StoreError("; ".join(problems))

    def _record_once(
        self,
        event_id: int,
        entries: Sequence[ResultEntry],
        status: str,
        also: Callable[[Session], None] | None,
    ) -> list[StoredResult]:
        r = t.ResultRecord
        with Session(self.engine) as db, db.begin():
            if db.get(t.Event, event_id) is None:
                raise StoreError(f"no event {event_id} in this store")
            if also is not None:
                also(db)
            keys = sorted({e.key for e in entries})
            if db.get_bind().dialect.name == "postgresql":
                # hubs sharing a PostgreSQL event take turns per result key (sorted: no
                # deadlock between two batches)
                db.execute(
                    text(
                        "SELECT pg_advisory_xact_lock(hashtext(k)) FROM "
                        "unnest(CAST(:ks AS text[])) AS k ORDER BY k"
                    ),
                    {"ks": [f"{event_id}:{s}:{tb}:{rd}:{b}" for s, tb, rd, b in keys]},
                )
            wanted = {e.submission_key for e in entries if e.submission_key is not None}
            known: dict[str, t.ResultRecord] = {}
            if wanted:
                known = {
                    x.submission_key: x
                    for x in db.scalars(
                        select(r).where(r.event_id == event_id, r.submission_key.in_(wanted))
                    )
                    if x.submission_key is not None
                }
            top: dict[tuple[str, int, int, int], int] = {}
            for i in range(0, len(keys), 200):
                chunk = keys[i : i + 200]
                for sec, tab, rnd, brd, rev in db.execute(
                    select(r.section, r.table_no, r.round, r.board, func.max(r.revision))
                    .where(
                        r.event_id == event_id,
                        tuple_(r.section, r.table_no, r.round, r.board).in_(chunk),
                    )
                    .group_by(r.section, r.table_no, r.round, r.board)
                ):
                    top[(sec, tab, rnd, brd)] = rev
            now = self.clock()
            out: list[t.ResultRecord | StoredResult] = []
            for e in entries:
                if e.submission_key is not None and e.submission_key in known:
                    prior = known[e.submission_key]
                    out.append(prior if prior in db.new else _to_stored(prior, duplicate=True))
                    continue
                revision = top.get(e.key, 0) + 1
                top[e.key] = revision
                values = {_COLUMN.get(n, n): getattr(e, n) for n in _ENTRY_FIELDS}
                rec = t.ResultRecord(
                    event_id=event_id, revision=revision, status=status, received_at=now, **values
                )
                db.add(rec)
                if e.submission_key is not None:
                    known[e.submission_key] = rec
                out.append(rec)
            db.flush()
            seen: set[int] = set()
            result = []
            for x in out:
                if isinstance(x, StoredResult):
                    result.append(x)
                else:
                    result.append(_to_stored(x, duplicate=id(x) in seen))
                    seen.add(id(x))
            return result

    def decide_held(
        self,
        event_id: int,
        result_id: int,
        accept: bool,
        actor: str,
        rekey: dict[str, Any] | None = None,
    ) -> StoredResult | None:
        """The TD accepts a held result (as a new accepted revision, optionally re-keyed to
        the real board, pairs or direction) or rejects it. One transaction; audited."""
        with Session(self.engine) as db:
            held = db.get(t.ResultRecord, result_id)
            if held is None or held.event_id != event_id or held.status != "held":
                raise StoreError(f"result {result_id} is not a held result of event {event_id}")
            entry = _to_stored(held)

        def release(db: Session) -> None:
            row = db.get(t.ResultRecord, result_id, with_for_update=True)
            if row is None or row.status != "held":
                raise StoreError(f"result {result_id} was decided meanwhile")
            row.status = "released" if accept else "rejected"
            db.add(
                t.AuditEntry(
                    event_id=event_id,
                    at=self.clock(),
                    actor=actor,
                    action="held_accepted" if accept else "held_rejected",
                    detail={"result": result_id, "rekey": rekey or {}},
                )
            )

        if not accept:
            with Session(self.engine) as db, db.begin():
                release(db)
            return None
        base = {n: getattr(entry, n) for n in _ENTRY_FIELDS}
        base.update(rekey or {})
        base["submission_key"] = None
        base["entered_by"] = actor
        base["note"] = f"accepted from held result {result_id}"
        return self.record(event_id, [ResultEntry(**base)], also=release)[0]

    def results(self, event_id: int, section: str | None = None) -> list[StoredResult]:
        """Every stored revision, oldest first."""
        with Session(self.engine) as db:
            q = select(t.ResultRecord).where(t.ResultRecord.event_id == event_id)
            if section is not None:
                q = q.where(t.ResultRecord.section == section)
            return [_to_stored(r) for r in db.scalars(q.order_by(t.ResultRecord.id))]

    def _live_query(self, event_id: int, section: str | None, columns: list[Any]) -> Any:
        r = t.ResultRecord
        latest = (
            select(r.section, r.table_no, r.round, r.board, func.max(r.revision).label("rev"))
            .where(r.event_id == event_id, r.status == "accepted")
            .group_by(r.section, r.table_no, r.round, r.board)
        )
        if section is not None:
            latest = latest.where(r.section == section)
        sub = latest.subquery()
        return (
            select(*columns)
            .join(
                sub,
                and_(
                    r.section == sub.c.section,
                    r.table_no == sub.c.table_no,
                    r.round == sub.c.round,
                    r.board == sub.c.board,
                    r.revision == sub.c.rev,
                ),
            )
            .where(r.event_id == event_id, r.erased.is_(False))
            .order_by(r.section, r.board, r.table_no, r.round)
        )

    def live_results(self, event_id: int, section: str | None = None) -> list[StoredResult]:
        """The live result of each key: its latest accepted revision, unless that erased it."""
        r = t.ResultRecord
        cols = [getattr(r, _COLUMN.get(n, n)) for n in _ENTRY_FIELDS]
        q = self._live_query(event_id, section, [*cols, r.id, r.revision, r.status, r.received_at])
        width = len(_ENTRY_FIELDS)
        with Session(self.engine) as db:
            out = []
            for row in db.execute(q):
                values = dict(zip(_ENTRY_FIELDS, row[:width], strict=True))
                values["terminal_time"] = _aware(values["terminal_time"])
                rid, rev, status, received = row[width:]
                out.append(
                    StoredResult(
                        **values, id=rid, revision=rev, status=status, received_at=_aware(received)
                    )
                )
            return out

    def live_lines(self, event_id: int, section: str | None = None) -> list[LiveLine]:
        """The live results with only what scoring needs (fast: for rebuilding views)."""
        r = t.ResultRecord
        q = self._live_query(
            event_id,
            section,
            [
                r.section,
                r.table_no,
                r.round,
                r.board,
                r.ns_pair,
                r.ew_pair,
                r.contract,
                r.declarer,
                r.tricks,
                r.score_ns,
                r.adjusted,
            ],
        )
        with Session(self.engine) as db:
            return [LiveLine(*row) for row in db.execute(q)]

    # -- audit, devices, TD calls, clock, penalties ---------------------------------------
    def audit(self, event_id: int, actor: str, action: str, detail: dict[str, Any]) -> None:
        with Session(self.engine) as db, db.begin():
            db.add(
                t.AuditEntry(
                    event_id=event_id, at=self.clock(), actor=actor, action=action, detail=detail
                )
            )

    def audit_log(self, event_id: int, action: str | None = None) -> list[dict[str, Any]]:
        """The audit trail in order; only one kind of entry when ``action`` is given."""
        query = select(t.AuditEntry).where(t.AuditEntry.event_id == event_id)
        if action is not None:
            query = query.where(t.AuditEntry.action == action)
        with Session(self.engine) as db:
            return [
                {"at": _aware(a.at), "actor": a.actor, "action": a.action, "detail": a.detail}
                for a in db.scalars(query.order_by(t.AuditEntry.id))
            ]

    def touch_device(
        self,
        event_id: int,
        kind: str,
        serial: str,
        *,
        firmware: str | None = None,
        section: str | None = None,
        table: int | None = None,
    ) -> None:
        """Register a device or note that it was seen (and where it is assigned)."""
        with Session(self.engine) as db, db.begin():
            dev = db.scalar(
                select(t.Device).where(
                    t.Device.event_id == event_id, t.Device.kind == kind, t.Device.serial == serial
                )
            )
            if dev is None:
                dev = t.Device(event_id=event_id, kind=kind, serial=serial)
                db.add(dev)
            dev.last_seen = self.clock()
            if firmware is not None:
                dev.firmware = firmware
            if section is not None:
                dev.section, dev.table_no = section, table

    def devices(self, event_id: int) -> list[dict[str, Any]]:
        with Session(self.engine) as db:
            return [
                {
                    "kind": d.kind,
                    "serial": d.serial,
                    "firmware": d.firmware,
                    "section": d.section,
                    "table": d.table_no,
                    "last_seen": _aware(d.last_seen),
                }
                for d in db.scalars(
                    select(t.Device)
                    .where(t.Device.event_id == event_id)
                    .order_by(t.Device.kind, t.Device.serial)
                )
            ]

    def open_td_call(
        self,
        event_id: int,
        section: str,
        table: int,
        rnd: int | None = None,
        note: str | None = None,
    ) -> int:
        with Session(self.engine) as db, db.begin():
            call = t.TDCall(
                event_id=event_id,
                section=section,
                table_no=table,
                round=rnd,
                status="launched",
                opened_at=self.clock(),
                updated_at=self.clock(),
                note=note,
            )
            db.add(call)
            db.flush()
            return call.id

    def update_td_call(
        self, event_id: int, call_id: int, status: str, actor: str, note: str | None = None
    ) -> None:
        if status not in ("launched", "in_progress", "resolved", "deferred"):
            raise StoreError(
                f"TD call status {status!r} is not launched, in_progress, resolved or deferred"
            )
        with Session(self.engine) as db, db.begin():
            call = db.get(t.TDCall, call_id)
            if call is None or call.event_id != event_id:
                raise StoreError(f"no TD call {call_id} in event {event_id}")
            call.status, call.updated_at = status, self.clock()
            if note:
                call.note = note
            db.add(
                t.AuditEntry(
                    event_id=event_id,
                    at=self.clock(),
                    actor=actor,
                    action="td_call",
                    detail={"call": call_id, "status": status},
                )
            )

    def td_calls(self, event_id: int) -> list[dict[str, Any]]:
        with Session(self.engine) as db:
            return [
                {
                    "id": c.id,
                    "section": c.section,
                    "table": c.table_no,
                    "round": c.round,
                    "status": c.status,
                    "note": c.note,
                }
                for c in db.scalars(
                    select(t.TDCall).where(t.TDCall.event_id == event_id).order_by(t.TDCall.id)
                )
            ]

    def add_clock_event(
        self,
        event_id: int,
        kind: str,
        section: str | None = None,
        rnd: int | None = None,
        detail: dict[str, Any] | None = None,
        at: dt.datetime | None = None,
    ) -> None:
        with Session(self.engine) as db, db.begin():
            db.add(
                t.ClockEvent(
                    event_id=event_id,
                    section=section,
                    at=at or self.clock(),
                    kind=kind,
                    round=rnd,
                    detail=detail or {},
                )
            )

    def clock_events(self, event_id: int) -> list[dict[str, Any]]:
        with Session(self.engine) as db:
            return [
                {
                    "at": _aware(c.at),
                    "kind": c.kind,
                    "section": c.section,
                    "round": c.round,
                    "detail": c.detail,
                }
                for c in db.scalars(
                    select(t.ClockEvent)
                    .where(t.ClockEvent.event_id == event_id)
                    .order_by(t.ClockEvent.id)
                )
            ]

    def propose_penalty(
        self,
        event_id: int,
        section: str,
        contestant: int,
        amount: str,
        unit: str,
        reason: str,
        table: int | None = None,
        rnd: int | None = None,
        other: int | None = None,
    ) -> int:
        """A proposal names the table and both sides (contestant: NS, other: EW)."""
        with Session(self.engine) as db, db.begin():
            p = t.PenaltyRecord(
                event_id=event_id,
                section=section,
                table_no=table,
                round=rnd,
                contestant=contestant,
                other_contestant=other,
                amount=amount,
                unit=unit,
                status="proposed",
                reason=reason,
                proposed_at=self.clock(),
            )
            db.add(p)
            db.flush()
            return p.id

    def decide_penalty(
        self, event_id: int, penalty_id: int, confirm: bool, actor: str, payer: str | None = None
    ) -> None:
        with Session(self.engine) as db, db.begin():
            p = db.get(t.PenaltyRecord, penalty_id)
            if p is None or p.event_id != event_id or p.status != "proposed":
                raise StoreError(
                    f"penalty {penalty_id} is not a proposed penalty of event {event_id}"
                )
            p.status = "confirmed" if confirm else "waived"
            p.decided_at, p.decided_by = self.clock(), actor
            p.payer = payer if confirm else None
            db.add(
                t.AuditEntry(
                    event_id=event_id,
                    at=self.clock(),
                    actor=actor,
                    action="penalty_" + p.status,
                    detail={"penalty": penalty_id, "payer": payer},
                )
            )

    def penalties(self, event_id: int) -> list[dict[str, Any]]:
        with Session(self.engine) as db:
            return [
                {
                    "id": p.id,
                    "section": p.section,
                    "table": p.table_no,
                    "round": p.round,
                    "contestant": p.contestant,
                    "contestants": (p.contestant, p.other_contestant),
                    "amount": p.amount,
                    "unit": p.unit,
                    "status": p.status,
                    "reason": p.reason,
                    "decided_by": p.decided_by,
                    "payer": p.payer,
                }
                for p in db.scalars(
                    select(t.PenaltyRecord)
                    .where(t.PenaltyRecord.event_id == event_id)
                    .order_by(t.PenaltyRecord.id)
                )
            ]
