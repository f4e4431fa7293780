"""Four teams as a hub feeds the console's Matches tab in the tests (issue 16 [TEAMS] "Team
matches in the running hub"): the snapshot of round 1 and the feed's events.

Four teams, two boards a round, round 1: Lions (1) v Foxes (4) at tables 1/2 have played
both boards, 470 on board 1 (10 IMPs, Law 78B 430-490) and a push; Bears (2) v Owls (3)
at tables 3/4 have played board 1 in both rooms, 230 to the Bears (6 IMPs, 220-260).
VPs: the official WBF continuous table (tests/data/wbf_vp_continuous_oracle.csv): 10 IMPs
over 2 boards 16.46-3.54; 6 IMPs over 1 board 15.74-4.26.
"""

from __future__ import annotations

from typing import Any

from hub_stub import section_state

TEAMS = {
    str(n): {"label": str(n), "direction": None, "names": name}
    for n, name in ((1, "Lions"), (2, "Bears"), (3, "Owls"), (4, "Foxes"))
}


def seat(table: int, ns: int, ew: int, boards: list[int]) -> dict[str, Any]:
    """Table ``table``'s line in a section's state: its teams, its boards, none done."""
    return {
        "table": table,
        "ns": ns,
        "ew": ew,
        "boards": boards,
        "done": 0,
        "unverified": 0,
        "minutes_behind": 0.0,
        "online": True,
        "battery": None,
        "terminal": "terminal",
    }


def match(number: int, tables: tuple[int, int], home: int, away: int, **rest: Any) -> dict:
    """Round 1's match ``number`` at its open and closed ``tables``, as the feed has it."""
    names = {1: "Lions", 2: "Bears", 3: "Owls", 4: "Foxes"}
    return {
        "match": number,
        "round": 1,
        "open_table": tables[0],
        "closed_table": tables[1],
        "home": home,
        "away": away,
        "home_name": names[home],
        "away_name": names[away],
        "boards": [1, 2],
        **rest,
    }


LIONS = match(1, (1, 2), 1, 4, out=[], scored=2, home_imps="10", away_imps="0")
LIONS |= {"home_vp": "823/50", "away_vp": "177/50"}  # 16.46, 3.54
BEARS = match(2, (3, 4), 2, 3, out=[2], scored=1, home_imps="6", away_imps="0")
BEARS |= {"home_vp": "787/50", "away_vp": "213/50"}  # 15.74, 4.26


def teams_snapshot() -> dict[str, Any]:
    """The hub's snapshot of the four teams in round 1 of 3, both matches under way."""
    section = section_state(
        1,
        3,
        unit="VP",
        kind="teams",
        tables=[
            seat(1, 1, 4, [1, 2]),
            seat(2, 4, 1, [1, 2]),
            seat(3, 2, 3, [1, 2]),
            seat(4, 3, 2, [1, 2]),
        ],
    )
    section |= {"pairs": TEAMS, "matches": [LIONS, BEARS]}
    return {
        "type": "snapshot",
        "seq": 1,
        "state": {"event": "Four teams", "sections": {"A": section}},
    }


def event(seq: int, name: str, **fields: Any) -> dict[str, Any]:
    """The feed's event ``name`` number ``seq`` in section A."""
    return {"type": "event", "seq": seq, "event": name, "section": "A", **fields}
