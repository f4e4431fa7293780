"""Every message of BHWP/1 as a small value type, with its type code and field layout.

docs/protocol.md is generated from these definitions (``python -m drivers.protocol.spec``)
and a test keeps the two in step.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import IntEnum
from typing import Any, ClassVar

from drivers.protocol.codec import (
    I32,
    STR8,
    STR16,
    U8,
    U16,
    U32,
    U64,
    Codec,
    ListOf,
    MessageError,
    decode_record,
    encode_record,
)


def f(codec: Codec, doc: str = "", default: Any = None) -> Any:
    meta = {"codec": codec, "doc": doc}
    if default is None:
        return field(metadata=meta)
    if isinstance(default, tuple | list):
        return field(default_factory=lambda: tuple(default), metadata=meta)
    return field(default=default, metadata=meta)


class Outcome(IntEnum):
    """What an ACK says about the message it acknowledges (decisions D9)."""

    OK = 0
    ACCEPTED = 1
    HELD = 2
    DUPLICATE = 3


class NakCode(IntEnum):
    """Why a message was not taken. Below 16: the link (the sender may restart and resend);
    16 and above: the content (the terminal shows the text; resending cannot help)."""

    BAD_PAYLOAD = 1
    UNKNOWN_TYPE = 2
    UNKNOWN_EPOCH = 3
    STALE_EPOCH = 4
    REPLAY = 5
    NOT_LOGGED_ON = 16
    TABLE_HELD = 17
    INVALID_RESULT = 18
    NOT_IN_MOVEMENT = 19
    NOT_ALLOWED = 20
    BUSY = 21


class DeviceKind(IntEnum):
    TERMINAL = 1
    BASE_STATION = 2
    HUB = 3
    CLOCK = 4


class Seat(IntEnum):
    N = 0
    E = 1
    S = 2
    W = 3


NO_DECLARER = 255
NO_PLAY = 255


class Message:
    """Base of all messages; ``TYPE`` is the frame's type byte, ``NEEDS_ACK`` whether the
    receiver must answer with ACK or NAK. Messages are sans-I/O values: any thread."""

    TYPE: ClassVar[int]
    NEEDS_ACK: ClassVar[bool] = True
    DIRECTION: ClassVar[str] = ""

    def payload(self) -> bytes:
        out = bytearray()
        encode_record(self, out)
        return bytes(out)


REGISTRY: dict[int, type[Message]] = {}


def message(code: int, direction: str, needs_ack: bool = True) -> Any:
    def wrap(cls: type[Message]) -> type[Message]:
        if code in REGISTRY:
            raise ValueError(f"type 0x{code:02X} used twice")
        cls.TYPE = code
        cls.NEEDS_ACK = needs_ack
        cls.DIRECTION = direction
        REGISTRY[code] = cls
        return cls

    return wrap


def decode_message(code: int, payload: bytes) -> Message:
    """The message of a frame; raises MessageError for an unknown type or a bad payload."""
    cls = REGISTRY.get(code)
    if cls is None:
        raise MessageError("type", f"unknown message type 0x{code:02X}")
    msg, pos = decode_record(cls, payload, 0)
    if pos != len(payload):
        raise MessageError("payload", f"{len(payload) - pos} bytes left over after the last field")
    return msg


# -- records used inside lists ------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TravellerEntry:
    ns_pair: int = f(U16, "NS pair")
    ew_pair: int = f(U16, "EW pair")
    contract: str = f(STR8, "e.g. 4SX, PASS; empty for an artificial score")
    declarer: int = f(U8, "Seat 0-3, 255 none")
    tricks: int = f(U8, "tricks taken 0-13, 255 none")
    score_ns: int = f(I32, "NS score")
    ns_value: int = f(I32, "NS percent or IMPs, hundredths")


@dataclass(frozen=True, slots=True)
class RankLine:
    rank: str = f(STR8, 'place as shown, e.g. "3="')
    pair: int = f(U16, "pair or team number")
    value: int = f(I32, "total, hundredths (percent, IMPs or VPs)")
    names: str = f(STR8, "players or team name")


@dataclass(frozen=True, slots=True)
class Setting:
    key: str = f(STR8)
    value: str = f(STR8)


# -- link ---------------------------------------------------------------------------------
@message(0x01, "both", needs_ack=False)
@dataclass(frozen=True, slots=True)
class Ack(Message):
    """The message (epoch, seq) was taken; for a result: stored durably first."""

    acked_epoch: int = f(U32, "epoch of the acknowledged frame")
    acked_seq: int = f(U32, "sequence number of the acknowledged frame")
    outcome: int = f(U8, "Outcome: 0 ok, 1 accepted, 2 held for the director, 3 duplicate")
    text: str = f(STR16, "shown at the terminal, may be empty", "")


@message(0x02, "both", needs_ack=False)
@dataclass(frozen=True, slots=True)
class Nak(Message):
    """The message (epoch, seq) was refused; ``text`` tells the players why."""

    acked_epoch: int = f(U32)
    acked_seq: int = f(U32)
    code: int = f(U8, "NakCode")
    text: str = f(STR16, "the reason, for the display", "")


@message(0x03, "both")
@dataclass(frozen=True, slots=True)
class Hello(Message):
    """First message of an epoch (after power-up, reboot or reconnect)."""

    kind: int = f(U8, "DeviceKind: 1 terminal, 2 base station, 3 hub, 4 clock")
    serial: str = f(STR8, "device serial number")
    firmware: str = f(STR8, "firmware version", "")


@message(0x04, "both", needs_ack=False)
@dataclass(frozen=True, slots=True)
class Heartbeat(Message):
    uptime_ms: int = f(U32, "milliseconds since power-up (wraps)")


# -- terminal → hub -------------------------------------------------------------------------
@message(0x10, "terminal → hub")
@dataclass(frozen=True, slots=True)
class Logon(Message):
    serial: str = f(STR8)
    section: str = f(STR8, "section letter claimed")
    table: int = f(U16, "table claimed")
    firmware: str = f(STR8, default="")
    td_pin: str = f(STR8, "director's PIN to take over a held table, else empty", "")


@message(0x11, "terminal → hub")
@dataclass(frozen=True, slots=True)
class PlayerNumber(Message):
    section: str = f(STR8)
    table: int = f(U16)
    round: int = f(U16)
    seat: int = f(U8, "Seat 0-3")
    number: str = f(STR8, "member number as keyed")


@message(0x12, "terminal → hub")
@dataclass(frozen=True, slots=True)
class Result(Message):
    """A board result as entered at the table."""

    section: str = f(STR8)
    table: int = f(U16)
    round: int = f(U16)
    board: int = f(U16)
    ns_pair: int = f(U16)
    ew_pair: int = f(U16)
    contract: str = f(STR8, "1C … 7NTXX or PASS; empty when not played")
    declarer: int = f(U8, "Seat 0-3, 255 for a pass-out or no play")
    lead: str = f(STR8, 'opening lead, e.g. "HA", "S10"; may be empty')
    tricks: int = f(U8, "tricks taken by declarer 0-13; 255 = no play")
    terminal_time_ms: int = f(U64, "terminal clock, ms since 1970 UTC")
    revision: int = f(U8, "1 for the first entry, +1 for each correction at the table")


@message(0x13, "terminal → hub")
@dataclass(frozen=True, slots=True)
class Verify(Message):
    """The opponents' verification of an entered result."""

    section: str = f(STR8)
    table: int = f(U16)
    round: int = f(U16)
    board: int = f(U16)
    agreed: int = f(U8, "1 agreed, 0 rejected")


