"""Issue [KNOCKOUT], acceptance: seed 003's knockout end to end in the simulator, with a
terminal in both rooms of every match (real ptys, one virtual base station), the hub with
its API, and the director publishing every round through the API as a console does.

21 teams (seed 003 §9.2: 17-32 teams play the bracket of 32), matches of 2 × 16 boards, the
final 3 × 16 (§12.1), IMPs never turned into VPs (§12.3), a level match playing another 4
boards (§12.5), the semi-final losers playing for third (§13.2), a team that does not come
losing (§15.2), prizes for the first four (§5.1).

Seeding worked by hand (§10-11). A team's Elo is the mean of its players' known Elo,
rounded half up (§10.1), 500 when none is known (§10.2):

    team  7: 2100 2050 2000 1950 → 8100/4 = 2025      seed 1
    team 14: 2001 2000 (others unknown) → 2000.5 → 2001 seed 2
    team  2: 2000 2000 2000 (one unknown) → 2000      seed 3
    team 19: 1990 1989 → 1989.5 → 1990                seed 4
    team 10: 1980 1979 1979 1979 → 1979.25 → 1979     seed 5
    team  1: 1950 × 4 → 1950                          seed 6
    team 21: 1900 1800 → 1850                         seed 7
    team  5: 1849 1848 → 1848.5 → 1849                seed 8
    team  8: 1848 × 4 → 1848: the 9th best, not seeded (32/4 = 8 seeded, §11.1)
    team 20: no Elo known → 500
    the other teams n: 1400 + 20·n × 4 (1420 … 1760)

Numbers 9-21 go to the other 13 teams by the lot (§11.3) drawn from ``lot_seed`` 3: its
order is taken from ``scoring.knockout.seeding.seed_numbers`` (the rule is checked in
tests/scoring/knockout). Numbers 22-32 are missing (§11.4), so numbers 1-11 have byes
(their opponents 33 − x ≥ 22): 11 byes and 5 first-round matches, in bracket order 16 v 17
(R32-2), 13 v 20 (R32-6), 12 v 21 (R32-8), 15 v 18 (R32-10), 14 v 19 (R32-14), at tables
1-2, 3-4, 5-6, 7-8, 9-10. The R16 is 1 v W(R32-2), 8 v 9, 4 v W(R32-6), 5 v W(R32-8),
2 v W(R32-10), 7 v 10, 3 v W(R32-14), 6 v 11.

What the test makes happen: at tables 1-2 (R32-2) both rooms enter the same results on
boards 1-32, so the match is level 0 : 0 and plays an extra set of 4 boards (33-36) at its
own tables; number 9 does not come to R16-2 (the director's ``ko_walk_over`` while the
R16 is held), so number 8 goes through and the match is never at the tables.

Checked apart from the hub's scoring: every match's winner is the team with more IMPs,
worked here from the stored results of both rooms (endplay's scores, the WBF IMP scale
written out below; no carry-over in seed 003), and the four places follow from them. Live:
the director's feed had each match's running IMPs rise board by board; a second client's
snapshot has the final places; the console, the result screen and the web page draw them."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import pytest
from club_evening import PIN, Director, wait_snapshot
from endplay.types import Contract, Denom, Penalty, Player, Vul
from hub_stub import wait_until

from hub.console.bracket import bracket_lines as console_lines
from hub.event.movement.model import Movement
from hub.live.service.hub_service import HubService
from hub.report.bracket_picture import bracket_svg
from hub.report.words import words
from hub.result_screen.bracket_text import bracket_lines as screen_lines
from hub.store.store import Store
from hub.store.values import StoredResult
from hub.web_results.bracket_page import bracket_html
from scoring.knockout.seeding import seed_numbers, team_elo
from simulator.bots import Entry, PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

pytestmark = pytest.mark.slow

LOT_SEED = 3
TABLES = 16  # the busiest round played: the R16's 8 matches (7 after the walk-over)
NAMES = (
    "Praha", "Brno", "Ostrava", "Plzen", "Liberec", "Olomouc", "Nachod", "Zlin", "Kladno",
    "Most", "Opava", "Jihlava", "Teplice", "Decin", "Chomutov", "Prerov", "Jablonec", "Pisek",
    "Tabor", "Cheb", "Trutnov",
)  # fmt: skip
PLAYERS: dict[int, list[int | None]] = {n: [1400 + 20 * n] * 4 for n in range(1, 22)}
PLAYERS |= {
    7: [2100, 2050, 2000, 1950], 14: [2001, 2000, None, None], 2: [2000, 2000, 2000, None],
    19: [1990, 1989, None, None], 10: [1980, 1979, 1979, 1979], 1: [1950, 1950, 1950, 1950],
    21: [1900, 1800, None, None], 5: [1849, 1848, None, None], 8: [1848, 1848, 1848, 1848],
    20: [None, None, None, None],
}  # fmt: skip
# the docstring's hand working
TEAM_ELO = {7: 2025, 14: 2001, 2: 2000, 19: 1990, 10: 1979, 1: 1950, 21: 1850, 5: 1849, 8: 1848}
TEAM_ELO |= {n: 1400 + 20 * n for n in (3, 4, 6, 9, 11, 12, 13, 15, 16, 17, 18)} | {20: 500}
SEEDED = ("7", "14", "2", "19", "10", "1", "21", "5")
LEVEL_BOARDS = range(1, 33)  # R32-2's two segments, pushed board by board
# WBF IMP scale: the lower bound of each IMP step, 20 ... 4000 points
IMP_STEPS = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300,
             1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000)  # fmt: skip


def event_text() -> str:
    teams = []
    for n in range(1, 22):
        players = ", ".join(
            f'{{ name = "{NAMES[n - 1]} {i}"' + ("" if elo is None else f", elo = {elo}") + " }"
            for i, elo in enumerate(PLAYERS[n], start=1)
        )
        teams.append(
            f'[[sessions.sections.teams]]\nnumber = {n}\nname = "{NAMES[n - 1]}"\n'
            f"players = [{players}]\n"
        )
    return f"""schema_version = 1
