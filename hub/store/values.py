"""The store's value types: a result as it arrives (``ResultEntry``), as stored
(``StoredResult``), as scoring reads it (``LiveLine``), and the error the store refuses with."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, fields
from typing import NamedTuple

from hub.store import schema as t
from scoring.contract import parse_contract
from scoring.errors import ScoringInputError


def utc_now() -> dt.datetime:
    """The store's default clock (tests inject their own)."""
    return dt.datetime.now(dt.UTC)


def aware(value: dt.datetime | None) -> dt.datetime | None:
    """A time read back from the database, in UTC (SQLite returns it without a zone)."""
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=dt.UTC)
    return value


class StoreError(ValueError):
    """A request the store refuses; nothing was written."""


@dataclass(frozen=True, slots=True)
class ResultEntry:
    """A result as it arrives: from a terminal, with its ``submission_key`` (terminal serial,
    section, table, round, board and the terminal's revision: a result sent again is never
    a second record, decisions D21), or from the TD (no key)."""

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
    accepted_by: str | None = None  # the director who accepted a held result (its author
    # stays in ``entered_by``)

    @property
    def key(self) -> tuple[str, int, int, int]:
        return (self.section, self.table, self.round, self.board)

    def same_result(self, other: ResultEntry | t.ResultRecord) -> bool:
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
    duplicate: bool = False  # its submission was stored before with this content (D21)
    key_clash: bool = False  # held: its submission was stored before with other content

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


# The entry's fields in declaration order, and the one stored under another column name.
ENTRY_FIELDS = [f.name for f in fields(ResultEntry)]
COLUMN = {"table": "table_no"}


def to_stored(
    row: t.ResultRecord, duplicate: bool = False, key_clash: bool = False
) -> StoredResult:
    """A stored result record as a value (detached from its session)."""
    values = {name: getattr(row, COLUMN.get(name, name)) for name in ENTRY_FIELDS}
    values["terminal_time"] = aware(values["terminal_time"])
    return StoredResult(
        **values,
        id=row.id,
        revision=row.revision,
        status=row.status,
        received_at=aware(row.received_at),
        duplicate=duplicate,
        key_clash=key_clash,
    )


def result_form(contract: str | None, tricks: int | None) -> str | None:
    """Tricks as a traveller writes them against the contract: ``=``, ``+1``, ``-2``; empty
    for a pass-out; None when it cannot be read."""
    if not contract:
        return None
    try:
        parsed = parse_contract(contract)
    except ScoringInputError:
        return None
    if parsed is None:
        return ""
    if tricks is None:
        return None
    diff = tricks - parsed.tricks_needed
    return "=" if diff == 0 else f"{diff:+d}"


def what_was_played(r: ResultEntry) -> str:
    """A result in the TD's words: ``4S N =``, ``PASS``, ``adjusted 60/40``, ``NS +420``,
    ``erased``."""
    if r.erased:
        return "erased"
    if r.adjusted:
        return f"adjusted {r.adjusted}"
    if r.contract:
        form = result_form(r.contract, r.tricks)
        if form == "":
            return "PASS"
        return " ".join(x for x in (r.contract, r.declarer, form) if x)
    return "no result" if r.score_ns is None else f"NS {r.score_ns:+d}"


def conflict_text(live: ResultEntry) -> str:
    """What a held result would replace: ``board 17 already has 4S N = from table A3``."""
    return (
        f"board {live.board} already has {what_was_played(live)} from table "
        f"{live.section}{live.table} (round {live.round})"
    )
