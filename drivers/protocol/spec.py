"""Generate the message reference of docs/protocol.md from the definitions.

``python -m drivers.protocol.spec`` prints the generated part; a test checks that
docs/protocol.md contains it verbatim.
"""

from __future__ import annotations

from drivers.protocol.messages import (
    REGISTRY,
    NakCode,
    Outcome,
    RankLine,
    Setting,
    TravellerEntry,
    field_table,
)

BEGIN = "<!-- generated: messages (python -m drivers.protocol.spec) -->"
END = "<!-- end generated -->"
OUTCOMES = {
    "OK": "the answer to every message that needs one except RESULT (HELLO, LOGON, "
    "PLAYER_NUMBER, VERIFY, ERASE, TDCALL, ROUND_STARTED, BOARD_STARTED, TERMINAL_JOINED, "
    "TERMINAL_LEFT), and a terminal's answer to the hub's messages",
    "ACCEPTED": "a RESULT stored and counted; also a board not played (empty contract): "
    'the text says "no play: the director will assign a score"',
    "HELD": "a RESULT stored for the director, not counted yet: a board the table does not "
    "play in that round, pairs that do not sit there, a second and different result of the "
    'board. The terminal shows the text ("held for the director: " and why); a resend of a '
    "result still held is answered HELD again",
    "DUPLICATE": "a RESULT with the key and content of one stored and counted before: "
    "nothing changes. "
    "A frame received twice by the link is answered with its first answer, not with 3",
}
NAKS = {
    "BAD_PAYLOAD": "the payload does not decode (a field runs past the end, bytes left "
    "over, bad UTF-8); the text names the field",
    "UNKNOWN_TYPE": "no message has this type",
    "UNKNOWN_EPOCH": "a higher epoch whose first frame is neither HELLO nor sequence 1",
    "STALE_EPOCH": "an epoch lower than the current one, not in a HELLO: start with HELLO",
    "REPLAY": "a sequence number below the last one delivered in this epoch",
    "BUSY": "the hub could not keep the message just now (a result it could not store; a "
    "VERIFY of a board whose result is not stored yet, never one whose result was refused: "
    "NAK 20): send it again after a pause (250 ms, doubling up to 2 s)",
    "NOT_LOGGED_ON": "the terminal has not logged on to that table over this link in this "
    "epoch (after its reboot or the hub's restart): LOGON, then send the message again. "
    "Every message that names a table needs it: RESULT, VERIFY, ERASE, TDCALL, "
    "ROUND_STARTED, BOARD_STARTED, PLAYER_NUMBER",
    "TABLE_HELD": "another terminal (or this serial over another link) holds the table: the "
    "director's PIN in LOGON, or the director's takeover command, lets this one in",
    "INVALID_RESULT": "the result cannot be scored (contract, declarer, tricks, lead, a "
    "RESULT for board 0); the text says why",
    "NOT_IN_MOVEMENT": "no such section, table, round or board (a LOGON to a table that does "
    "not exist; a RESULT, VERIFY, ROUND_STARTED, BOARD_STARTED or PLAYER_NUMBER for a round "
    "not in the movement or one the table does not play; a VERIFY or BOARD_STARTED for "
    "board 0). A board the table does not play is held (ACK 2) as a RESULT and taken as a "
    "VERIFY or BOARD_STARTED, not refused",
    "NOT_ALLOWED": "not allowed (a terminal the event does not register, a wrong director's "
    "PIN, an ERASE the table may not make; a VERIFY of a board whose RESULT was refused: "
    "enter the result again; a ROUND_STARTED or BOARD_STARTED for a round "
    "that has not started; a PLAYER_NUMBER for a seat above 3 or with a number that "
    "cannot be printed; a message a terminal never sends: the hub's own, or the base "
    "station's at a terminal's address); the text says why",
}


def _table(cls: type) -> list[str]:
    rows = ["| field | type | meaning |", "|---|---|---|"]
    rows += [f"| `{n}` | {t} | {d} |" for n, t, d in field_table(cls)]
    return rows


def generated() -> str:
    out = [
        BEGIN,
        "",
        "### Message types",
        "",
        "| type | name | direction | ACK needed |",
        "|---|---|---|---|",
    ]
    for code, cls in sorted(REGISTRY.items()):
        out.append(
            f"| 0x{code:02X} | {cls.__name__} | {cls.DIRECTION} | "
            f"{'yes' if cls.NEEDS_ACK else 'no'} |"
        )
    for code, cls in sorted(REGISTRY.items()):
        out += ["", f"#### 0x{code:02X} {cls.__name__}", ""]
        doc = (cls.__doc__ or "").strip().splitlines()
        if doc and not doc[0].startswith(cls.__name__ + "("):
            out += [" ".join(x.strip() for x in doc), ""]
        out += _table(cls)
    for rec in (TravellerEntry, RankLine, Setting):
        out += ["", f"#### Record {rec.__name__} (inside lists)", "", *_table(rec)]
    out += ["", "### ACK outcomes", ""]
    out += [f"- {o.value} {o.name.lower()}: {OUTCOMES.get(o.name, '')}" for o in Outcome]
    out += ["", "### NAK codes", ""]
    out += [f"- {c.value} {c.name.lower()}: {NAKS.get(c.name, '')}" for c in NakCode]
    out += [""]
    out.append(END)
    return "\n".join(out)


if __name__ == "__main__":
    print(generated())
