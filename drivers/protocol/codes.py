"""The numbers of BHWP/1 that mean something (docs/protocol.md §4): ACK outcomes, NAK codes,
device kinds, seats and the "none" sentinels. Plain values: any thread."""

from __future__ import annotations

from enum import IntEnum


class Outcome(IntEnum):
    """What an ACK says about the message it acknowledges (decisions D9)."""

    OK = 0
    ACCEPTED = 1
    HELD = 2
    DUPLICATE = 3


class NakCode(IntEnum):
    """Why a message was not taken. Below 16: the link (the sender may restart and resend;
    after BUSY it sends the message again as a new message, after the retransmission pause:
    250 ms, doubling with each further BUSY up to 2 s); 16 and above: the
    content (the terminal shows the text; resending cannot help)."""

    BAD_PAYLOAD = 1
    UNKNOWN_TYPE = 2
    UNKNOWN_EPOCH = 3
    STALE_EPOCH = 4
    REPLAY = 5
    BUSY = 6
    NOT_LOGGED_ON = 16
    TABLE_HELD = 17
    INVALID_RESULT = 18
    NOT_IN_MOVEMENT = 19
    NOT_ALLOWED = 20


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


NO_DECLARER = 255  # no contract: passed out, not played, or an artificial score
NO_TRICKS = 255  # likewise: no trick count
NO_PLAY = NO_TRICKS  # the older name
