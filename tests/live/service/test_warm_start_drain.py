"""Issue 12 [FAULTS], "no line left down after its replug for more than 2 s": after a kill
-9 the restarted hub answers its lines before the live scores are built (warm start), and
scores the results accepted meanwhile once they are. Scored in one go, those thousands of
results held the hub's loop for about 4 s in the full campaign, and a base station replugged
then waited as long to be opened again. They are now scored a slice at a time, the loop free
between slices (``Scores.load_soon``); the count of the loop's turns proves it, no clock."""

from __future__ import annotations

import asyncio

from event_text import one_section_event
from trust_room import Room, run_room

from hub.live.port import terminal_port as tp

EVENT = one_section_event("Drain", 'kind = "howell", tables = 3, boards_per_round = 2')
QUEUED = 640  # results accepted while the hub was loading (scoring one again changes nothing)
EVERY = 16


def test_results_accepted_during_the_warm_start_are_scored_with_the_loop_free_between_slices(
    tmp_path,
):
    async def scenario(room: Room) -> None:
        assert (await room.logon(1, "BM-1", 1)).outcome is tp.Outcome.OK
        for board in room.row(1).boards:
            assert (await room.result(1, 1, board)).outcome is tp.Outcome.ACCEPTED
        stored = await asyncio.to_thread(room.hub.store.results, room.hub.event_id)
        scores = room.hub.scores
        scores.begin_loading()
        for n in range(QUEUED):
            scores.accepted(stored[n % len(stored)])
        turns = 0

        async def another_part_of_the_hub() -> None:
            nonlocal turns
            while True:
                turns += 1
                await asyncio.sleep(0)

        other = asyncio.ensure_future(another_part_of_the_hub())
        await asyncio.sleep(0)
        before = turns
        await scores.load_soon([], [], every=EVERY)
        during = turns - before
        other.cancel()
        assert during >= QUEUED // EVERY - 1, f"the loop turned {during} times in the catch-up"
        assert scores._waiting is None  # every queued result scored, the queue closed
        traveller = scores.views.traveller("A", room.row(1).boards[0], 1, 1)
        assert traveller is not None and len(traveller.rows) == 1  # scored once, not 320 times

    run_room(tmp_path, scenario, EVENT)
