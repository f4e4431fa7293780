"""Team events for the tests (issue 16 [TEAMS]): their event files and the results they
are played with. ``drawn_event``: events drawn while they run (decisions D19), one section
A, two boards a round, the event's lot seed 7; ``stored_round_1``: a Monrad of 4 teams after
its first round; ``TEAMS_EVENT``/``MASTERPOINT_TEAMS``: four named teams; ``danish_vp``: the
official VP table. The two-segment match: tests/segmented_match.py; a running hub with team
tables: tests/team_room.py."""

from __future__ import annotations

import csv
from fractions import Fraction
from pathlib import Path

from hub.store.store import ResultEntry, Store

DATA = Path(__file__).parent / "data"


def drawn_event(
    method: str, teams: int, rounds: int, *lines: str, rules: str = "", name: str = ""
) -> str:
    """A ``method`` draw of ``teams`` teams over ``rounds`` rounds; ``lines`` more movement
    keys (``delayed = true``, ``first_rounds = …``), ``rules`` more lines of ``[rules]``."""
    extra = "\n".join(lines)
    return f"""schema_version = 1
[event]
name = "{name or method + " teams"}"
[rules]
scoring = "teams"
lot_seed = 7
{rules}
[[sessions]]
name = "Day"
[[sessions.sections]]
letter = "A"
[sessions.sections.movement]
kind = "teams"
teams = {teams}
rounds = {rounds}
boards_per_round = 2
draw = "{method}"
{extra}
"""


# -- a Monrad of 4 teams after round 1 (tests/cli/test_team_draw_cli.py's worked case) -----
MONRAD_EVENT = drawn_event("monrad", 4, 3, "first_rounds = [[[1, 2], [3, 4]]]", name="Gröna Hissen")

# (table, board, ns team, ew team, contract, declarer, tricks)
ROUND_1 = [
    (1, 1, 1, 2, "4S", "N", 10),  # team 1 NS: +420
    (2, 1, 2, 1, "4H", "E", 10),  # team 1 EW: +420 to team 1
    (1, 2, 1, 2, "4S", "N", 10),  # NS vulnerable on board 2: +620
    (2, 2, 2, 1, "4H", "E", 10),  # EW not vulnerable: +420 to team 1
    (3, 1, 3, 4, "1NT", "N", 8),  # +120
    (4, 1, 4, 3, "1NT", "N", 7),  # +90 to team 4: team 3 gains 30, 1 IMP
    (3, 2, 3, 4, "2S", "N", 8),
    (4, 2, 4, 3, "2S", "N", 8),
]


def stored_round_1(tmp_path: Path, event: str = MONRAD_EVENT) -> tuple[str, int]:
    """``event`` in a new SQLite store with ``ROUND_1`` entered by the director: team 1
    beats team 2 by 14 + 15 IMPs, team 3 beats team 4 by 1, so the standing after round 1
    is 1, 3, 4, 2 on any VP scale. The store's URL and the event's id."""
    url = f"sqlite:///{tmp_path / 'teams.db'}"
    store = Store.open(url)
    try:
        eid = store.create_event(event)
        store.record(
            eid,
            [
                ResultEntry("A", t, 1, b, ns, ew, contract=c, declarer=d, tricks=k, entered_by="TD")
                for t, b, ns, ew, c, d, k in ROUND_1
            ],
        )
    finally:
        store.close()
    return url, eid


# -- four named teams ---------------------------------------------------------------------
# The teams of a drawn event, with their average masterpoints (a Danish's round 1 is drawn
# by them: 4, 2, 3, 1, so 4 v 2 and 3 v 1).
MASTERPOINT_TEAMS = "\n".join(
    f'[[sessions.sections.teams]]\nnumber = {n}\nname = "{name}"\n'
    f'players = [{{ name = "{name} 1", masterpoints = {mp} }}]'
    for n, name, mp in ((1, "Lions", 10), (2, "Bears", 30), (3, "Owls", 20), (4, "Foxes", 40))
)

# Four teams, a round robin of two boards a round, ties broken by IMP quotient then VPs
# between them (tests/live/views/test_live_views.py's worked evening).
TEAMS_EVENT = """schema_version = 1
[event]
name = "Four teams"
[rules]
scoring = "teams"
tie_breaks = ["imp_quotient", "h2h_vp"]
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = { kind = "teams", teams = 4, boards_per_round = 2 }
teams = [
  { number = 1, name = "Lions" },
  { number = 2, name = "Bears" },
  { number = 3, name = "Owls" },
  { number = 4, name = "Foxes" },
]
"""


def danish_vp(boards: int, margin: int) -> tuple[Fraction, Fraction]:
    """Winner's and loser's VPs from the Danish federation's official WBF table (the two
    sum to 20): an oracle apart from our own VP code."""
    with (DATA / "wbf_vp_continuous_oracle.csv").open() as f:
        for row in csv.DictReader(f):
            if (int(row["boards"]), int(row["imp_margin"])) == (boards, margin):
                win = Fraction(row["official_dk_table"])
                return win, 20 - win
    raise AssertionError(f"no official value for {boards} boards, {margin} IMPs")
