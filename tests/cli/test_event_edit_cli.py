"""The command line for a stopped hub (issue 13 "Names"; TD trial F11): `bridgehub event
edit` changes names, numbers, a late pair or a withdrawal, and refuses while a hub holds the
store; `event standings` shows a header, the room's pair numbers and the names; a failed
`event create` leaves no empty database behind. The event is tests/late_pair_event.py's
3-table Mitchell with EW 3 missing."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result
from late_pair_event import five_pairs

from hub.cli.main import cli
from hub.store.hub_lock import HubLock
from hub.store.store import ResultEntry, Store


def bridgehub(*args: object) -> Result:
    return CliRunner().invoke(cli, [str(a) for a in args])


def created(tmp_path: Path) -> tuple[str, int]:
    file = five_pairs(tmp_path)
    url = f"sqlite:///{tmp_path / 'event.db'}"
    out = bridgehub("event", "create", file, "--db", url)
    assert out.exit_code == 0, out.output
    return url, 1


def test_a_failed_create_leaves_no_database_file(tmp_path):
    """F11: an event file the hub refuses (here a pair EW 7 a 3-table Mitchell does not
    have) stops `event create` with the reason, and no event.db is left behind."""
    file = five_pairs(tmp_path)
    file.write_text(
        file.read_text("utf-8") + '[[sessions.sections.pairs]]\nnumber = 7\ndirection = "EW"\n',
        encoding="utf-8",
    )
    out = bridgehub("event", "create", file)
    assert out.exit_code != 0
    assert "EW 7" in out.output
    assert not (tmp_path / "event.db").exists()
    assert list(tmp_path.glob("event.db*")) == []


def test_a_failed_create_keeps_a_store_that_was_there(tmp_path):
    """F11's other side: a store that held events before the failed create is kept."""
    url, _ = created(tmp_path)
    bad = tmp_path / "bad.toml"
    bad.write_text("schema_version = 1\n[event]\n", encoding="utf-8")
    out = bridgehub("event", "create", bad, "--db", url)
    assert out.exit_code != 0
    assert (tmp_path / "event.db").exists()


def test_standings_show_a_header_the_rooms_numbers_and_the_names(tmp_path):
    """Issue 13 "Names": board 1 played twice, worked by hand: T1 r1 NS 1 v EW 1 3NT by N
    made (NS +400, board 1 none vulnerable), T3 r2 NS 3 v EW 2 4S by N one down (NS -50).
    Matchpoints on the 2/1 scale (the default: 2 for each score beaten, top 2): NS 1 2 MP
    100 %, NS 3 0 MP 0 %; EW 2 2 MP 100 %, EW 1 0 %."""
    url, eid = created(tmp_path)
    store = Store.open(url)
    store.record(
        eid,
        [
            ResultEntry("A", 1, 1, 1, 1, 4, "3NT", "N", tricks=9),
            ResultEntry("A", 3, 2, 1, 3, 5, "4S", "N", tricks=9),
        ],
    )
    store.close()
    out = bridgehub("event", "standings", "--db", url, "--event", eid)
    assert out.exit_code == 0, out.output
    lines = [line.split() for line in out.output.splitlines()]
    assert ["place", "pair", "names", "%", "MP", "boards"] in lines
    assert ["1", "NS", "1", "Anna", "Berg", "&", "Partner", "1", "100.00", "2.00", "1"] in lines
    assert ["2", "NS", "3", "Erik", "Falk", "&", "Partner", "3", "0.00", "0.00", "1"] in lines
    assert ["1", "EW", "2", "Ivar", "Jung", "&", "Partner", "5", "100.00", "2.00", "1"] in lines


def test_event_edit_changes_a_players_name_and_number_audited(tmp_path):
    """Issue 13: `event edit --pair "EW 1" --player 2 --name … --number …` with no hub."""
    url, eid = created(tmp_path)
    out = bridgehub(
        "event", "edit", "--db", url, "--event", eid, "--pair", "EW 1", "--player", 2,
        "--name", "Bo Ek", "--number", "4711",
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "pair EW 1: Gun Holm (104) & Bo Ek (4711)" in out.output
    store = Store.open(url, migrate=False)
    players = {c["number"]: c["players"] for c in store.contestants(eid, "A")}
    assert players[4] == [
        {"name": "Gun Holm", "number": "104"},
        {"name": "Bo Ek", "number": "4711"},
    ]
    assert any(a["action"] == "pair_edited" for a in store.audit_log(eid))
    store.close()


def test_event_edit_adds_a_late_pair_and_withdraws_one(tmp_path):
    """Issue 13: EW 3 arrives for round 2 (plays T1 r2 against NS 1, T2 r3 against NS 2, as
    the sit-out would have); NS 2 leaves from round 3 (table 2 round 3 is then empty)."""
    url, eid = created(tmp_path)
    out = bridgehub("event", "edit", "--db", url, "--event", eid, "--pair", "EW 3", "--add",
                    "--from-round", 2, "--player", 1, "--name", "Kim Lund")  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "pair EW 3 plays from round 2" in out.output
    out = bridgehub("event", "edit", "--db", url, "--event", eid, "--pair", "NS 2",
                    "--withdraw", "--from-round", 3)  # fmt: skip
    assert out.exit_code == 0, out.output
    store = Store.open(url, migrate=False)
    m = store.movement(eid, "A")
    assert (m.row("A", 1, 2).ns_pair, m.row("A", 1, 2).ew_pair) == (1, 6)
    assert (m.row("A", 2, 3).ns_pair, m.row("A", 2, 3).ew_pair) == (0, 6)
    assert (m.row("A", 2, 2).ns_pair, m.row("A", 2, 2).ew_pair) == (2, 4)
    names = {c["number"]: c["players"] for c in store.contestants(eid, "A")}
    assert names[6] == [{"name": "Kim Lund"}]
    store.close()


def test_event_edit_is_refused_while_a_hub_holds_the_store(tmp_path):
    """Issue 13: a running hub owns the event; the edit says so and points to the console,
    and nothing changes."""
    url, eid = created(tmp_path)
    store = Store.open(url, migrate=False)
    lock = HubLock.acquire(store.engine, eid)
    try:
        out = bridgehub("event", "edit", "--db", url, "--event", eid, "--pair", "NS 1",
                        "--player", 1, "--name", "Someone Else")  # fmt: skip
    finally:
        lock.release()
    assert out.exit_code != 0
    assert "another hub is already running" in out.output
    assert "from the console" in out.output
    assert store.contestants(eid, "A")[0]["players"][0]["name"] == "Anna Berg"
    store.close()


def test_event_edit_names_a_pair_the_section_does_not_have(tmp_path):
    """A Mitchell pair needs its direction; a number the movement lacks is named."""
    url, eid = created(tmp_path)
    out = bridgehub("event", "edit", "--db", url, "--event", eid, "--pair", "3",
                    "--player", 1, "--name", "X")  # fmt: skip
    assert out.exit_code != 0
    assert "say NS or EW" in out.output
    out = bridgehub("event", "edit", "--db", url, "--event", eid, "--pair", "EW 3",
                    "--player", 1, "--name", "X")  # fmt: skip
    assert "has no pair EW 3" in out.output
