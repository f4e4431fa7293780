"""The bad-input catalogue (issue 12 [FAULTS]) as data: every class of invalid frame, result,
TD command, event file, movement file, traveller file and export/import input, with the
exact error it gets and who sees it. tests/live/service/test_bad_input.py feeds each case to the
real code path (one test per class) and checks the error word for word; docs/bad-input.md is
generated from this file:

    python tests/bad_input_cases.py > docs/bad-input.md     (or: --write)

A case's ``input`` says which path runs it (the first item):
``frames`` bytes into the hub's Link; ``terminal`` log-ons and results through the
base-station adapter into intake and a real store; ``wire`` (address, message) pairs from
terminals on a base station's line into a running hub (tests/hostile.py's room: BM-1 at
address 1 holds A1, address 11 holds no table); ``message`` a raw API message;
``args`` a command's arguments against its model; ``hub`` a command on a running hub;
``toml`` an event file through ``parse_event``; ``cli`` the command line, in a folder
holding ``files`` (``{db}``: a store holding examples/club_howell.toml as event 1).
"""

from __future__ import annotations

import struct
import sys
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import crc32c
from cobs import cobs

from drivers.protocol.frame import Frame
from drivers.protocol.messages import (
    Assignment,
    BoardStarted,
    Message,
    PlayerNumber,
    Result,
    RoundStarted,
    TDCall,
    TerminalLeft,
    Verify,
)

ROOT = Path(__file__).parents[1]
DOC = ROOT / "docs" / "bad-input.md"
EVENT = (ROOT / "examples" / "club_howell.toml").read_text("utf-8")
HOWELL = (ROOT / "tests" / "data" / "howell_5t_9r_3b.csv").read_text("utf-8").replace("\r", "")


class Kind(Enum):
    FRAME = "Frames on the wire"
    RESULT = "Results and log-ons from a terminal"
    TABLE = "Other messages from a terminal"
    TD = "TD commands (console, API)"
    EVENT = "Event files"
    MOVEMENT = "Movement files"
    TRAVELLER = "Traveller files"
    EXCHANGE = "Export and import inputs"


TERMINAL = "terminal screen (NAK code and text); audit log"
HELD = "TD console alert; terminal: held for the director"
LINK = "dropped; counted in the console's Devices view (garbage); the terminal resends"
NAK = "terminal (NAK code and text); hub log and audit, counted per code"
LOGON = "terminal screen (NAK code and text); audit log (first per link and minute, D20)"
AT_TABLE = "terminal screen (NAK code and text); hub log and audit (first per terminal and minute)"
CONSOLE = "TD console / API reply (`ok: false`)"
CLI = "command line (exit status 1; 2 for a wrong option)"
PBN = "`bridgehub hand-records`: Error: the hub refused the hand records: …; TD console"


@dataclass(frozen=True)
class Case:
    kind: Kind
    name: str  # the class, as a test id
    example: str  # what the doc shows of the input
    error: str  # the exact error text
    where: str  # who sees it
    input: tuple[Any, ...]


# -- frames --------------------------------------------------------------------------------
RES = Result("A", 1, 1, 1, 10, 1, "4S", 0, "", 10, 0, 1)


def frame(seq: int, msg: Message = RES, epoch: int = 7) -> bytes:
    return Frame(3, epoch, seq, msg.TYPE, msg.payload()).encode()


def raw_frame(head: bytes, payload: bytes) -> bytes:
    """A frame with a hand-made header and a correct CRC."""
    body = head + payload
    return cobs.encode(body + struct.pack(">I", crc32c.crc32c(body))) + b"\x00"


def _head(version: int = 1, length: int | None = None, mtype: int = RES.TYPE) -> bytes:
    n = len(RES.payload()) if length is None else length
    return struct.pack(">BHIIBH", version, 3, 7, 1, mtype, n)


def _flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1 :]


def _with_text(contract: bytes) -> bytes:
    """RES's payload with its contract field replaced by raw bytes."""
    p = RES.payload()
    start = 2 + 2 * 5  # section "A" (u8 length + 1 byte), then five u16
    old = p[start]
    return p[:start] + bytes([len(contract)]) + contract + p[start + 1 + old :]


# fmt: off
F = Kind.FRAME
CASES: list[Case] = [
    Case(F, "cobs-damage", "bytes 05 01 00 (a COBS code past the end)", "dropped: COBS", LINK,
         ("frames", b"\x05\x01\x00")),
    Case(F, "too-short", "3 bytes between delimiters", "dropped: SHORT", LINK,
         ("frames", cobs.encode(b"\x01\x02\x03") + b"\x00")),
    Case(F, "crc-mismatch", "a RESULT frame with one bit flipped", "dropped: CRC", LINK,
         ("frames", _flip(frame(1), 20))),
    Case(F, "wrong-version", "header version 2, CRC correct", "dropped: VERSION", LINK,
         ("frames", raw_frame(_head(version=2), RES.payload()))),
    Case(F, "length-mismatch", "header length 10 on a 27-byte payload, CRC correct",
         "dropped: LENGTH", LINK, ("frames", raw_frame(_head(length=10), RES.payload()))),
    Case(F, "no-delimiter", "6,000 bytes and no zero byte", "dropped: OVERSIZE", LINK,
         ("frames", b"\x01" * 6000)),
    Case(F, "unknown-type", "message type 0x7E", "NAK UNKNOWN_TYPE: type: unknown message "
         "type 0x7E", NAK, ("frames", raw_frame(_head(mtype=0x7E, length=0), b""))),
    Case(F, "payload-cut", "a RESULT cut after 5 payload bytes", "NAK BAD_PAYLOAD: round: "
         "payload ends inside this field", NAK,
         ("frames", Frame(3, 7, 1, RES.TYPE, RES.payload()[:5]).encode())),
    Case(F, "payload-too-long", "a RESULT with 2 bytes after its last field",
         "NAK BAD_PAYLOAD: payload: 2 bytes left over after the last field", NAK,
         ("frames", Frame(3, 7, 1, RES.TYPE, RES.payload() + b"zz").encode())),
    Case(F, "text-not-utf8", "a RESULT whose contract is the bytes FF FE",
         "NAK BAD_PAYLOAD: contract: not valid UTF-8", NAK,
         ("frames", Frame(3, 7, 1, RES.TYPE, _with_text(b"\xff\xfe")).encode())),
    Case(F, "replayed-sequence", "sequence 1, 2, then 1 again (same epoch)",
         "NAK REPLAY: sequence 1 was already used (last 2)", NAK,
         ("frames", frame(1) + frame(2) + frame(1))),
    Case(F, "stale-epoch", "epoch 9 (seq 1, 2), then epoch 8 seq 3",
         "NAK STALE_EPOCH: epoch 8 is older than 9: start with HELLO", NAK,
         ("frames", frame(1, epoch=9) + frame(2, epoch=9) + frame(3, epoch=8))),
    Case(F, "new-epoch-mid-sequence", "epoch 9 seq 1, then epoch 12 seq 5 (no HELLO)",
         "NAK UNKNOWN_EPOCH: epoch 12 must start with HELLO or sequence 1", NAK,
         ("frames", frame(1, epoch=9) + frame(5, epoch=12))),
]


