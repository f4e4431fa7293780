"""Issue 16 [TEAMS] "Team matches in the running hub": "Terminals show their own result and,
once the other room has played the board, the comparison and the IMPs; at the end of a
segment the running match score in IMPs and VPs (events can hide these as they hide
travellers) ... ranking pages reach team terminals" (docs/protocol.md §4.6).

Four teams, two boards a round; round 1: team 1 (Lions) v team 4 (Foxes) at tables 1
(open room, Lions NS) and 2 (closed room, Lions EW); team 2 (Bears) v team 3 (Owls) at
tables 3 and 4. The hub runs whole behind a recording terminal port (as in
tests/test_table_trust.py); each table's terminal enters its own results.
"""

from __future__ import annotations

import asyncio
import csv
from collections.abc import Awaitable, Callable
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hub_stub import wait_until

from hub.live import terminal_port as tp
from hub.live.service import HubService
from hub.store.store import Store

DATA = Path(__file__).parent / "data"
NAMES = {1: "Lions", 2: "Bears", 3: "Owls", 4: "Foxes"}


def event(display: str = "") -> str:
    teams = ", ".join(f'{{ number = {n}, name = "{name}" }}' for n, name in NAMES.items())
    return f"""schema_version = 1
[event]
name = "Four teams"
[rules]
scoring = "teams"
[rules.display]
verification = "none"
{display}
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = {{ kind = "teams", teams = 4, boards_per_round = 2 }}
teams = [{teams}]
"""


def danish_vp(boards: int, margin: int) -> tuple[Fraction, Fraction]:
    """Winner's and loser's VPs from the Danish federation's official WBF table."""
    with (DATA / "wbf_vp_continuous_oracle.csv").open() as f:
        for row in csv.DictReader(f):
            if (int(row["boards"]), int(row["imp_margin"])) == (boards, margin):
                win = Fraction(row["official_dk_table"])
                return win, 20 - win
    raise AssertionError(f"no official value for {boards} boards, {margin} IMPs")


# (table, board, contract, declarer, tricks): board 1 nobody vulnerable, board 2 NS
LIONS_FOXES = [
    (1, 1, "4S", "N", 10),  # open room, Lions NS: +420
    (2, 1, "4S", "N", 9),  # closed room, Foxes NS: -50; Lions +470: 10 IMPs (430-490)
    (1, 2, "3NT", "S", 9),  # +600 vulnerable
    (2, 2, "3NT", "S", 9),  # +600: a push; Lions win 10-0 over 2 boards
]
BEARS_OWLS = [
    (3, 1, "1NT", "N", 8),  # open room, Bears NS: +120
    (4, 1, "2H", "E", 8),  # closed room, Owls EW: NS -110; Bears +230: 6 IMPs (220-260)
    (3, 2, "4H", "N", 10),  # +620 vulnerable
    (4, 2, "4H", "N", 10),  # a push; Bears win 6-0 over 2 boards
]


class RecordingPort:
    """A terminal port that records what the hub answers and sends, MATCH_SCORE too."""

    name = "line"

    def __init__(self) -> None:
        self.inbound: asyncio.Queue[tp.Inbound] = asyncio.Queue()
        self.answers: dict[int, tp.Verdict] = {}
        self.sent: list[tuple[int, str, Any]] = []
        self.driver = SimpleNamespace(begin_epoch=lambda epoch: None)

    def tasks(self) -> dict[str, Callable[[], Awaitable[None]]]:
        return {}

    async def stop(self) -> None:
        return None

    def answer(self, request: tp.Request, verdict: tp.Verdict) -> None:
        assert isinstance(request.token, int)
        self.answers[request.token] = verdict

    def show_result(self, address: int, view: Any) -> None:
        self.sent.append((address, "result_view", view))

    def match_score(self, address: int, view: tp.MatchScoreView) -> None:
        self.sent.append((address, "match_score", view))

    def ranking(self, address: int, page: tp.RankingView) -> None:
        self.sent.append((address, "ranking", page))

    def status(self) -> dict[str, Any]:
        return {}

    def __getattr__(self, name: str) -> Callable[..., None]:
        """Every other view (assignment, clock, settings...): recorded by name."""
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda address, *view: self.sent.append((address, name, view))

    def got(self, address: int, what: str) -> list[Any]:
        return [v for a, w, v in self.sent if a == address and w == what]


