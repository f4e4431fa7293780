"""Issue [LIVENESS]: "The campaign notices a stuck room within a minute: when no result is
confirmed for 60 s while tables still have boards to play, it prints each waiting table
with its last frames both ways and what the hub thinks of it, counts it under the 'stuck'
invariant and ends; it does not wait for its hour's timeout." Sans I/O: the watch, the
table's lines, the report; the terminal is the simulator's own."""

from __future__ import annotations

from campaign.progress import Figures, report
from campaign.stall import STALL_S, StallWatch, describe, waiting
from drivers.protocol.link import Nacked
from drivers.protocol.messages import Assignment, Logon, NakCode
from simulator.bots import PlayerBot
from simulator.terminal import VirtualTerminal


def test_a_minute_without_a_confirmed_result_is_a_stall_and_progress_is_not():
    """60 s with the count unchanged and boards left: stalled; any new confirmation, or
    every result in, is not."""
    watch = StallWatch(since=0.0)
    assert STALL_S == 60.0
    assert not watch.stalled(10, 100, 30.0)  # progress at 30 s
    assert not watch.stalled(10, 100, 89.0)
    assert watch.stalled(10, 100, 90.0)  # nothing since 30 s: a minute
    assert not watch.stalled(11, 100, 91.0)
    assert not watch.stalled(100, 100, 500.0)  # all in: never a stall


def test_a_waiting_table_is_described_with_its_last_frames_and_the_hubs_view():
    """The seed-3 table as the campaign would print it: the terminal's round, boards, what
    it holds, its last messages both ways, and the hub's table and terminal entries."""

    class Station:
        link = None

        def send(self, address, message):
            pass

        def wake(self):
            pass

    t = VirtualTerminal(18, "BM-B018", "B", 18, PlayerBot(seed=1))
    t.station = Station()  # type: ignore[assignment]
    t.assignment = Assignment("B", 18, 16, 5, 30, tuple(range(99, 113)))
    logon = Logon("BM-B018", "B", 18, "sim-1")
    t.send(logon)
    t.log.frame("←", Nacked(18, logon, NakCode.UNKNOWN_EPOCH, "start with HELLO"))
    view = {
        "snapshot": {
            "sections": {
                "B": {
                    "round": 16,
                    "tables": [
                        {"table": 18, "done": 2, "boards": list(range(99, 113)), "online": True}
                    ],
                }
            }
        },
        "devices": {
            "terminals": [
                {
                    "station": 0,
                    "address": 43,
                    "serial": "BM-B018",
                    "section": "B",
                    "table": 18,
                    "online": True,
                    "seconds_ago": 301.2,
                }
            ]
        },
    }
    assert waiting([t], rounds=25, boards=14) == [t]
    lines = describe(t, view, boards=14)
    assert lines[0].startswith("B18 (BM-B018): round 16, 0/14 boards of the round confirmed")
    assert any("→ Logon" in line for line in lines) and any(
        "UNKNOWN_EPOCH" in line for line in lines
    )
    assert "hub: round 16, done 2/14, unverified None, online True" in lines[-2]
    assert "address 43 BM-B018 at B18" in lines[-1] and "301.2 s ago" in lines[-1]


def test_a_stalled_room_fails_the_campaign_with_its_tables_counted_stuck():
    """The report says the room stalled and lists the tables; "stuck" counts them."""
    fig = Figures(seed=3, db="sqlite", finished=False, stalled_tables=1)
    fig.stuck_where = ["B18 (BM-B018): round 16, 2/14 boards"]
    fig.invariants = {"lost": 0, "doubled": 0, "stuck": 0 + fig.stalled_tables}
    out = report(fig)
    assert "  the room stalled; tables stuck:" in out
    assert "    B18 (BM-B018): round 16, 2/14 boards" in out
    assert "  stuck 1" in out and out[-1] == "campaign: FAILED"