# -- results and log-ons (examples/club_howell.toml: table A1 round 1 is NS 10, EW 1,
# boards 1-3) --------------------------------------------------------------------------
def res(**kw: Any) -> Result:
    fields = dict(section="A", table=1, round=1, board=1, ns_pair=10, ew_pair=1)
    fields |= dict(contract="4S", declarer=0, lead="", tricks=10, terminal_time_ms=0)
    return Result(**(fields | {"revision": 1} | kw))


ON = ("logon", "BM-1", "A", 1)
R = Kind.RESULT


def sent(msg: Result, *before: tuple[Any, ...]) -> tuple[Any, ...]:
    return ("terminal", ON, *before, ("result", "BM-1", msg))


CASES += [
    Case(R, "logon-unknown-section", "LOGON section Z", "NAK NOT_IN_MOVEMENT: section Z is "
         "not in this event", LOGON, ("terminal", ("logon", "BM-1", "Z", 1))),
    Case(R, "logon-unknown-table", "LOGON table A9 (5 tables)", "NAK NOT_IN_MOVEMENT: section "
         "A has no table 9", LOGON, ("terminal", ("logon", "BM-1", "A", 9))),
    Case(R, "logon-table-held", "BM-2 logs on to A1, held by BM-1", "NAK TABLE_HELD: table "
         "A1 is held by another terminal: ask the director to confirm with the PIN", LOGON,
         ("terminal", ON, ("logon", "BM-2", "A", 1))),
    Case(R, "logon-serial-control-char", 'serial "BM\\x00"', "NAK NOT_ALLOWED: terminal "
         "serial 'BM\\x00' has characters that cannot be printed: ask the director", LOGON,
         ("terminal", ("logon", "BM\x00", "A", 1))),
    Case(R, "logon-serial-too-long", "a serial of 100 characters", "NAK NOT_ALLOWED: terminal "
         "serial of 100 characters: the hub keeps at most 64; ask the director", LOGON,
         ("terminal", ("logon", "B" * 100, "A", 1))),
    Case(R, "not-logged-on", "a result for table A3 from BM-1 (logged on to A1)",
         "NAK NOT_LOGGED_ON: log on to table A3 first", TERMINAL, sent(res(table=3))),
    Case(R, "level-8", "contract 8S", "NAK INVALID_RESULT: contract '8S' is not valid: write "
         "level 1-7, strain C/D/H/S/NT, then X or XX if doubled (e.g. 3NT, 4HX, 6SXX), or PASS",
         TERMINAL, sent(res(contract="8S"))),
    Case(R, "strain-typo", "contract 4Z", "NAK INVALID_RESULT: contract '4Z' is not valid: "
         "write level 1-7, strain C/D/H/S/NT, then X or XX if doubled (e.g. 3NT, 4HX, 6SXX), "
         "or PASS", TERMINAL, sent(res(contract="4Z"))),
    Case(R, "no-declarer", "4S with declarer 255", "NAK INVALID_RESULT: 4S needs a declarer: "
         "N, E, S or W", TERMINAL, sent(res(declarer=255))),
    Case(R, "tricks-14", "4S making 14 tricks", "NAK INVALID_RESULT: tricks 14 must be 0-13",
         TERMINAL, sent(res(tricks=14))),
    Case(R, "lead-not-a-card", 'lead "ZZ"', "NAK INVALID_RESULT: lead 'ZZ' is not a card: "
         "write suit then rank, e.g. HA, S10", TERMINAL, sent(res(lead="ZZ"))),
    Case(R, "board-0", "a RESULT for board 0", "NAK INVALID_RESULT: board 0 is not a board "
         "number: boards are numbered from 1", TERMINAL, sent(res(board=0))),
    Case(R, "round-not-in-movement", "round 12 (9 rounds)", "NAK NOT_IN_MOVEMENT: round 12 is "
         "not in the movement (rounds 1-9)", TERMINAL, sent(res(round=12))),
    Case(R, "one-pair-both-sides", "NS 10, EW 10", "HELD: pairs 10-10 do not sit at table 1 "
         "in round 1 (NS 10, EW 1)", HELD, sent(res(ew_pair=10))),
    Case(R, "board-not-at-table", "board 5 at table A1 round 1 (boards 1-3)", "HELD: board 5 "
         "is not played at table 1 in round 1 (it plays boards 1-3)", HELD,
         sent(res(board=5))),
    Case(R, "pairs-wrong-way-round", "NS 1, EW 10 (the movement: NS 10, EW 1)", "HELD: pairs "
         "1 and 10 are the wrong way round: NS is pair 10, EW pair 1", HELD,
         sent(res(ns_pair=1, ew_pair=10))),
    Case(R, "pairs-not-at-table", "NS 3, EW 4 at table A1 round 1", "HELD: pairs 3-4 do not "
         "sit at table 1 in round 1 (NS 10, EW 1)", HELD,
         sent(res(ns_pair=3, ew_pair=4))),
    Case(R, "same-key-other-content", "revision 1 sent again with 9 tricks", "HELD: same "
         "submission, different content: table A1 round 1 board 1 was sent before with "
         "another result", HELD, sent(res(tricks=9), ("result", "BM-1", res()))),
]

