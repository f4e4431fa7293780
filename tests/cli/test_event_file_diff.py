"""The event file against the stored event (issue 13 "Names", TD trial F11): edits to the
file were ignored without a word; now every difference is listed in plain words, and the
store is what runs."""

from __future__ import annotations

from click.testing import CliRunner

from hub.cli.run import run
from hub.event.event_diff import warning
from hub.store.store import Store

EVENT = """schema_version = 1
[event]
name = "Tuesday Pairs"
[rules]
scoring = "mp"
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = { kind = "mitchell", tables = 7, boards_per_round = 3 }
[[sessions.sections.pairs]]
number = 3
direction = "NS"
players = [{ name = "Anna Berg", number = "101" }, { name = "Bo Ek" }]
[[sessions.sections.pairs]]
number = 3
direction = "EW"
players = [{ name = "Cecilia Dahl" }, { name = "Dan Ek" }]
"""


def stored(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'tuesday.db'}")
    eid = store.create_event(EVENT, base_dir=tmp_path)
    return store, eid


def test_the_same_file_and_store_have_no_differences(tmp_path):
    store, eid = stored(tmp_path)
    assert store.differences_from_file(eid, EVENT, tmp_path) == []
    store.close()


def test_a_name_edited_in_the_store_is_named_with_both_spellings(tmp_path):
    store, eid = stored(tmp_path)
    store.set_players(eid, "A", 3, [{"name": "Ana Berg", "number": "101"}, {"name": "Bo Ek"}])
    lines = store.differences_from_file(eid, EVENT, tmp_path)
    assert lines == ["pair NS 3's first player is 'Anna Berg' in the file, 'Ana Berg' in the store"]
    text = warning(lines)
    assert text.startswith("the event file differs from the stored event:\n  - pair NS 3's")
    assert text.endswith(
        "the store is used: edit the stored event with `bridgehub event edit` or the console"
    )
    store.close()


def test_rules_movement_and_pairs_edited_in_the_file_are_each_listed(tmp_path):
    store, eid = stored(tmp_path)
    edited = (
        EVENT.replace('scoring = "mp"', 'scoring = "mp"\n[rules.timing]\nminutes_per_board = 8')
        .replace("tables = 7, boards_per_round = 3", "tables = 7, boards_per_round = 2")
        .replace('{ name = "Dan Ek" }', '{ name = "Dan Eklund" }')
        .replace('name = "Tuesday Pairs"', 'name = "Tuesday Pairs"\nlanguage = "sv"')
    ) + '[[sessions.sections.pairs]]\nnumber = 5\ndirection = "EW"\n'
    lines = store.differences_from_file(eid, edited, tmp_path)
    assert "the event's language is 'sv' in the file, 'en' in the store" in lines
    assert "rules.timing.minutes_per_board is 8.0 in the file, 7.5 in the store" in lines
    assert any(
        line.startswith("section A's movement is 'plain Mitchell, 7 tables, 7 rounds x 2 boards'")
        and line.endswith("in the store")
        for line in lines
    ), lines
    assert "pair EW 3's second player is 'Dan Eklund' in the file, 'Dan Ek' in the store" in lines
    assert "pair EW 5 is in the file, not in the store" in lines
    store.close()


def test_run_refuses_an_edited_file_and_says_what_was_edited(tmp_path):
    """``bridgehub run --event FILE`` on a store holding the unedited event: refused (the
    store's event is run only by its number), and the refusal lists the edits."""
    store, _ = stored(tmp_path)
    store.close()
    path = tmp_path / "tuesday.toml"
    path.write_text(EVENT.replace('"Bo Ek"', '"Bo Eek"'), "utf-8")
    r = CliRunner().invoke(
        run,
        ["--event", str(path), "--db", f"sqlite:///{tmp_path / 'tuesday.db'}", "--station", "x"],
        env={"BRIDGEHUB_TD_PIN": "long-enough-pin"},
    )
    assert r.exit_code != 0
    assert "add --event-id 1" in r.output
    assert "  - pair NS 3's second player is 'Bo Eek' in the file, 'Bo Ek' in the store" in (
        r.output
    )
