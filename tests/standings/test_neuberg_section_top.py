"""Neuberg's N after a sit-out (decisions D22, issue [MENDS] #25): every board of a section
is factored to the section's common top, in the live hub, the rebuilt standings (the report
and the exports) and `bridgehub score` of the exported travellers alike;
`[rules.matchpoints] top = "board"` keeps each board's own top.

The room: a 3-table Mitchell, one board a round, NS 1-3 stationary, EW up one table, boards
down; EW 6 is a late pair, so table 3 sits out in round 1 and board 3 is played twice while
boards 1 and 2 are played three times:

    round 1: T1 1-4 board 1, T2 2-5 board 2, T3 3-0 board 3 (sit-out)
    round 2: T1 1-6 board 2, T2 2-4 board 3, T3 3-5 board 1
    round 3: T1 1-5 board 3, T2 2-6 board 1, T3 3-4 board 2

Every contract is 1NT by North (Law 77; board 1 none vulnerable, 2 NS, 3 EW):

    board 1: 1-4 8 tricks +120, 3-5 7 tricks +90, 2-6 6 tricks -50
             2/1 MP, top 4: NS 1 4, NS 3 2, NS 2 0; EW 4 0, EW 5 2, EW 6 4
    board 2: 2-5 9 tricks +150, 1-6 7 tricks +90, 3-4 7 tricks +90
             NS 2 4, NS 1 1, NS 3 1; EW 5 0, EW 6 3, EW 4 3
    board 3: 2-4 8 tricks +120, 1-5 7 tricks +90; raw, top 2: NS 2 2, NS 1 0
             Neuberg to the section's N = 3, (MP + 1)·N/n − 1 out of 2(N − 1) = 4:
             NS 2 (2+1)·3/2 − 1 = 3.5 (87.5 %), NS 1 (0+1)·3/2 − 1 = 0.5 (12.5 %);
             EW 4 0.5, EW 5 3.5

Totals, Σ MP / Σ top: NS 1 (4 + 1 + 0.5)/12 = 45 5/6 %, NS 2 (0 + 4 + 3.5)/12 = 62.5 %,
NS 3 3/8 = 37.5 %, EW 4 3.5/12 = 29 1/6 %, EW 5 5.5/12 = 45 5/6 %, EW 6 7/8 = 87.5 %.
With each board's own top (board 3 out of 2): NS 1 5/10 = 50 %, NS 2 6/10 = 60 %,
EW 4 3/10 = 30 %, EW 5 4/10 = 40 %.
"""

from __future__ import annotations

import asyncio
import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from hub.cli.main import cli
from hub.live.service.hub_service import HubService
from hub.live.views.pairs import PairsLive
from hub.standings.rebuild import rebuild
from hub.store.store import ResultEntry, Store

EVENT = """schema_version = 1
[event]
name = "Late pair"
[rules]
scoring = "mp"
{extra}
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = "m.csv"
"""

MOVEMENT = """# kind: mitchell
# winners: 2
section,table,round,ns_pair,ew_pair,low_board,high_board
A,1,1,1,4,1,1
A,2,1,2,5,2,2
A,3,1,3,0,3,3
A,1,2,1,6,2,2
A,2,2,2,4,3,3
A,3,2,3,5,1,1
A,1,3,1,5,3,3
A,2,3,2,6,1,1
A,3,3,3,4,2,2
"""

# (table, round, board, ns, ew, tricks by North in 1NT); board 3 first, so the live hub
# scores it before the section's top grows to 3
PLAYED = [
    (2, 2, 3, 2, 4, 8),
    (1, 3, 3, 1, 5, 7),
    (1, 1, 1, 1, 4, 8),
    (3, 2, 1, 3, 5, 7),
    (2, 3, 1, 2, 6, 6),
    (2, 1, 2, 2, 5, 9),
    (1, 2, 2, 1, 6, 7),
    (3, 3, 2, 3, 4, 7),
]

SECTION_TOP = {
    1: Fraction(275, 6),
    2: Fraction(125, 2),
    3: Fraction(75, 2),
    4: Fraction(175, 6),
    5: Fraction(275, 6),
    6: Fraction(175, 2),
}
BOARD_TOP = {**SECTION_TOP, 1: Fraction(50), 2: Fraction(60), 4: Fraction(30), 5: Fraction(40)}


