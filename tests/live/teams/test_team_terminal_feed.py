"""The ``match`` feed event of a teams section (docs/hub.md ``scores.py``): a table's result
publishes only the one match it touched, never the round's every match; while a warm
start drains the results accepted during its load, nothing is published, and the round's
matches go out once at its end (issue 16 [TEAMS]; the hot path of issue 12)."""

from __future__ import annotations

from fractions import Fraction

from team_events import danish_vp
from team_room import BEARS_OWLS, LIONS_FOXES, Room, run_room


def test_each_result_publishes_its_own_match_only(tmp_path):
    """A result of Bears v Owls tells the feed of that match alone."""

    async def scenario(room: Room) -> None:
        at_start = room.events("matches")  # the hub's own warm start, once
        await room.play(*BEARS_OWLS[0])
        (news,) = room.events("match")
        assert (news["section"], news["round"], news["match"]["match"]) == ("A", 1, 2)
        assert (news["match"]["home"], news["match"]["away"]) == (2, 3)
        assert room.events("matches") == at_start

    run_room(tmp_path, scenario)


def test_a_warm_starts_drain_publishes_the_round_once_at_its_end(tmp_path):
    """Results accepted while the live scores load are scored after it, publishing no
    ``match`` event each; then one ``matches`` event with the whole round: Lions 10-0
    over 2 boards (16.46 VP, the official table), Bears 6-0 over the one board played in
    both rooms (15.74 VP)."""

    async def scenario(room: Room) -> None:
        at_start = len(room.events("matches"))  # the hub's own warm start, once
        room.hub.scores.begin_loading()
        for result in LIONS_FOXES + BEARS_OWLS[:2]:
            await room.play(*result)
        await room.hub.scores.load_soon([], [])
        assert room.events("match") == []
        (news,) = room.events("matches")[at_start:]
        lions, bears = news["matches"]
        assert (Fraction(lions["home_vp"]), lions["out"]) == (danish_vp(2, 10)[0], [])
        assert (Fraction(bears["home_vp"]), bears["out"]) == (danish_vp(1, 6)[0], [2])

    run_room(tmp_path, scenario)
