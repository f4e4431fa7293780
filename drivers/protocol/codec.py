"""Field codecs for message payloads: fixed-width big-endian integers, length-prefixed
UTF-8 strings and counted lists. Every value is range-checked both ways."""

from __future__ import annotations

import struct
from dataclasses import fields, is_dataclass
from typing import Any


class MessageError(ValueError):
    """A payload that does not fit its message type; ``field`` names the culprit."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class Codec:
    """How one field type is written and read. Sans-I/O and unchanged once built, so the
    shared instances below serve any thread."""

    name = "?"

    def encode(self, value: Any, out: bytearray, field: str) -> None:
        raise NotImplementedError

    def decode(self, buf: bytes, pos: int, field: str) -> tuple[Any, int]:
        raise NotImplementedError


class Int(Codec):
    """A fixed-width big-endian integer (``fmt`` a struct code). Sans-I/O; any thread."""

    def __init__(self, fmt: str, name: str) -> None:
        self.st = struct.Struct(">" + fmt)
        self.name = name
        bits = self.st.size * 8
        signed = fmt.islower()
        self.lo = -(1 << (bits - 1)) if signed else 0
        self.hi = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1

    def encode(self, value: Any, out: bytearray, field: str) -> None:
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or not (self.lo <= value <= self.hi)
        ):
            raise MessageError(field, f"{value!r} is not a {self.name} ({self.lo}..{self.hi})")
        out += self.st.pack(value)

    def decode(self, buf: bytes, pos: int, field: str) -> tuple[Any, int]:
        end = pos + self.st.size
        if end > len(buf):
            raise MessageError(field, "payload ends inside this field")
        return self.st.unpack_from(buf, pos)[0], end


def cut_utf8(text: str, limit: int) -> bytes:
    """``text`` in UTF-8, cut to at most ``limit`` bytes at a character boundary (a lone
    surrogate, which UTF-8 cannot carry, becomes "?")."""
    data = text.encode("utf-8", errors="replace")
    if len(data) <= limit:
        return data
    return data[:limit].decode("utf-8", errors="ignore").encode("utf-8")


class Str(Codec):
    """UTF-8 text with a u8 (≤ 255 bytes) or u16 (≤ ``limit`` bytes) length. Sans-I/O.

    ``cut``: display text, which a sender cuts at a character boundary to fit (counted in
    bytes, not characters); other text (identifiers) that does not fit is an error."""

    def __init__(self, wide: bool = False, limit: int | None = None, *, cut: bool = False) -> None:
        self.len = U16 if wide else U8
        self.limit = limit or (1024 if wide else 255)
        self.cut = cut
        self.name = f"str{'16' if wide else '8'}"

    def encode(self, value: Any, out: bytearray, field: str) -> None:
        if not isinstance(value, str):
            raise MessageError(field, f"{value!r} is not text")
        if self.cut:
            data = cut_utf8(value, self.limit)
        else:
            try:
                data = value.encode("utf-8")
            except UnicodeEncodeError:
                raise MessageError(field, "not encodable as UTF-8") from None
        if len(data) > self.limit:
            raise MessageError(field, f"{len(data)} bytes is longer than {self.limit}")
        self.len.encode(len(data), out, field)
        out += data

    def decode(self, buf: bytes, pos: int, field: str) -> tuple[Any, int]:
        n, pos = self.len.decode(buf, pos, field)
        if n > self.limit:
            raise MessageError(field, f"{n} bytes is longer than {self.limit}")
        if pos + n > len(buf):
            raise MessageError(field, "payload ends inside this text")
        try:
            return bytes(buf[pos : pos + n]).decode("utf-8"), pos + n
        except UnicodeDecodeError:
            raise MessageError(field, "not valid UTF-8") from None


class ListOf(Codec):
    """A u8 count then the items (integers or small records). Sans-I/O; any thread."""

    def __init__(self, item: Codec | type, limit: int = 255) -> None:
        self.item = item
        self.limit = limit
        self.name = f"list of {getattr(item, 'name', getattr(item, '__name__', '?'))}"

    def encode(self, value: Any, out: bytearray, field: str) -> None:
        if not isinstance(value, list | tuple):
            raise MessageError(field, "a list is required")
        if len(value) > self.limit:
            raise MessageError(field, f"{len(value)} items is more than {self.limit}")
        U8.encode(len(value), out, field)
        for i, v in enumerate(value):
            if isinstance(self.item, Codec):
                self.item.encode(v, out, f"{field}[{i}]")
            else:
                encode_record(v, out, f"{field}[{i}]")

    def decode(self, buf: bytes, pos: int, field: str) -> tuple[Any, int]:
        n, pos = U8.decode(buf, pos, field)
        if n > self.limit:
            raise MessageError(field, f"{n} items is more than {self.limit}")
        items = []
        for i in range(n):
            if isinstance(self.item, Codec):
                v, pos = self.item.decode(buf, pos, f"{field}[{i}]")
            else:
                v, pos = decode_record(self.item, buf, pos, f"{field}[{i}]")
            items.append(v)
        return tuple(items), pos


U8 = Int("B", "u8")
U16 = Int("H", "u16")
U32 = Int("I", "u32")
U64 = Int("Q", "u64")
I32 = Int("i", "i32")
STR8 = Str()
STR16 = Str(wide=True)
TEXT8 = Str(cut=True)  # display text: cut to fit, never refused for its length
TEXT16 = Str(wide=True, cut=True)


def codec_of(f: Any) -> Codec:
    return f.metadata["codec"]


def encode_record(record: Any, out: bytearray, prefix: str = "") -> None:
    for f in fields(record):
        codec_of(f).encode(getattr(record, f.name), out, f"{prefix}.{f.name}".lstrip("."))


def decode_record(cls: type, buf: bytes, pos: int, prefix: str = "") -> tuple[Any, int]:
    assert is_dataclass(cls)
    values = {}
    for f in fields(cls):
        values[f.name], pos = codec_of(f).decode(buf, pos, f"{prefix}.{f.name}".lstrip("."))
    return cls(**values), pos
