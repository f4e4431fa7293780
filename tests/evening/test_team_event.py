"""[HOUSE] acceptance: a team event played end to end through the real ``bridgehub run``.

Four teams, two rounds of three boards: the first two rounds of the Berger round robin
that ``bridgehub movement teams --teams 4 --boards-per-round 3 --csv`` prints (a complete
round robin of 4 teams has 3 rounds; the event plays 2 of them, so each team meets two of
its three rivals). Each match is two tables: open room home team NS, closed room home team
EW (``hub/event/movement/teams.py``). ``bridgehub simulate`` seats a terminal at every
table of both rooms; ``bridgehub run`` takes them to the end and serves its API.

Checked against references computed here from the stored results alone: board scores by
Law 77 and board IMPs by the WBF IMP scale (``scoring`` helpers), match VPs on the WBF
continuous 20-VP scale read from the Danish federation's official table (the independent
column of ``tests/data/wbf_vp_continuous_oracle.csv``, N ≤ 10; decisions D5), totals
exact (D4), places shared on exact ties (no tie-break chain in this event). The hub must
publish VP standings after each round (D12) on its feed, show them live in its snapshot,
agree with the batch rebuild from the store, and the TD console and the result screen, as
clients of the feed (D1), must show them.
"""

from __future__ import annotations

import asyncio
import csv
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hub_stub import wait_until
from oracle import DATA
from textual.widgets import DataTable, Static

from hub.api.client import websocket_source
from hub.console.app import ConsoleApp
from hub.result_screen.app import ScreenApp
from hub.standings.rebuild import rebuild
from hub.store.store import LiveLine, Store
from scoring.board import board_vulnerability
from scoring.contract import Play, Seat, parse_contract
from scoring.imps import imps
from scoring.law77 import score_ns

# Every test reads the one event the fixture `played` plays: all on one xdist worker, played once.
pytestmark = [pytest.mark.xdist_group("team_event"), pytest.mark.slow]
PIN = "team-event-7513"
BOARDS_PER_ROUND = 3
ROUNDS = 2
NAMES = {1: "Lund", 2: "Berg", 3: "Ek", 4: "Holm"}
# round → matches as (home, away, open table, closed table), from the movement below
SCHEDULE = {1: [(1, 4, 1, 2), (2, 3, 3, 4)], 2: [(1, 2, 1, 2), (4, 3, 3, 4)]}
# Rounds 1 and 2 of `bridgehub movement teams --teams 4 --boards-per-round 3 --csv`
# (Berger tables); its third round (3 v 1, 2 v 4, boards 7-9) is left out.
MOVEMENT = """\
# kind: teams
# winners: 1
# copies: 2
# matches: 1+2, 3+4
section,table,round,ns_pair,ew_pair,low_board,high_board
A,1,1,1,4,1,3
A,2,1,4,1,1,3
A,3,1,2,3,1,3
A,4,1,3,2,1,3
A,1,2,1,2,4,6
A,2,2,2,1,4,6
A,3,2,4,3,4,6
A,4,2,3,4,4,6
"""
TEAMS = "".join(
    f'[[sessions.sections.teams]]\nnumber = {n}\nname = "{name}"\n' for n, name in NAMES.items()
)
EVENT = f"""schema_version = 1
[event]
name = "Club teams"
[rules]
scoring = "teams"
vp_scale = "wbf_continuous_20"
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = "teams_4t_2r.csv"
{TEAMS}"""
# the keys of a teams standings row (hub/live/views/base.py) this test checks
ROW_KEYS = ("team", "pair", "direction", "name", "rank", "matches", "boards", "total", "text")


def _exe() -> str:
    return shutil.which("bridgehub") or str(Path(sys.executable).parent / "bridgehub")


# -- the independent reference -----------------------------------------------------------------
def danish_vp_table(boards: int) -> dict[int, Fraction]:
    """The winner's VPs by IMP margin, from the Danish federation's official WBF table."""
    with open(DATA / "wbf_vp_continuous_oracle.csv", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if int(r["boards"]) == boards]
    assert rows and all(r["official_dk_table"] for r in rows), f"no Danish table for N={boards}"
    return {int(r["imp_margin"]): Fraction(r["official_dk_table"]) for r in rows}


