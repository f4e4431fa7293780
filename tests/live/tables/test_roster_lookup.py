"""The club roster (issue 13 "Names"): hub/event/roster.py reads the CSVs clubs export
(headers `number,name`, `member,first,last`, Swedish with semicolons, none at all), naming
the line of every problem; a member number keyed at a table that the event does not list is
looked up there and its name goes to the terminal (PLAYER_NAME, over a real pty with a
simulated terminal), the store and the standings."""

from __future__ import annotations

import asyncio

import pytest
from hub_stub import wait_until
from late_pair_event import five_pairs

from drivers.protocol.messages import PlayerNumber
from drivers.protocol.to_terminal import PlayerName
from hub.event.roster import RosterError, parse_roster, read_roster
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal


@pytest.mark.parametrize(
    ("text", "number", "name"),
    [
        ("number,name\n5001,Olle Roster\n", "5001", "Olle Roster"),
        ("member,first,last\n5001, Olle ,Roster\n", "5001", "Olle Roster"),
        ("Medlemsnummer;Förnamn;Efternamn\n5001;Olle;Roster\n", "5001", "Olle Roster"),
        ("\ufeffMember No.,Full Name,Club\n50 01,Olle Roster,BK Syd\n", "5001", "Olle Roster"),
        ("5001,Olle Roster\n5002,Per Persson\n", "5002", "Per Persson"),
        ("last,first,id\nRoster,Olle,5001\n", "5001", "Olle Roster"),
    ],
)
def test_the_roster_reads_the_headers_clubs_write(text, number, name):
    assert parse_roster(text).name(number) == name


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("number,name\n5001,Olle\n,Nobody\n", "members.csv, line 3: no member number"),
        ("number,name\n5001,\n", "members.csv, line 2: member 5001 has no name"),
        (
            "number,name\n5001,Olle\n5002,Per\n5001,Other\n",
            "line 4: member 5001 is 'Other' here and 'Olle' on line 2",
        ),
        ("name,club\nOlle,BK\n", "line 1: no member number column"),
        ("number,club\n5001,BK\n", "line 1: no name column"),
        ("5001,Olle,Roster,BK\n", "line 1: name the columns in a header line"),
        ("\n\n", "members.csv: the roster is empty"),
    ],
)
def test_a_roster_problem_names_its_line(text, words):
    with pytest.raises(RosterError, match=words):
        parse_roster(text, "members.csv")


def test_a_latin1_roster_from_an_older_club_program_is_read(tmp_path):
    (tmp_path / "m.csv").write_bytes("number,name\n7,Åsa Öberg\n".encode("latin-1"))
    assert read_roster(tmp_path / "m.csv").name("7") == "Åsa Öberg"


def test_a_member_number_keyed_at_the_table_is_looked_up_in_the_roster(tmp_path):
    """Issue 13: table 1, round 1 seats NS 1 and EW 1 (pair 4). East (seat 1) keys 5001,
    a member the event does not list: the roster's "Olle Roster" comes back in PLAYER_NAME
    and is stored as EW 1's first player, and the standings' names follow. North keys 101
    (the event's Anna Berg): the event's name. West keys 999 (nobody): an empty name."""

    async def scenario() -> None:
        (tmp_path / "members.csv").write_text(
            "number,name\n5001,Olle Roster\n101,Not This One\n", encoding="utf-8"
        )
        file = five_pairs(tmp_path, roster="members.csv")
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(file.read_text("utf-8"), base_dir=tmp_path)
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        term = VirtualTerminal(1, "BM-1", "A", 1, PlayerBot(seed=1), speed=50_000)
        station.add_terminal(term)
        hub = HubService(store, eid, [str(line.path)], auto_advance=False, tick_s=3600)
        await hub.start()
        station.start()
        try:
            await wait_until(lambda: term.assignment is not None, 20, "table 1's assignment")
            for seat, number in ((1, "5001"), (0, "101"), (3, "999")):
                term.send(PlayerNumber("A", 1, 1, seat, number))

            def names() -> dict[int, str]:
                got = [m for m in term.log.received if isinstance(m, PlayerName)]
                return {m.seat: m.name for m in got}

            await wait_until(lambda: len(names()) == 3, 20, "three PLAYER_NAME answers")
            assert names() == {1: "Olle Roster", 0: "Anna Berg", 3: ""}
            players = {c["number"]: c["players"] for c in store.contestants(eid, "A")}
            assert players[4][0] == {"name": "Olle Roster", "number": "5001"}
            assert players[4][1]["number"] == "999"
            assert hub.views.names["A"][4] == "Olle Roster & Partner 4"
        finally:
            await station.stop()
            await hub.stop()
            line.close()
            store.close()

    asyncio.run(scenario())


def test_a_roster_the_hub_cannot_read_is_told_to_the_director_once(tmp_path):
    """A broken roster never stops the table: the number is stored, the name is empty, and
    the director gets one alert naming the file's line (not one per keyed number)."""

    async def scenario() -> None:
        (tmp_path / "members.csv").write_text("number,name\n,Nobody\n", encoding="utf-8")
        file = five_pairs(tmp_path, roster="members.csv")
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(file.read_text("utf-8"), base_dir=tmp_path)
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        term = VirtualTerminal(1, "BM-1", "A", 1, PlayerBot(seed=1), speed=50_000)
        station.add_terminal(term)
        hub = HubService(store, eid, [str(line.path)], auto_advance=False, tick_s=3600)
        await hub.start()
        station.start()
        try:
            await wait_until(lambda: term.assignment is not None, 20, "table 1's assignment")
            term.send(PlayerNumber("A", 1, 1, 1, "5001"))
            term.send(PlayerNumber("A", 1, 1, 3, "5002"))
            await wait_until(
                lambda: sum(isinstance(m, PlayerName) for m in term.log.received) == 2,
                20,
                "two PLAYER_NAME answers",
            )
            roster = [a for a in (await hub.snapshot())["alerts"] if "club roster" in a]
            assert len(roster) == 1 and "members.csv, line 2: no member number" in roster[0]
            players = {c["number"]: c["players"] for c in store.contestants(eid, "A")}
            assert players[4][0]["number"] == "5001"
        finally:
            await station.stop()
            await hub.stop()
            line.close()
            store.close()

    asyncio.run(scenario())
