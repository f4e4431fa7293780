"""The worked session of docs/protocol.md §4, generated: a base station with one terminal
plays the last round of a two-table Howell against the hub, frame by frame. Two real
``Link``s (one the base station's, one the hub's) exchange every frame; the clock and the
epochs are fixed, so the bytes are the same at every run. The hub's side is scripted in the
order the hub sends (tests/drivers/test_protocol_session.py checks that order against the hub).

``python -m drivers.protocol.example`` prints the part of docs/protocol.md between its
markers; a test keeps the document equal to it. Sans-I/O (any thread).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from drivers.protocol.frame import Frame, FrameDecoder
from drivers.protocol.link import Link, Received
from drivers.protocol.messages import (
    REGISTRY,
    Ack,
    Assignment,
    Clock,
    DeviceKind,
    Hello,
    Logon,
    Message,
    NextSeating,
    Outcome,
    RankingPage,
    RankLine,
    Result,
    ResultView,
    Seat,
    Setting,
    Settings,
    TerminalJoined,
    TravellerEntry,
    Verify,
)

BEGIN = "<!-- generated: session (python -m drivers.protocol.example) -->"
END = "<!-- end generated -->"
STATION_EPOCH, TERMINAL_EPOCH, HUB_EPOCH = 7, 2, 12
TERMINAL = 3  # the terminal's address behind the station
HUB_HELLO = Hello(DeviceKind.HUB, "bridgehub", "1.0")  # the version fixed: same bytes
T_MS = 1_764_442_800_000  # the terminal's clock, ms since 1970 (2025-11-29 19:00 UTC)


@dataclass(frozen=True, slots=True)
class Step:
    """One frame on the line: who sent it, its bytes on the wire, what it means."""

    sender: str
    wire: bytes
    note: str

    @property
    def frame(self) -> Frame:
        return _decode(self.wire)


@dataclass
class Session:
    """The station's and the hub's links joined back to back, every frame recorded.
    Sans-I/O: one caller drives it."""

    steps: list[Step] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.station = Link(lambda: 0.0, STATION_EPOCH)
        self.station.set_epoch(TERMINAL, TERMINAL_EPOCH)
        self.hub = Link(lambda: 0.0, HUB_EPOCH, hello=lambda _address: HUB_HELLO)
        self._notes: dict[tuple[int, int], deque[str]] = {}  # (link, address) → notes queued
        self._inbox: dict[int, deque[Received]] = {id(self.station): deque(), id(self.hub): deque()}

    def send(self, link: Link, address: int, message: Message, note: str) -> None:
        """``message`` from ``link``; a sequenced one waits its turn (stop-and-wait)."""
        if message.NEEDS_ACK:
            self._notes.setdefault((id(link), address), deque()).append(note)
            link.send(address, message)
            self._flush()
        else:
            link.send(address, message)
            self._flush(note)

    def open(self) -> None:
        """The hub opens the line: its HELLO to the station."""
        self.hub.greet(0)
        self._flush()

    def greet(self, address: int) -> None:
        """The hub hears of a terminal (a frame from it, or TERMINAL_JOINED): its HELLO
        begins the hub's sequence to that address at once (§3)."""
        self.hub.greet(address)
        self._flush()

    def answer(self, link: Link, note: str, outcome: Outcome = Outcome.OK, text: str = "") -> None:
        """``link`` answers the oldest message it has not answered yet."""
        rx = self._inbox[id(link)].popleft()
        link.ack(rx, outcome, text)
        self._flush(note)

    def _flush(self, note: str = "") -> None:
        """Carry every frame waiting in either link to the other, in order."""
        moved = True
        while moved:
            moved = False
            for link, other in ((self.station, self.hub), (self.hub, self.station)):
                data = link.data_to_send()
                for chunk in data.split(b"\x00")[:-1]:
                    wire = chunk + b"\x00"
                    frame = _decode(wire)
                    if link is self.hub and frame.seq == 1:  # the Link begins with HELLO
                        text = "the hub's HELLO begins its sequence to this address (§3)"
                    elif frame.seq:
                        text = self._notes[(id(link), frame.terminal)].popleft()
                    else:
                        text, note = note, ""
                    self.steps.append(Step(self._sender(link, frame), wire, text))
                    for ev in other.feed(wire):
                        if isinstance(ev, Received) and ev.message.NEEDS_ACK:
                            self._inbox[id(other)].append(ev)
                    moved = True

    def _sender(self, link: Link, frame: Frame) -> str:
        if link is self.hub:
            return "hub → station" if frame.terminal == 0 else f"hub → terminal {frame.terminal}"
        return "station → hub" if frame.terminal == 0 else f"terminal {frame.terminal} → hub"


