"""[MENDS] #25 (TD trial G9): "A proposed draw can only be published or postponed, not
edited (e.g. to avoid two teams from one club)". The director swaps two teams of the
proposed draw (``draw_swap``, the console's D then "Swap two teams"); the edit is checked
again (repeats counted against every meeting, a second bye noted, the movement must take
it), audited as ``draw_edited``, and published as edited.

The Danish of tests/console/test_team_draw_console.py: round 1 by average masterpoints 4 Foxes
(40), 2 Bears (30), 3 Owls (20), 1 Lions (10), so 4 v 2 and 3 v 1, the higher-ranked team
at home. Swapping Bears and Lions gives 4 v 1 and 3 v 2, each team keeping its place.
"""

from __future__ import annotations

import asyncio

import pytest
from console_pilot import popup_shows, popup_title
from hub_stub import wait_until
from team_events import MASTERPOINT_TEAMS, drawn_event

from hub.api.client import websocket_source
from hub.api.server import CommandError
from hub.console.app import ConsoleApp
from hub.live.service.hub_service import HubService
from hub.live.teams.draw_edit import swap_teams
from hub.store.store import Store
from scoring.draw.model import Draw, Pairing
from scoring.draw.seating import HomeRule

EVENT = drawn_event("danish", 4, 3) + "\n" + MASTERPOINT_TEAMS


def pairs(draw: Draw) -> list[tuple[str, str]]:
    return [(p.home, p.away) for p in draw.matches]


def test_a_swap_keeps_each_place_and_counts_the_repeats_again():
    """Seed 000 §8 seats the higher number at home: 4 v 2, 3 v 1 with 2 and 3 swapped is
    4 v 3 and 2 v 1 at home 2; both pairs of teams met before: two repeats, each noted."""
    draw = Draw(2, (Pairing(1, "4", "2"), Pairing(2, "3", "1")), (), 0, 7)
    met = frozenset({frozenset(("4", "3")), frozenset(("2", "1"))})
    edited, notes = swap_teams(draw, "2", "3", met, frozenset(), HomeRule.HIGHER_NUMBER)
    assert pairs(edited) == [("4", "3"), ("2", "1")]
    assert edited.repeats == 2
    assert notes == ["4 v 3 have met before", "2 v 1 have met before"]
    assert [p.table for p in edited.matches] == [1, 2]  # the top match stays the top


def test_a_bye_swapped_to_a_team_that_had_one_is_noted():
    draw = Draw(3, (Pairing(1, "3", "1"),), ("5",), 0, 7)
    edited, notes = swap_teams(
        draw, "5", "1", frozenset(), frozenset({"1"}), HomeRule.HIGHER_NUMBER
    )
    assert pairs(edited) == [("5", "3")] and edited.byes == ("1",)
    assert notes == ["team 1 has had a bye (or a three-way) before"]
    with pytest.raises(ValueError, match="team 9 is not in round 3's draw"):
        swap_teams(draw, "9", "1", frozenset(), frozenset(), HomeRule.HIGHER_NUMBER)


def test_the_director_edits_round_1_before_publishing_it_and_the_edit_is_audited(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(EVENT)
    hub = HubService(store, eid, [])

    async def scenario():
        await hub.start()
        try:
            shown = await hub.commands.dispatch("draw_show", {"section": "A"}, "TD")
            swap = {"section": "A", "round": 1, "team": 2, "other": 1}
            edited = await hub.commands.dispatch("draw_swap", swap, "TD")
            again = await hub.commands.dispatch("draw_show", {"section": "A"}, "TD")
            with pytest.raises(CommandError, match="team 9 is not in round 1's draw"):
                await hub.commands.dispatch("draw_swap", swap | {"other": 9}, "TD")
            with pytest.raises(CommandError, match="the next round to draw is 1"):
                await hub.commands.dispatch("draw_swap", swap | {"round": 2}, "TD")
            await hub.commands.dispatch("draw_publish", {"section": "A", "round": 1}, "TD")
            return shown, edited, again
        finally:
            await hub.stop()

    shown, edited, again = asyncio.run(scenario())
    movement = store.movement(eid, "A")
    audit = store.audit_log(eid, "draw_edited")
    published = store.audit_log(eid, "draw_published")
    store.close()

    def teams(d: dict) -> list[tuple[int, int]]:
        return [(m["home"]["team"], m["away"]["team"]) for m in d["matches"]]

    assert teams(shown) == [(4, 2), (3, 1)]
    assert teams(edited) == [(4, 1), (3, 2)] and edited["edited"] and edited["notes"] == []
    assert teams(again) == [(4, 1), (3, 2)] and again["edited"]  # shown again as edited
    assert [(r.table, r.ns_pair, r.ew_pair) for r in movement.round_rows(1, "A")] == [
        (1, 4, 1),
        (2, 1, 4),
        (3, 3, 2),
        (4, 2, 3),
    ]
    assert len(audit) == 1 and audit[0]["detail"]["swap"] == [2, 1]
    assert teams(audit[0]["detail"]["before"]) == [(4, 2), (3, 1)]
    assert teams(audit[0]["detail"]["after"]) == [(4, 1), (3, 2)]
    assert teams(published[0]["detail"]["draw"]) == [(4, 1), (3, 2)]


def test_the_console_swaps_two_teams_then_publishes_the_edit(tmp_path):
    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        hub = HubService(store, eid, [], api=("127.0.0.1", 0), td_pin="1357", tick_s=0.2)
        await hub.start()
        try:
            source, send = websocket_source(f"ws://127.0.0.1:{hub.api.port}/v1", "1357")
            app = ConsoleApp(source, send, refresh_s=0.05)
            async with app.run_test(size=(120, 40)) as pilot:
                await wait_until(
                    lambda: "director session opened" in app.room.log, 10, "the TD session"
                )
                await pilot.press("D")
                await popup_shows(app, "1. tables 1/2: 4 Foxes v 2 Bears")
                await pilot.press("down", "enter")  # "Swap two teams"
                await popup_shows(app, "Round 1: two teams to change places")
                await pilot.press("2", "space", "1", "enter")
                await popup_shows(app, "edited by the director")
                shown = popup_title(app)
                await pilot.press("enter")  # "Publish round 1's draw as edited"
                await wait_until(
                    lambda: any("round 1's draw in section A: done" in x for x in app.room.log),
                    10,
                    "the hub's reply to the publication",
                )
            return shown, hub.sections["A"].movement
        finally:
            await hub.stop()
            store.close()

    shown, movement = asyncio.run(scenario())
    assert "1. tables 1/2: 4 Foxes v 1 Lions" in shown
    assert "2. tables 3/4: 3 Owls v 2 Bears" in shown
    assert (movement.row("A", 1, 1).ns_pair, movement.row("A", 1, 1).ew_pair) == (4, 1)
