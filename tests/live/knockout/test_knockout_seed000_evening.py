"""Issue [KNOCKOUT], acceptance: seed 000's double elimination of 16 teams end to end in the
simulator, with a terminal in both rooms of every match (real ptys, one virtual base
station, 16 tables: Match 1 has 8 matches), the hub with its API, and the director
publishing every round through the API as a console does.

Seed 000, Knockout Stage: ranks 1-8 start in the upper bracket, 9-16 in the lower; the
undefeated team "has a bye to the Final with a 6.5 IMP carryover"; in the three-ways "the
team winning both their matches will be declared winner. Otherwise, total VPs will decide
the winner". The bracket (scoring/knockout/templates.py ``double_elimination_16``):

    M1  U1-1 1 v 8, U1-2 4 v 5, U1-3 2 v 7, U1-4 3 v 6 (tables 1-2 ... 7-8);
        L1-1 9 v 16, L1-2 12 v 13, L1-3 10 v 15, L1-4 11 v 14 (tables 9-10 ... 15-16)
    M2  U2-1 W(U1-1) v W(U1-2), U2-2 W(U1-3) v W(U1-4), L2-k L(U1-k) v W(L1-k)
    M3  U3 W(U2-1) v W(U2-2); three-ways L3-1 (L(U2-1), W(L2-3), W(L2-4)) and
        L3-2 (L(U2-2), W(L2-1), W(L2-2))
    M4  three-way L(U3), W(L3-1), W(L3-2)
    F   W(U3) + 13/2 IMPs v W(M4); 3rd: M4's second v its third

Places: 1-2 the final, 3-4 the play-off, 5-8 the three-ways' others in M3, 9-12 the losers
of L2, 13-16 the losers of L1.

Lengths shortened to keep the run short: every match 2 segments of 4 boards (a three-way's
pairing is one set of 4 boards, played in two rooms a round apart: movements.md 5.5), the
final and the play-off 2 × 4: 10 movement rounds, 40 boards at most at a table; the run
takes about 12 s.

What the test makes happen: the players are random bots (``PlayerBot``, by table), except
that from Match 2 on the loser of U1-1 is favoured at every table it plays (``SteeredBot``:
it makes 4♠ when it sits NS, its NS opponents go one down in 4♠ when it sits EW: 470 or 720
points a board, 10 or 12 IMPs): so a team that lost in the upper bracket's first match
wins L2-1, both its matches in L3-2 and in Match 4, and reaches the final; the final and
the play-off are played by the bots alone. The bots' seeds (700 + table) were chosen so
that in L3-1 each team wins one of its two matches: that three-way is decided on VPs.

Checked apart from the hub's scoring, from the stored results of both rooms (endplay's
scores, the WBF IMP scale written out below, VPs by the WBF continuous scale for the
pairing's 4 boards): every two-team match's winner has more IMPs, the final's unbeaten team
with its 13/2 (shown by ``ko_show`` with the final's draw and after; a match level on IMPs
would go by total points, §6-2: none is in this run); every three-way's winner won both
its matches or, with none who did, has the most VPs; the routing and places follow."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise
from typing import Any

import pytest
from club_evening import PIN, Director, wait_snapshot
from endplay.types import Contract, Denom, Penalty, Player, Vul
from hub_stub import wait_until

from drivers.protocol.messages import Seat
from hub.event.movement.model import Movement
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from hub.store.values import StoredResult
from scoring.vp_scale import WBFContinuousScale, match_vps
from simulator.bots import Entry, PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

pytestmark = pytest.mark.slow

TABLES = 16  # Match 1: 8 matches, 2 tables each
BOT_SEED = 700  # table t's bots: seed 700 + t (with it L3-1 is a cycle, decided on VPs)
BOARDS = 4  # a segment, and a three-way's pairing
CARRY = Fraction(13, 2)  # seed 000: "a bye to the Final with a 6.5 IMP carryover"
NAMES = (
    "Yeh", "Taipei", "Kaohsiung", "Taichung", "Tainan", "Hsinchu", "Keelung", "Chiayi",
    "Taoyuan", "Yilan", "Hualien", "Taitung", "Pingtung", "Miaoli", "Nantou", "Penghu",
)  # fmt: skip
# WBF IMP scale: the lower bound of each IMP step, 20 ... 4000 points
IMP_STEPS = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300,
             1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000)  # fmt: skip


def event_text() -> str:
    teams = ", ".join(f'{{ number = {n}, name = "{NAMES[n - 1]}" }}' for n in range(1, 17))
    return f"""schema_version = 1