[event]
name = "Bridge Open K.O."
[rules]
scoring = "teams"
lot_seed = {LOT_SEED}
[[sessions]]
name = "K.O."
[[sessions.sections]]
letter = "A"
movement = {{ knockout = "single_elimination", teams = 21, seeding = "elo", segments = 2, \
boards_per_segment = 16, final_segments = 3, extra_set_boards = 4, publish = "director" }}
{"".join(teams)}"""


@dataclass
class MirrorBot(PlayerBot):
    """Players whose result on a ``mirrored`` board is the board's alone (the same
    contract, declarer and tricks at every table with such a bot), so the two rooms of a
    match push it; on other boards they play as ``PlayerBot`` does."""

    mirrored: range = field(default_factory=lambda: range(0))

    def play(self, board: int) -> Entry:
        if board in self.mirrored:
            return PlayerBot(seed=board * 7907).play(board)
        return super().play(board)


def endplay_ns_score(x: StoredResult) -> int:
    """The NS score of a played contract, worked by endplay (not the hub's scoring)."""
    contract, declarer, tricks, board = x.contract or "", x.declarer, x.tricks, x.board
    if contract.upper() in ("PASS", "P", "AP"):
        return 0
    assert declarer and tricks is not None, x
    doubled = len(contract) - len(contract.rstrip("Xx"))
    level, denom = int(contract[0]), contract[1:].rstrip("Xx")
    played = Contract(
        level=level,
        denom=Denom.find(denom),
        declarer=Player.find(declarer),
        penalty=(Penalty.passed, Penalty.doubled, Penalty.redoubled)[doubled],
        result=tricks - 6 - level,
    )
    score = played.score(Vul.from_board(board))
    return score if declarer in "NS" else -score


def wbf_imps(diff: int) -> int:
    return (1 if diff > 0 else -1) * sum(abs(diff) >= step for step in IMP_STEPS)


@dataclass
class Worked:
    """A match as worked here: its teams (home first), each movement round's IMPs."""

    home: int
    away: int
    rounds: dict[int, tuple[int, int]]

    @property
    def totals(self) -> tuple[int, int]:
        return sum(h for h, _ in self.rounds.values()), sum(a for _, a in self.rounds.values())

    @property
    def winner(self) -> int:
        home, away = self.totals
        assert home != away, f"{self.home} v {self.away} ended level {home} : {away}"
        return self.home if home > away else self.away

    @property
    def loser(self) -> int:
        return self.away if self.winner == self.home else self.home


def worked_matches(movement: Movement, results: list[StoredResult]) -> dict[str, Worked]:
    """Every match played at the tables, its IMPs from both rooms' stored results: the
    open room's NS is the home team (§12.2), so a board's IMPs go to home when the open
    room's NS score beats the closed room's."""
    plan = movement.layout.knockout
    assert plan is not None
    score = {(x.table, x.round, x.board): endplay_ns_score(x) for x in results}
    out = {}
    for k, pair, name in plan.matches:
        open_t, closed_t = movement.layout.matches[pair]
        worked: Worked | None = None
        for rnd in (r for r, e in enumerate(plan.event_rounds, start=1) if e == k):
            row, other = movement.row("A", open_t, rnd), movement.row("A", closed_t, rnd)
            assert row is not None and other is not None
            if not row.ns_pair:
                continue  # a shorter match sits out the round's last segments
            assert (other.ns_pair, other.ew_pair) == (row.ew_pair, row.ns_pair), other
            assert other.boards == row.boards, other
            worked = worked or Worked(row.ns_pair, row.ew_pair, {})
            diffs = (score[(open_t, rnd, b)] - score[(closed_t, rnd, b)] for b in row.boards)
            imps = [wbf_imps(d) for d in diffs]
            worked.rounds[rnd] = (sum(i for i in imps if i > 0), -sum(i for i in imps if i < 0))
        assert worked is not None, name
        out[name] = worked
    return out


async def proposed(td: Director, name: str, timeout: float) -> dict[str, Any]:
    """The director's ``ko_show`` once round ``name`` is held for publishing."""
    shown: dict[str, Any] = {}
    for _ in range(int(timeout / 0.2)):
        shown = await td.command("ko_show", section="A")
        if shown.get("ok") and (shown.get("proposal") or {}).get("round") == name:
            return shown
        await asyncio.sleep(0.2)
    states = {m["match"]: (m["state"], m["totals"]) for m in shown.get("matches", [])}
    raise AssertionError(f"{name} was not proposed in {timeout} s: {states}")


def bracket_of(event: dict[str, Any]) -> dict[str, Any]:
    """The bracket a ``knockout`` feed event carries: the view without the feed's keys."""
    return {k: v for k, v in event.items() if k not in ("type", "seq", "event")}


def finished(snapshot: dict[str, Any]) -> bool:
    return bool((snapshot["sections"]["A"].get("knockout") or {}).get("finished"))


def by_name(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {m["match"]: m for m in view["matches"]}


def test_seed003_knockout_of_21_teams_runs_to_its_four_places(tmp_path):
    ratings = {str(n): team_elo(elos) for n, elos in PLAYERS.items()}
    assert ratings == {str(n): elo for n, elo in TEAM_ELO.items()}
    numbered = seed_numbers(ratings, 32, LOT_SEED)
    assert numbered[:8] == SEEDED and sorted(numbered, key=int) == [str(n) for n in range(1, 22)]
    team = {x: int(t) for x, t in enumerate(numbered, start=1)}  # starting number → team

    store = Store.open(f"sqlite:///{tmp_path / 'ko.db'}")
    eid = store.create_event(event_text())
    start = store.movement(eid, "A")
    assert start.layout.knockout and start.layout.knockout.entries == tuple(team.values())
    first = [(r.table, r.ns_pair, r.ew_pair) for r in start.round_rows(1, "A") if r.ns_pair]
    assert first == [
        (1, team[16], team[17]), (2, team[17], team[16]), (3, team[13], team[20]),
        (4, team[20], team[13]), (5, team[12], team[21]), (6, team[21], team[12]),
        (7, team[15], team[18]), (8, team[18], team[15]), (9, team[14], team[19]),
        (10, team[19], team[14]),
    ]  # fmt: skip

    line = PtyLine(tmp_path / "base-1")
    station = VirtualBaseStation(line, serial="BS-1")
    for t in range(1, TABLES + 1):
        bot = MirrorBot(seed=t, mirrored=LEVEL_BOARDS) if t <= 2 else PlayerBot(seed=t)
        station.add_terminal(VirtualTerminal(t, f"BM-{t:02d}", "A", t, bot, speed=50_000))
    hub = HubService(store, eid, [str(line.path)], api=("127.0.0.1", 0), td_pin=PIN)

    async def scenario() -> dict[str, Any]:
        await hub.start()
        url = f"ws://127.0.0.1:{hub.api.port}/v1"
        td = Director(url)
        td.start()
        try:
            station.start()
            shown = await td.command("ko_show", section="A")
            r32 = [m for m in shown["matches"] if m["round"] == "R32"]
            assert len(r32) == 16 and sum(m["bye"] for m in r32) == 11, shown
            playing = [m["match"] for m in r32 if m["state"] == "playing"]
            assert playing == ["R32-2", "R32-6", "R32-8", "R32-10", "R32-14"], shown
            held = await proposed(td, "R16", 240)
            level = by_name(held)["R32-2"]
            assert level["decided_by"] == "extra_set" and level["segments"][:2] == [
                {"segment": 1, "home": "0", "away": "0"},
                {"segment": 2, "home": "0", "away": "0"},
            ], level
            # §15: number 9 does not come to R16-2 (8 v 9); the round is drawn again
            gone = await td.command("ko_walk_over", section="A", team=team[9])
            assert gone["ok"], gone
            walked = by_name(gone)["R16-2"]
            assert walked["walk_over"] and walked["state"] == "decided", walked
            assert walked["teams"][walked["winner"]]["team"] == team[8], walked
            again = gone["proposal"]
            assert again["round"] == "R16" and len(again["matches"]) == 7, again
            assert "R16-2" not in [m["match"] for m in again["matches"]], again
            assert [m["tables"] for m in again["matches"]] == [
                [2 * i + 1, 2 * i + 2] for i in range(7)
            ]
            for rnd in ("R16", "QF", "SF", "F"):
                if rnd != "R16":
                    await proposed(td, rnd, 240)
                published = await td.command("ko_publish", section="A", round=rnd)
                assert published["ok"], published
            await wait_until(hub.session_done.is_set, 240, "the knockout to be decided")
            final = await td.command("ko_show", section="A")
            # a second client joining now: the snapshot has the bracket with its places
            snap = await wait_snapshot(url, finished, 60, "a snapshot of the decided bracket")
            return {
                "held": held["proposal"], "final": final,
                "snapshot": snap["sections"]["A"]["knockout"],
                "events": td.events("knockout"), "complete": td.events("session_complete"),
            }  # fmt: skip
        finally:
            await td.stop()
            await station.stop()
            await hub.stop()

    seen = asyncio.run(scenario())
    movement = store.movement(eid, "A")
    results = store.live_results(eid, "A")
    store.close()
    line.close()

    plan = movement.layout.knockout
    assert plan is not None
    # R32 2 segments and the extra set, R16, QF, SF 2 segments each, the final round 3
    assert plan.event_rounds == (1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 5)
    extra = [(r.table, r.boards) for r in movement.round_rows(3, "A") if r.ns_pair]
    assert extra == [(1, (33, 34, 35, 36)), (2, (33, 34, 35, 36))], "the extra set: 4 boards"
    assert "R16-2" not in [name for _, _, name in plan.matches], "a walk-over is not played"
    assert all(team[9] not in (r.ns_pair, r.ew_pair) for r in movement.rows)

    worked = worked_matches(movement, results)
    assert len(worked) == 5 + 7 + 4 + 2 + 2
    r32_2 = worked["R32-2"]
    assert (r32_2.rounds[1], r32_2.rounds[2]) == ((0, 0), (0, 0)), "32 boards pushed"
    assert set(r32_2.rounds) == {1, 2, 3} and r32_2.rounds[3][0] != r32_2.rounds[3][1]
    for name, w in worked.items():
        if name != "R32-2":  # one tie only: every other match decided on its IMPs
            assert len(w.rounds) == (3 if name == "F" else 2), (name, w)

    final, snapshot = seen["final"], seen["snapshot"]
    r16 = [(m["home"]["team"], m["away"]["team"]) for m in seen["held"]["matches"]]
    assert r16 == [
        (team[1], worked["R32-2"].winner), (team[8], team[9]), (team[4], worked["R32-6"].winner),
        (team[5], worked["R32-8"].winner), (team[2], worked["R32-10"].winner),
        (team[7], team[10]), (team[3], worked["R32-14"].winner), (team[6], team[11]),
    ], "the R16 as the docstring works it"  # fmt: skip
    assert final["finished"] and seen["complete"], "the section ends with the bracket"
    shown = by_name(final)
    for name, w in worked.items():
        m = shown[name]
        assert [t["team"] for t in m["teams"]] == [w.home, w.away], name
        assert m["totals"] == [str(x) for x in w.totals], (name, m["totals"], w.totals)
        assert m["teams"][m["winner"]]["team"] == w.winner, (name, m)
        assert m["decided_by"] == ("extra_set" if name == "R32-2" else "imps"), (name, m)
    assert shown["R16-2"]["decided_by"] == "walk_over"
    assert {worked["3rd"].home, worked["3rd"].away} == {worked["SF-1"].loser, worked["SF-2"].loser}
    assert {worked["F"].home, worked["F"].away} == {worked["SF-1"].winner, worked["SF-2"].winner}

    f, third = worked["F"], worked["3rd"]
    four = [(f.winner, "1"), (f.loser, "2"), (third.winner, "3"), (third.loser, "4")]
    places = [(p["team"], p["place"]) for p in final["places"]]
    assert places[:4] == four
    assert sorted(t for t, _ in places) == list(range(1, 22)), "every team placed once"
    quarter_losers = {worked[f"QF-{i}"].loser for i in range(1, 5)}
    assert {t for t, p in places if p == "5-8"} == quarter_losers
    r16_losers = {worked[f"R16-{i}"].loser for i in (1, 3, 4, 5, 6, 7, 8)} | {team[9]}
    assert {t for t, p in places if p == "9-16"} == r16_losers
    r32_losers = {worked[f"R32-{i}"].loser for i in (2, 6, 8, 10, 14)}
    assert {t for t, p in places if p == "17-21"} == r32_losers, "5 losers: 17-21 (§11.4)"
    assert snapshot["places"] == final["places"] and snapshot["finished"]

    # live scores: the director's feed had the bracket after every result, each match's
    # running IMPs only rising as its boards came in, ending at the totals worked here
    events = seen["events"]
    views = [by_name(e) for e in events]
    for name, w in worked.items():
        running = [tuple(map(int, v[name]["totals"])) for v in views if v[name]["totals"]]
        assert running[-1] == w.totals, (name, running[-3:])
        assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in pairwise(running)), (name, running)
    live_final = {tuple(v["F"]["totals"]) for v in views if v["F"]["state"] == "playing"}
    assert len(live_final) > 10, f"the final's score shown live, board by board: {live_final}"

    # on the console, the screen and the web page: the last bracket the feed sent, drawn
    last = bracket_of(events[-1])
    drawn = {
        "console": "\n".join(console_lines(last)),
        "screen": "\n".join(screen_lines(last)),
        "picture": bracket_svg(last),
        "web page": str(bracket_html(last, words("en"))),
    }
    for where, text in drawn.items():
        for t, _ in four:
            assert NAMES[t - 1] in text, f"{NAMES[t - 1]} not on the {where}"
    assert "Final places" in drawn["console"]