# -- other messages from a terminal (D20, D9; docs/protocol.md §4.2) ------------------------
W = Kind.TABLE
ROUND_1 = "table A1 plays round 1"
NOT_IN = "NAK NOT_IN_MOVEMENT: round {} is not in the movement (rounds 1-9)"
BOARD_0 = "NAK NOT_IN_MOVEMENT: board 0 is not in the movement: boards are numbered from 1"


def wire(*steps: tuple[int, Message]) -> tuple[Any, ...]:
    return ("wire", *steps)


CASES += [
    Case(W, "tdcall-table-not-held", "TDCALL for A1 from a terminal holding no table",
         "NAK NOT_LOGGED_ON: log on to table A1 first", LOGON,
         wire((11, TDCall("A", 1, 1, 0, "come")))),
    Case(W, "tdcall-no-such-table", "TDCALL for table A9 (5 tables)", "NAK NOT_LOGGED_ON: log "
         "on to table A9 first", LOGON, wire((1, TDCall("A", 9, 1, 0, "")))),
    Case(W, "verify-round-not-in-movement", "VERIFY round 12 (9 rounds)", NOT_IN.format(12),
         AT_TABLE, wire((1, Verify("A", 1, 12, 1, 1)))),
    Case(W, "verify-board-0", "VERIFY board 0", BOARD_0, AT_TABLE,
         wire((1, Verify("A", 1, 1, 0, 1)))),
    Case(W, "board-started-round-not-started", "BOARD_STARTED in round 2 during round 1", "NAK "
         f"NOT_ALLOWED: round 2 has not started: {ROUND_1}", AT_TABLE,
         wire((1, BoardStarted("A", 1, 2, 4, 0)))),
    Case(W, "round-started-not-in-movement", "ROUND_STARTED round 0", NOT_IN.format(0),
         AT_TABLE, wire((1, RoundStarted("A", 1, 0, 0)))),
    Case(W, "round-started-not-started", "ROUND_STARTED round 3 during round 1", "NAK "
         f"NOT_ALLOWED: round 3 has not started: {ROUND_1}", AT_TABLE,
         wire((1, RoundStarted("A", 1, 3, 0)))),
    Case(W, "board-started-board-0", "BOARD_STARTED board 0", BOARD_0, AT_TABLE,
         wire((1, BoardStarted("A", 1, 1, 0, 0)))),
    Case(W, "player-number-seat", "PLAYER_NUMBER seat 4", "NAK NOT_ALLOWED: seat 4 is not a "
         "seat: 0 N, 1 E, 2 S, 3 W", AT_TABLE, wire((1, PlayerNumber("A", 1, 1, 4, "1001")))),
    Case(W, "player-number-round", "PLAYER_NUMBER round 10 (9 rounds)", NOT_IN.format(10),
         AT_TABLE, wire((1, PlayerNumber("A", 1, 10, 0, "1001")))),
    Case(W, "player-number-unprintable", 'number "10\\x07" (a bell)', "NAK NOT_ALLOWED: "
         "member number '10\\x07' has characters that cannot be printed: key it again",
         AT_TABLE, wire((1, PlayerNumber("A", 1, 1, 0, "10\x07")))),
    Case(W, "hub-message-from-a-terminal", "an ASSIGNMENT sent by a terminal", "NAK "
         "NOT_ALLOWED: Assignment is the hub's message to a terminal: the hub never takes it",
         NAK, wire((1, Assignment("A", 1, 1, 10, 1, (1, 2, 3))))),
    Case(W, "station-message-at-a-terminal-address", "TERMINAL_LEFT from address 1",
         "NAK NOT_ALLOWED: TerminalLeft is the base station's own message: only the station "
         "sends it (address 0)", NAK, wire((1, TerminalLeft(2, 1)))),
]

# -- TD commands -----------------------------------------------------------------------------
T = Kind.TD
def enter(**kw: Any) -> dict[str, Any]:
    where = {"section": "A", "table": 1, "round": 1, "board": 1, "ns_pair": 10, "ew_pair": 1}
    return where | {"contract": "4S", "declarer": "N", "result": "="} | kw


