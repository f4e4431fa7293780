"""The club roster when the store is not beside the event file (issue 13 "Names", review R1):
`bridgehub run --event club/event.toml --db <elsewhere>` (PostgreSQL, or a SQLite file in
another folder) must still find `[event] roster` beside the event file, as `event create`
did when it checked the roster was there. Before the review the hub looked only beside the
SQLite file and in the working directory, so a keyed member number got no name and the
director was told the roster could not be read."""

from __future__ import annotations

import asyncio
from pathlib import Path

from click.testing import CliRunner
from hub_stub import wait_until
from late_pair_event import five_pairs

from drivers.protocol.messages import PlayerNumber
from drivers.protocol.to_terminal import PlayerName
from hub.cli.main import cli
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal


def club_folder(tmp_path: Path) -> Path:
    club = tmp_path / "club"
    club.mkdir()
    (club / "members.csv").write_text("number,name\n5001,Olle Roster\n", encoding="utf-8")
    return five_pairs(club, roster="members.csv")


def test_a_hub_whose_store_is_elsewhere_finds_the_roster_beside_the_event_file(
    tmp_path, monkeypatch
):
    """Table 1 round 1 seats NS 1 and EW 1 (late_pair_event's layout): East (seat 1) keys
    5001, a member only the roster lists; with the event file's folder given, "Olle Roster"
    comes back to the terminal and is stored as EW 1's (pair 4's) first player. The store
    is in another folder and the working directory is a third one."""
    file = club_folder(tmp_path)
    (tmp_path / "data").mkdir()
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")

    async def scenario() -> tuple[dict[int, str], list[str], list]:
        store = Store.open(f"sqlite:///{tmp_path / 'data' / 'event.db'}")
        eid = store.create_event(file.read_text("utf-8"), base_dir=file.parent)
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        term = VirtualTerminal(1, "BM-1", "A", 1, PlayerBot(seed=1), speed=50_000)
        station.add_terminal(term)
        hub = HubService(
            store,
            eid,
            [str(line.path)],
            auto_advance=False,
            tick_s=3600,
            event_dir=file.parent,
        )
        await hub.start()
        station.start()
        try:
            await wait_until(lambda: term.assignment is not None, 20, "table 1's assignment")
            term.send(PlayerNumber("A", 1, 1, 1, "5001"))
            await wait_until(
                lambda: any(isinstance(m, PlayerName) for m in term.log.received),
                20,
                "the PLAYER_NAME answer",
            )
            names = {m.seat: m.name for m in term.log.received if isinstance(m, PlayerName)}
            alerts = [a for a in (await hub.snapshot())["alerts"] if "roster" in a]
            players = {c["number"]: c["players"] for c in store.contestants(eid, "A")}
            return names, alerts, players[4]
        finally:
            await station.stop()
            await hub.stop()
            line.close()
            store.close()

    names, alerts, ew1 = asyncio.run(scenario())
    assert names == {1: "Olle Roster"}
    assert alerts == []
    assert ew1[0] == {"name": "Olle Roster", "number": "5001"}


class Started(Exception):
    """Stops the fake hub once `run` has built it."""


def test_run_gives_the_hub_the_event_files_folder(tmp_path, monkeypatch):
    """`bridgehub run --event club/event.toml --db sqlite:///data/event.db`: the hub is
    built with ``event_dir`` = the event file's folder (absolute)."""
    file = club_folder(tmp_path)
    (tmp_path / "data").mkdir()
    built: dict = {}

    class FakeHub:
        def __init__(self, *args, **kwargs) -> None:
            built.update(kwargs)

        async def start(self) -> None:
            raise Started

        async def stop(self) -> None:
            pass

    monkeypatch.setattr("hub.cli.run.HubService", FakeHub)
    out = CliRunner().invoke(
        cli,
        [
            "run",
            "--event",
            str(file),
            "--db",
            f"sqlite:///{tmp_path / 'data' / 'event.db'}",
            "--station",
            str(tmp_path / "ttyNONE"),
            "--results-dir",
            str(tmp_path / "results"),
        ],
        env={"BRIDGEHUB_TD_PIN": "r1-roster-pin", "BRIDGEHUB_LOCK_DIR": str(tmp_path)},
    )
    assert isinstance(out.exception, Started), out.output
    assert built["event_dir"] == file.parent.resolve()
