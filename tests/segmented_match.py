"""A team match in two segments for the tests (issue 16 [TEAMS] "Segments"): four teams, two
boards a round, each match two movement rounds with the seating switched between them,
scored on an illustrative VP table (not official) whose 2-board and 4-board rows differ,
so scoring each half of a 2 × 2-board match on its own would show.

The worked match (tests/standings/test_team_segments.py): Lions (1) v Foxes (4) at tables 1
(open) and 2 (closed); segment 1 is movement round 1, boards 1-2, Lions NS at table 1;
segment 2 is round 2, boards 3-4, Foxes NS at table 1 and Lions NS at table 2."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hub.live.views import LiveViews
from hub.standings.rebuild import rebuild
from hub.standings.rows import boards_played, names_of, teams_rows
from hub.store.store import ResultEntry, Store

ILLUSTRATIVE = """# illustrative, not official
boards,imps_from,imps_to,winner,loser
1-3,0,0,10,10
1-3,1,,18,2
4-,0,0,10,10
4-,1,5,12,8
4-,6,,15,5
"""

# The worked match's NS scores (table, round, board, score)
PLAYED = [
    (1, 1, 1, 420),  # Lions NS
    (2, 1, 1, -50),  # Foxes NS: Lions +470 on board 1, 10 IMPs
    (1, 1, 2, 600),
    (2, 1, 2, 600),  # a push
    (1, 2, 3, 140),  # Foxes NS
    (2, 2, 3, 110),  # Lions NS: Lions 110 - 140 = -30 on board 3, 1 IMP to Foxes
    (1, 2, 4, -100),
    (2, 2, 4, -100),  # a push
]


def illustrative_scale(folder: Path) -> str:
    """The illustrative VP table written to ``folder``: its path, for ``vp_scale``."""
    path = folder / "illustrative.csv"
    path.write_text(ILLUSTRATIVE)
    return str(path)


def halves_event(scale: str, segments: int = 2, extra: str = "") -> str:
    """Four teams in matches of ``segments`` segments on the VP ``scale``; ``extra`` more
    lines of ``[rules]``."""
    return f"""schema_version = 1
[event]
name = "Four teams in halves"
[rules]
scoring = "teams"
vp_scale = '{scale}'
{extra}
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = {{ kind = "teams", teams = 4, boards_per_round = 2, segments = {segments} }}
teams = [
  {{ number = 1, name = "Lions" }},
  {{ number = 2, name = "Bears" }},
  {{ number = 3, name = "Owls" }},
  {{ number = 4, name = "Foxes" }},
]
"""


def open_store(tmp_path: Path, text: str) -> tuple[Store, int]:
    """A new SQLite store holding the event ``text``, and the event's id."""
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(text)
    return store, eid


def live_views(store: Store, eid: int) -> LiveViews:
    """Section A's live views, empty (as a hub starting on the event builds them)."""
    return LiveViews(
        store.event(eid),
        {"A": store.movement(eid, "A")},
        {"A": names_of(store.contestants(eid, "A"))},
    )


def play(store: Store, eid: int, views: LiveViews, played: list[tuple[int, int, int, int]]) -> None:
    """Each (table, round, board, NS score) stored, then handed to the live views."""
    movement = store.movement(eid, "A")
    for table, rnd, board, score in played:
        row = movement.row("A", table, rnd)
        entry = ResultEntry("A", table, rnd, board, row.ns_pair, row.ew_pair, score_ns=score)
        for stored in store.record(eid, [entry]):
            views.result_stored(stored.line())


def rebuilt_rows(store: Store, eid: int) -> list[dict[str, Any]]:
    """Section A's standings rows from a full rebuild of the store (the batch reference)."""
    view = rebuild(store, eid)["A"]
    names = names_of(store.contestants(eid, "A"))
    return teams_rows(view.team_standings, boards_played(view.matches), names)