CASES += [
    Case(T, "not-json", "{", "not JSON: Expecting property name enclosed in double quotes: "
         "line 1 column 2 (char 1)", CONSOLE, ("message", "{")),
    Case(T, "not-an-object", "[1]", "a message is a JSON object, not list", CONSOLE,
         ("message", "[1]")),
    Case(T, "nan-in-json", '{"seconds": NaN}', "NaN is not a number in JSON: send a finite "
         "number", CONSOLE, ("message", '{"seconds": NaN}')),
    Case(T, "unknown-command", "fly {}", "unknown command 'fly': use …", CONSOLE,
         ("args", "fly", {})),
    Case(T, "section-typo", "pause {'section': 'Z'}", "section: 'Z' is not a section of this "
         "event (A)", CONSOLE, ("args", "pause", {"section": "Z"})),
    Case(T, "missing-argument", "pause {}", "section: missing; pause "
         "needs a section of this event, as `A` here", CONSOLE,
         ("args", "pause", {})),
    Case(T, "unknown-argument", "adjust_clock with minutes", "minutes: not an "
         "argument of adjust_clock (it takes section, seconds)", CONSOLE,
         ("args", "adjust_clock", {"section": "A", "seconds": 60, "minutes": 1})),
    Case(T, "number-out-of-range", "adjust_clock seconds 18000", "seconds: "
         "needs a number from -14400 to 14400, not 18000", CONSOLE,
         ("args", "adjust_clock", {"section": "A", "seconds": 18000})),
    Case(T, "text-too-long", "message of 100,000 characters", "text: needs text of 1 to 250 "
         "characters, not 'xxxx…", CONSOLE, ("args", "message", {"text": "x" * 100_000})),
    Case(T, "payer-unknown", "confirm_penalty payer 'nobody'", "payer: "
         "needs one of NS, EW, both or shared, not 'nobody'", CONSOLE,
         ("args", "confirm_penalty", {"penalty": 1, "payer": "nobody"})),
    Case(T, "held-result-unknown", "accept_held {'result': 999}", "result 999 is not a held "
         "result of event 1", CONSOLE, ("hub", "accept_held", {"result": 999})),
    Case(T, "penalty-unknown", "confirm_penalty 77", "penalty 77 is not a proposed penalty "
         "of event 1", CONSOLE, ("hub", "confirm_penalty", {"penalty": 77, "payer": "NS"})),
    Case(T, "td-call-unknown", "td_call 55", "no TD call 55 in event 1", CONSOLE,
         ("hub", "td_call", {"call": 55, "status": "resolved"})),
    Case(T, "erase-table-unknown", "erase_result at table A9", "section A has no table 9 in "
         "round 1", CONSOLE,
         ("hub", "erase_result", {"section": "A", "table": 9, "round": 1, "board": 1})),
    Case(T, "erase-no-result", "erase_result of board 1 at A1 round 1, never played", "board 1 "
         "has no result to erase at table A1 in round 1", CONSOLE,
         ("hub", "erase_result", {"section": "A", "table": 1, "round": 1, "board": 1})),
    Case(T, "takeover-table-unknown", "allow_takeover at table A9 (5 tables)", "section A has "
         "no table 9: its tables are 1-5", CONSOLE,
         ("hub", "allow_takeover", {"section": "A", "table": 9})),
    Case(T, "enter-board-not-at-table", "enter_result board 5 at A1 round 1", "board 5 is not "
         "played at table 1 in round 1 (it plays boards 1-3)", CONSOLE,
         ("hub", "enter_result", enter(board=5))),
    Case(T, "enter-tricks-impossible", "enter_result 4S +8", "+8 is impossible for 4S: at "
         "most +3", CONSOLE, ("hub", "enter_result", enter(result="+8"))),
    Case(T, "enter-round-unknown", "enter_result round 12", "round 12 is not in the movement "
         "(rounds 1-9)", CONSOLE, ("hub", "enter_result", enter(round=12))),
    Case(T, "penalty-amount-negative", "add_penalty amount '-3'", "amount: needs an exact "
         'amount above 0, as "3", "1.5" or "1/2", not \'-3\'', CONSOLE,
         ("args", "add_penalty", {"section": "A", "table": 1, "round": 1, "amount": "-3",
                                  "unit": "VP", "payer": "NS", "reason": "phone"})),
    Case(T, "draw-of-a-fixed-movement", "draw_show in a pairs Howell", "section A is not drawn "
         "while it runs: its movement is fixed (a Swiss, Danish or Monrad section has draw = "
         "... in its movement)", CONSOLE, ("hub", "draw_show", {"section": "A"})),
    Case(T, "no-flag-to-clear", "contract_valid on a board with no flag", "no suspicious-"
         "score flag is open on board 3 at table A1 round 1", CONSOLE,
         ("hub", "contract_valid", {"section": "A", "board": 3, "table": 1, "round": 1})),
]

# -- event files (examples/club_howell.toml with one change) ------------------------------
E = Kind.EVENT


def event_with(old: str, new: str) -> str:
    assert old in EVENT, old
    return EVENT.replace(old, new, 1)


EV = "Error: event.toml: "  # as `bridgehub event create event.toml` prints it


def toml(old: str, new: str) -> tuple[str, str]:
    return ("toml", event_with(old, new))


