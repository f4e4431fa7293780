"""[MENDS] #25, coverage D1: a team event whose round 1 the hub draws itself (a Danish by
masterpoints, a Monrad by lot, a Swiss without ``first_rounds``) publishes its standings
after every round, with the round's number, like any other event, and never "final"
before its last round is played.

Before the mend a round nobody was seated in yet counted as complete, so the hub published
"after round N of N, final" with no rows at start-up and nothing after rounds 1 … N-1.
The director scores the boards here through the API (``enter_result``), so the rounds end
without terminals; the expected rounds (1, 2, 3; final only after 3) are the movement's.
"""

from __future__ import annotations

import asyncio

from team_events import drawn_event

from hub.event.movement.drawn import drawn_teams, with_round
from hub.live.service.hub_service import HubService
from hub.standings.rounds import complete_rounds
from hub.store.store import Store
from hub.store.values import LiveLine

TEAMS, ROUNDS = 4, 3


def line(table: int, rnd: int, board: int) -> LiveLine:
    return LiveLine("A", table, rnd, board, 1, 2, "3NT", "N", 9, 400, None)


def test_an_undrawn_round_is_never_complete_mends_d1():
    """D19: before a round's draw is published nobody sits in it, so it has not been
    played; round 1 is complete once all four tables have played both its boards."""
    movement = drawn_teams(TEAMS, ROUNDS, 2, "danish")
    assert complete_rounds(movement, "A", []) == 0
    drawn = with_round(movement, "A", 1, [(1, 2), (3, 4)], teams=TEAMS)
    played = [line(t, 1, b) for t in range(1, 5) for b in (1, 2)]
    assert complete_rounds(drawn, "A", played[:-1]) == 0
    assert complete_rounds(drawn, "A", played) == 1  # round 2 is not drawn: not complete


def standings_events(hub: HubService) -> list[dict]:
    return [e for e in hub.feed.since(0) or [] if e["event"] == "standings"]


async def play_round(hub: HubService, rnd: int) -> None:
    """The director scores every board of the round at every table (3NT= by North)."""
    movement = hub.store.movement(hub.event_id, "A")
    for row in movement.round_rows(rnd, "A"):
        for board in row.boards:
            score = {"section": "A", "table": row.table, "round": rnd, "board": board}
            score |= {"contract": "3NT", "declarer": "N", "result": "=" if row.table % 2 else "-1"}
            await hub.commands.dispatch("enter_result", score, "TD")


def test_a_danish_drawn_by_the_hub_publishes_standings_after_every_round_mends_d1(tmp_path):
    """Seed 001's Danish (round 1 drawn by the hub): no standings at start-up, then the
    standings after round 1, 2 and 3 in turn, each with its rows; only round 3's final."""
    store = Store.open(f"sqlite:///{tmp_path / 'danish.db'}")
    eid = store.create_event(drawn_event("danish", TEAMS, ROUNDS, rules='tie_breaks = "wbf"'))
    hub = HubService(store, eid, [])

    async def scenario() -> tuple[list[dict], list[list[dict]]]:
        await hub.start()
        try:
            at_start = standings_events(hub)
            seen = []
            for rnd in range(1, ROUNDS + 1):
                await hub.commands.dispatch("draw_publish", {"section": "A", "round": rnd}, "TD")
                await play_round(hub, rnd)
                for _ in range(200):  # the publication runs on the loop: a bounded wait
                    if any(e["round"] == rnd for e in standings_events(hub)):
                        break
                    await asyncio.sleep(0.05)
                seen.append(standings_events(hub))
            return at_start, seen
        finally:
            await hub.stop()

    at_start, seen = asyncio.run(scenario())
    store.close()
    assert at_start == []  # nothing is played: nothing to publish, and never "final"
    published = [(e["round"], e["final"], len(e["rows"])) for e in seen[-1]]
    assert published == [(1, False, TEAMS), (2, False, TEAMS), (3, True, TEAMS)]
    for rnd, events in enumerate(seen, start=1):  # each round's went out before the next
        assert [e["round"] for e in events] == list(range(1, rnd + 1))
