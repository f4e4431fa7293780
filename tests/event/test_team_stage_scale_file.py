"""Issue 16, "the VP scale per stage": a stage's VP table file is found beside the event
file, as ``rules.vp_scale``'s is (the event is stored with its absolute path, checked at
``event create``); a missing one is named by its key path, not found in the middle of a
match."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from event_text import one_section_event

from hub.event.event_file import EventFileError
from hub.store.store import Store

TABLE = Path(__file__).parents[2] / "examples" / "vp_table_illustrative.csv"
EVENT = one_section_event(
    "Teams in stages", 'kind = "teams", teams = 4, boards_per_round = 2', "teams"
).replace(
    "[[sessions]]",
    "[[rules.teams.vp_scales]]\nfrom_round = 2\nscale = 'late.csv'\n[[sessions]]",
)


def test_a_stage_table_beside_the_event_file_is_stored_with_its_absolute_path(tmp_path):
    shutil.copy(TABLE, tmp_path / "late.csv")
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    try:
        eid = store.create_event(EVENT, base_dir=tmp_path)
        stage = store.event(eid).rules.teams.vp_scales[0]
    finally:
        store.close()
    assert stage.scale == str((tmp_path / "late.csv").resolve())


def test_a_missing_stage_table_is_named_by_its_key_at_event_create(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    try:
        with pytest.raises(EventFileError) as e:
            store.create_event(EVENT, base_dir=tmp_path)
    finally:
        store.close()
    assert e.value.problems[0][0] == "rules.teams.vp_scales[0].scale"
    assert "cannot read the VP table" in e.value.problems[0][1]