CASES += [
    Case(E, "not-toml", 'name = "Club pairs (quote not closed)', EV + "(file): not "
         "valid TOML: Illegal character '\\n' (at line 6, column 19)", CLI,
         toml('name = "Club pairs, Monday"', 'name = "Club pairs')),
    Case(E, "newer-schema", "schema_version = 2", EV + "schema_version: this hub reads "
         "schema_version 1, not 2", CLI, toml("schema_version = 1", "schema_version = 2")),
    Case(E, "no-schema-version", "no schema_version line", EV + "schema_version: "
         "required", CLI, toml("schema_version = 1\n", "")),
    Case(E, "unknown-key-typo", 'venu = "Club room"', EV + "event.venu: unknown key; "
         "did you mean venue?", CLI, toml('venue = "Club room"', 'venu = "Club room"')),
    Case(E, "scoring-unknown", 'scoring = "matchpoints"', EV + "rules.scoring: Input "
         "should be 'mp', 'ximp', 'butler' or 'teams'", CLI,
         toml('scoring = "mp"', 'scoring = "matchpoints"')),
    Case(E, "section-letter-lowercase", 'letter = "a"', EV + "sessions[0].sections[0]"
         ".letter: String should match pattern '^[A-Z]{1,3}$'", CLI,
         toml('letter = "A"', 'letter = "a"')),
    Case(E, "movement-kind-typo", 'kind = "hwell"', EV + "sessions[0].sections[0]."
         "movement.kind: Input should be 'mitchell', 'howell', 'barometer' or 'teams'", CLI,
         toml('kind = "howell"', 'kind = "hwell"')),
    Case(E, "movement-one-table", "tables = 1", EV + "sessions[0].sections[0].movement"
         ".tables: Input should be greater than or equal to 2", CLI,
         toml("tables = 5", "tables = 1")),
    Case(E, "slow-play-unit", 'unit = "vp" in step 1', EV + "rules.slow_play.steps[0]"
         ".unit: Input should be 'VP', 'IMP', 'percent_of_top', 'boards_removed', 'warning', "
         "'td_decides' or 'forfeit'", CLI,
         toml('penalty = 1, unit = "VP"', 'penalty = 1, unit = "vp"')),
    Case(E, "slow-play-band-backwards", "step 2 up to 3 minutes, above 5", EV + "rules"
         ".slow_play.steps[1].up_to_minutes: must be more than above_minutes", CLI,
         toml("up_to_minutes = 10", "up_to_minutes = 3")),
    Case(E, "minutes-not-a-number", 'minutes_per_board = "seven"', EV + "rules.timing."
         "minutes_per_board: Input should be a valid number, unable to parse string as a "
         "number", CLI, toml("minutes_per_board = 7.5", 'minutes_per_board = "seven"')),
    Case(E, "pair-listed-twice", "pair 1 twice", EV + "sessions[0].sections[0].pairs: "
         "pair 1 is listed twice", CLI, toml("number = 2", "number = 1")),
    Case(E, "pair-not-in-movement", "pair 99 in a 10-pair Howell", EV + "sessions[0]."
         "sections[0].pairs[1]: section A has no pair 99: its movement has pairs "
         "1-10", CLI, ("cli", {"event.toml": event_with("number = 2", "number = 99")},
                        ["event", "create", "--db", "{db}", "event.toml"])),
    Case(E, "tie-break-unknown", 'tie_breaks = ["coin"]', EV + "rules.tie_breaks: item "
         "0, 'coin', is not a tie-break for mp scoring; use boards_with_positive_imps, "
         "boards_won_between, h2h_score, lot", CLI,
         toml("tie_breaks = []", 'tie_breaks = ["coin"]')),
    Case(E, "date-not-a-date", 'date = "yesterday"', EV + "sessions[0].date: 'yesterday' "
         "is not a date this hub reads; write it as year-month-day, e.g. 2026-12-01", CLI,
         toml("date = 2026-11-30", 'date = "yesterday"')),
    Case(E, "date-two-days", 'date = "1/12/2026"', EV + "sessions[0].date: '1/12/2026' could "
         "be 1 December or 12 January 2026; write it as year-month-day, e.g. 2026-12-01", CLI,
         toml("date = 2026-11-30", 'date = "1/12/2026"')),
    Case(E, "not-utf8", 'name = "Café" saved in Latin-1', EV + "not a text "
         "file in UTF-8 (line 6): save it as UTF-8", CLI,
         ("cli", {"event.toml": event_with("Club pairs", "Caf\xe9").encode("latin-1")},
          ["event", "create", "--db", "{db}", "event.toml"])),
    Case(E, "hand-records-missing", 'hand_records = "nofile.pbn"', EV + "sessions[0]."
         "hand_records: cannot read hand records nofile.pbn: [Errno 2] No such file or "
         "directory: 'nofile.pbn'", CLI,
         ("cli", {"event.toml": event_with('name = "Evening"', 'name = "Evening"\n'
                                           'hand_records = "nofile.pbn"')},
          ["event", "create", "--db", "{db}", "event.toml"])),
    Case(E, "movement-file-missing", 'movement = "nofile.csv"', "Error: section A: movement "
         "file nofile.csv: cannot read: [Errno 2] No such file or directory: 'nofile.csv'", CLI,
         ("cli", {"event.toml": event_with(
             'movement = { kind = "howell", tables = 5, boards_per_round = 3 }',
             'movement = "nofile.csv"')}, ["event", "create", "--db", "{db}", "event.toml"])),
    Case(E, "movement-file-not-utf8", 'movement = "mv.csv", a file in Latin-1', "Error: "
         "section A: movement file mv.csv: not a text file in UTF-8 (line 1): save it as "
         "UTF-8 CSV", CLI,
         ("cli", {"mv.csv": b"# \xe9t\xe9\n", "event.toml": event_with(
             'movement = { kind = "howell", tables = 5, boards_per_round = 3 }',
             'movement = "mv.csv"')}, ["event", "create", "--db", "{db}", "event.toml"])),
]

# -- movement files (tests/data/howell_5t_9r_3b.csv with one change) ----------------------
M = Kind.MOVEMENT
ROW = "1,2,1,5,2,4,6"  # section 1, table 2, round 1: NS 5, EW 2, boards 4-6 (line 7)


def movement(old: str, new: str, *, meta: str = "") -> tuple[Any, ...]:
    text = HOWELL if not old else HOWELL.replace(f"\n{old}\n", f"\n{new}\n", 1)
    assert text != HOWELL or not old, old
    return ("cli", {"mv.csv": meta + text}, ["movement", "check", "mv.csv"])


CASES += [
    Case(M, "pair-twice-in-a-round", f"{ROW} → 1,2,1,5,3,4,6", "ERROR [seated-once] row 2 "
         "(section 1, table 2, round 1): pair 3 is already seated at table 1 in this round",
         CLI, movement(ROW, "1,2,1,5,3,4,6")),
    Case(M, "pair-both-sides", "NS 5, EW 5", "ERROR [seated-once] row 2 (section 1, table 2, "
         "round 1): pair 5 cannot sit both NS and EW", CLI, movement(ROW, "1,2,1,5,5,4,6")),
    Case(M, "boards-at-two-tables", "boards 1-3 at tables 1 and 2 in round 1", "ERROR "
         "[one-place] row 2 (section 1, table 2, round 1): board(s) 1, 2, 3 are at tables 1, "
         "2 in one round without a declared share", CLI, movement(ROW, "1,2,1,5,2,1,3")),
    Case(M, "low-above-high", "low_board 6, high_board 4", "Error: mv.csv: line 7: low_board 6 "
         "and high_board 4 must be 1 ≤ low ≤ high, or both 0 for no boards", CLI,
         movement(ROW, "1,2,1,5,2,6,4")),
    Case(M, "board-0", "low_board 0, high_board 2", "Error: mv.csv: line 7: low_board 0 and "
         "high_board 2 must be 1 ≤ low ≤ high, or both 0 for no boards", CLI,
         movement(ROW, "1,2,1,5,2,0,2")),
    Case(M, "word-for-a-number", "ns_pair five", "Error: mv.csv: line 7: ns_pair 'five': table, "
         "round, pairs and boards must be whole numbers", CLI, movement(ROW, "1,2,1,five,2,4,6")),
    Case(M, "short-row", "1,2,1,5,2,4 (a cell missing)", "Error: mv.csv: line 7: 6 cells, but "
         "the header (line 5) names 7: section,table,round,ns_pair,ew_pair,low_board,"
         "high_board", CLI, movement(ROW, "1,2,1,5,2,4")),
    Case(M, "extra-cell", "1,2,1,5,2,4,6,9", "Error: mv.csv: line 7: 8 cells, but the header "
         "(line 5) names 7: section,table,round,ns_pair,ew_pair,low_board,high_board", CLI,
         movement(ROW, "1,2,1,5,2,4,6,9")),
    Case(M, "table-twice-in-a-round", "two rows for table 1 round 1", "Error: mv.csv: line 7: "
         "section 1 table 1 round 1 already has a row (line 6)", CLI,
         movement(ROW, "1,1,1,5,2,4,6")),
    Case(M, "round-0", "round -1", "Error: mv.csv: line 7: table and round start at 1", CLI,
         movement(ROW, "1,2,-1,5,2,4,6")),
    Case(M, "custom-boards-not-numbers", "boards column 4;x", "Error: mv.csv: line 7: boards "
         "'4;x' must be numbers like 1;4;7", CLI,
         ("cli", {"mv.csv": HOWELL.replace("high_board\n", "high_board,boards\n").replace(
             f"\n{ROW}\n", f"\n{ROW},4;x\n")}, ["movement", "check", "mv.csv"])),
    Case(M, "missing-column", "no ew_pair column", "Error: mv.csv: line 5: missing column(s) "
         "ew_pair; the header is section,table,round,ns_pair,ew_pair,low_board,high_board"
         "[,boards]", CLI, ("cli", {"mv.csv": HOWELL.replace("ns_pair,ew_pair", "ns_pair")},
                            ["movement", "check", "mv.csv"])),
    Case(M, "kind-typo", "# kind: howel", "Error: mv.csv: line 1: kind 'howel' is not valid "
         "(kinds: mitchell, howell, barometer, semi-barometer, teams)", CLI,
         movement("", "", meta="# kind: howel\n")),
    Case(M, "winners-3", "# winners: 3", "Error: mv.csv: line 1: winners must be 1 or 2", CLI,
         movement("", "", meta="# winners: 3\n")),
    Case(M, "empty-file", "an empty file", "Error: mv.csv: the movement file has no header and "
         "no rows", CLI, ("cli", {"mv.csv": ""}, ["movement", "check", "mv.csv"])),
    Case(M, "not-utf8", "a file in UTF-16", "Error: mv.csv: not a text file in UTF-8 (line 1): "
         "save it as UTF-8 CSV", CLI,
         ("cli", {"mv.csv": HOWELL.encode("utf-16")}, ["movement", "check", "mv.csv"])),
]

