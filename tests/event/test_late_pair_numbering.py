"""A late pair in a Mitchell keeps the room's numbering (issue 13 "late pairs" and "Mitchell
numbering as TDs write it", TD trial F16/F17; reviewer R1). The late pair takes the
sit-out's place, so it must carry the number the sit-out stands for. Before the review any
number not yet playing was taken: `event edit --pair "EW 4" --add` on a 3-table Mitchell
put internal pair 7 in EW seats, past EW 1-3 (internal 4-6), and the whole section fell
back to one numbering mid-session (terminals, standings and exports renumbered)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from late_pair_event import five_pairs

from hub.cli.main import cli
from hub.event.late_pairs import with_late_pair, without_pair
from hub.event.movement.mitchell import mitchell
from hub.event.movement.model import MovementError
from hub.event.pair_labels import PairLabels
from hub.store.store import Store


def test_the_late_pair_of_a_mitchell_is_the_number_the_sit_out_stands_for():
    """3-table Mitchell, EW 3 (internal 6) missing: the late pair is 6 ("EW 3"); 7 is
    refused naming EW 3, and the movement keeps NS 1-3 and EW 1-3."""
    movement = without_pair(mitchell(3, 2), "A", 6, 1)
    changed = with_late_pair(movement, "A", 2, 6)
    assert PairLabels.of(changed, "A").mitchell
    assert PairLabels.of(changed, "A").label(6) == "EW 3"
    with pytest.raises(MovementError, match="the late pair is EW 3"):
        with_late_pair(movement, "A", 2, 7)


def test_event_edit_refuses_a_late_pair_past_the_mitchells_numbers(tmp_path):
    file = five_pairs(tmp_path)
    url = f"sqlite:///{tmp_path / 'event.db'}"
    assert CliRunner().invoke(cli, ["event", "create", str(file), "--db", url]).exit_code == 0
    out = CliRunner().invoke(
        cli,
        ["event", "edit", "--db", url, "--event", "1", "--pair", "EW 4", "--add",
         "--from-round", "2"],
    )  # fmt: skip
    assert out.exit_code != 0
    assert "the late pair is EW 3" in out.output
    store = Store.open(url, migrate=False)
    assert PairLabels.of(store.movement(1, "A"), "A").mitchell  # unchanged
    store.close()