def board_score_ns(line: LiveLine) -> int:
    """Law 77: the NS score of a played board (the simulator's bots enter no adjustments)."""
    assert not line.adjusted, line
    contract = parse_contract(line.contract or "PASS")
    if contract is None:
        return 0  # passed out
    return score_ns(
        Play(contract, Seat.parse(line.declarer or ""), line.tricks),
        board_vulnerability(line.board),
    )


@dataclass
class Team:
    vp: Fraction = Fraction(0)
    imps: int = 0
    matches: int = 0
    boards: int = 0


def reference_standings(lines: list[LiveLine], after_round: int) -> dict[int, dict[str, Any]]:
    """Each team's row after ``after_round``, computed by hand from the stored results: the
    home team's IMPs on a board are those of open NS minus closed NS; a match's VPs are the
    Danish table's at its margin (the blitz beyond the table's last margin), the loser
    getting the rest of 20."""
    at = {(x.table, x.round, x.board): x for x in lines}
    vp_for = danish_vp_table(BOARDS_PER_ROUND)
    teams = {n: Team() for n in NAMES}
    for rnd in range(1, after_round + 1):
        boards = range((rnd - 1) * BOARDS_PER_ROUND + 1, rnd * BOARDS_PER_ROUND + 1)
        for home, away, open_t, closed_t in SCHEDULE[rnd]:
            margin = sum(
                imps(board_score_ns(at[open_t, rnd, b]) - board_score_ns(at[closed_t, rnd, b]))
                for b in boards
            )
            won = vp_for.get(abs(margin), Fraction(20))
            home_vp = won if margin >= 0 else 20 - won
            for team, vp, net in ((home, home_vp, margin), (away, 20 - home_vp, -margin)):
                teams[team].vp += vp
                teams[team].imps += net
                teams[team].matches += 1
                teams[team].boards += BOARDS_PER_ROUND
    rows = {}
    for n, t in teams.items():
        ahead = sum(1 for o in teams.values() if o.vp > t.vp)
        level = sum(1 for o in teams.values() if o.vp == t.vp)
        assert (t.vp * 100).denominator == 1  # the table's VPs have two decimals: exact text
        rows[n] = {
            "team": n,
            "pair": n,
            "direction": None,
            "name": NAMES[n],
            "rank": f"{ahead + 1}{'=' if level > 1 else ''}",
            "matches": t.matches,
            "boards": t.boards,
            "total": str(t.vp),
            "text": f"{Decimal(t.vp.numerator) / Decimal(t.vp.denominator):.2f}",
            "imps": str(t.imps),
        }
    return rows


def by_team(rows: list[dict[str, Any]], keys: tuple[str, ...] = ROW_KEYS) -> dict[int, dict]:
    return {r["team"]: {k: r[k] for k in keys} for r in rows}


# -- the room: simulator and hub as processes --------------------------------------------------
def _lines_of(proc: subprocess.Popen[str]) -> queue.Queue[str]:
    """The process's stdout, line by line, read by a thread so waits stay bounded."""
    out: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            out.put(line)

    threading.Thread(target=pump, daemon=True).start()
    return out


def _line_starting(lines: queue.Queue[str], prefix: str, timeout: float, what: str) -> str:
    end = time.monotonic() + timeout
    while (left := end - time.monotonic()) > 0:
        try:
            line = lines.get(timeout=left)
        except queue.Empty:
            break
        if line.startswith(prefix):
            return line
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


async def _feed_until_final(url: str, timeout: float) -> list[dict[str, Any]]:
    """Every event of the feed from the first (``resume_from`` 0, docs/api.md) until the
    standings of the last round are published."""
    from websockets.asyncio.client import connect

    events: list[dict[str, Any]] = []

    async def follow() -> None:
        async with connect(url) as ws:
            await ws.send(json.dumps({"type": "hello", "version": 1, "resume_from": 0}))
            async for raw in ws:
                msg = json.loads(raw)
                assert msg.get("type") == "event", f"expected every event from the first: {msg}"
                events.append(msg)
                if msg["event"] == "standings" and msg["round"] == ROUNDS:
                    return

    try:
        await asyncio.wait_for(follow(), timeout)
    except TimeoutError:
        seen = [(e["event"], e.get("round")) for e in events if e["event"] != "clock"]
        raise AssertionError(
            f"timed out after {timeout} s waiting for the standings of round {ROUNDS}; "
            f"the feed said: {seen}"
        ) from None
    return events