# -- traveller files (`bridgehub score`) ---------------------------------------------------
V = Kind.TRAVELLER
TH = "board,ns,ew,contract,declarer,result,score_ns,adjusted\n"
OK_LINE = "1,3,4,4H,S,+1,,\n"


def score(line: str, *options: str, header: str = TH) -> tuple[Any, ...]:
    return ("cli", {"tr.csv": header + line + OK_LINE}, ["score", "tr.csv", "--method", "mp",
                                                         *options])


CASES += [
    Case(V, "fourteen-tricks", "4H S +8", "Error: tr.csv:2: +8 is impossible for 4H: at most "
         "+3", CLI, score("1,1,2,4H,S,+8,,\n")),
    Case(V, "down-too-many", "4H S -11", "Error: tr.csv:2: -11 is impossible for 4H: at most "
         "-10", CLI, score("1,1,2,4H,S,-11,,\n")),
    Case(V, "level-8", "8H", "Error: tr.csv:2: contract '8H' is not valid: write level 1-7, "
         "strain C/D/H/S/NT, then X or XX if doubled (e.g. 3NT, 4HX, 6SXX), or PASS", CLI,
         score("1,1,2,8H,S,=,,\n")),
    Case(V, "declarer-not-a-seat", "declarer X", "Error: tr.csv:2: declarer 'X' is not a "
         "seat: use N, E, S or W", CLI, score("1,1,2,4H,X,=,,\n")),
    Case(V, "no-declarer", "4H with no declarer", "Error: tr.csv:2: 4H needs a declarer: N, "
         "E, S or W", CLI, score("1,1,2,4H,,=,,\n")),
    Case(V, "pair-twice-on-a-board", "NS 1 twice on board 1", "Error: tr.csv:3: NS pair 1 "
         "already has a result on board 1 (line 2)", CLI,
         ("cli", {"tr.csv": TH + "1,1,2,4H,S,=,,\n1,1,4,4H,S,+1,,\n"},
          ["score", "tr.csv", "--method", "mp"])),
    Case(V, "pair-both-sides-howell", "NS 1 v EW 1 with --winners 1", "Error: tr.csv:2: pair "
         "1 cannot sit both NS and EW on board 1", CLI,
         score("1,1,1,4H,S,=,,\n", "--winners", "1")),
    Case(V, "board-0", "board 0", "Error: tr.csv:2: board 0 must be at least 1", CLI,
         score("0,1,2,4H,S,=,,\n")),
    Case(V, "pair-not-a-number", "ns x", "Error: tr.csv:2: ns 'x' must be a whole number",
         CLI, score("1,x,2,4H,S,=,,\n")),
    Case(V, "adjusted-typo", "adjusted 70/x", "Error: tr.csv:2: adjusted score '70/x': 'X' "
         "must be a percentage 0-100 or A+, A, A-", CLI, score("1,1,2,,,,,70/x\n")),
    Case(V, "adjusted-with-contract", "4H S = and 60/40", "Error: tr.csv:2: a row with an "
         "adjusted score leaves contract, result and score_ns empty", CLI,
         score("1,1,2,4H,S,=,,60/40\n")),
    Case(V, "score-contradicts-contract", "4H S = with score_ns 425", "Error: tr.csv:2: "
         "score_ns 425 does not match 4H S = on board 1 (vulnerable: None), which scores 420 "
         "to NS", CLI, score("1,1,2,4H,S,=,425,\n")),
    Case(V, "impossible-score", "score_ns 423", "Error: tr.csv:2: score_ns 423 is not a "
         "possible NS score on board 1 (vulnerable: None)", CLI, score("1,1,2,,,,423,\n")),
    Case(V, "semicolons-no-result", "board;ns;ew;contract;declarer (semicolons read as "
         "commas; no result column)", "Error: tr.csv:1: missing column(s): result; the header "
         "needs board,ns,ew,contract,declarer,result", CLI,
         ("cli", {"tr.csv": "board;ns;ew;contract;declarer\n1;1;2;4H;S\n"},
          ["score", "tr.csv", "--method", "mp"])),
    Case(V, "header-only", "the header and no rows", "Error: tr.csv:1: the file has no "
         "results", CLI, ("cli", {"tr.csv": TH}, ["score", "tr.csv", "--method", "mp"])),
    Case(V, "broken-utf16", "UTF-16 (\"Unicode text\") cut off in a character", "Error: "
         "tr.csv:2: not readable as UTF-16 text: save it again as CSV", CLI,
         ("cli", {"tr.csv": TH.encode("utf-16") + b"\x00\xd8"},
          ["score", "tr.csv", "--method", "mp"])),
    Case(V, "more-results-than-expected", "2 results on board 1 with --expected 1", "Error: "
         "board 1 has 2 results, more than --expected 1", CLI,
         score("1,1,2,4H,S,=,,\n", "--expected", "1")),
    Case(V, "butler-drop-typo", "--butler-drop abc", "Error: Butler drop rule 'abc': write N "
         "(scores at each end) or N%", CLI,
         ("cli", {"tr.csv": TH + "1,1,2,4H,S,=,,\n" + OK_LINE},
          ["score", "tr.csv", "--method", "butler", "--butler-drop", "abc"])),
]

