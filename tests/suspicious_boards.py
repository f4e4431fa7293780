"""Boards that raise suspicious-score flags (decisions D12), for the tests of the flags and
of the hand records shown at the table: RealBridge's boards (``REALBRIDGE``, a real PBN
file in tests/data) with RealBridge's own double-dummy tables (``optimum_tables``), and
``flagged_round``: a 3-table Howell on a real pty whose round 1 ends with two flags at
table 1. ``FLAGS_EVENT`` is read when the round is set up (a test may replace it)."""

from __future__ import annotations

import re
from pathlib import Path

from event_text import one_section_event
from hub_stub import wait_until

from hub.event.hand_records import read_hand_records
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from scoring.board import Seat
from scoring.contract import Strain
from simulator.bots import Entry, PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

REALBRIDGE = Path(__file__).parent / "data" / "realbridge_2021_online_qual_open_r2.pbn"


def optimum_tables(path: Path) -> dict[int, dict[tuple[Seat, Strain], int]]:
    """RealBridge's own double-dummy table (PBN OptimumResultTable) of each board."""
    strains = {
        "NT": Strain.NOTRUMP,
        "S": Strain.SPADES,
        "H": Strain.HEARTS,
        "D": Strain.DIAMONDS,
        "C": Strain.CLUBS,
    }
    out: dict[int, dict[tuple[Seat, Strain], int]] = {}
    for game in path.read_text("utf-8").split("\n\n"):
        board = re.search(r'\[Board "(\d+)"\]', game)
        rows = re.findall(r"^([NESW])\s+(NT|[SHDC])\s+(\d+)$", game, re.M)
        if board and rows:
            out[int(board.group(1))] = {(Seat[s], strains[d]): int(n) for s, d, n in rows}
    return out


def pbn_of(boards: dict[int, int]) -> str:
    """A hand-record file giving our boards the deals of RealBridge boards."""
    deals = read_hand_records(REALBRIDGE)
    return "\n".join(
        f'[Board "{ours}"]\n[Deal "{deals[theirs]}"]\n' for ours, theirs in boards.items()
    )


class ScriptedBot(PlayerBot):
    """Plays what the test says on the boards it names, anything plausible elsewhere (on the
    simulated station's loop, as every player bot)."""

    def __init__(self, seed: int, script: dict[int, Entry]) -> None:
        super().__init__(seed)
        self.script = script

    def play(self, board: int) -> Entry:
        return self.script.get(board) or super().play(board)


FLAGS_EVENT = one_section_event(
    "Flags", 'kind = "howell", tables = 3, boards_per_round = 2'
).replace(
    '[[sessions]]\nname = "Evening"', '[[sessions]]\nname = "Evening"\nhand_records = "deals.pbn"'
)


async def flagged_round(
    tmp_path: Path, only_double_dummy: bool = False
) -> tuple[Store, int, PtyLine, VirtualBaseStation, HubService, int, int]:
    """A 3-table Howell whose round 1 (every table plays its two boards) ends with two
    flags at table 1: 2S by N where the others had 2S by E (board b), and 4H by S five
    tricks short of double dummy (board b2). Returns the store, event, line, station, hub
    (not auto-advancing) and the two boards, the round played out. ``only_double_dummy``:
    table 1's 2S is by E like the others', so only the double-dummy flag is open."""
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    probe = Store.open("sqlite://")
    b, b2 = (
        probe.movement(
            probe.create_event(FLAGS_EVENT.replace('hand_records = "deals.pbn"\n', "")), "A"
        )
        .round_rows(1, "A")[0]
        .boards
    )
    probe.close()
    (tmp_path / "deals.pbn").write_text(pbn_of({b: 11, b2: 12}), "utf-8")
    eid = store.create_event(FLAGS_EVENT, base_dir=tmp_path)
    line = PtyLine(tmp_path / "base-1")
    station = VirtualBaseStation(line)
    scripts = {
        1: {b: Entry(b, "2S", 1 if only_double_dummy else 0, "", 8), b2: Entry(b2, "4H", 2, "", 5)},
        2: {b: Entry(b, "2S", 1, "", 8), b2: Entry(b2, "4H", 2, "", 10)},
        3: {b: Entry(b, "2S", 3, "", 8), b2: Entry(b2, "4H", 2, "", 10)},
    }
    for t in (1, 2, 3):
        station.add_terminal(
            VirtualTerminal(t, f"BM-{t}", "A", t, ScriptedBot(t, scripts[t]), speed=50_000)
        )
    hub = HubService(store, eid, [str(line.path)], auto_advance=False)
    await hub.start()
    await wait_until(
        lambda: len(hub.suspicious.makeable) == 2, 20, "double dummy of both hand records"
    )
    station.start()
    # the round is over once the hub has decided about its standings (withheld here)
    await wait_until(
        lambda: any(
            e["event"] in ("standings", "standings_withheld") for e in hub.feed.since(0) or []
        ),
        20,
        "round 1 finished at every table and its standings decided",
    )
    return store, eid, line, station, hub, b, b2
