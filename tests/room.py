"""A small room for hub tests: a store with one event and one simulated base station on a
real pseudo-terminal, its terminals at the given tables (nothing started yet)."""

from __future__ import annotations

from pathlib import Path

from hub.store.store import Store
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal


def simulated_room(
    tmp_path: Path, event: str, tables: tuple[int, ...] = (1, 2, 3)
) -> tuple[Store, int, PtyLine, VirtualBaseStation]:
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(event)
    line = PtyLine(tmp_path / "base-1")
    station = VirtualBaseStation(line)
    for t in tables:
        station.add_terminal(VirtualTerminal(t, f"BM-{t}", "A", t, PlayerBot(seed=t), speed=50_000))
    return store, eid, line, station