# -- export and import inputs: destinations, JSON backups, ReceivedData, hand records -------
X = Kind.EXCHANGE
DEAL = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
OTHER = "N:.AKQJT98765432.. AKQJT98765432... ..AKQJT98765432. ...AKQJT98765432"
RD = ("ID,Section,Table,Round,Board,PairNS,PairEW,Declarer,NS/EW,Contract,Result,LeadCard,"
      "Remarks,DateLog,TimeLog,Erased\n")
ROUND_DATA = "Section,Table,Round,NSPair,EWPair,LowBoard,HighBoard\n"
BACKUP = '{"format": "bridgehub-backup", "version": %s, "tables": %s}'
EVENTS = '{"events": [{"name": "x", "schema_version": 1, "event_file": ""}]%s}'


def export(*args: str) -> tuple[Any, ...]:
    return ("cli", {}, ["event", "export", "--db", "{db}", *args])


def restore(text: str) -> tuple[Any, ...]:
    return ("cli", {"b.json": text}, ["event", "import", "--db", "{db}", "--json", "b.json"])


def received(row: str, event: str = "1") -> tuple[Any, ...]:
    args = ["event", "import", "--db", "{db}", "--event", event, "--received", "rd.csv"]
    return ("cli", {"rd.csv": RD + row}, args)


def pbn(*boards: tuple[int, str]) -> tuple[Any, ...]:
    text = "\n".join(f'[Board "{b}"]\n[Deal "{d}"]\n' for b, d in boards)
    return ("hub", "load_hand_records", {"pbn": text})


