"""Every message of BHWP/1 as a small value type, with its type code and field layout.

The code lists live in ``codes``, the layout machinery and the records in ``layout``, the
hub's messages to a terminal in ``to_terminal``; all are re-exported here, so callers
import every wire name from this module.
docs/protocol.md is generated from these definitions (``python -m drivers.protocol.spec``)
and a test keeps the two in step.
"""

from __future__ import annotations

from dataclasses import dataclass

from drivers.protocol.codec import (
    STR8,
    TEXT8,
    TEXT16,
    U8,
    U16,
    U32,
    U64,
)
from drivers.protocol.codes import (
    NO_DECLARER,
    NO_PLAY,
    NO_TRICKS,
    DeviceKind,
    NakCode,
    Outcome,
    Seat,
)
from drivers.protocol.layout import (
    REGISTRY,
    Message,
    RankLine,
    Setting,
    TravellerEntry,
    decode_message,
    f,
    field_table,
    message,
)
from drivers.protocol.to_terminal import (
    Assignment,
    Clock,
    HandRecord,
    MatchScore,
    NextSeating,
    PlayerName,
    RankingPage,
    ResultView,
    Settings,
    TDMessage,
)

__all__ = [
    "NO_DECLARER",
    "NO_PLAY",
    "NO_TRICKS",
    "REGISTRY",
    "Ack",
    "Assignment",
    "BoardStarted",
    "Clock",
    "DeviceKind",
    "Erase",
    "HandRecord",
    "Heartbeat",
    "Hello",
    "Logon",
    "MatchScore",
    "Message",
    "Nak",
    "NakCode",
    "NextSeating",
    "Outcome",
    "PlayerName",
    "PlayerNumber",
    "RankLine",
    "RankingPage",
    "Result",
    "ResultView",
    "RoundStarted",
    "Seat",
    "Setting",
    "Settings",
    "StationStatus",
    "Status",
    "TDCall",
    "TDMessage",
    "TerminalJoined",
    "TerminalLeft",
    "TravellerEntry",
    "Verify",
    "decode_message",
    "f",
    "field_table",
    "message",
]


# -- link ---------------------------------------------------------------------------------
@message(0x01, "both", needs_ack=False)
@dataclass(frozen=True, slots=True)
class Ack(Message):
    """The message (epoch, seq) was taken. A RESULT is answered 1, 2 or 3, and only once it
    is stored durably; every other message that needs an answer is answered 0 (§4 "ACK
    outcomes")."""

    acked_epoch: int = f(U32, "epoch of the acknowledged frame")
    acked_seq: int = f(U32, "sequence number of the acknowledged frame")
    outcome: int = f(U8, "Outcome: 0 ok, 1 accepted, 2 held for the director, 3 duplicate")
    text: str = f(TEXT16, "shown at the terminal, may be empty", "")


@message(0x02, "both", needs_ack=False)
@dataclass(frozen=True, slots=True)
class Nak(Message):
    """The message (epoch, seq) was refused; ``text`` tells the players why."""

    acked_epoch: int = f(U32)
    acked_seq: int = f(U32)
    code: int = f(U8, "NakCode")
    text: str = f(TEXT16, "the reason, for the display", "")


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
    """Claim a table. The hub binds the table to the serial and to the link it came over
    (base station, address, epoch): RESULT, VERIFY, ERASE, TDCALL, ROUND_STARTED, BOARD_STARTED
    and PLAYER_NUMBER for the table from any other link get NAK 16, and after a reboot (a new
    epoch) the terminal logs on again. A table held by another terminal, or by the same
    serial at another address, gets NAK 17 unless `td_pin` is the director's PIN (or the
    director allowed the takeover); the previous terminal then loses the table. After 3
    wrong PINs from one serial or address (10 from the room) PIN attempts get NAK 20 for
    30 s, doubling with each further failure up to 15 min; every wrong PIN is audited. An
    event that lists its terminals refuses any other serial (NAK 20), and so is a serial
    longer than 64 characters or one with characters that cannot be printed."""

    serial: str = f(STR8)
    section: str = f(STR8, "section letter claimed")
    table: int = f(U16, "table claimed")
    firmware: str = f(STR8, default="")
    td_pin: str = f(STR8, "director's PIN to take over a held table, else empty", "")


@message(0x11, "terminal → hub")
@dataclass(frozen=True, slots=True)
class PlayerNumber(Message):
    """A player keyed a member number at a seat, in any round and as often as needed (in a
    Howell the pairs move: key them every round). The hub records the number for the
    player of the pair sitting there in that round, answers ACK 0 and sends PLAYER_NAME
    (possibly before the ACK). NAK 19 for a round not in the movement or a table that does
    not play it; NAK 20 for a seat above 3 or a number with characters that cannot be
    printed."""

    section: str = f(STR8)
    table: int = f(U16)
    round: int = f(U16)
    seat: int = f(U8, "seat 0 N, 1 E, 2 S, 3 W")
    number: str = f(STR8, "member number as keyed")


