"""Issue 16: ``bridgehub teams draw --db URL --event ID`` shows, or publishes, the live
event's next draw (decisions D19), worked out from the store as the running hub does.

The worked case (a Gröna Hissen of 4 teams, seed 002's Monrad: 1v2, 3v4 by the standing):
round 1 is team 1 v team 2 and team 3 v team 4 on boards 1-2. Team 1 makes 4S in the open
room and its EW pair makes 4H in the closed room on both boards: a big win (Law 77: 420 +
420 on board 1, 620 + 420 on board 2; 14 and 15 IMPs). Team 3 gains 30 points on board 1
(1NT+1 against 1NT=: 1 IMP) and halves board 2. The standing after round 1 is then 1, 3, 4,
2 on any VP scale, so round 2 is 1 v 3 and 4 v 2 (the higher-ranked team at home). The
event and its round 1: tests/team_events.py ``stored_round_1``."""

from __future__ import annotations

import json

from click.testing import CliRunner
from team_events import stored_round_1

from hub.cli.teams import teams
from hub.store.hub_lock import HubLock
from hub.store.store import ResultEntry, Store


def draw(*args: str):
    return CliRunner().invoke(teams, ["draw", *args])


def test_the_next_draw_of_a_live_event_from_its_store(tmp_path):
    url, eid = stored_round_1(tmp_path)
    result = draw("--db", url, "--event", str(eid), "--json")
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output)
    assert shown["round"] == 2 and shown["repeats"] == 0 and not shown["published"]
    assert [(m["home"]["team"], m["away"]["team"]) for m in shown["matches"]] == [(1, 3), (4, 2)]
    assert [m["tables"] for m in shown["matches"]] == [[1, 2], [3, 4]]
    store = Store.open(url)
    assert store.movement(eid, "A").layout.drawn == 1  # shown, not published
    store.close()


def test_publishing_appends_the_round_audited_when_no_hub_runs_the_event(tmp_path):
    url, eid = stored_round_1(tmp_path)
    result = draw("--db", url, "--event", str(eid), "--publish")
    assert result.exit_code == 0, result.output
    assert "round 2 (monrad) published" in result.output
    store = Store.open(url)
    try:
        movement = store.movement(eid, "A")
        audit = store.audit_log(eid, "draw_published")
    finally:
        store.close()
    assert movement.layout.drawn == 2
    assert [(r.table, r.ns_pair, r.ew_pair) for r in movement.round_rows(2, "A")] == [
        (1, 1, 3), (2, 3, 1), (3, 4, 2), (4, 2, 4)
    ]  # fmt: skip
    assert audit[-1]["detail"]["from_round"] == 2
    assert audit[-1]["detail"]["draw"]["matches"][0]["home"]["team"] == 1


def test_a_draw_waiting_for_its_round_or_a_running_hub_is_refused_saying_why(tmp_path):
    url, eid = stored_round_1(tmp_path)
    store = Store.open(url)
    store.record(eid, [ResultEntry("A", 1, 1, 1, 1, 2, erased=True, entered_by="TD")])
    store.close()
    result = draw("--db", url, "--event", str(eid))
    assert result.exit_code == 1
    assert "round 2 is drawn from the standings after round 1, still in play" in result.output
    (tmp_path / "second").mkdir()
    url, eid = stored_round_1(tmp_path / "second")
    store = Store.open(url)
    lock = HubLock.acquire(store.engine, eid)
    try:
        result = draw("--db", url, "--event", str(eid), "--publish")
    finally:
        lock.release()
        store.close()
    assert result.exit_code == 1
    assert "another hub is already running on this store" in result.output
    assert "publish the draw from its console (D) or its API" in result.output


def test_a_live_draw_takes_no_csv_files():
    result = draw("swiss", "--db", "sqlite:///x.db", "--event", "1")
    assert result.exit_code == 2
    assert "a live event's draw takes --db and --event" in result.output