[event]
name = "Open Teams, Knockout Stage"
[rules]
scoring = "teams"
lot_seed = 24
[[sessions]]
name = "Knockout"
[[sessions.sections]]
letter = "A"
teams = [{teams}]
movement = {{ knockout = "double_elimination", teams = 16, segments = 2, \
boards_per_segment = {BOARDS}, final_segments = 2, sudden_death_boards = 2, \
publish = "director" }}
"""


@dataclass
class SteeredBot(PlayerBot):
    """Players who let a ``favoured`` team (a set shared by every table, changed by the
    test between rounds) win each board against an unfavoured one: NS 4♠ making 10 tricks
    when it sits NS, 9 when it sits EW; otherwise they play as ``PlayerBot`` does."""

    favoured: set[int] = field(default_factory=set)
    terminal: VirtualTerminal | None = None

    def play(self, board: int) -> Entry:
        a = self.terminal.assignment if self.terminal else None
        if a is not None and (a.ns_pair in self.favoured) != (a.ew_pair in self.favoured):
            return Entry(board, "4S", int(Seat.N), "", 10 if a.ns_pair in self.favoured else 9)
        return super().play(board)


def endplay_ns_score(x: StoredResult) -> int:
    """The NS score of a played contract, worked by endplay (not the hub's scoring)."""
    contract, declarer, tricks, board = x.contract or "", x.declarer, x.tricks, x.board
    if contract.upper() in ("PASS", "P", "AP"):
        return 0
    assert declarer and tricks is not None, x
    doubled = len(contract) - len(contract.rstrip("Xx"))
    level, denom = int(contract[0]), contract[1:].rstrip("Xx")
    penalty = (Penalty.passed, Penalty.doubled, Penalty.redoubled)[doubled]
    played = Contract(level=level, denom=Denom.find(denom), declarer=Player.find(declarer),
                      penalty=penalty, result=tricks - 6 - level)  # fmt: skip
    score = played.score(Vul.from_board(board))
    return score if declarer in "NS" else -score


def wbf_imps(diff: int) -> int:
    return (1 if diff > 0 else -1) * sum(abs(diff) >= step for step in IMP_STEPS)


def imps_of(diffs: list[int]) -> tuple[int, int]:
    """(home, away) IMPs of boards whose NS score differences (open − closed) are given."""
    imps = [wbf_imps(d) for d in diffs]
    return sum(i for i in imps if i > 0), -sum(i for i in imps if i < 0)


@dataclass
class Worked:
    """A two-team match as worked here: home first, its carry-over, each round's IMPs,
    and ``points``, the total points home scored more than away (seed 000 §6-2's first
    rule for a match level on IMPs)."""

    home: int
    away: int
    carry: Fraction
    rounds: dict[int, tuple[int, int]]
    points: int = 0

    @property
    def totals(self) -> tuple[Fraction, Fraction]:
        home = sum(h for h, _ in self.rounds.values())
        return self.carry + home, Fraction(sum(a for _, a in self.rounds.values()))

    @property
    def decided_by(self) -> str:
        home, away = self.totals
        assert home != away or self.points, f"{self.home} v {self.away}: level on both"
        return "imps" if home != away else "total_points"

    @property
    def winner(self) -> int:
        home, away = self.totals
        ahead = home > away if self.decided_by == "imps" else self.points > 0
        return self.home if ahead else self.away

    @property
    def loser(self) -> int:
        return self.away if self.winner == self.home else self.home


@dataclass
class WorkedWay:
    """A three-way as worked here: its teams, and each pairing's (home, away, IMPs, VPs)."""

    teams: tuple[int, int, int]
    pairs: list[tuple[int, int, tuple[int, int], tuple[Fraction, Fraction]]]

    def _sides(self, team: int) -> list[tuple[int, int, Fraction]]:
        """(its IMPs, the opponents', its VPs) in each of the team's two matches."""
        at = [(p, (p[0], p[1]).index(team)) for p in self.pairs if team in p[:2]]
        return [(imps[i], imps[1 - i], vps[i]) for (_, _, imps, vps), i in at]

    def vps(self, team: int) -> Fraction:
        return sum((vp for _, _, vp in self._sides(team)), Fraction(0))

    def wins(self, team: int) -> int:
        return sum(own > theirs for own, theirs, _ in self._sides(team))

    @property
    def winner(self) -> int:
        """Seed 000: the team winning both its matches, else the most VPs."""
        both = [t for t in self.teams if self.wins(t) == 2]
        if both:
            return both[0]
        best = sorted(self.teams, key=self.vps, reverse=True)
        assert self.vps(best[0]) != self.vps(best[1]), f"{self.teams}: level on VPs"
        return best[0]


def worked_matches(movement: Movement, score: dict[tuple[int, int, int], int]) -> dict:
    """Every two-team match played, its IMPs from both rooms: the open room's NS is the
    home team, so a board's IMPs go to home when the open room's NS score is the higher.
    The final's home team, the unbeaten one, starts with 13/2 (the docstring)."""
    plan = movement.layout.knockout
    assert plan is not None
    out = {}
    for k, pair, name in plan.matches:
        open_t, closed_t = movement.layout.matches[pair]
        worked: Worked | None = None
        for rnd in (r for r, e in enumerate(plan.event_rounds, start=1) if e == k):
            row, other = movement.row("A", open_t, rnd), movement.row("A", closed_t, rnd)
            assert row is not None and other is not None
            if not row.ns_pair:
                continue  # a match not level sits out the sudden death's round
            assert (other.ns_pair, other.ew_pair) == (row.ew_pair, row.ns_pair), other
            assert other.boards == row.boards, other
            carry = CARRY if name == "F" else Fraction(0)
            worked = worked or Worked(row.ns_pair, row.ew_pair, carry, {})
            diffs = [score[(open_t, rnd, b)] - score[(closed_t, rnd, b)] for b in row.boards]
            worked.rounds[rnd] = imps_of(diffs)
            worked.points += sum(diffs)
        assert worked is not None, name
        out[name] = worked
    return out


def worked_ways(movement: Movement, score: dict[tuple[int, int, int], int]) -> dict:
    """Every three-way: each pairing's first room (home NS) and second room (home EW, a
    round later at another table) on the same boards; VPs on the WBF continuous scale."""
    plan = movement.layout.knockout
    assert plan is not None
    out = {}
    for _, j, name in plan.three_ways:
        way = movement.layout.three_ways[j]
        pairs = []
        for home, away, (t1, r1), (t2, r2) in way.matches():
            first, second = movement.row("A", t1, r1), movement.row("A", t2, r2)
            assert first is not None and second is not None
            assert (first.ns_pair, first.ew_pair, second.ns_pair, second.ew_pair) == (
                home, away, away, home
            ), (first, second)  # fmt: skip
            assert first.boards == second.boards and len(first.boards) == BOARDS
            imps = imps_of([score[(t1, r1, b)] - score[(t2, r2, b)] for b in first.boards])
            vps = match_vps(WBFContinuousScale(), BOARDS, imps[0] - imps[1])
            pairs.append((home, away, imps, vps))
        out[name] = WorkedWay(way.teams, pairs)
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


def by_name(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {m["match"]: m for m in view["matches"]}


def finished(snapshot: dict[str, Any]) -> bool:
    return bool((snapshot["sections"]["A"].get("knockout") or {}).get("finished"))


def test_seed000_double_elimination_of_16_teams_runs_to_the_final(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'ko.db'}")
    eid = store.create_event(event_text())
    start = store.movement(eid, "A")
    first = [(r.table, r.ns_pair, r.ew_pair) for r in start.round_rows(1, "A") if r.ns_pair]
    m1 = ((1, 8), (4, 5), (2, 7), (3, 6), (9, 16), (12, 13), (10, 15), (11, 14))
    assert first == [(2 * i + t, (a, b)[t - 1], (b, a)[t - 1])
                     for i, (a, b) in enumerate(m1) for t in (1, 2)]  # fmt: skip

    favoured: set[int] = set()
    line = PtyLine(tmp_path / "base-1")
    station = VirtualBaseStation(line, serial="BS-1")
    for t in range(1, TABLES + 1):
        bot = SteeredBot(seed=BOT_SEED + t, favoured=favoured)
        bot.terminal = VirtualTerminal(t, f"BM-{t:02d}", "A", t, bot, speed=50_000)
        station.add_terminal(bot.terminal)
    hub = HubService(store, eid, [str(line.path)], api=("127.0.0.1", 0), td_pin=PIN)

    async def scenario() -> dict[str, Any]:
        await hub.start()
        assert hub.api is not None
        url = f"ws://127.0.0.1:{hub.api.port}/v1"
        td = Director(url)
        td.start()
        try:
            station.start()
            held: dict[str, dict[str, Any]] = {}
            for rnd in ("M2", "M3", "M4", "F"):
                held[rnd] = await proposed(td, rnd, 120)
                if rnd == "M2":  # the loser of U1-1 is favoured from now on
                    u11 = by_name(held[rnd])["U1-1"]
                    favoured.add(u11["teams"][1 - u11["winner"]]["team"])
                if rnd == "F":  # the final and the play-off: the bots alone
                    favoured.clear()
                published = await td.command("ko_publish", section="A", round=rnd)
                assert published["ok"], published
            await wait_until(hub.session_done.is_set, 120, "the knockout to be decided")
            final = await td.command("ko_show", section="A")
            snap = await wait_snapshot(url, finished, 60, "a snapshot of the decided bracket")
            return {
                "held": held, "final": final, "snapshot": snap["sections"]["A"]["knockout"],
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
    assert plan.event_rounds[:10] == (1, 1, 2, 2, 3, 3, 4, 4, 5, 5), "2 segments a match"
    score = {(x.table, x.round, x.board): endplay_ns_score(x) for x in results}
    w, ways = worked_matches(movement, score), worked_ways(movement, score)
    assert len(w) == 8 + 6 + 1 + 2 and sorted(ways) == ["L3-1", "L3-2", "M4"]
    cycle = [n for n, x in ways.items() if [x.wins(t) for t in x.teams] == [1, 1, 1]]
    assert cycle == ["L3-1"], "each team of L3-1 won one match: the VPs decide"
    # the routing, from the winners and losers worked here
    lo = {name: m.loser for name, m in w.items()}
    win = {name: m.winner for name, m in w.items()} | {n: x.winner for n, x in ways.items()}
    expected = dict(zip([f"{b}1-{k}" for b in "UL" for k in range(1, 5)], m1, strict=True))
    expected |= {"U2-1": (win["U1-1"], win["U1-2"]), "U2-2": (win["U1-3"], win["U1-4"])}
    expected |= {f"L2-{k}": (lo[f"U1-{k}"], win[f"L1-{k}"]) for k in range(1, 5)}
    expected |= {"U3": (win["U2-1"], win["U2-2"]), "F": (win["U3"], win["M4"])}
    assert {n: (w[n].home, w[n].away) for n in expected} == expected, "F: the unbeaten first"
    assert ways["L3-1"].teams == (lo["U2-1"], win["L2-3"], win["L2-4"])
    assert ways["L3-2"].teams == (lo["U2-2"], win["L2-1"], win["L2-2"])
    assert ways["M4"].teams == (lo["U3"], win["L3-1"], win["L3-2"])
    m4_others = set(ways["M4"].teams) - {win["M4"]}
    assert {w["3rd"].home, w["3rd"].away} == m4_others, "Match 4's second and third"
    assert ways["M4"].vps(w["3rd"].home) > ways["M4"].vps(w["3rd"].away), "its second first"
    # the team steered: it lost U1-1, then won L2-1, L3-2 and Match 4, and plays the final
    steered = lo["U1-1"]
    assert win["L2-1"] == steered and ways["L3-2"].wins(steered) == 2
    assert ways["M4"].wins(steered) == 2 and w["F"].away == steered

    final, shown = seen["final"], by_name(seen["final"])
    assert final["finished"] and seen["complete"], "the section ends with the bracket"
    for name, m in w.items():
        hub_m = shown[name]
        assert [t["team"] for t in hub_m["teams"]] == [m.home, m.away], name
        assert hub_m["teams"][hub_m["winner"]]["team"] == m.winner, (name, hub_m, m)
        assert hub_m["totals"] == [str(x) for x in m.totals], (name, hub_m["totals"], m.totals)
        assert hub_m["decided_by"] == m.decided_by, (name, hub_m, m)
    for name, x in ways.items():
        hub_m = shown[name]
        assert [t["team"] for t in hub_m["teams"]] == list(x.teams), name
        assert hub_m["teams"][hub_m["winner"]]["team"] == x.winner, (name, hub_m, x)
        hub_pairs = [(p["home"], p["away"], p["imps"], p["vps"]) for p in hub_m["pairs"]]
        assert hub_pairs == [
            (h, a, [str(i) for i in imps], [str(v) for v in vps]) for h, a, imps, vps in x.pairs
        ], name
    # the unbeaten team's carry-over, shown to the director with the final's draw and after
    proposal = {m["match"]: m for m in seen["held"]["F"]["proposal"]["matches"]}
    assert proposal["F"]["carry"] == ["13/2", "0"] and proposal["F"]["home"]["team"] == win["U3"]
    assert shown["F"]["carry"] == ["13/2", "0"]

    f, third = w["F"], w["3rd"]
    places = [(p["team"], p["place"]) for p in final["places"]]
    four = [(f.winner, "1"), (f.loser, "2"), (third.winner, "3"), (third.loser, "4")]
    assert places[:4] == four
    assert sorted(t for t, _ in places) == list(range(1, 17)), "every team placed once"
    others = {*ways["L3-1"].teams, *ways["L3-2"].teams} - {win["L3-1"], win["L3-2"]}
    assert {t for t, p in places if p == "5-8"} == others
    assert {t for t, p in places if p == "9-12"} == {lo[f"L2-{k}"] for k in range(1, 5)}
    assert {t for t, p in places if p == "13-16"} == {lo[f"L1-{k}"] for k in range(1, 5)}
    assert seen["snapshot"]["places"] == final["places"] and seen["snapshot"]["finished"]

    # live: the director's feed had each match's running IMPs only rising, ending at the
    # totals worked here
    views = [by_name(e) for e in seen["events"]]
    for name, m in w.items():
        running = [tuple(map(Fraction, v[name]["totals"])) for v in views if v[name]["totals"]]
        assert running[-1] == m.totals, (name, running[-3:])
        assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in pairwise(running)), (name, running)