CASES += [
    Case(X, "export-unknown-event", "--event 7 (the store holds event 1)", "Error: no event 7 "
         "in this store", CLI, export("--event", "7", "--json", "out.json")),
    Case(X, "export-no-destination", "no --bws, --json, --travellers, --pbn, --usebio or "
         "--html", "Error: give --bws DIR, --json FILE, --travellers FILE, --pbn FILE, "
         "--usebio FILE and/or --html DIR", CLI, export("--event", "1")),
    Case(X, "export-folder-missing", "--json nofolder/out.json", "Error: cannot write "
         "nofolder/out.json: No such file or directory", CLI,
         export("--event", "1", "--json", "nofolder/out.json")),
    Case(X, "export-json-is-a-folder", "--json . (a folder)", "Error: Invalid value for "
         "'--json': File '.' is a directory.", CLI, export("--event", "1", "--json", ".")),
    Case(X, "export-bws-is-a-file", "--bws out.txt (a file)", "Error: Invalid value for "
         "'--bws': Directory 'out.txt' is a file.", CLI,
         ("cli", {"out.txt": ""}, ["event", "export", "--db", "{db}", "--event", "1",
                                   "--bws", "out.txt"])),
    Case(X, "import-round-data-bad-row", "EWPair x on line 3", "Error: RoundData.csv:3: "
         "EWPair 'x' is not a whole number", CLI,
         ("cli", {"RoundData.csv": f"{ROUND_DATA}1,1,1,1,4,1,2\n1,2,1,2,x,3,4\n"},
          ["event", "import", "--db", "{db}", "--round-data", "RoundData.csv"])),
    Case(X, "import-round-data-semicolons", "Section;Table;… (a spreadsheet's CSV)",
         "Error: RoundData.csv:1: no column(s) Section, Table, Round, NSPair, EWPair, LowBoard, "
         "HighBoard: a RoundData header is Section,Table,Round,NSPair,EWPair,LowBoard,HighBoard"
         "[,CustomBoards] (its cells are ';' apart: save it as comma-separated CSV)", CLI,
         ("cli", {"RoundData.csv": ROUND_DATA.replace(",", ";") + "1;1;1;1;4;1;2\n"},
          ["event", "import", "--db", "{db}", "--round-data", "RoundData.csv"])),
    Case(X, "backup-not-json", "{", "Error: not a bridgehub backup: not JSON (Expecting "
         "property name enclosed in double quotes at line 1)", CLI, restore("{")),
    Case(X, "backup-other-json", "[]", 'Error: not a bridgehub backup: no "format": '
         '"bridgehub-backup"', CLI, restore("[]")),
    Case(X, "backup-newer-version", '"version": 2', "Error: backup version 2: this bridgehub "
         "reads version 1; upgrade bridgehub to restore it", CLI,
         restore(BACKUP % (2, EVENTS % ""))),
    Case(X, "backup-no-event", '"tables": {}', 'Error: the backup has no "tables" with its '
         '"events" row', CLI, restore(BACKUP % (1, "{}"))),
    Case(X, "backup-unknown-table", 'a table "resultz"', "Error: the backup has unknown "
         "table(s) resultz", CLI, restore(BACKUP % (1, EVENTS % ', "resultz": []'))),
    Case(X, "backup-unknown-column", 'an events row with "colour"', "Error: the backup's table "
         "events has unknown column(s) colour", CLI,
         restore(BACKUP % (1, '{"events": [{"name": "x", "colour": 1}]}'))),
    Case(X, "backup-bad-date", 'created_at "yesterday"', "Error: the backup's table events: "
         "created_at 'yesterday' is not a date and time", CLI,
         restore(BACKUP % (1, '{"events": [{"name": "x", "created_at": "yesterday"}]}'))),
    Case(X, "backup-row-missing-value", 'an events row without "schema_version"', "Error: "
         "the backup's rows do not fit the store: NOT NULL constraint failed: "
         "events.schema_version", CLI,
         restore(BACKUP % (1, '{"events": [{"name": "x"}]}'))),
    Case(X, "backup-not-utf8", "a backup saved in Latin-1", "Error: b.json: not a text file "
         "in UTF-8 (line 1): save it as UTF-8", CLI,
         ("cli", {"b.json": (BACKUP % (1, '{"events": [{"name": "Caf\xe9"}]}')).encode(
             "latin-1")}, ["event", "import", "--db", "{db}", "--json", "b.json"])),
    Case(X, "received-not-utf8", "a ReceivedData.csv in UTF-16", "Error: rd.csv line 1: not a "
         "text file in UTF-8: save it as UTF-8", CLI,
         ("cli", {"rd.csv": RD.encode("utf-16")},
          ["event", "import", "--db", "{db}", "--event", "1", "--received", "rd.csv"])),
    Case(X, "received-impossible-tricks", "ReceivedData 4 S +8", "Error: rd.csv line 2: +8 is "
         "impossible for 4S: at most +3", CLI, received("2,A,1,1,2,10,1,1,N,4 S,+8,,,,,False")),
    Case(X, "received-unknown-section", "ReceivedData section B", "Error: rd.csv line 2: "
         "event 1 has no section B", CLI, received("3,B,1,1,1,10,1,1,N,4 S,=,,,,,False")),
    Case(X, "received-unknown-table", "ReceivedData table 99", "Error: rd.csv line 2: section "
         "A has no table 99", CLI, received("5,A,99,1,1,10,1,1,N,4 S,=,,,,,False")),
    Case(X, "received-not-a-number", "ReceivedData table x", "Error: rd.csv line 2: Table 'x' "
         "is not a number 1-65535", CLI, received("7,A,x,1,1,10,1,1,N,4 S,=,,,,,False")),
    Case(X, "received-wrong-header", "a ReceivedData.csv whose header says Sect and "
         "PairN-S", "Error: rd.csv line 1: missing column(s) Section, PairNS; a ReceivedData "
         "header names Section,Table,Round,Board,PairNS,PairEW,NS/EW,Contract,Result (and ID, "
         "LeadCard, Remarks, Erased), separated by commas", CLI,
         ("cli", {"rd.csv": RD.replace("Section", "Sect").replace("PairNS", "PairN-S")
                  + "1,A,1,1,1,10,1,1,N,4 S,=,,,,,False\n"},
          ["event", "import", "--db", "{db}", "--event", "1", "--received", "rd.csv"])),
    Case(X, "received-unknown-event", "--event 9 (the store holds event 1)", "Error: no event "
         "9 in this store", CLI, received("1,A,1,1,1,10,1,1,N,4 S,=,,,,,False", "9")),
    Case(X, "pbn-12-card-hand", "West holds 12 cards", "board 1's deal is not a whole deal "
         "(cards N, E, S, W: 13, 13, 13, 12; each hand needs 13 of the 52 cards)", PBN,
         pbn((1, DEAL[:-1]))),
    Case(X, "pbn-board-0", '[Board "0"]', "the file has a board 0: boards run 1-65535",
         PBN, pbn((0, DEAL))),
    Case(X, "pbn-board-twice", "board 1 twice, different deals", "board 1 is in the file "
         "twice with different deals", PBN, pbn((1, DEAL), (1, OTHER))),
    Case(X, "pbn-no-boards", "a file with no [Board] tags", "the file holds no boards",
         PBN, ("hub", "load_hand_records", {"pbn": '[Event "x"]\n'})),
    Case(X, "pbn-not-pbn", "the text x", "the file is not valid PBN: Expected a tag", PBN,
         ("hub", "load_hand_records", {"pbn": "x"})),
]

# fmt: on


# -- the document -----------------------------------------------------------------------------
INTRO = """# Bad input: every class, and the exact error it gets

Generated from `tests/bad_input_cases.py`, where each class is data that
`tests/live/service/test_bad_input.py` feeds to the real code path (one test per class; the error is
checked word for word). Do not edit by hand: regenerate with

    python tests/bad_input_cases.py --write

Where each kind of error appears:

- **Frames**: a frame that is not one (noise, a cut, a CRC failure) is dropped and counted
  by the link; the terminal, getting no ACK, sends again. A well-formed frame the link
  cannot take (unknown type, bad payload, replayed sequence, stale epoch) is answered with
  a NAK whose code and text the terminal shows; the hub logs it.
- **Results and log-ons**: a refusal is a NAK with a code (docs/protocol.md §4) and a text
  the terminal shows, so the players fix the entry; it is written to the audit log. A
  plausible but irregular result is held for the director (decisions D9): the console
  raises an alert with the reason and the terminal shows "held for the director".
- **Other messages from a terminal** (a TD call, a verification, the start of a round or
  a board, a member number): refused with a NAK and its text like a result (NAK 16 from a
  terminal that does not hold the table, decisions D20); a refusal is logged and audited
  in full once per terminal and minute, and counted.
- **TD commands**: the API answers `{"type": "reply", "ok": false, "error": …}` (a message
  that is not a command at all: `{"type": "error", …}`); the console shows the text.
- **Files and exports**: the command line prints `Error: …` naming the file, line and key,
  and exits with status 1 (2 for a wrong option); nothing is stored or written.
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _code(text: str) -> str:
    """``text`` as a code span, even when it holds a backtick."""
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def generated() -> str:
    """docs/bad-input.md."""
    out = [INTRO]
    for kind in Kind:
        cases = [c for c in CASES if c.kind is kind]
        out.append(f"\n## {kind.value} ({len(cases)} classes)\n")
        out.append("| class | example | exact error | who sees it |")
        out.append("|---|---|---|---|")
        for c in cases:
            row = (c.name, c.example, _code(c.error), c.where)
            out.append("| " + " | ".join(_cell(x) for x in row) + " |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        DOC.write_text(generated(), "utf-8")
    else:
        sys.stdout.write(generated())
