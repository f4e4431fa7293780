"""[MENDS] #25: a team that withdraws (``withdraw_team``) leaves the published rounds it has
not finished too. Its opponents there get a bye (their match not begun) or a walk-over
(begun), scored by the event's ``[rules.teams.bye]``, and the reply says so round by round.
The round no longer waits for the two tables of the match that is gone.

The worked round 1 of tests/cli/test_team_draw_cli.py (a Monrad of 4 teams: standing 1, 3, 4, 2
after it), so round 2 is 1 v 3 at tables 1-2 and 4 v 2 at tables 3-4, on boards 3-4. The
bye is worth 10 VP by the event's rule; that is the number the opponents' VP must grow by.
"""

from __future__ import annotations

import asyncio
from fractions import Fraction

from team_events import drawn_event, stored_round_1

from hub.live.service.hub_service import HubService
from hub.store.store import Store

BYE_RULE = '[rules.teams.bye]\nrule = "fixed"\nvp = "10"'


def event(rules: str = BYE_RULE) -> str:
    return drawn_event("monrad", 4, 3, "first_rounds = [[[1, 2], [3, 4]]]", rules=rules)


def board(table: int, number: int) -> dict:
    """A board of round 2 scored by the director: 3NT= by North."""
    return {"section": "A", "table": table, "round": 2, "board": number} | {
        "contract": "3NT",
        "declarer": "N",
        "result": "=",
    }


def totals(hub: HubService) -> dict[int, Fraction]:
    return {r["team"]: Fraction(r["total"]) for r in hub.standings_rows("A")}


def run(tmp_path, rules: str, before_withdrawal: list[dict]) -> tuple[dict, dict, dict, dict]:
    """Round 2 published; ``before_withdrawal`` scored; team 2 withdraws; then both rooms
    of 1 v 3 play boards 3-4. Returns the reply, the totals after round 1 and after round 2,
    and what the hub published and stored."""
    url, eid = stored_round_1(tmp_path, event(rules))
    store = Store.open(url)

    async def scenario():
        hub = HubService(store, eid, [])
        await hub.start()
        try:
            await hub.commands.dispatch("draw_publish", {"section": "A", "round": 2}, "TD")
            after_1 = totals(hub)
            for score in before_withdrawal:
                await hub.commands.dispatch("enter_result", score, "TD")
            told = await hub.commands.dispatch("withdraw_team", {"section": "A", "team": 2}, "TD")
            for table in (1, 2):
                for number in (3, 4):
                    await hub.commands.dispatch("enter_result", board(table, number), "TD")
            for _ in range(200):  # the publication runs on the loop: a bounded wait
                if hub.rounds.controller("A").is_complete(2):
                    break
                await asyncio.sleep(0.05)
            published = [e["round"] for e in hub.feed.since(0) or [] if e["event"] == "standings"]
            return (
                told,
                after_1,
                totals(hub),
                {
                    "round_2_over": hub.rounds.controller("A").is_complete(2),
                    "published": published,
                },
            )
        finally:
            await hub.stop()

    try:
        told, after_1, after_2, seen = asyncio.run(scenario())
        movement = store.movement(eid, "A")
        seen["results_at_3"] = [
            r.board for r in store.live_results(eid, "A") if (r.table, r.round) == (3, 2)
        ]
        seen["rows_2"] = [(r.table, r.ns_pair, r.ew_pair) for r in movement.round_rows(2, "A")]
        seen["withdrawn"] = movement.layout.withdrawn
        seen["audit"] = store.audit_log(eid, "team_withdrawn")[0]["detail"]
    finally:
        store.close()
    return told, after_1, after_2, seen


def test_the_opponent_of_a_match_not_begun_gets_the_events_bye(tmp_path):
    told, after_1, after_2, seen = run(tmp_path, BYE_RULE, [])
    assert told["from_round"] == 2 and told["still_drawn"] == []
    assert told["opponents"] == [
        {
            "round": 2,
            "team": 4,
            "award": "bye",
            "boards_played": 0,
            "vp": "10",
            "rule": "[rules.teams.bye] fixed",
        }
    ]
    assert seen["audit"]["opponents"] == told["opponents"]  # audited as told
    assert seen["withdrawn"] == ((2, 2),)
    assert seen["rows_2"] == [(1, 1, 3), (2, 3, 1), (3, 4, 0), (4, 0, 4)]  # team 2's seats empty
    assert seen["round_2_over"]  # without waiting for tables 3 and 4
    assert seen["published"] == [1, 2]
    assert after_2[4] - after_1[4] == 10  # the bye by the event's rule
    assert after_2[2] == after_1[2]  # the withdrawn team scores nothing more


def test_the_opponent_of_a_match_under_way_gets_a_walk_over_and_its_boards_stay(tmp_path):
    told, after_1, after_2, seen = run(tmp_path, BYE_RULE, [board(3, 3)])
    (award,) = told["opponents"]
    assert (award["team"], award["award"], award["boards_played"], award["vp"]) == (
        4,
        "walk_over",
        1,
        "10",
    )
    assert seen["results_at_3"] == [3]  # the board played stays stored
    assert seen["round_2_over"] and seen["published"] == [1, 2]
    assert after_2[4] - after_1[4] == 10  # the walk-over, by the same rule
    assert after_2[2] == after_1[2]


def test_without_a_bye_rule_the_reply_says_the_opponent_scores_nothing(tmp_path):
    told, after_1, after_2, _ = run(tmp_path, "", [])
    assert [(a["team"], a["vp"], a["rule"]) for a in told["opponents"]] == [
        (4, "0", "no [rules.teams.bye]: 0 VP")
    ]
    assert after_2[4] == after_1[4]
