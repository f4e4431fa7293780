"""The terminal port (decisions D18): what every kind of table terminal says to the hub and
what the hub says back, in domain terms. A base station's terminals reach the hub through
an adapter over the wire protocol (``hub/live/port/base_station.py``); a phone or tablet will get
an adapter of its own over the same port. No part of the hub outside an adapter sees wire
types.

Value types only; the port's methods run on the hub's asyncio loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

from hub.live.port.port_views import (  # what the hub shows, re-exported: the port's vocabulary
    ClockView,
    HandView,
    NextSeatingView,
    PlayerNameView,
    RankingView,
    SessionView,
    TableAssignment,
)
from hub.live.port.port_views import MatchScoreView as MatchScoreView
from hub.live.port.port_views import RankingLine as RankingLine
from hub.live.views.base import TravellerView


@dataclass(frozen=True, slots=True)
class TerminalRef:
    """Where a terminal is reached: its port (a base-station line, a web session) and its
    address on that port."""

    port: str
    address: int


@dataclass(frozen=True, slots=True)
class TerminalLink:
    """The link a terminal spoke over (decisions D20): where it is reached and its session
    there (a base station: the terminal's epoch, new at every boot). A table belongs to the
    link that logged on to it as well as to the serial it declared."""

    ref: TerminalRef
    session: int


# -- what terminals say ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Request:
    """Something a terminal said that the hub must answer (``TerminalPort.answer``).
    ``token`` is the adapter's own handle for the answer; ``session`` the terminal's
    session on its port (see ``TerminalLink``)."""

    ref: TerminalRef
    token: object
    session: int = field(default=0, kw_only=True)

    @property
    def link(self) -> TerminalLink:
        return TerminalLink(self.ref, self.session)


@dataclass(frozen=True, slots=True)
class Joined(Request):
    """A device introduced itself (a terminal, or the base station at address 0)."""

    serial: str
    station: bool


@dataclass(frozen=True, slots=True)
class Left(Request):
    """The base station says a terminal left (out of range, powered off, replaced): its
    table is offline until the terminal speaks again."""

    why: str


@dataclass(frozen=True, slots=True)
class LogonRequest(Request):
    serial: str
    section: str
    table: int
    director_pin: str = ""


@dataclass(frozen=True, slots=True)
class ResultSubmission(Request):
    """A board's result keyed at the table. ``no_play`` marks a board that was not played
    (the director assigns a score); ``contract`` "PASS" a pass-out."""

    section: str
    table: int
    round: int
    board: int
    ns_pair: int
    ew_pair: int
    contract: str
    declarer: str | None  # "N", "E", "S", "W"
    lead: str
    tricks: int | None
    revision: int
    no_play: bool = False


@dataclass(frozen=True, slots=True)
class VerifyNotice(Request):
    """The opponents agreed with (or rejected) the result of a board."""

    section: str
    table: int
    round: int
    board: int
    agreed: bool


@dataclass(frozen=True, slots=True)
class EraseRequest(Request):
    """The table asks to erase its own result of a board (to enter it again); ``revision``
    is the revision the terminal erases (0: whatever is stored)."""

    section: str
    table: int
    round: int
    board: int
    revision: int


@dataclass(frozen=True, slots=True)
class DirectorCall(Request):
    section: str
    table: int
    round: int
    text: str


@dataclass(frozen=True, slots=True)
class PlayStarted(Request):
    """The first action at the table in a round (a round or board started; ``board``
    None for the round)."""

    section: str
    table: int
    round: int
    board: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerKeyed(Request):
    """A player keyed a member number at a seat (0 N, 1 E, 2 S, 3 W)."""

    section: str
    table: int
    round: int
    seat: int
    number: str


@dataclass(frozen=True, slots=True)
class DeviceStatus(Request):
    battery: int
    signal: int


@dataclass(frozen=True, slots=True)
class Other(Request):
    """A message the hub only acknowledges (a heartbeat, a terminal leaving)."""


@dataclass(frozen=True, slots=True)
class PortDown:
    """A whole port is out of reach (a base station unplugged); its tables are offline
    until their terminals log on again."""

    port: str
    reason: str


@dataclass(frozen=True, slots=True)
class PortUp:
    port: str


@dataclass(frozen=True, slots=True)
class Rejected:
    """Something the port itself refused before it reached the hub (a stale or replayed
    frame); logged and audited, never answered."""

    ref: TerminalRef
    code: str
    reason: str
    detail: dict[str, Any] = field(default_factory=dict)  # what the port knows of it


@dataclass(frozen=True, slots=True)
class Undelivered:
    """A message from the hub that a terminal did not take: ``code`` set, it refused it
    (its reason in ``text``); ``code`` None, it never answered (the port gave up after
    ``tries``). ``what`` names the message ("assignment", "result_view", "ranking",
    "message", ...); a lost ``assignment`` is sent again at the terminal's next contact."""

    ref: TerminalRef
    what: str
    code: int | None = None
    code_name: str = ""
    text: str = ""
    tries: int = 0
    assignment: TableAssignment | None = None


Inbound = Request | PortDown | PortUp | Rejected | Undelivered


# -- what the hub answers ----------------------------------------------------------------------
class Outcome(Enum):
    OK = "ok"
    ACCEPTED = "accepted"
    HELD = "held"
    DUPLICATE = "duplicate"
    REFUSED = "refused"


class Reason(Enum):
    """Why the hub refused a request; the adapter maps it to what its terminals show."""

    NOT_LOGGED_ON = "not_logged_on"
    TABLE_HELD = "table_held"
    INVALID_RESULT = "invalid_result"
    NOT_IN_MOVEMENT = "not_in_movement"
    NOT_ALLOWED = "not_allowed"
    NOT_REGISTERED = "not_registered"  # the event lists its terminals; not this one
    DIRECTOR_PIN = "director_pin"  # a takeover's director's PIN wrong, or tried too often
    BUSY = "busy"  # the hub could not store it now: send it again


@dataclass(frozen=True, slots=True)
class Verdict:
    outcome: Outcome
    text: str = ""
    reason: Reason | None = None

    @classmethod
    def ok(cls, text: str = "") -> Verdict:
        return cls(Outcome.OK, text)

    @classmethod
    def refused(cls, reason: Reason, text: str) -> Verdict:
        return cls(Outcome.REFUSED, text, reason)


# -- what the hub shows: hub/live/port/port_views.py (imported above) ------------------------
class TerminalPort(Protocol):
    """One kind of terminal connection. ``inbound`` carries what its terminals say; the
    other methods send to one terminal by its address on this port."""

    name: str
    inbound: asyncio.Queue[Inbound]

    def tasks(self) -> dict[str, Callable[[], Awaitable[None]]]:
        """What must run while the port serves (reading its line...), by name; the hub
        supervises them."""
        ...

    async def stop(self) -> None: ...

    def answer(self, request: Request, verdict: Verdict) -> None: ...

    def assign(self, address: int, assignment: TableAssignment) -> None: ...

    def show_result(self, address: int, view: TravellerView) -> None: ...

    def show_hand(self, address: int, view: HandView) -> None: ...

    def message(self, address: int, text: str, beep: bool) -> None: ...

    def ranking(self, address: int, page: RankingView) -> None: ...

    def clock(self, address: int, clock: ClockView) -> None: ...

    def player_name(self, address: int, view: PlayerNameView) -> None: ...

    def next_seating(self, address: int, view: NextSeatingView) -> None: ...

    def session(self, address: int, view: SessionView) -> None: ...

    def status(self) -> dict[str, Any]:
        """The port's own state for the devices read (link counters, connected)."""
        ...
