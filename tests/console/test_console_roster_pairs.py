"""[MENDS] #25 item 5 (TD trial turn 3 G7): the club roster at the director's desk and in
the event file. With
1027 and 1028 in the event's roster, the late-pair form refused the numbers alone ("a
member number needs the player's name"); now the hub names them from the roster (or the
event's players), and a number nobody has is refused by its line, the cursor there. A real
hub on SQLite with its API and the console over the WebSocket, keys through the pilot.

The event (tests/late_pair_event.py): a 3-table Mitchell with EW 3 missing; the late pair
takes the sit-out's number, the hub's pair 6: EW 3."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from console_pilot import confirm, error_at, type_text
from event_text import one_section_event
from hub_stub import wait_until
from late_pair_event import five_pairs
from textual.widgets import Input

from hub.api.client import websocket_source
from hub.console.app import ConsoleApp
from hub.console.pairs_forms import LatePairForm
from hub.event.event_file import EventFileError
from hub.live.service.hub_service import HubService
from hub.store.store import Store

# as a spreadsheet saves it: a Swedish header, semicolons
ROSTER = "Medlemsnummer;Förnamn;Efternamn\n1027;Bertil;Late\n1028;Carin;Late\n"


def test_the_late_pair_form_takes_member_numbers_alone_and_the_roster_names_them(tmp_path: Path):
    """Numbers 9999 and 1028: refused, "player 1: member number 9999 has no name here",
    by the first number's line with the cursor there; corrected to 1027: the late pair
    EW 3 is Bertil Late (1027) & Carin Late (1028), the roster's names, in the store and
    on the Pairs tab."""

    async def scenario() -> None:
        (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
        file = five_pairs(tmp_path, roster="roster.csv")
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(file.read_text("utf-8"), base_dir=tmp_path)
        hub = HubService(
            store, eid, [], api=("127.0.0.1", 0), td_pin="1357", tick_s=0.2, event_dir=tmp_path
        )
        await hub.start()
        try:
            assert hub.api is not None
            source, send = websocket_source(f"ws://127.0.0.1:{hub.api.port}/v1", "1357")
            app = ConsoleApp(source, send, refresh_s=0.05)
            async with app.run_test(size=(120, 40)) as pilot:
                await wait_until(lambda: app.room.sections, 10, "the hub's snapshot")
                await wait_until(
                    lambda: "director session opened" in app.room.log, 10, "the TD session"
                )
                await pilot.press("a", "a")  # the Pairs tab, then a late pair
                await wait_until(lambda: isinstance(app.screen, LatePairForm), 5, "the form")
                await pilot.press("enter")  # no name: the number alone
                await type_text(pilot, "9999")
                await pilot.press("enter", "enter")
                await type_text(pilot, "1028")
                await confirm(app, pilot)
                await wait_until(lambda: error_at(app, "number1"), 10, "the refusal by its line")
                assert "player 1: member number 9999 has no name here" in error_at(app, "number1")
                assert app.screen.focused is app.screen.query_one("#f-number1", Input)
                app.screen.query_one("#f-number1", Input).value = "1027"
                await confirm(app, pilot)
                await wait_until(lambda: not isinstance(app.screen, LatePairForm), 10, "added")
                await wait_until(
                    lambda: (
                        dict(app.pairs_book.rows(app.room.sections)).get("pair:A:6", ("",) * 5)[3:5]
                        == ("Bertil Late & Carin Late", "1027, 1028")
                    ),
                    10,
                    "the late pair named on the Pairs tab",
                )
                app.workers.cancel_all()
                await pilot.pause(0.3)
            (late,) = [c for c in store.contestants(eid, "A") if c["number"] == 6]
            assert late["players"] == [
                {"name": "Bertil Late", "number": "1027"},
                {"name": "Carin Late", "number": "1028"},
            ]
        finally:
            await hub.stop()
            store.close()

    asyncio.run(scenario())


def numbered_event(roster: bool = True, member: str = "1028") -> str:
    """A 3-table Mitchell whose NS 1 is written by member numbers alone."""
    text = one_section_event("Roster pairs", 'kind = "mitchell", tables = 3, boards_per_round = 2')
    if roster:
        text = text.replace(
            'name = "Roster pairs"\n', 'name = "Roster pairs"\nroster = "roster.csv"\n'
        )
    return text + (
        '[[sessions.sections.pairs]]\nnumber = 1\ndirection = "NS"\n'
        f'players = [{{ number = "1027" }}, {{ number = "{member}" }}]\n'
        '[[sessions.sections.pairs]]\nnumber = 2\ndirection = "EW"\n'
        'players = [{ name = "Anna Berg", number = "1027" }, { name = "Bo Ek" }]\n'
    )


def test_an_event_file_takes_its_pairs_names_from_the_roster_by_number(tmp_path: Path):
    """G7: "the event file needs every name, so the roster cannot fill the pair list". NS 1
    written as 1027 and 1028: stored as the roster's Bertil Late and Carin Late with their
    numbers; a name the file gives stays as written (EW 2's Anna Berg, though the roster
    says 1027 is Bertil Late); the file and the store agree (no "changed" warning at
    ``run``)."""
    (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
    text = numbered_event()
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(text, base_dir=tmp_path)
    players = {c["number"]: c["players"] for c in store.contestants(eid, "A")}
    assert players[1] == [
        {"name": "Bertil Late", "number": "1027"},
        {"name": "Carin Late", "number": "1028"},
    ]
    assert players[3 + 2] == [{"name": "Anna Berg", "number": "1027"}, {"name": "Bo Ek"}]
    assert store.differences_from_file(eid, text, tmp_path, "event.toml") == []
    store.close()


def test_a_number_the_roster_lacks_or_no_roster_is_a_problem_named_by_its_place(tmp_path: Path):
    """1029 is not in the roster: ``event create`` refuses, naming NS 1's second player;
    without ``[event] roster`` a number alone has no name to take."""
    (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    where = "sessions[0].sections[0].pairs[0].players[1]"
    with pytest.raises(EventFileError) as e:
        store.create_event(numbered_event(member="1029"), base_dir=tmp_path)
    assert (where, "member 1029 is not in the club roster roster.csv: give the name") in (
        e.value.problems
    )
    with pytest.raises(EventFileError) as e:
        store.create_event(numbered_event(roster=False), base_dir=tmp_path)
    assert (
        where,
        "member 1028 has no name: give the name, or the club roster that has it ([event] roster)",
    ) in e.value.problems
    store.close()