def _decode(wire: bytes) -> Frame:
    (frame,) = FrameDecoder().feed(wire)
    assert isinstance(frame, Frame)
    return frame


def play() -> list[Step]:
    """The session: the hub's answers and messages in the order the hub sends them."""
    s = Session()
    st, hub = s.station, s.hub
    s.open()
    s.answer(st, "the station takes it")
    s.send(st, 0, Hello(DeviceKind.BASE_STATION, "BS-0001", "1.0"), "the base station says HELLO")
    s.answer(hub, "the hub takes it: ACK, outcome 0 (ok)")
    s.send(
        st,
        0,
        TerminalJoined(TERMINAL, "BM-0042"),
        f"the station announces terminal {TERMINAL} (its own message, address 0)",
    )
    s.greet(TERMINAL)
    s.answer(hub, "ACK 0")
    s.answer(st, "the terminal takes the hub's HELLO")
    s.send(st, TERMINAL, Hello(DeviceKind.TERMINAL, "BM-0042", "1.0"), "the terminal's HELLO")
    s.answer(hub, "ACK 0")
    s.send(st, TERMINAL, Logon("BM-0042", "A", 1, "1.0"), "LOGON to table A1")
    s.answer(hub, 'ACK 0 with the text "table A1"', text="table A1")
    s.send(
        hub,
        TERMINAL,
        Settings((Setting("section", "A"), Setting("rounds", "3"))),
        "SETTINGS: the session has 3 rounds",
    )
    s.send(
        hub,
        TERMINAL,
        Assignment("A", 1, 3, 1, 4, (5,)),
        "ASSIGNMENT: round 3, NS pair 1, EW pair 4, board 5",
    )
    s.send(
        hub,
        TERMINAL,
        Clock("A", 3, 0, 900),
        "CLOCK: round 3, play, 15 minutes left (unsequenced: it goes out at once)",
    )
    s.answer(st, "the terminal takes SETTINGS; the hub's ASSIGNMENT follows")
    s.answer(st, "the terminal takes the ASSIGNMENT")
    s.send(
        st,
        TERMINAL,
        Result("A", 1, 3, 5, 1, 4, "3NT", Seat.N, "S4", 9, T_MS, 1),
        'RESULT: board 5, 3NT by North (seat 0), lead "S4", 9 tricks, revision 1',
    )
    s.answer(hub, "stored: ACK, outcome 1 (accepted)", Outcome.ACCEPTED)
    lines = (
        TravellerEntry(2, 3, "4S", Seat.E, 10, -420, 0),
        TravellerEntry(1, 4, "3NT", Seat.N, 9, 400, 10000),
    )
    s.send(
        hub,
        TERMINAL,
        ResultView("A", 5, 400, 10000, 0, lines),
        "RESULT_VIEW: NS +400, 100.00 %; the traveller so far has two lines",
    )
    s.send(st, TERMINAL, Verify("A", 1, 3, 5, 1), "VERIFY: East-West agree")
    s.answer(hub, "ACK 0")
    s.send(
        hub,
        TERMINAL,
        NextSeating("A", 4, 1, 0, 1, 0, ()),
        "NEXT_SEATING for pair 1: round 4 (past the last), table 0: the session is over",
    )
    s.answer(st, "the terminal takes the RESULT_VIEW; the waiting NEXT_SEATING follows")
    s.send(hub, TERMINAL, NextSeating("A", 4, 4, 0, 0, 0, ()), "NEXT_SEATING for pair 4")
    s.answer(st, "the terminal takes it")
    s.send(
        hub,
        TERMINAL,
        Settings((Setting("section", "A"), Setting("rounds", "3"), Setting("final", "1"))),
        "SETTINGS: final = 1, every table has finished: the ranking pages that follow are the "
        "final results (no CLOCK comes any more)",
    )
    s.answer(st, "the terminal takes it")
    ranking = (
        RankLine("1", 1, 6250, "Anna Berg & Bo Ek"),
        RankLine("2", 4, 5833, "Åsa Öberg & Ivar Jonsson"),
        RankLine("3", 2, 4583, "Cilla Dahl & Dan Ek"),
        RankLine("4", 3, 3333, "Eva Fors & Gun Holm"),
    )
    s.send(
        hub,
        TERMINAL,
        RankingPage("A", 3, 1, 1, ranking),
        "RANKING_PAGE: the final standings, page 1 of 1",
    )
    s.answer(st, "the terminal takes SETTINGS")
    s.answer(st, "the terminal takes the page: nothing more comes, the session is over")
    return s.steps