class Room:
    def __init__(self, hub: HubService, port: RecordingPort) -> None:
        self.hub, self.port = hub, port
        self._token = 0

    async def say(self, make: Callable[..., tp.Request], address: int, *rest: Any) -> tp.Verdict:
        self._token += 1
        token = self._token
        self.port.inbound.put_nowait(make(tp.TerminalRef("line", address), token, *rest, session=1))
        await wait_until(lambda: token in self.port.answers, 10, f"the answer to {token}")
        return self.port.answers[token]

    async def seat_all(self) -> None:
        for table in (1, 2, 3, 4):  # the terminal at address N sits at table N
            verdict = await self.say(tp.LogonRequest, table, f"T{table}", "A", table, "")
            assert verdict.outcome is tp.Outcome.OK, verdict

    async def play(self, table: int, board: int, contract: str, declarer: str, tricks: int):
        row = self.hub.sections["A"].movement.row("A", table, 1)
        assert row is not None
        verdict = await self.say(
            tp.ResultSubmission,
            table,
            "A",
            table,
            1,
            board,
            row.ns_pair,
            row.ew_pair,
            contract,
            declarer,
            "",
            tricks,
            1,
        )
        assert verdict.outcome is tp.Outcome.ACCEPTED, verdict
        await asyncio.sleep(0.05)  # what follows the answer on the loop

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.hub.feed.since(0) or [] if e["event"] == kind]


def run_room(tmp_path: Path, scenario: Callable[[Room], Awaitable[None]], display: str = ""):
    async def main() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(event(display))
        hub = HubService(store, eid, [], clock=lambda: 1_000_000.0)
        port = RecordingPort()
        hub.ports = [port]  # type: ignore[list-item]
        await hub.start()
        try:
            room = Room(hub, port)
            await room.seat_all()
            await scenario(room)
        finally:
            await hub.stop()
            store.close()

    asyncio.run(main())


def lines_of(view: Any) -> set[tuple[int, int, int, Fraction]]:
    """A traveller's lines: (NS, EW, NS score, IMPs to NS)."""
    return {(r.ns_pair, r.ew_pair, r.score_ns, r.value) for r in view.rows}


def test_the_other_room_sees_the_comparison_and_the_imps_once_both_have_played(tmp_path):
    """Board 1: the open room alone sees its own line (nothing to compare, 0 IMPs); when
    the closed room plays it, both tables see both lines: Lions +420 (open) and -50 for
    Foxes NS (closed), 470 to the Lions: 10 IMPs (Law 78B)."""

    async def scenario(room: Room) -> None:
        port = room.port
        await room.play(*LIONS_FOXES[0])
        (first,) = port.got(1, "result_view")
        assert lines_of(first) == {(1, 4, 420, Fraction(0))} and first.imps
        assert port.got(2, "result_view") == []
        await room.play(*LIONS_FOXES[1])
        (closed,) = port.got(2, "result_view")
        both = {(1, 4, 420, Fraction(10)), (4, 1, -50, Fraction(-10))}
        assert lines_of(closed) == both and closed.own_value == -10
        again = port.got(1, "result_view")
        assert len(again) == 2 and again[1].board == 1
        assert lines_of(again[1]) == both and again[1].own_value == 10
        assert port.got(3, "result_view") == port.got(4, "result_view") == []  # another match

    run_room(tmp_path, scenario)


