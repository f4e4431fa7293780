"""Results in the store: append-only revisions of each key, held results and the TD's
decisions on them, and the live result of every key.

A result is durable when ``record`` returns: its transaction has committed with the
database's full durability (decisions D11); several results may share one commit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, case, func, select, text, tuple_
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from hub.event.movement.model import Movement
from hub.event.result_key import KeyVerdict, check_key
from hub.store import schema as t
from hub.store.part import StorePart
from hub.store.values import (
    COLUMN,
    ENTRY_FIELDS,
    LiveLine,
    ResultEntry,
    StoredResult,
    StoreError,
    aware,
    conflict_text,
    to_stored,
)


def _of(row: t.ResultRecord, submission: str) -> bool:
    """The stored row is ``submission`` or a later generation of it (``key#2``, ...)."""
    key = row.submission_key
    if key is None or not key.startswith(submission):
        return False
    rest = key[len(submission) :]
    return rest == "" or (rest[:1] == "#" and rest[1:].isdigit())


def _key(row: t.ResultRecord) -> tuple[str, int, int, int]:
    return (row.section, row.table_no, row.round, row.board)


class ResultStore(StorePart):
    """Part of ``Store``: recording results (group commit), held results, live results.
    Keys are checked against the section's movement, which ``EventStore`` provides. Like
    ``Store``: worker threads and the command line, never the hub's loop."""

    if TYPE_CHECKING:

        def movement(self, event_id: int, section: str) -> Movement: ...

    def record(
        self,
        event_id: int,
        entries: Sequence[ResultEntry],
        status: str = "accepted",
        also: Callable[[Session], None] | None = None,
        before_commit: Callable[[Session], None] | None = None,
    ) -> list[StoredResult]:
        """Store results in one transaction (group commit); each gets the next revision of
        its key. Decisions D21, for a ``submission_key`` seen before: with the same content
        as a record of it stored after the key's last erasure, that record comes back
        marked ``duplicate`` and nothing is written; with other content it is stored
        ``held`` and marked ``key_clash`` (same submission, different content: never
        discarded); after an erasure of the key it is a new entry (stored as ``status``
        says). A stored generation of a submission key is ``key``, then ``key#2``, ...
        ``also`` runs in the same transaction, first; ``before_commit`` last, once the rows
        are written and before COMMIT (a campaign's crash point,
        hub.live.oversight.crash_points)."""
        if status not in ("accepted", "held"):
            raise StoreError(f"status {status!r}: results are stored accepted or held")
        self._check_keys(event_id, entries, status)
        for attempt in range(5):
            try:
                return self._record_once(event_id, entries, status, also, before_commit)
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
        before_commit: Callable[[Session], None] | None = None,
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
            top: dict[tuple[str, int, int, int], int] = {}
            erased_at: dict[tuple[str, int, int, int], int] = {}  # the key's last erasure
            last_erasure = func.max(case((and_(r.erased, r.status == "accepted"), r.revision)))
            for i in range(0, len(keys), 200):
                chunk = keys[i : i + 200]
                for sec, tab, rnd, brd, rev, gone in db.execute(
                    select(
                        r.section, r.table_no, r.round, r.board, func.max(r.revision), last_erasure
                    )
                    .where(
                        r.event_id == event_id,
                        tuple_(r.section, r.table_no, r.round, r.board).in_(chunk),
                    )
                    .group_by(r.section, r.table_no, r.round, r.board)
                ):
                    top[(sec, tab, rnd, brd)] = rev
                    erased_at[(sec, tab, rnd, brd)] = gone or 0
            wanted = sorted({e.submission_key for e in entries if e.submission_key is not None})
            known = self._generations(db, event_id, wanted)
            now = self.clock()
            out: list[tuple[t.ResultRecord, bool, bool]] = []  # record, duplicate, key clash
            for e in entries:
                status_e, clash = status, False
                submission = e.submission_key
                if submission is not None:
                    family = known.setdefault(submission, [])
                    since = [  # a rejected one is gone: its table enters the board again
                        x
                        for x in family
                        if x.status != "rejected"
                        and (_key(x) != e.key or x.revision > erased_at.get(e.key, 0))
                    ]
                    same = next((x for x in since if _key(x) == e.key and e.same_result(x)), None)
                    if same is not None:
                        out.append((same, True, False))
                        continue
                    if since:  # D21: the same submission with other content is held
                        status_e, clash = "held", True
                    if family:  # after an erasure or a clash: the key's next generation
                        taken = {x.submission_key for x in family}
                        n = len(family) + 1
                        while f"{submission}#{n}" in taken:
                            n += 1
                        submission = f"{submission}#{n}"
                revision = top.get(e.key, 0) + 1
                top[e.key] = revision
                values = {COLUMN.get(n, n): getattr(e, n) for n in ENTRY_FIELDS}
                values["submission_key"] = submission
                rec = t.ResultRecord(
                    event_id=event_id, revision=revision, status=status_e, received_at=now, **values
                )
                db.add(rec)
                if e.submission_key is not None:
                    known.setdefault(e.submission_key, []).append(rec)
                out.append((rec, False, clash))
            db.flush()
            if before_commit is not None:
                before_commit(db)
            return [to_stored(x, duplicate=dup, key_clash=clash) for x, dup, clash in out]

    @staticmethod
    def _generations(
        db: Session, event_id: int, wanted: Sequence[str]
    ) -> dict[str, list[t.ResultRecord]]:
        """Every stored generation (``key``, ``key#2``, ...) of each wanted submission key.
        The keys themselves come by index; a later generation exists only when its key
        does (a resend, an erasure), so only those few are looked for by prefix."""
        r, sk = t.ResultRecord, t.ResultRecord.submission_key
        found: dict[str, list[t.ResultRecord]] = {}
        for i in range(0, len(wanted), 500):
            for x in db.scalars(
                select(r).where(r.event_id == event_id, sk.in_(wanted[i : i + 500]))
            ):
                found.setdefault(str(x.submission_key), []).append(x)
        for key, family in found.items():
            later = select(r).where(
                r.event_id == event_id, sk.startswith(f"{key}#", autoescape=True)
            )
            family += [x for x in db.scalars(later) if _of(x, key)]
        return found

    def decide_held(
        self,
        event_id: int,
        result_id: int,
        accept: bool,
        actor: str,
        rekey: dict[str, Any] | None = None,
        replace: bool = False,
    ) -> StoredResult | None:
        """The TD accepts a held result (as a new accepted revision, optionally re-keyed to
        the real board, pairs or direction) or rejects it. One transaction; audited. The
        accepted result keeps its author (the terminal, ``entered_by``) and records the TD
        in ``accepted_by`` (TD trial F7); it replaces a live result at its key only with
        ``replace`` (refused otherwise, naming the result there)."""
        with Session(self.engine) as db:
            held = db.get(t.ResultRecord, result_id)
            if held is None or held.event_id != event_id or held.status != "held":
                raise StoreError(f"result {result_id} is not a held result of event {event_id}")
            entry = to_stored(held)
        base = {n: getattr(entry, n) for n in ENTRY_FIELDS}
        base.update(rekey or {})
        accepted = ResultEntry(
            **{
                **base,
                "submission_key": None,
                "accepted_by": actor,
                "note": f"accepted from held result {result_id}",
            }
        )

        def release(db: Session) -> None:
            row = db.get(t.ResultRecord, result_id, with_for_update=True)
            if row is None or row.status != "held":
                raise StoreError(f"result {result_id} was decided meanwhile")
            if accept and not replace:
                live = self._live_at(db, event_id, accepted.key)
                if live is not None:
                    raise StoreError(f"{conflict_text(live)}: accept with replace to replace it")
            row.status = "released" if accept else "rejected"
            db.add(
                t.AuditEntry(
                    event_id=event_id,
                    at=self.clock(),
                    actor=actor,
                    action="held_accepted" if accept else "held_rejected",
                    detail={"result": result_id, "rekey": rekey or {}, "replace": replace},
                )
            )

        if not accept:
            with Session(self.engine) as db, db.begin():
                release(db)
            return None
        return self.record(event_id, [accepted], also=release)[0]

    @staticmethod
    def _live_at(db: Session, event_id: int, key: tuple[str, int, int, int]) -> StoredResult | None:
        """The live result of one key (its latest accepted revision unless erased)."""
        r = t.ResultRecord
        section, table, rnd, board = key
        row = db.scalars(
            select(r)
            .where(
                r.event_id == event_id,
                r.section == section,
                r.table_no == table,
                r.round == rnd,
                r.board == board,
                r.status == "accepted",
            )
            .order_by(r.revision.desc())
            .limit(1)
        ).first()
        return None if row is None or row.erased else to_stored(row)

    def results(self, event_id: int, section: str | None = None) -> list[StoredResult]:
        """Every stored revision, oldest first."""
        with Session(self.engine) as db:
            q = select(t.ResultRecord).where(t.ResultRecord.event_id == event_id)
            if section is not None:
                q = q.where(t.ResultRecord.section == section)
            return [to_stored(r) for r in db.scalars(q.order_by(t.ResultRecord.id))]

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
        cols = [getattr(r, COLUMN.get(n, n)) for n in ENTRY_FIELDS]
        q = self._live_query(event_id, section, [*cols, r.id, r.revision, r.status, r.received_at])
        at = ENTRY_FIELDS.index("terminal_time")
        received = len(ENTRY_FIELDS) + 3
        out = []
        with self.engine.connect() as db:  # plain rows, built by position: 100,000 in a blink
            for row in db.execute(q):
                values = list(row)
                values[at] = aware(values[at])
                values[received] = aware(values[received])
                out.append(StoredResult(*values))
        return out

    def live_keys(self, event_id: int) -> list[tuple[str, int, int, int]]:
        """The key of every live result, (section, table, round, board): all a restarted
        hub needs before its lines open (the round each table is in)."""
        r = t.ResultRecord
        q = select(r.section, r.table_no, r.round, r.board, r.revision, r.erased).where(
            r.event_id == event_id, r.status == "accepted"
        )
        latest: dict[tuple[str, int, int, int], tuple[int, bool]] = {}
        with self.engine.connect() as db:  # one plain scan (a grouped join costs twice as much)
            for section, table, rnd, board, revision, erased in db.execute(q):
                key = (section, table, rnd, board)
                known = latest.get(key)
                if known is None or known[0] < revision:
                    latest[key] = (revision, erased)
        return [key for key, (_, erased) in latest.items() if not erased]

    def live_at(
        self, event_id: int, keys: Sequence[tuple[str, int, int, int]]
    ) -> list[StoredResult]:
        """The live result of each of these keys that has one (one read)."""
        with Session(self.engine) as db:
            found = [self._live_at(db, event_id, key) for key in sorted(set(keys))]
        return [x for x in found if x is not None]

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
