"""The bridgehub panel line protocol for home-built clock panels, sans I/O
(docs/protocol.md §5.2): ASCII lines, each answered ``OK`` or ``ERR reason``."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from drivers.clock.show import ClockShow, Colour, Phase

PHASE_WORD = {
    Phase.PLAY: "play",
    Phase.LAST_BOARD: "last",
    Phase.NO_NEW_BOARD: "nonew",
    Phase.MOVE: "move",
    Phase.PAUSED: "paused",
    Phase.BREAK: "break",
}
COLOUR_WORD = {Colour.GREEN: "green", Colour.AMBER: "amber", Colour.RED: "red"}
RESEND_S = 1.0
TRIES = 3


class PanelClock:
    """Queues changed lines, sends one at a time, resends unanswered lines. Sans-I/O: fed and
    polled by its one owner (the clock driver, on its loop)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._last: dict[str, str] = {}
        self._queue: deque[str] = deque()
        self._inflight: tuple[str, int, float] | None = None
        self._rx = bytearray()
        self.hello: str | None = None
        self.errors: list[str] = []
        self.down = False

    def update(self, show: ClockShow) -> None:
        lines = {
            "R": f"R {show.round}",
            "P": f"P {PHASE_WORD[show.phase]}",
            "L": f"L {show.title[:32]}",
            "C": f"C {COLOUR_WORD[show.colour]}",
            "T": f"T {show.time_text}",
        }
        for key in "RPLCT":
            if self._last.get(key) != lines[key]:
                self._last[key] = lines[key]
                self._queue = deque(x for x in self._queue if not x.startswith(key + " "))
                self._queue.append(lines[key])

    def feed(self, data: bytes) -> None:
        self._rx += data
        while b"\n" in self._rx:
            raw, _, rest = bytes(self._rx).partition(b"\n")
            self._rx = bytearray(rest)
            line = raw.decode("ascii", errors="replace").strip()
            if line.startswith("HELLO"):
                self.hello = line
                self._last.clear()  # a (re)started panel gets everything again
                self.down = False
            elif line == "OK" or line.startswith("ERR"):
                if line.startswith("ERR") and self._inflight:
                    self.errors.append(f"{self._inflight[0]!r}: {line}")
                self._inflight = None
                self.down = False

    def data_to_send(self) -> bytes:
        now = self.clock()
        if self._inflight is not None:
            line, tries, due = self._inflight
            if now < due:
                return b""
            if tries >= TRIES:
                self.down = True
                self._inflight = None
            else:
                self._inflight = (line, tries + 1, now + RESEND_S)
                return (line + "\n").encode("ascii", errors="replace")
        if self._inflight is None and self._queue:
            line = self._queue.popleft()
            self._inflight = (line, 1, now + RESEND_S)
            return (line + "\n").encode("ascii", errors="replace")
        return b""
