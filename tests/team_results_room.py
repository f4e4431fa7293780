"""A small finished team evening for the team results out of the room (issue [MENDS] #25),
every value worked by hand here, never copied from our own output.

Five teams, two rounds of two boards, a bye each round (``[rules.teams.bye]`` fixed 12 VP).
Each match is two tables: the home team NS at the first, EW at the second.

- Round 1, boards 1-2: 1 Hawks v 2 Foxes at tables 1/2, 3 Eagles v 4 Bears at 3/4, 5 Aces bye.
  - Board 1 (none vul): T1 4S N = +420, T2 3S N +1 +170: Hawks +250 = 6 IMPs (220-260).
    T3 1NT N +1 +120, T4 the same: a push.
  - Board 2 (NS vul): T1 3NT N -1 -100, T2 3NT N = +600: Foxes +700 = 12 IMPs (600-740).
    T3 4H S = +620, T4 4H S -1 -100: Eagles +720 = 12 IMPs.
- Round 2, boards 3-4: 5 Aces v 1 Hawks at 1/2, 2 Foxes v 3 Eagles at 3/4, 4 Bears bye.
  - Board 3 (EW vul): T1 2S N = +110, T2 the same: a push. T3 4H E = -620, T4 4H E -1
    +100: Eagles +720 = 12 IMPs.
  - Board 4 (all vul): T1 3NT N +1 +630, T2 3NT N = +600: Aces +30 = 1 IMP (20-40).
    T3 6NT N = +1440, T4 the same: a push.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from hub.store.store import ResultEntry, Store

NAMES = {1: "Hawks", 2: "Foxes", 3: "Eagles", 4: "Bears", 5: "Aces"}
PLAYERS = {1: ("Ann Holm", "Bo Ek", "Cia Lund", "Dan Berg")}
MOVEMENT = """\
# kind: teams
# winners: 1
# copies: 2
# matches: 1+2, 3+4
section,table,round,ns_pair,ew_pair,low_board,high_board
A,1,1,1,2,1,2
A,2,1,2,1,1,2
A,3,1,3,4,1,2
A,4,1,4,3,1,2
A,1,2,5,1,3,4
A,2,2,1,5,3,4
A,3,2,2,3,3,4
A,4,2,3,2,3,4
"""

# The WBF IMP scale (Law 78B): the lowest difference of each IMP from 1 up.
IMP_STEPS = [
    20,
    50,
    90,
    130,
    170,
    220,
    270,
    320,
    370,
    430,
    500,
    600,
    750,
    900,
    1100,
    1300,
    1500,
    1750,
    2000,
    2250,
    2500,
    3000,
    3500,
    4000,
]


def wbf_imps(difference: int) -> int:
    """IMPs by the WBF table (differences here are multiples of 10)."""
    return math.copysign(sum(1 for s in IMP_STEPS if abs(difference) >= s), difference).__int__()


def wbf_vp(margin: int, boards: int) -> tuple[Decimal, Decimal]:
    """The WBF continuous 20-VP scale: the winner's 10 + 10·(1 − τ^(3M/X))/(1 − τ³), with
    τ = (√5 − 1)/2 and X = 15·√N, capped at 20, to two decimals; the loser 20 less that."""
    tau = (math.sqrt(5) - 1) / 2
    x = 15 * math.sqrt(boards)
    win = min(20.0, 10 + 10 * (1 - tau ** (3 * abs(margin) / x)) / (1 - tau**3))
    w = Decimal(repr(win)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return (w, 20 - w) if margin >= 0 else (20 - w, w)


def event_text() -> str:
    teams = ""
    for n, name in NAMES.items():
        teams += f'[[sessions.sections.teams]]\nnumber = {n}\nname = "{name}"\n'
        for p in PLAYERS.get(n, ()):
            teams += f'[[sessions.sections.teams.players]]\nname = "{p}"\n'
    return f"""schema_version = 1
[event]
name = "Thursday teams"
[rules]
scoring = "teams"
vp_scale = "wbf_continuous_20"
[rules.teams.bye]
rule = "fixed"
vp = "12"
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = "teams_5t.csv"
{teams}"""


def results() -> list[ResultEntry]:
    e = ResultEntry
    return [
        e("A", 1, 1, 1, 1, 2, "4S", "N", tricks=10),
        e("A", 2, 1, 1, 2, 1, "3S", "N", tricks=10),
        e("A", 1, 1, 2, 1, 2, "3NT", "N", tricks=8),
        e("A", 2, 1, 2, 2, 1, "3NT", "N", tricks=9),
        e("A", 3, 1, 1, 3, 4, "1NT", "N", tricks=8),
        e("A", 4, 1, 1, 4, 3, "1NT", "N", tricks=8),
        e("A", 3, 1, 2, 3, 4, "4H", "S", tricks=10),
        e("A", 4, 1, 2, 4, 3, "4H", "S", tricks=9),
        e("A", 1, 2, 3, 5, 1, "2S", "N", tricks=8),
        e("A", 2, 2, 3, 1, 5, "2S", "N", tricks=8),
        e("A", 1, 2, 4, 5, 1, "3NT", "N", tricks=10),
        e("A", 2, 2, 4, 1, 5, "3NT", "N", tricks=9),
        e("A", 3, 2, 3, 2, 3, "4H", "E", tricks=10),
        e("A", 4, 2, 3, 3, 2, "4H", "E", tricks=9),
        e("A", 3, 2, 4, 2, 3, "6NT", "N", tricks=12),
        e("A", 4, 2, 4, 3, 2, "6NT", "N", tricks=12),
    ]


def team_evening(folder: Path, *, played: int | None = None) -> tuple[str, int]:
    """The event in a SQLite store in ``folder`` with its results (the first ``played``
    of them, else all); the store's URL and the event's id."""
    (folder / "teams_5t.csv").write_text(MOVEMENT, encoding="utf-8")
    toml = folder / "teams.toml"
    toml.write_text(event_text(), encoding="utf-8")
    url = f"sqlite:///{folder / 'teams.db'}"
    store = Store.open(url)
    eid = store.create_event(toml.read_text("utf-8"), base_dir=folder)
    store.record(eid, results()[:played] if played is not None else results())
    return url, eid
