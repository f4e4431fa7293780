"""A store from before the ``direction`` key still opens (review R3 of issue 13): its event
file numbered a Mitchell's pairs the hub's way (EW 1 of 3 tables was pair 4, no direction),
which today's event-file rule refuses. The stored text was valid when it was stored, so the
store reads it as it is; every reader (``run``, ``event standings``, the report) needs it.
Before the fix ``bridgehub event standings`` ended in "internal error: EventFileError"."""

from __future__ import annotations

from click.testing import CliRunner
from sqlalchemy import update
from sqlalchemy.orm import Session

from hub.cli.main import cli
from hub.event.event_file import EventFileError, parse_event
from hub.store import schema as t
from hub.store.store import Store

HEAD = """schema_version = 1
[event]
name = "Last Tuesday"
[rules]
scoring = "mp"
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = { kind = "mitchell", tables = 3, boards_per_round = 2 }
"""
# as the hub before issue 13 stored it: EW 1 of a 3-table Mitchell written as pair 4
OLD_PAIRS = """[[sessions.sections.pairs]]
number = 4
players = [{ name = "Cecilia Dahl" }, { name = "Dan Ek" }]
"""


def test_an_older_stores_mitchell_without_directions_still_opens(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    store = Store.open(url)
    eid = store.create_event(HEAD)
    with Session(store.engine) as db, db.begin():  # what the older hub kept
        db.execute(update(t.Event).where(t.Event.id == eid).values(event_file=HEAD + OLD_PAIRS))
        players = [{"name": "Cecilia Dahl"}, {"name": "Dan Ek"}]
        db.add(t.Contestant(event_id=eid, section="A", kind="pair", number=4, players=players))
    store._movements.clear()
    try:  # a new file written that way is still refused: say NS or EW
        parse_event(HEAD + OLD_PAIRS)
        raise AssertionError("a Mitchell pair without direction was accepted")
    except EventFileError as e:
        assert 'direction = "NS" or "EW"' in str(e)
    assert store.event(eid).event.name == "Last Tuesday"
    store.close()
    r = CliRunner().invoke(cli, ["event", "standings", "--db", url, "--event", str(eid)])
    assert r.exit_code == 0, r.output
    assert "internal error" not in r.output
