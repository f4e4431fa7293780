"""Generate the message reference of docs/protocol.md from the definitions.

``python -m drivers.protocol.spec`` prints the generated part; a test checks that
docs/protocol.md contains it verbatim.
"""

from __future__ import annotations

from drivers.protocol.frame import Frame
from drivers.protocol.messages import (
    REGISTRY,
    Ack,
    Hello,
    NakCode,
    Outcome,
    RankLine,
    Result,
    Setting,
    TravellerEntry,
    field_table,
)

BEGIN = "<!-- generated: messages (python -m drivers.protocol.spec) -->"
END = "<!-- end generated -->"


def _table(cls: type) -> list[str]:
    rows = ["| field | type | meaning |", "|---|---|---|"]
    rows += [f"| `{n}` | {t} | {d} |" for n, t, d in field_table(cls)]
    return rows


def _hex(data: bytes) -> str:
    return " ".join(f"{b:02X}" for b in data)


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
    out += ["", "### ACK outcomes", ""] + [f"- {o.value}: {o.name.lower()}" for o in Outcome]
    out += ["", "### NAK codes", ""] + [f"- {c.value}: {c.name.lower()}" for c in NakCode]
    out += ["", "### Worked examples", ""]
    hello = Frame(0x0003, 1, 1, Hello.TYPE, Hello(1, "BM-0042", "1.0").payload())
    result = Frame(
        0x0003,
        1,
        2,
        Result.TYPE,
        Result("A", 3, 2, 7, 5, 12, "4SX", 0, "HA", 10, 1764442800000, 1).payload(),
    )
    ack = Frame(0x0003, 1764442000, 0, Ack.TYPE, Ack(1, 2, Outcome.ACCEPTED, "").payload())
    for title, frame in (
        ("Terminal 3 says HELLO (epoch 1, seq 1)", hello),
        ("Terminal 3 sends 4SX by North, 10 tricks, board 7 (seq 2)", result),
        ("The hub accepts it (ACK, outcome 1, hub epoch 1764442000)", ack),
    ):
        out += [
            f"{title}:",
            "",
            "```",
            f"packed : {_hex(frame.pack())}",
            f"on wire: {_hex(frame.encode())}",
            "```",
            "",
        ]
    out.append(END)
    return "\n".join(out)


if __name__ == "__main__":
    print(generated())