def _store(tmp_path: Path, extra: str = "") -> Store:
    (tmp_path / "m.csv").write_text(MOVEMENT, "utf-8")
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    store.create_event(EVENT.format(extra=extra), base_dir=tmp_path)
    store.record(
        1,
        [
            ResultEntry("A", t, r, b, ns, ew, contract="1NT", declarer="N", tricks=k)
            for t, r, b, ns, ew, k in PLAYED
        ],
    )
    return store


@pytest.fixture
def store(tmp_path: Path):
    s = _store(tmp_path)
    yield s
    s.close()


def _live_totals(store: Store) -> dict[int, Fraction]:
    async def scenario() -> list[dict]:
        hub = HubService(store, 1, [], auto_advance=False)
        await hub.start()
        try:
            return hub.standings_rows("A")
        finally:
            await hub.stop()

    return {r["pair"]: Fraction(r["total"]) for r in asyncio.run(scenario())}


def _score_cli(tmp_path: Path, *options: str) -> dict[int, Fraction]:
    """The hub's exported travellers, scored by `bridgehub score`."""
    out = tmp_path / "travellers.csv"
    db = f"sqlite:///{tmp_path / 'event.db'}"
    export = CliRunner().invoke(
        cli, ["event", "export", "--db", db, "--event", "1", "--travellers", str(out)]
    )
    assert export.exit_code == 0, export.output
    scored = CliRunner().invoke(cli, ["score", str(out), "--method", "mp", "--json", *options])
    assert scored.exit_code == 0, scored.output
    pairs = json.loads(scored.output)["pairs"]
    return {p["pair"]: Fraction(p["total"]).limit_denominator(1000) for p in pairs}


def test_a_board_played_once_fewer_is_factored_to_the_sections_top_live(store):
    """D22: the live hub (warm start, board 3 loaded before the others) gives the
    hand-worked totals; board 3 is out of 4, not 2, so NS 2's +120 is 87.5 %."""
    assert _live_totals(store) == SECTION_TOP


def test_results_arriving_one_by_one_rescore_the_earlier_boards_to_the_new_top(store):
    """D22 as results arrive (``PairsLive.put`` in the order of play): board 3's two
    results come before board 1's third, which raises the section's top to 3 and rescores
    board 3 to it; the traveller shows NS 2's 87.5 %."""
    live = PairsLive(store.event(1), "A", store.movement(1, "A"), {})
    for line in sorted(store.live_lines(1, "A"), key=lambda x: (x.round, x.table)):
        live.put(line)
    assert {r["pair"]: Fraction(r["total"]) for r in live.rows()} == SECTION_TOP
    view = live.traveller(3, 2, 2)
    assert view is not None
    assert view.own_value == Fraction(175, 2)


def test_the_rebuilt_standings_and_bridgehub_score_agree_with_the_live_hub(store, tmp_path):
    """D22: the report's and exports' standings (rebuilt from the store) and `bridgehub
    score` of the exported travellers give the same hand-worked totals as the live hub."""
    view = rebuild(store, 1)["A"]
    rebuilt = {s.total.pair.number: s.total.total for rows in view.standings.values() for s in rows}
    assert rebuilt == SECTION_TOP
    (board3,) = [b for b in view.boards if b.board == 3]
    assert board3.top is not None and list(board3.top) == [4, 4]
    assert _score_cli(tmp_path) == SECTION_TOP


def test_top_board_keeps_each_boards_own_top(tmp_path):
    """`[rules.matchpoints] top = "board"` (and `bridgehub score --top board`): board 3 is
    scored out of its own top 2, NS 2 100 %, NS 1 0 %: NS 1 50 %, NS 2 60 %."""
    store = _store(tmp_path, '[rules.matchpoints]\ntop = "board"')
    try:
        assert _live_totals(store) == BOARD_TOP
        view = rebuild(store, 1)["A"]
        rebuilt = {
            s.total.pair.number: s.total.total for rows in view.standings.values() for s in rows
        }
        assert rebuilt == BOARD_TOP
    finally:
        store.close()
    assert _score_cli(tmp_path, "--top", "board") == BOARD_TOP