def _hex(data: bytes) -> str:
    return " ".join(f"{b:02X}" for b in data)


def frames() -> list[tuple[str, Frame]]:
    """Three frames on their own: a terminal's HELLO, a RESULT, the hub's ACK."""
    hello = Frame(0x0003, 1, 1, Hello.TYPE, Hello(1, "BM-0042", "1.0").payload())
    result = Result("A", 3, 2, 7, 5, 12, "4SX", Seat.N, "HA", 10, T_MS, 1)
    ack = Ack(1, 2, Outcome.ACCEPTED, "")
    return [
        ("Terminal 3 says HELLO (epoch 1, seq 1)", hello),
        (
            "Terminal 3 sends 4SX by North, 10 tricks, board 7 (seq 2)",
            Frame(0x0003, 1, 2, Result.TYPE, result.payload()),
        ),
        (
            f"The hub accepts it (ACK, outcome 1, hub epoch {HUB_EPOCH})",
            Frame(0x0003, HUB_EPOCH, 0, Ack.TYPE, ack.payload()),
        ),
    ]


def generated() -> str:
    out = [BEGIN, "", "#### Three frames", ""]
    for title, frame in frames():
        out += [
            f"{title}:",
            "",
            "```",
            f"packed : {_hex(frame.pack())}",
            f"on wire: {_hex(frame.encode())}",
            "```",
            "",
        ]
    out += [
        "#### A short session, frame by frame",
        "",
        f"The last round of a two-table Howell (3 rounds), section A table 1, played at the "
        f"terminal at address {TERMINAL} behind one base station. Epochs: station "
        f"{STATION_EPOCH}, terminal {TERMINAL_EPOCH}, hub {HUB_EPOCH}. The event asks for the "
        "opponents' verification (the default): the board is finished when they agree. Each "
        "frame: who sends it, the message with its address, epoch and "
        "sequence number, what it means; then the frame before COBS (`packed`) and on the "
        "wire.",
        "",
    ]
    for n, step in enumerate(play(), 1):
        f = step.frame
        name = REGISTRY[f.type].__name__
        out += [
            f"**{n}.** {step.sender}: {name} (address {f.terminal}, epoch {f.epoch}, "
            f"seq {f.seq}): {step.note}.",
            "",
            "```",
            f"packed : {_hex(f.pack())}",
            f"on wire: {_hex(step.wire)}",
            "```",
            "",
        ]
    out.append(END)
    return "\n".join(out)


if __name__ == "__main__":
    print(generated())
