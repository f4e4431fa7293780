"""Tables of the store. Results are append-only: a correction or an erasure is a new
revision of its key (event, section, table, round, board), never an update in place."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

ID = BigInteger().with_variant(Integer(), "sqlite")  # SQLite autoincrements INTEGER keys


class Base(DeclarativeBase):
    pass


class Event(Base):
    __tablename__ = "events"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    schema_version: Mapped[int] = mapped_column(Integer)
    event_file: Mapped[str] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class SectionRow(Base):
    __tablename__ = "sections"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    session: Mapped[int] = mapped_column(Integer)
    letter: Mapped[str] = mapped_column(String(3))
    layout: Mapped[dict] = mapped_column(JSON)
    __table_args__ = (UniqueConstraint("event_id", "letter"),)


class MovementRowRecord(Base):
    __tablename__ = "movement_rows"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    section: Mapped[str] = mapped_column(String(3))
    table_no: Mapped[int] = mapped_column(Integer)
    round: Mapped[int] = mapped_column(Integer)
    ns_pair: Mapped[int] = mapped_column(Integer)
    ew_pair: Mapped[int] = mapped_column(Integer)
    boards: Mapped[str] = mapped_column(String(400))  # "1;2;3"
    __table_args__ = (UniqueConstraint("event_id", "section", "table_no", "round"),)


class Contestant(Base):
    """A pair or a team of a section, with its players as JSON (decisions D16)."""

    __tablename__ = "contestants"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    section: Mapped[str] = mapped_column(String(3))
    kind: Mapped[str] = mapped_column(String(4))  # pair | team
    number: Mapped[int] = mapped_column(Integer)
    name: Mapped[str | None] = mapped_column(String(200), nullable=True)
    not_competing: Mapped[bool] = mapped_column(Boolean, default=False)
    players: Mapped[list] = mapped_column(JSON)
    __table_args__ = (UniqueConstraint("event_id", "section", "kind", "number"),)


class ResultRecord(Base):
    """One revision of a result key. ``status``: accepted (live if latest), held (quarantine,
    decisions D9), rejected (a held entry the TD turned down). ``erased`` revisions remove
    the live result of their key."""

    __tablename__ = "results"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    section: Mapped[str] = mapped_column(String(3))
    table_no: Mapped[int] = mapped_column(Integer)
    round: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer)
    revision: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(10))
    erased: Mapped[bool] = mapped_column(Boolean, default=False)
    ns_pair: Mapped[int] = mapped_column(Integer)
    ew_pair: Mapped[int] = mapped_column(Integer)
    contract: Mapped[str | None] = mapped_column(String(8), nullable=True)
    declarer: Mapped[str | None] = mapped_column(String(1), nullable=True)
    lead: Mapped[str | None] = mapped_column(String(3), nullable=True)
    tricks: Mapped[int | None] = mapped_column(Integer, nullable=True)
    score_ns: Mapped[int | None] = mapped_column(Integer, nullable=True)
    adjusted: Mapped[str | None] = mapped_column(String(160), nullable=True)
    entered_by: Mapped[str] = mapped_column(String(64))
    accepted_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    submission_key: Mapped[str | None] = mapped_column(String(128), nullable=True)
    received_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    terminal_time: Mapped[dt.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    note: Mapped[str | None] = mapped_column(Text, nullable=True)
    __table_args__ = (
        UniqueConstraint(
            "event_id",
            "section",
            "table_no",
            "round",
            "board",
            "revision",
            name="uq_result_revision",
        ),
        UniqueConstraint("event_id", "submission_key", name="uq_result_submission"),
        Index("ix_results_key", "event_id", "section", "board", "table_no", "round"),
    )


class AuditEntry(Base):
    __tablename__ = "audit_log"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    actor: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(40))
    detail: Mapped[dict] = mapped_column(JSON)


class Device(Base):
    __tablename__ = "devices"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    kind: Mapped[str] = mapped_column(String(16))  # terminal | base_station | clock
    serial: Mapped[str] = mapped_column(String(64))
    firmware: Mapped[str | None] = mapped_column(String(40), nullable=True)
    section: Mapped[str | None] = mapped_column(String(3), nullable=True)
    table_no: Mapped[int | None] = mapped_column(Integer, nullable=True)
    last_seen: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    __table_args__ = (UniqueConstraint("event_id", "kind", "serial"),)


class TDCall(Base):
    __tablename__ = "td_calls"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    section: Mapped[str] = mapped_column(String(3))
    table_no: Mapped[int] = mapped_column(Integer)
    round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status: Mapped[str] = mapped_column(String(12))  # launched|in_progress|resolved|deferred
    opened_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    note: Mapped[str | None] = mapped_column(Text, nullable=True)


class ClockEvent(Base):
    __tablename__ = "clock_events"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    section: Mapped[str | None] = mapped_column(String(3), nullable=True)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    kind: Mapped[str] = mapped_column(String(20))  # start|pause|resume|adjust|extend|break
    round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    detail: Mapped[dict] = mapped_column(JSON)


class PenaltyRecord(Base):
    __tablename__ = "penalties"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    section: Mapped[str] = mapped_column(String(3))
    table_no: Mapped[int | None] = mapped_column(Integer, nullable=True)
    round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    contestant: Mapped[int] = mapped_column(Integer)
    amount: Mapped[str] = mapped_column(String(20))  # exact, as a fraction "3/2"
    unit: Mapped[str] = mapped_column(String(20))
    status: Mapped[str] = mapped_column(String(10))  # proposed|confirmed|waived
    reason: Mapped[str] = mapped_column(Text)
    proposed_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    decided_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    decided_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    payer: Mapped[str | None] = mapped_column(String(40), nullable=True)
    other_contestant: Mapped[int | None] = mapped_column(Integer, nullable=True)


class BoardRecord(Base):
    """A session's hand record: the deal of each board (PBN, from the event's file), and
    its double-dummy tricks when the file has them."""

    __tablename__ = "boards"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    session: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    deal: Mapped[str] = mapped_column(String(80))
    # the file's DoubleDummyTricks (20 hex digits), when it carries them: not solved again
    tricks: Mapped[str | None] = mapped_column(String(20), nullable=True)
    __table_args__ = (UniqueConstraint("event_id", "session", "number"),)


class HubBoot(Base):
    """One start of the hub on this database: its link epoch (docs/protocol.md §3)."""

    __tablename__ = "hub_boots"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    epoch: Mapped[int] = mapped_column(BigInteger, unique=True)
    started_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class TableCodeRecord(Base):
    """A table's code for browser terminals (docs/web-terminal.md, "Table codes"): made once,
    kept across restarts so printed table cards stay good; ``used_by`` is the serial of the
    device that used it up (None until then, and again after the director re-issues it, which
    also counts ``generation`` up)."""

    __tablename__ = "table_codes"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    section: Mapped[str] = mapped_column(String(3))
    table_no: Mapped[int] = mapped_column(Integer)
    code: Mapped[str] = mapped_column(String(8))
    generation: Mapped[int] = mapped_column(Integer)
    used_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    used_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    __table_args__ = (
        UniqueConstraint("event_id", "section", "table_no", name="uq_table_code_table"),
    )
