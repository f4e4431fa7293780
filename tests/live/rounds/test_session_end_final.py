"""The end of the evening (issue 13; TD trial F13: "it never says 'final results'"): after
the last round the hub records the session complete (audited, kept over a restart), the
feed says ``session_complete``, the snapshot's section is "final" with no clock, and the
terminals get SETTINGS ``final`` = 1 and the final ranking pages; rankings the event hides
in its last rounds reach neither the terminals nor the projector before the final."""

from __future__ import annotations

import asyncio

from event_text import one_section_event
from hub_stub import wait_until

from drivers.protocol.messages import RankingPage, Settings
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

# 3-table Howell: 5 rounds of 2 boards; the rankings after rounds 4 and 5 are hidden
# ("hide the last 2 rounds"), the final (round 5) is shown: pages after rounds 1, 2, 3, 5
EVENT = one_section_event("Final", 'kind = "howell", tables = 3, boards_per_round = 2').replace(
    'scoring = "mp"', 'scoring = "mp"\n[rules.display]\nhide_rankings_last_rounds = 2'
)


def settings_of(message: Settings) -> dict[str, str]:
    return {e.key: e.value for e in message.entries}


def test_the_session_ends_with_final_results_everywhere_and_survives_a_restart(tmp_path):
    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        for t in (1, 2, 3):
            station.add_terminal(
                VirtualTerminal(t, f"BM-{t}", "A", t, PlayerBot(seed=t), speed=50_000)
            )
        hub = HubService(store, eid, [str(line.path)], wait_for_director=True)
        await hub.start()
        station.start()
        try:
            first = station.terminals[1]
            await wait_until(lambda: first.assignment is not None, 20, "table 1's log-on")
            told = [settings_of(m) for m in first.log.received if isinstance(m, Settings)]
            assert told[0].get("clock") == "waiting"  # round 1 waits for the director
            await wait_until(hub.session_done.is_set, 120, "all 5 rounds to be played")
            await wait_until(
                lambda: all(
                    any(isinstance(m, RankingPage) and m.round == 5 for m in t.log.received)
                    for t in station.terminals.values()
                ),
                30,
                "the final ranking pages to reach every terminal",
            )
            await wait_until(
                lambda: all(
                    settings_of([m for m in t.log.received if isinstance(m, Settings)][-1]).get(
                        "final"
                    )
                    == "1"
                    for t in station.terminals.values()
                ),
                30,
                "SETTINGS final to reach every terminal",
            )
            snap = (await hub.snapshot())["sections"]["A"]
            events = hub.feed.since(0)
        finally:
            await station.stop()
            await hub.stop()
        line.close()

        assert snap["final"] is True and snap["clock"] is None
        assert snap["published"]["final"] is True and snap["published"]["hidden"] is False
        ended = [e for e in events if e["event"] == "session_complete"]
        assert ended == [{**ended[0], "section": "A"}] and len(ended) == 1
        alerts = [e["text"] for e in events if e["event"] == "alert"]
        assert any("the session is complete: final results" in a for a in alerts)
        published = {e["round"]: e for e in events if e["event"] == "standings"}
        assert published[4]["hidden"] is True and published[4]["final"] is False
        assert published[3]["hidden"] is False and published[5]["final"] is True
        for t in station.terminals.values():
            rounds = sorted({m.round for m in t.log.received if isinstance(m, RankingPage)})
            assert rounds == [1, 2, 3, 5]  # round 4 hidden; the final shown
        assert [a["detail"] for a in store.audit_log(eid, "session_complete")] == [{"section": "A"}]

        again = HubService(store, eid, [], wait_for_director=True)  # the hub restarts
        await again.start()
        try:
            assert again.session_done.is_set()
            snap = (await again.snapshot())["sections"]["A"]
            assert snap["final"] is True and snap["clock"] is None
            assert not [e for e in again.feed.since(0) if e["event"] == "session_complete"]
        finally:
            await again.stop()
        assert len(store.audit_log(eid, "session_complete")) == 1  # recorded once
        store.close()

    asyncio.run(scenario())