@message(0x14, "terminal → hub")
@dataclass(frozen=True, slots=True)
class Erase(Message):
    section: str = f(STR8)
    table: int = f(U16)
    round: int = f(U16)
    board: int = f(U16)
    revision: int = f(U8, "the revision to erase")


@message(0x15, "terminal → hub")
@dataclass(frozen=True, slots=True)
class TDCall(Message):
    section: str = f(STR8)
    table: int = f(U16)
    round: int = f(U16)
    reason: int = f(U8, "0 general, 1 revoke, 2 insufficient bid, 3 claim, 4 slow play, 5 other")
    text: str = f(STR8, default="")


@message(0x16, "terminal → hub")
@dataclass(frozen=True, slots=True)
class RoundStarted(Message):
    section: str = f(STR8)
    table: int = f(U16)
    round: int = f(U16)
    time_ms: int = f(U64, "terminal clock")


@message(0x17, "terminal → hub")
@dataclass(frozen=True, slots=True)
class BoardStarted(Message):
    section: str = f(STR8)
    table: int = f(U16)
    round: int = f(U16)
    board: int = f(U16)
    time_ms: int = f(U64, "terminal clock")


@message(0x18, "terminal → hub", needs_ack=False)
@dataclass(frozen=True, slots=True)
class Status(Message):
    battery_percent: int = f(U8)
    signal_percent: int = f(U8)
    current_board: int = f(U16, "0 when none")