async def _snapshot(url: str) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    async with connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "version": 1}))
        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
    assert msg["type"] == "snapshot", msg
    return msg["state"]


@dataclass
class PlayedEvent:
    api: str  # ws://127.0.0.1:PORT/v1 of the running hub
    feed: list[dict[str, Any]]  # every feed event up to the last round's standings
    snapshot: dict[str, Any]  # taken after them
    lines: list[LiveLine]  # the live results in the store
    rebuilt: dict[str, Any]  # hub.standings.rebuild.rebuild(store, event)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayedEvent]:
    """The event played to its end; the hub stays up (for the clients) until the module's
    tests are done. The hub's log is in ``hub.log`` beside the event file."""
    tmp = tmp_path_factory.mktemp("teams")
    (tmp / "teams_4t_2r.csv").write_text(MOVEMENT, "utf-8")
    event = tmp / "teams.toml"
    event.write_text(EVENT, "utf-8")
    db = f"sqlite:///{tmp / 'teams.db'}"
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "BRIDGEHUB_TD_PIN": PIN}
    sim_args = ["simulate", "--tables", "4", "--speed", "3000", "--duration", "120"]
    sim = subprocess.Popen(
        [_exe(), *sim_args, "--dir", str(tmp)], stdout=subprocess.PIPE, text=True, env=env
    )
    hub = None
    log_path = tmp / "hub.log"
    try:
        line = _line_starting(_lines_of(sim), "base station", 20, "the simulator's station")
        station = line.rsplit(": ", 1)[1].strip()
        run_args = ["run", "--event", str(event), "--db", db, "--station", station]
        with open(log_path, "w", encoding="utf-8") as log:
            hub = subprocess.Popen(
                [_exe(), *run_args, "--api", "127.0.0.1:0"],
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
                env=env,
            )
        try:
            running = _line_starting(_lines_of(hub), "hub running", 20, "the hub's API line")
            found = re.search(r"API (ws://\S+/v1)", running)
            assert found, running
            api = found.group(1)
            feed = asyncio.run(_feed_until_final(api, 30))
        except AssertionError as e:  # say what the hub logged
            tail = log_path.read_text("utf-8")[-3000:]
            raise AssertionError(f"{e}\nthe hub's log ends:\n{tail}") from None
        snapshot = asyncio.run(_snapshot(api))
        store = Store.open(db, migrate=False)
        try:
            (event_id,) = store.event_ids()
            lines = store.live_lines(event_id)
            rebuilt = rebuild(store, event_id)
        finally:
            store.close()
        yield PlayedEvent(api, feed, snapshot, lines, rebuilt)
    finally:
        for proc in (hub, sim):
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(5)


# -- the tests ---------------------------------------------------------------------------------
def test_both_rooms_of_every_match_played_as_the_movement_seats_them(played):
    """Every board of each match at both its tables, once: open room home team NS, closed
    room home team EW."""
    seats = {(x.table, x.round, x.board): (x.ns_pair, x.ew_pair) for x in played.lines}
    assert len(seats) == len(played.lines) == 4 * ROUNDS * BOARDS_PER_ROUND
    for rnd, matches in SCHEDULE.items():
        for b in range((rnd - 1) * BOARDS_PER_ROUND + 1, rnd * BOARDS_PER_ROUND + 1):
            for home, away, open_t, closed_t in matches:
                assert seats[open_t, rnd, b] == (home, away)
                assert seats[closed_t, rnd, b] == (away, home)


def test_vp_standings_are_published_after_each_round(played):
    """Decisions D12: one ``standings`` event per round, in order, each the VP standings
    after that round (a later round does not leak in), with the rank after the round
    before."""
    published = [e for e in played.feed if e["event"] == "standings"]
    assert [(e["section"], e["round"]) for e in published] == [("A", 1), ("A", 2)]
    after_1 = reference_standings(played.lines, 1)
    for pub in published:
        assert pub["provisional"] == [] and pub["released_by"] is None
        expected = reference_standings(played.lines, pub["round"])
        assert by_team(pub["rows"], (*ROW_KEYS, "imps")) == expected, f"round {pub['round']}"
        before = {r["team"]: r["previous_rank"] for r in pub["rows"]}
        if pub["round"] == 1:
            assert before == dict.fromkeys(NAMES)
        else:
            assert before == {n: after_1[n]["rank"] for n in NAMES}


