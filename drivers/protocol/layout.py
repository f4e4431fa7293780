"""How a BHWP/1 message is laid out: the field helper that gives each field its wire type
and meaning, the ``Message`` base and the registry of type codes, decoding a payload, the
records used inside lists, and the field table the specification prints. Sans-I/O: any
thread."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from drivers.protocol.codec import (
    I32,
    STR8,
    TEXT8,
    U8,
    U16,
    Codec,
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


def misdirected(message: Message, address: int) -> str | None:
    """Why a device at ``address`` on a base station's line cannot have sent ``message``:
    the hub's own messages to terminals, and the station's own (address 0 only) at a
    terminal's address; None when it can."""
    name = type(message).__name__
    if message.DIRECTION == "hub → terminal":
        return f"{name} is the hub's message to a terminal: the hub never takes it"
    if message.DIRECTION == "station → hub" and address:
        return f"{name} is the base station's own message: only the station sends it (address 0)"
    return None


# -- records used inside lists ------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TravellerEntry:
    """One result of the board's traveller (same encoding of "no contract" as RESULT)."""

    ns_pair: int = f(U16, "NS pair")
    ew_pair: int = f(U16, "EW pair")
    contract: str = f(STR8, 'e.g. "4SX"; "PASS" passed out; empty: an artificial score')
    declarer: int = f(U8, "seat 0 N, 1 E, 2 S, 3 W; 255 without a contract")
    tricks: int = f(U8, "tricks taken by declarer 0-13; 255 without a contract")
    score_ns: int = f(I32, "NS score (0 for a pass-out or an artificial score)")
    ns_value: int = f(I32, "NS percent or IMPs, hundredths (rounded half away from zero)")


@dataclass(frozen=True, slots=True)
class RankLine:
    """One entrant of a ranking page, best first."""

    rank: str = f(STR8, 'place as shown, e.g. "3="')
    pair: int = f(U16, "pair or team number")
    value: int = f(I32, "total, hundredths (percent, IMPs or VPs), rounded half away from 0")
    names: str = f(TEXT8, "the pair's players (\"Anna Berg & Bo Ek\") or the team's name")


@dataclass(frozen=True, slots=True)
class Setting:
    """One setting: a key and its value, both text."""

    key: str = f(STR8)
    value: str = f(STR8)


def field_table(cls: type) -> list[tuple[str, str, str]]:
    """(name, wire type, meaning) of each field, for the specification."""
    return [(x.name, x.metadata["codec"].name, x.metadata.get("doc", "")) for x in fields(cls)]
