"""Virtual clock displays on pseudo-terminals: an Alpha sign that checks every packet's
checksum, and a bridgehub panel that answers its lines."""

from __future__ import annotations

import asyncio
import contextlib
import os
from dataclasses import dataclass, field

from simulator.line import PtyLine


@dataclass
class AlphaSignState:
    text: dict[str, bytes] = field(default_factory=dict)
    strings: dict[str, bytes] = field(default_factory=dict)
    configured: bool = False
    bad_checksums: int = 0
    text_writes: int = 0
    string_writes: int = 0

    def shown(self) -> str:
        """What the sign displays: TEXT A with the STRING reference filled in."""
        text = self.text.get("A", b"")
        out = bytearray()
        i = 0
        while i < len(text):
            if text[i] == 0x10 and i + 1 < len(text):
                s = self.strings.get(chr(text[i + 1]), b"")
                out += s[2:] if s[:1] == b"\x1c" else s
                i += 2
            else:
                out.append(text[i])
                i += 1
        return out.decode("ascii", errors="replace")

    def colour(self) -> str:
        s = self.strings.get("1", b"")
        return {b"1": "red", b"2": "green", b"3": "amber"}.get(s[1:2], "?") if s else "?"


class AlphaSignDecoder:
    """Parses packets ``NUL×5 SOH type addr STX cmd … ETX checksum EOT``."""

    def __init__(self) -> None:
        self.state = AlphaSignState()
        self._buf = bytearray()

    def feed(self, data: bytes) -> None:
        self._buf += data
        while True:
            start = self._buf.find(b"\x01")
            end = self._buf.find(b"\x04", start + 1)
            if start < 0 or end < 0:
                if start > 0:
                    del self._buf[:start]
                return
            packet = bytes(self._buf[start:end])
            del self._buf[: end + 1]
            self._apply(packet)

    def _apply(self, packet: bytes) -> None:
        stx, etx = packet.find(b"\x02"), packet.rfind(b"\x03")
        if stx < 0 or etx < 0:
            return
        body, checksum = packet[stx : etx + 1], packet[etx + 1 : etx + 5]
        if f"{sum(body) & 0xFFFF:04X}".encode() != checksum:
            self.state.bad_checksums += 1
            return
        command = body[1:-1]
        if command[:2] == b"E$":
            self.state.configured = True
        elif command[:1] == b"A":
            self.state.text[chr(command[1])] = command[2:]
            self.state.text_writes += 1
        elif command[:1] == b"G":
            self.state.strings[chr(command[1])] = command[2:]
            self.state.string_writes += 1


@dataclass
class PanelState:
    lines: dict[str, str] = field(default_factory=dict)
    received: int = 0


class VirtualDevice:
    """Runs a device's byte handler on the device end of a pty."""

    def __init__(self, line: PtyLine) -> None:
        self.line = line
        self._fd: int | None = None

    def start(self) -> None:
        self.attach()

    def attach(self) -> None:
        if self.line.master is not None:
            self._fd = self.line.master
            asyncio.get_running_loop().add_reader(self._fd, self._readable)

    def detach(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self._fd)
            self._fd = None

    def _readable(self) -> None:
        if self.line.master is None:
            return
        try:
            data = os.read(self.line.master, 4096)
        except OSError:
            return
        reply = self.handle(data)
        if reply:
            with contextlib.suppress(OSError):
                os.write(self.line.master, reply)

    def handle(self, data: bytes) -> bytes:
        raise NotImplementedError

    def unplug(self) -> None:
        self.detach()
        self.line.unplug()

    def replug(self) -> None:
        self.line.plug()
        self.attach()


class VirtualAlphaSign(VirtualDevice):
    def __init__(self, line: PtyLine) -> None:
        super().__init__(line)
        self.decoder = AlphaSignDecoder()

    def handle(self, data: bytes) -> bytes:
        self.decoder.feed(data)
        return b""

    def replug(self) -> None:
        self.decoder = AlphaSignDecoder()  # a sign that lost power forgets its memory
        super().replug()


class VirtualPanel(VirtualDevice):
    def __init__(self, line: PtyLine, serial: str = "PANEL-1") -> None:
        super().__init__(line)
        self.serial = serial
        self.state = PanelState()
        self._rx = bytearray()

    def handle(self, data: bytes) -> bytes:
        self._rx += data
        out = b""
        while b"\n" in self._rx:
            raw, _, rest = bytes(self._rx).partition(b"\n")
            self._rx = bytearray(rest)
            line = raw.decode("ascii", errors="replace").strip()
            self.state.received += 1
            key, _, value = line.partition(" ")
            if key in ("T", "P", "R", "L", "C") and value:
                self.state.lines[key] = value
                out += b"OK\n"
            else:
                out += f"ERR unknown line {line[:20]}\n".encode()
        return out