@message(0x12, "terminal → hub")
@dataclass(frozen=True, slots=True)
class Result(Message):
    """A board result as entered at the table. The hub keys it by the terminal's serial,
    section, table, round, board and revision: sent again with the same content it is
    answered "duplicate" and stored once; the same key with other content is stored held
    for the director ("same submission, different content"), never dropped. Revisions: 1
    for the first entry, +1 for each correction at the table. After the director (or an
    ERASE) erased the board's result, the next entry is a new one whatever its revision
    (the next, or 1 again) and is accepted, even with the erased content. After a reboot a
    terminal keeps its revision counters (or sends unacknowledged results as they were);
    one that starts again at 1 has a correction with an old revision held for the
    director.
    """

    section: str = f(STR8)
    table: int = f(U16)
    round: int = f(U16)
    board: int = f(U16)
    ns_pair: int = f(U16)
    ew_pair: int = f(U16)
    contract: str = f(STR8, '1C … 7NTXX; "PASS" passed out; empty: not played (§4.1)')
    declarer: int = f(U8, "seat 0 N, 1 E, 2 S, 3 W; 255 without a contract")
    lead: str = f(STR8, 'opening lead, e.g. "HA", "S10"; may be empty')
    tricks: int = f(U8, "tricks taken by declarer 0-13; 255 without a contract")
    terminal_time_ms: int = f(U64, "terminal clock, ms since 1970 UTC")
    revision: int = f(U8, "1 for the first entry, +1 for each correction at the table")


@message(0x13, "terminal → hub")
@dataclass(frozen=True, slots=True)
class Verify(Message):
    """The opponents' verification of an entered result, sent after its RESULT; answered
    ACK 0. Agreed: where the event asks for verification, the board is finished at the
    table once its result is accepted and agreed. Rejected: the director is alerted; where
    verification is asked for, the board stays open until the director acts (§4.2). NAK 19
    for a round not in the movement, a table that does not play it, or board 0. NAK 6 while
    the board's result is on its way to the store (send it again); NAK 20 when its result
    was refused (the text says why): nothing is left to verify, so the terminal stops
    sending it, and enters the result again, then verifies that."""

    section: str = f(STR8)
    table: int = f(U16)
    round: int = f(U16)
    board: int = f(U16)
    agreed: int = f(U8, "1 agreed, 0 rejected")


@message(0x14, "terminal → hub")
@dataclass(frozen=True, slots=True)
class Erase(Message):
    """The table erases its own result of a board, to enter it again: ACK 0 when the
    board's result at this table in the current round is erased (audited, shown to the
    director), after which the board is open again and its RESULT is taken anew. NAK 16
    from a terminal that does not hold the table; NAK 20 with the reason when the board
    has no result at the table, the director entered it, `revision` (0: any) is not the
    stored one, or the round is over (its standings may be out: only the director erases
    then)."""

    section: str = f(STR8)
    table: int = f(U16)
    round: int = f(U16)
    board: int = f(U16)
    revision: int = f(U8, "the revision to erase")


@message(0x15, "terminal → hub")
@dataclass(frozen=True, slots=True)
class TDCall(Message):
    """Call the director: answered ACK 0; the call opens on the director's console (with
    the text; the reason is for the terminal's own menu). The director comes to the table
    or answers with TD_MESSAGE. NAK 16 from a terminal that does not hold the table."""

    section: str = f(STR8)
    table: int = f(U16)
    round: int = f(U16)
    reason: int = f(U8, "0 general, 1 revoke, 2 insufficient bid, 3 claim, 4 slow play, 5 other")
    text: str = f(TEXT8, default="")


@message(0x16, "terminal → hub")
@dataclass(frozen=True, slots=True)
class RoundStarted(Message):
    """The table started its round (its first action measures late arrival); ACK 0. NAK 19
    for a round not in the movement or a table that does not play it; NAK 20 for a round
    that has not started yet."""

    section: str = f(STR8)
    table: int = f(U16)
    round: int = f(U16)
    time_ms: int = f(U64, "terminal clock")


@message(0x17, "terminal → hub")
@dataclass(frozen=True, slots=True)
class BoardStarted(Message):
    """The table started a board; counts as the round's first action like ROUND_STARTED;
    ACK 0. NAK 19 for a round not in the movement, a table that does not play it, or
    board 0; NAK 20 for a round that has not started yet."""

    section: str = f(STR8)
    table: int = f(U16)
    round: int = f(U16)
    board: int = f(U16)
    time_ms: int = f(U64, "terminal clock")


@message(0x18, "terminal → hub", needs_ack=False)
@dataclass(frozen=True, slots=True)
class Status(Message):
    """Battery and signal, every 60 s and on a change; never answered."""

    battery_percent: int = f(U8)
    signal_percent: int = f(U8)
    current_board: int = f(U16, "0 when none")


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
    """A terminal came into radio range. The station's own message: it travels at address
    0 in the station's epoch and sequence (§3), and names the terminal's address."""

    address: int = f(U16, "the terminal's address (1-65535)")
    serial: str = f(STR8)


@message(0x32, "station → hub")
@dataclass(frozen=True, slots=True)
class TerminalLeft(Message):
    """A terminal left; like TERMINAL_JOINED, sent at address 0 by the station, ACK 0. The
    hub shows the terminal's table offline until the terminal speaks again."""

    address: int = f(U16, "the terminal's address (1-65535)")
    reason: int = f(U8, "0 out of range, 1 powered off, 2 replaced")