def test_a_table_that_finished_its_boards_sees_the_running_match_score(tmp_path):
    """The open room finishes first: 10-0 over the one board both rooms played (1 board's
    VPs), board 2 still out. When the closed room finishes, both tables see 10-0 over 2
    boards, 16.46-3.54 VP (the official table), nothing out. The other match's tables are
    not told; the feed's ``match`` event carries only the match a result touched."""
    w1, l1 = danish_vp(1, 10)
    w2, l2 = danish_vp(2, 10)

    async def scenario(room: Room) -> None:
        port = room.port
        for result in (LIONS_FOXES[0], LIONS_FOXES[2]):  # the open room's two boards
            await room.play(*result)
        (early,) = port.got(1, "match_score")
        assert (early.home, early.away, early.home_name, early.away_name) == (
            1,
            4,
            "Lions",
            "Foxes",
        )
        # nothing compared yet: the closed room has played no board
        assert (early.scored, early.out, early.home_imps, early.home_vp) == (0, 2, 0, 0)
        await room.play(*LIONS_FOXES[1])
        one = port.got(1, "match_score")[-1]
        assert (one.scored, one.out, one.home_imps, one.away_imps) == (1, 1, 10, 0)
        assert (one.home_vp, one.away_vp) == (w1, l1)
        assert port.got(2, "match_score") == []  # the closed room has a board to play
        await room.play(*LIONS_FOXES[3])
        for table in (1, 2):
            last = port.got(table, "match_score")[-1]
            assert (last.round, last.scored, last.out) == (1, 2, 0)
            assert (last.home_imps, last.away_imps, last.home_vp, last.away_vp) == (10, 0, w2, l2)
        assert port.got(3, "match_score") == port.got(4, "match_score") == []
        news = room.events("match")
        assert len(news) == 4 and {e["match"]["match"] for e in news} == {1}
        assert (news[-1]["match"]["home_vp"], news[-1]["hidden"]) == (str(w2), False)

    run_room(tmp_path, scenario)


def test_an_event_without_travellers_shows_neither_comparison_nor_match_score(tmp_path):
    """``travellers = "never"``: the issue's "events can hide these as they hide
    travellers"."""

    async def scenario(room: Room) -> None:
        for result in LIONS_FOXES:
            await room.play(*result)
        for table in (1, 2):
            assert room.port.got(table, "result_view") == []
            assert room.port.got(table, "match_score") == []

    run_room(tmp_path, scenario, 'travellers = "never"')


def test_no_match_score_in_the_rounds_whose_rankings_are_hidden(tmp_path):
    """``hide_rankings_last_rounds`` (TD trial F13) hides the running match score of those
    rounds (here every round of the three); the comparison of a board still shows, as
    travellers do. The feed tells the result screens the round is hidden."""

    async def scenario(room: Room) -> None:
        for result in LIONS_FOXES:
            await room.play(*result)
        assert len(room.port.got(1, "result_view")) == 4  # each board: its own, then compared
        assert room.port.got(1, "match_score") == room.port.got(2, "match_score") == []
        assert all(e["hidden"] for e in room.events("match"))

    run_room(tmp_path, scenario, "hide_rankings_last_rounds = 3")


def test_team_standings_reach_every_team_table_as_ranking_pages(tmp_path):
    """Once round 1 is complete, every table of both rooms gets the VP standings as a
    ranking page, as pairs get theirs: Lions 16.46 (10-0 over 2 boards), Bears 14.39
    (6-0), Owls 5.61, Foxes 3.54; the team's number and name."""
    w10, l10 = danish_vp(2, 10)
    w6, l6 = danish_vp(2, 6)

    async def scenario(room: Room) -> None:
        for result in LIONS_FOXES + BEARS_OWLS:
            await room.play(*result)
        await wait_until(
            lambda: all(room.port.got(t, "ranking") for t in (1, 2, 3, 4)), 10, "ranking pages"
        )
        expected = [
            ("1", 1, int(w10 * 100), "Lions"),
            ("2", 2, int(w6 * 100), "Bears"),
            ("3", 3, int(l6 * 100), "Owls"),
            ("4", 4, int(l10 * 100), "Foxes"),
        ]
        for table in (1, 2, 3, 4):
            (page,) = room.port.got(table, "ranking")
            assert (page.round, page.page, page.pages) == (1, 1, 1)
            got = [(x.rank, x.entrant, x.total_hundredths, x.names) for x in page.lines]
            assert got == expected

    run_room(tmp_path, scenario)


@pytest.mark.parametrize(
    "display", ["hide_rankings_last_rounds = 3", "rankings_after_each_round = false"]
)
def test_hidden_rankings_send_no_ranking_pages_to_team_tables(tmp_path, display):
    """As at pairs: an event that hides its rankings (its last rounds, or after each
    round) keeps the pages back from the tables until the final results."""

    async def scenario(room: Room) -> None:
        for result in LIONS_FOXES + BEARS_OWLS:
            await room.play(*result)
        await wait_until(lambda: room.events("standings"), 10, "the round's standings")
        assert all(room.port.got(t, "ranking") == [] for t in (1, 2, 3, 4))

    run_room(tmp_path, scenario, display)
