"""Review R2 of the live views (issue 13 [EVENING]).

- "Mitchell numbering as TDs write it … on the screen": the standings a round's publication
  sends on the feed carry each pair's ``label`` ("EW 1") as the snapshot's rows do; before,
  a two-winner field's published rows had ``label`` None (EW 1 is pair 4 inside the hub).
- "one bad stored line can never take down a board's scoring" (TD trial F2), for teams too:
  a stored line scoring cannot read leaves its match scored without it and the director
  told once; before, it raised out of the teams view for the whole section.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from hub.live.views import LiveViews
from hub.live.views.published import standings_after
from hub.store.store import LiveLine, ResultEntry, Store

ODD_NIGHT = Path(__file__).parents[2] / "data" / "report_sit_out_mitchell.toml"

TEAMS_EVENT = """schema_version = 1
[event]
name = "Four teams"
[rules]
scoring = "teams"
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


def test_published_standings_rows_carry_the_rooms_mitchell_labels(tmp_path):
    """tests/data/report_sit_out_mitchell.toml: a 3-table Mitchell of 5 pairs, NS 1-3 are
    the hub's 1-3 and EW 1-2 its 4-5 (T = 3: EW n is 3 + n). Round 1 (seating worked in
    tests/report/test_report_sit_out.py): T1 NS1 v EW1 board 1, T2 NS2 v EW2 board 2."""
    store = Store.open(f"sqlite:///{tmp_path / 'odd.db'}")
    eid = store.create_event(ODD_NIGHT.read_text("utf-8"))
    store.record(
        eid,
        [
            ResultEntry("A", 1, 1, 1, 1, 4, "4S", "N", tricks=10),
            ResultEntry("A", 2, 1, 2, 2, 5, "3NT", "N", tricks=9),
        ],
    )
    rows = standings_after(
        store.event(eid), "A", store.movement(eid, "A"), store.live_lines(eid), 1, {}
    )
    assert {r["pair"]: r["label"] for r in rows} == {
        1: "NS 1",
        2: "NS 2",
        4: "EW 1",
        5: "EW 2",
    }
    assert [r["direction"] for r in rows] == ["NS", "NS", "EW", "EW"]  # the NS field first
    store.close()


def test_an_unreadable_teams_line_leaves_its_match_scored_without_it(tmp_path):
    """Round 1, match 1 v 4 (table 1 open: team 1 NS; table 2 closed: team 4 NS). Board 1:
    the open room +420, the closed room's stored line has 4S by N with no tricks (an older
    store's row: scoring cannot read it). Board 2: NS +100 in both rooms (team 4 NS in the
    closed room), 0 IMPs. So the match is board 2 alone, a 0-IMP draw; the director is told
    once which line was left out."""
    store = Store.open(f"sqlite:///{tmp_path / 'teams.db'}")
    eid = store.create_event(TEAMS_EVENT)
    told: list[str] = []
    views = LiveViews(
        store.event(eid),
        {"A": store.movement(eid, "A")},
        {"A": {}},
        lambda text, **where: told.append(text),
    )

    def line(table, board, ns, ew, contract=None, declarer=None, tricks=None, score=None):
        return LiveLine("A", table, 1, board, ns, ew, contract, declarer, tricks, score, None)

    views.result_stored(line(1, 1, 1, 4, "4S", "N", 10))
    views.result_stored(line(2, 1, 4, 1, "4S", "N", None))  # unreadable
    views.result_stored(line(1, 2, 1, 4, score=100))
    views.result_stored(line(2, 2, 4, 1, score=100))
    rows = {r["team"]: r for r in views.rows("A")}
    assert set(rows) == {1, 4}
    assert (rows[1]["boards"], Fraction(rows[1]["imps"])) == (1, 0)
    assert (rows[4]["boards"], Fraction(rows[4]["imps"])) == (1, 0)
    view = views.traveller("A", 1, 2, 1)  # the bad line's own traveller does not raise
    assert view is not None and view.own_score_ns == 0
    views.reload_board("A", 1, [line(2, 1, 4, 1, "4S", "N", None)])
    assert len(told) == 1, told
    assert "table A2 round 1 board 1" in told[0] and "tricks" in told[0]
    store.close()
