"""The hubs the console is fed from in the tests, scripted: the snapshot and events a hub
would send (docs/api.md), and hubs that record each command and answer it. The TD's keys on
the console: tests/console_pilot.py.

- ``SNAPSHOT``: a club pairs evening, sections A (5 tables) and B (2), in round 2 of 9;
  ``EVENTS`` what follows it, ``FLAG`` a suspicious score, ``HELD`` a held result.
- ``DESK_SNAPSHOT``: a pairs evening in round 2 whose round 1 left two boards unplayed,
  for the director's desk; ``scripted`` answers each command as ``answer`` says.
- ``with_pairs``: the desk's room with its pairs directory (``PAIRS``), answered as
  ``hub.live.desk.td_pair_commands`` does.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable
from typing import Any

# standings rows as the hub sends them: exact totals (str(Fraction)) and their display
LIVE_1 = {
    "pair": 1,
    "direction": None,
    "name": "",
    "total": "55",
    "text": "55.00",
    "rank": "1",
    "boards": 3,
    "points": "33/10",
    "top": 6,
}
LIVE_2 = {**LIVE_1, "pair": 2, "total": "45", "text": "45.00", "rank": "2", "points": "27/10"}
NOTHING_PUBLISHED = {"round": 0, "provisional": [], "released_by": None, "rows": []}
SNAPSHOT = {
    "type": "snapshot",
    "seq": 10,
    "state": {
        "event": "Club pairs",
        "sections": {
            "A": {
                "round": 2,
                "rounds": 9,
                "predicted_finish": 0,
                "clock": {"phase": "play", "seconds_left": 1234},
                "tables": [
                    {
                        "table": t,
                        "ns": t,
                        "ew": t + 5,
                        "boards": [1, 2, 3],
                        "done": 1,
                        "minutes_behind": 2.5 if t == 3 else 0,
                        "online": t != 4,
                        "unverified": 0,
                    }
                    for t in range(1, 6)
                ],
                "standings": [LIVE_1, LIVE_2],
                "unit": "%",
                "kind": "pairs",
                "published": NOTHING_PUBLISHED,
            },
            "B": {
                "round": 2,
                "rounds": 9,
                "predicted_finish": 0,
                "clock": {"phase": "play", "seconds_left": 1234},
                "tables": [
                    {
                        "table": t,
                        "ns": t,
                        "ew": t + 2,
                        "boards": [4, 5, 6],
                        "done": 3,
                        "minutes_behind": 0,
                        "online": True,
                        "unverified": 0,
                    }
                    for t in (1, 2)
                ],
                "standings": [LIVE_1, LIVE_2],
                "unit": "%",
                "kind": "pairs",
                "published": NOTHING_PUBLISHED,
            },
        },
        "held": [],
        "td_calls": [],
        "penalties": [],
        "alerts": [],
    },
}
EVENTS = [
    {
        "type": "event",
        "seq": 11,
        "event": "result",
        "section": "A",
        "table": 2,
        "round": 2,
        "board": 2,
        "status": "accepted",
        "id": 40,
    },
    {
        "type": "event",
        "seq": 12,
        "event": "td_call",
        "call": 7,
        "section": "A",
        "table": 3,
        "round": 2,
        "status": "launched",
        "text": "revoke",
    },
    {
        "type": "event",
        "seq": 13,
        "event": "standings",
        "section": "A",
        "round": 2,
        "released_by": None,
        "provisional": [],
        "rows": [
            {
                **LIVE_1,
                "pair": 2,
                "total": "61",
                "text": "61.00",
                "boards": 6,
                "points": "183/25",
                "top": 12,
                "previous_rank": "2",
            },
            {
                **LIVE_1,
                "total": "39",
                "text": "39.00",
                "rank": "2",
                "boards": 6,
                "points": "117/25",
                "top": 12,
                "previous_rank": "1",
            },
        ],
    },
    {
        "type": "event",
        "seq": 14,
        "event": "clock",
        "section": "A",
        "round": 2,
        "phase": "last_board",
        "seconds_left": 400,
    },
    {
        "type": "event",
        "seq": 15,
        "event": "table_online",
        "section": "A",
        "table": 5,
        "online": False,
    },
]


def recorded(messages: list[dict[str, Any]]) -> Callable[[], Any]:
    """A feed that sends ``messages`` in order, then stays open and silent."""

    async def source():
        for m in messages:
            yield m
        while True:
            await asyncio.sleep(3600)

    return source


FLAG = {
    "section": "A",
    "board": 2,
    "table": 1,
    "round": 2,
    "ns": 1,
    "ew": 6,
    "result": "2S N 8",
    "reason": "2S by N taking 8, but EW declared spades at 2 tables",
}


HELD = {
    "type": "event",
    "seq": 17,
    "event": "alert",
    "held": True,
    "result": 41,
    "section": "A",
    "table": 1,
    "round": 2,
    "board": 9,
    "text": "board 9 is not played at table 1 in round 2",
}


def scripted_hub(refuse: dict[str, str] | None = None) -> tuple[Any, list[dict], Any, Any]:
    """A feed the test can push events into, and a hub that answers every command (a
    refusal with the given text for the named commands)."""
    feed: asyncio.Queue = asyncio.Queue()
    sent: list[dict] = []
    refuse = refuse or {}

    async def source():
        while True:
            yield await feed.get()

    async def send(cmd):
        sent.append(cmd)
        error = refuse.get(cmd["name"])
        answer = {"ok": False, "error": error} if error else {"ok": True}
        await feed.put({"type": "reply", "id": cmd["id"], **answer})

    return feed, sent, source, send


DESK_SNAPSHOT: dict[str, Any] = {
    "type": "snapshot",
    "seq": 10,
    "state": {
        "event": "Club pairs",
        "sections": {
            "A": {
                "round": 2,
                "rounds": 7,
                "clock": {"phase": "play", "seconds_left": 900},
                "tables": [
                    {"table": t, "ns": t, "ew": t + 4, "boards": [3, 4], "done": 0, "online": True}
                    for t in (1, 2)
                ],
                "standings": [],
                "published": {"round": 0, "provisional": [], "released_by": None, "rows": []},
            }
        },
        "held": [],
        "td_calls": [],
        "penalties": [],
        # round 1 was ended by the director with two boards unplayed
        "not_played": [
            {"section": "A", "table": 2, "round": 1, "board": 1, "ns_pair": 2, "ew_pair": 5},
            {"section": "A", "table": 4, "round": 1, "board": 2, "ns_pair": 4, "ew_pair": 7},
        ],
    },
}

Answer = Callable[[dict[str, Any]], dict[str, Any]]


def scripted(answer: Answer) -> tuple[Any, Any, list[dict[str, Any]]]:
    """A feed (the snapshot, then the replies) and a send that answers each command."""
    replies: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    sent: list[dict[str, Any]] = []

    async def send(cmd: dict[str, Any]) -> None:
        sent.append(cmd)
        await replies.put({"type": "reply", "id": cmd["id"], **answer(cmd)})

    async def source() -> Any:
        yield copy.deepcopy(DESK_SNAPSHOT)
        while True:
            yield await replies.get()

    return source, send, sent


# a 4-table Mitchell: NS 1-4 are pairs 1-4, EW 1-4 pairs 5-8 (hub.event.pair_labels)
PAIRS = {
    str(p): {
        "label": f"{'NS' if p <= 4 else 'EW'} {p if p <= 4 else p - 4}",
        "direction": "NS" if p <= 4 else "EW",
        "names": "Anna Berg & Bo Ek" if p == 2 else "",
    }
    for p in range(1, 9)
}


def pairs_answer(cmd: dict[str, Any]) -> dict[str, Any]:
    """The hub's answer to a pair command: a late pair refused (no sit-out to take), the
    rest done."""
    args = cmd["args"]
    if cmd["name"] == "add_pair":
        return {
            "ok": False,
            "error": "section A has no sit-out from round 2: change the movement first",
        }
    if cmd["name"] in ("edit_pair", "substitute"):
        players = args.get("players") or [
            {"name": "Anna Berg", "number": "101"},
            {"name": args["name"], "number": args.get("number", "")},
        ]
        return {"ok": True, "pair": args["pair"], "players": players}
    if cmd["name"] == "change_movement":
        return {"ok": True, "rounds": 7, "tables": 4}
    return {"ok": True, "pair": args.get("pair"), "from_round": args.get("from_round")}


def with_pairs() -> tuple[Any, Any, list[dict[str, Any]]]:
    """The scripted hub, its snapshot with the section's pairs directory."""
    source, send, sent = scripted(pairs_answer)
    snapshot = copy.deepcopy(DESK_SNAPSHOT)
    snapshot["state"]["sections"]["A"]["pairs"] = PAIRS

    async def feed() -> Any:
        first = True
        async for msg in source():
            yield snapshot if first else msg
            first = False

    return feed, send, sent