# -- hub → terminal -------------------------------------------------------------------------
@message(0x20, "hub → terminal")
@dataclass(frozen=True, slots=True)
class Assignment(Message):
    section: str = f(STR8)
    table: int = f(U16)
    round: int = f(U16)
    ns_pair: int = f(U16, "0 for an empty seat")
    ew_pair: int = f(U16, "0 for an empty seat")
    boards: tuple[int, ...] = f(ListOf(U16, 64), "boards of the round", ())


@message(0x21, "hub → terminal")
@dataclass(frozen=True, slots=True)
class ResultView(Message):
    """The table's own score and the traveller, sent after the board was played here."""

    section: str = f(STR8)
    board: int = f(U16)
    own_score_ns: int = f(I32)
    own_value: int = f(I32, "the table's NS percent or IMPs, hundredths")
    value_kind: int = f(U8, "0 percent, 1 IMPs")
    lines: tuple[TravellerEntry, ...] = f(ListOf(TravellerEntry, 64), default=())


@message(0x22, "hub → terminal")
@dataclass(frozen=True, slots=True)
class RankingPage(Message):
    section: str = f(STR8)
    round: int = f(U16, "standings after this round")
    page: int = f(U8)
    pages: int = f(U8)
    lines: tuple[RankLine, ...] = f(ListOf(RankLine, 32), default=())


@message(0x23, "hub → terminal", needs_ack=False)
@dataclass(frozen=True, slots=True)
class Clock(Message):
    section: str = f(STR8)
    round: int = f(U16)
    phase: int = f(U8, "0 play, 1 last board, 2 no new board, 3 move, 4 paused, 5 break")
    seconds_left: int = f(I32, "negative when over time")


@message(0x24, "hub → terminal")
@dataclass(frozen=True, slots=True)
class TDMessage(Message):
    text: str = f(STR16)
    beep: int = f(U8, "1 to alert the players", 0)


@message(0x25, "hub → terminal")
@dataclass(frozen=True, slots=True)
class NextSeating(Message):
    """Where a pair goes next round (one message per pair at the table)."""

    section: str = f(STR8)
    round: int = f(U16)
    pair: int = f(U16)
    table: int = f(U16)
    seat_ns: int = f(U8, "1 NS, 0 EW")
    opponents: int = f(U16)
    boards: tuple[int, ...] = f(ListOf(U16, 64), default=())


@message(0x26, "hub → terminal")
@dataclass(frozen=True, slots=True)
class Settings(Message):
    entries: tuple[Setting, ...] = f(ListOf(Setting, 64), default=())


@message(0x27, "hub → terminal")
@dataclass(frozen=True, slots=True)
class PlayerName(Message):
    section: str = f(STR8)
    table: int = f(U16)
    round: int = f(U16)
    seat: int = f(U8)
    number: str = f(STR8)
    name: str = f(STR8)


# -- base station ---------------------------------------------------------------------------
@message(0x30, "station → hub", needs_ack=False)
@dataclass(frozen=True, slots=True)
class StationStatus(Message):
    terminals: int = f(U16, "terminals connected")
    radio_channel: int = f(U8)
    uptime_ms: int = f(U32)


@message(0x31, "station → hub")
@dataclass(frozen=True, slots=True)
class TerminalJoined(Message):
    """A terminal came into radio range; the frame's terminal field is its address."""

    serial: str = f(STR8)


@message(0x32, "station → hub")
@dataclass(frozen=True, slots=True)
class TerminalLeft(Message):
    reason: int = f(U8, "0 out of range, 1 powered off, 2 replaced")


def field_table(cls: type) -> list[tuple[str, str, str]]:
    """(name, wire type, meaning) of each field, for the specification."""
    return [(x.name, x.metadata["codec"].name, x.metadata.get("doc", "")) for x in fields(cls)]