def test_live_snapshot_carries_team_rows_in_vp(played):
    """The snapshot's live standings are team rows in VP, equal to the reference; its
    ``published`` is the last round's publication."""
    section = played.snapshot["sections"]["A"]
    assert (section["unit"], section["kind"]) == ("VP", "teams")
    final = reference_standings(played.lines, ROUNDS)
    assert by_team(section["standings"], (*ROW_KEYS, "imps")) == final
    assert [Fraction(r["total"]) for r in section["standings"]] == sorted(
        (Fraction(r["total"]) for r in final.values()), reverse=True
    )  # best first
    assert section["published"]["round"] == ROUNDS
    assert by_team(section["published"]["rows"], (*ROW_KEYS, "imps")) == final


def test_final_vp_standings_equal_the_batch_rebuild_and_the_reference(played):
    """The store is the truth: ``rebuild`` from the store gives the same VPs and places as
    the hub published and as the hand reference."""
    final = reference_standings(played.lines, ROUNDS)
    view = played.rebuilt["A"]
    assert len(view.matches) == 2 * ROUNDS
    rebuilt = {
        int(str(t.record.team)): (t.record.vp, t.record.imps_won - t.record.imps_lost, t.rank)
        for t in view.team_standings
    }
    assert rebuilt == {
        n: (Fraction(r["total"]), Fraction(r["imps"]), r["rank"]) for n, r in final.items()
    }
    assert sum(vp for vp, _, _ in rebuilt.values()) == 20 * 2 * ROUNDS  # 20 VPs a match


def test_console_shows_each_teams_vp(played):
    """The TD console, a client of the running hub with the TD PIN, shows the published
    VP standings: each team's place and VP text."""
    final = reference_standings(played.lines, ROUNDS)

    async def scenario() -> dict[int, tuple[str, str]]:
        source, send = websocket_source(played.api, PIN)
        app = ConsoleApp(source, send, refresh_s=0.05)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(
                lambda: (
                    (app.room.sections.get("A", {}).get("published") or {}).get("round") == ROUNDS
                ),
                10,
                f"the standings after round {ROUNDS} on the console",
            )
            await pilot.press("s")
            table = app.query_one("#standings-table", DataTable)
            await wait_until(lambda: table.row_count == len(NAMES), 10, "a row per team")
            note = str(app.query_one("#standings-note", Static).render())
            assert f"A: after round {ROUNDS}" in note, note
            shown = {}
            for i in range(table.row_count):
                sec, rank, team, _, total, *_ = (str(c) for c in table.get_row_at(i))
                assert sec == "A"
                shown[int(team)] = (rank, total)
            await pilot.press("q")
            return shown

    shown = asyncio.run(scenario())
    assert shown == {n: (r["rank"], r["text"]) for n, r in final.items()}


def test_result_screen_shows_the_published_vp_standings(played):
    """The projector screen on the same feed: after the last round, each team's place,
    name and VP text, in a VP column."""
    final = reference_standings(played.lines, ROUNDS)

    async def scenario() -> tuple[str, str, Any]:
        source, _ = websocket_source(played.api, name="screen", retry_s=0.05)
        app = ScreenApp(source, page_s=3600, redraw_s=0.05)
        async with app.run_test(size=(100, 30)) as pilot:
            title = app.query_one("#title", Static)
            await wait_until(
                lambda: f"after round {ROUNDS} of {ROUNDS}" in str(title.render()),
                10,
                f"the standings after round {ROUNDS} on the screen",
            )
            await pilot.pause(0.1)
            shown = app.export_screenshot()
            (section,) = app.sections
            await pilot.press("q")
            return str(title.render()), shown, section

    title, shown, section = asyncio.run(scenario())
    assert "Club teams" in title and "Section A" in title
    assert (section.unit, section.after_round) == ("VP", ROUNDS)
    assert {int(r.entrant): (r.rank, r.names, r.score) for r in section.rows} == {
        n: (r["rank"], r["name"], r["text"]) for n, r in final.items()
    }
    for r in final.values():
        assert r["text"] in shown and r["name"] in shown
    assert "VP" in shown and "Team" in shown
