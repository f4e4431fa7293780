"""Alpha Sign Communications Protocol (Adaptive Micro Systems 9708-8061F), sans I/O.

A TEXT file holds the label and a reference to a STRING file; only the STRING (``mm:ss``)
is rewritten each second, so the sign does not blink (docs/protocol.md §5.1).
"""

from __future__ import annotations

from typing import Any

from drivers.clock.show import ClockShow, Colour

NUL, SOH, STX, ETX, EOT = b"\x00", b"\x01", b"\x02", b"\x03", b"\x04"
CALL_STRING = b"\x10"
SELECT_COLOUR = b"\x1c"
COLOUR_CODE = {Colour.RED: b"1", Colour.GREEN: b"2", Colour.AMBER: b"3"}
TEXT_LABEL = b"A"
STRING_LABEL = b"1"
BAUDRATE = 9600
SERIAL_SETTINGS: dict[str, Any] = {"bytesize": 7, "parity": "E", "stopbits": 1}


def packet(command: bytes, sign_type: bytes = b"Z", address: bytes = b"00") -> bytes:
    """One command in a standard packet with its checksum (16-bit sum of STX … ETX)."""
    body = STX + command + ETX
    checksum = f"{sum(body) & 0xFFFF:04X}".encode("ascii")
    return NUL * 5 + SOH + sign_type + address + body + checksum + EOT


def _ascii(text: str) -> bytes:
    return text.encode("ascii", errors="replace")


def memory_configuration() -> bytes:
    """Allocate TEXT file A (64 bytes, always shown) and STRING file 1 (16 bytes)."""
    return packet(b"E$" + TEXT_LABEL + b"AU0040FF00" + STRING_LABEL + b"BL00100000")


def write_text(title: str) -> bytes:
    return packet(b"A" + TEXT_LABEL + _ascii(title[:40]) + b" " + CALL_STRING + STRING_LABEL)


def write_string(show: ClockShow) -> bytes:
    return packet(
        b"G" + STRING_LABEL + SELECT_COLOUR + COLOUR_CODE[show.colour] + _ascii(show.time_text)
    )


class AlphaClock:
    """Turns successive ``ClockShow`` states into the fewest packets. Sans-I/O: its one owner
    (the clock driver, on its loop) writes them."""

    def __init__(self) -> None:
        self._configured = False
        self._title: str | None = None
        self._string: bytes | None = None

    def update(self, show: ClockShow) -> bytes:
        out = b""
        if not self._configured:
            out += memory_configuration()
            self._configured = True
        if show.title != self._title:
            out += write_text(show.title)
            self._title = show.title
        string = write_string(show)
        if string != self._string:
            out += string
            self._string = string
        return out

    def reset(self) -> None:
        """After the sign was unplugged or powered off: configure it again."""
        self.__init__()  # type: ignore[misc]
