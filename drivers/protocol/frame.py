"""Frames: header, payload and CRC-32C, COBS-encoded and delimited by a zero byte.

    version u8 | terminal u16 | epoch u32 | seq u32 | type u8 | length u16 | payload | crc u32

All integers big-endian; the CRC-32C (Castagnoli, check value 0xE3069283 for "123456789")
covers every byte before it (decisions D7). The decoder resynchronises at the next zero
byte after any garbage.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum

import crc32c
from cobs import cobs

VERSION = 1
HEADER = struct.Struct(">BHIIBH")
CRC = struct.Struct(">I")
MAX_PAYLOAD = 4096
MAX_ENCODED = (HEADER.size + MAX_PAYLOAD + CRC.size) * 255 // 254 + 2
DELIMITER = b"\x00"


class FrameFault(IntEnum):
    """Why bytes between two delimiters were not a frame (they are counted and dropped)."""

    COBS = 1
    SHORT = 2
    CRC = 3
    LENGTH = 4
    VERSION = 5
    OVERSIZE = 6


@dataclass(frozen=True, slots=True)
class Frame:
    terminal: int
    epoch: int
    seq: int
    type: int
    payload: bytes = b""

    def pack(self) -> bytes:
        """Header, payload and CRC, before COBS."""
        if len(self.payload) > MAX_PAYLOAD:
            raise ValueError(f"payload of {len(self.payload)} bytes exceeds {MAX_PAYLOAD}")
        head = HEADER.pack(
            VERSION, self.terminal, self.epoch, self.seq, self.type, len(self.payload)
        )
        body = head + self.payload
        return body + CRC.pack(crc32c.crc32c(body))

    def encode(self) -> bytes:
        """The frame as it goes on the wire: COBS(pack) then a zero byte."""
        return cobs.encode(self.pack()) + DELIMITER


@dataclass(frozen=True, slots=True)
class BadFrame:
    """Bytes that were dropped, and why."""

    fault: FrameFault
    size: int


def unpack(raw: bytes) -> Frame | BadFrame:
    """A frame from decoded bytes, or why it is not one."""
    if len(raw) < HEADER.size + CRC.size:
        return BadFrame(FrameFault.SHORT, len(raw))
    body, crc = raw[: -CRC.size], CRC.unpack(raw[-CRC.size :])[0]
    if crc32c.crc32c(body) != crc:
        return BadFrame(FrameFault.CRC, len(raw))
    version, terminal, epoch, seq, mtype, length = HEADER.unpack_from(body)
    if version != VERSION:
        return BadFrame(FrameFault.VERSION, len(raw))
    if length != len(body) - HEADER.size:
        return BadFrame(FrameFault.LENGTH, len(raw))
    return Frame(terminal, epoch, seq, mtype, bytes(body[HEADER.size :]))


class FrameDecoder:
    """Feed bytes, get frames (and the faults of whatever was dropped). Sans-I/O: fed by its
    one owner (a ``Link``, a benchmark or a test)."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self.faults = 0

    def feed(self, data: bytes) -> list[Frame | BadFrame]:
        self._buf += data
        out: list[Frame | BadFrame] = []
        while True:
            end = self._buf.find(0)
            if end < 0:
                if len(self._buf) > MAX_ENCODED:
                    out.append(BadFrame(FrameFault.OVERSIZE, len(self._buf)))
                    self._buf.clear()
                break
            chunk = bytes(self._buf[:end])
            del self._buf[: end + 1]
            if not chunk:
                continue  # idle delimiters between frames
            try:
                raw = cobs.decode(chunk)
            except cobs.DecodeError:
                out.append(BadFrame(FrameFault.COBS, len(chunk)))
                continue
            out.append(unpack(raw))
        self.faults += sum(1 for x in out if isinstance(x, BadFrame))
        return out
