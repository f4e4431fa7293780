"""Issue 16, segments on the Matches tab and the result screen: a match of two segments
lists every board of the match, and the boards still out are those of either half not yet
played in both rooms; its IMPs and VPs are the whole match's so far (the standings' own).
tests/segmented_match.py's worked match: Lions (1) v Foxes (4), boards 1-2 in round 1,
3-4 in round 2 with the seating switched; after the first half Lions lead 10-0."""

from __future__ import annotations

import pytest
from segmented_match import PLAYED, halves_event, illustrative_scale, live_views, open_store, play

from hub.live.teams.team_matches import round_matches


@pytest.fixture
def scale(tmp_path):
    return illustrative_scale(tmp_path)


def test_a_two_segment_match_lists_all_its_boards_and_those_still_out(tmp_path, scale):
    store, eid = open_store(tmp_path, halves_event(scale))
    views = live_views(store, eid)
    movement = store.movement(eid, "A")
    play(store, eid, views, PLAYED[:4])  # the first half, both rooms
    first = round_matches(views.sections["A"], movement, "A", 1)[0]
    play(store, eid, views, PLAYED[4:5])  # board 3 in the open room only
    second = round_matches(views.sections["A"], movement, "A", 2)[0]
    store.close()
    assert (first["home"], first["away"]) == (1, 4)
    assert first["boards"] == [1, 2, 3, 4] and first["out"] == [3, 4]
    assert (first["home_imps"], first["away_imps"]) == ("10", "0")
    assert (second["home"], second["away"]) == (4, 1)  # Foxes NS at table 1 in the second half
    assert second["boards"] == [1, 2, 3, 4] and second["out"] == [3, 4]
    assert (second["home_imps"], second["away_imps"]) == ("0", "10")


def test_a_movement_file_carries_its_segments():
    """docs/store.md: layout metadata in ``# key: value`` lines; ``segments`` too, so a
    movement file of a match in halves is scored as one match."""
    from hub.event.movement.csv_format import format_movement, parse_movement
    from hub.event.movement.model import MovementError
    from hub.event.movement.teams import round_robin

    text = format_movement(round_robin(4, 2, segments=2))
    assert "# segments: 2\n" in text
    assert parse_movement(text).layout.segments == 2
    with pytest.raises(MovementError, match="segments must be 1 or more"):
        parse_movement(text.replace("# segments: 2", "# segments: 0"))
