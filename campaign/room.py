"""The campaign's room: the event file (several Mitchell sections), the simulated base
stations (ptys, one TCP, one emulated USB when umockdev is there) with their terminals, and
a clock display on a pty; all of it on the campaign's own asyncio loop, talking to the hub
only over the lines (docs/architecture.md: the simulator never reaches into the hub)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simulator.bots import PlayerBot
from simulator.clocks import VirtualPanel
from simulator.faults import Faults
from simulator.line import PtyLine, SocketLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

KEYING_S = 30.0  # play-time seconds to key a result (a reboot then can catch the players)
USB_TERMINALS = 10  # at most this many terminals on the emulated USB station
USB_IDS = (0x1209, 0x0001)  # pid.codes test ids, as tests/drivers/test_usb.py: never a real product


@dataclass(frozen=True)
class Size:
    """The event's shape: ``sections`` Mitchells of ``tables`` (odd) × ``rounds`` rounds of
    ``boards`` boards each, played over ``stations`` base stations."""

    sections: int
    tables: int
    rounds: int
    boards: int
    stations: int

    @property
    def results(self) -> int:
        return self.sections * self.tables * self.rounds * self.boards

    @property
    def terminals(self) -> int:
        return self.sections * self.tables

    @property
    def round_changes(self) -> int:
        return self.sections * (self.rounds - 1)


@dataclass(frozen=True)
class FrameFaults:
    """Per-frame chances on every line, both directions (issue 12: 1 % each)."""

    corrupt: float = 0.01
    drop: float = 0.01
    duplicate: float = 0.01
    delay: float = 0.01
    max_delay_s: float = 0.05


def letters(n: int) -> list[str]:
    """Section letters A, B, … (skipping I and O as venues do not: kept simple, A-Z)."""
    return [chr(ord("A") + k) for k in range(n)]


def event_text(size: Size) -> str:
    """The event file (TOML, schema 1): one session, ``size.sections`` Mitchell sections."""
    out = [
        'schema_version = 1\n[event]\nname = "Fault campaign"\n[rules]\nscoring = "mp"\n'
        '[[sessions]]\nname = "Campaign"\n'
    ]
    for letter in letters(size.sections):
        out.append(
            f'[[sessions.sections]]\nletter = "{letter}"\n'
            f'movement = {{ kind = "mitchell", tables = {size.tables}, rounds = {size.rounds}, '
            f"boards_per_round = {size.boards} }}\n"
        )
    return "".join(out)


def make_faults(rates: FrameFaults, seed: int) -> Faults:
    """The simulator's per-frame faults at ``rates``, in both directions of a line."""
    return Faults(
        corrupt=rates.corrupt,
        drop=rates.drop,
        duplicate=rates.duplicate,
        delay=rates.delay,
        max_delay_s=rates.max_delay_s,
        seed=seed,
    )


def station_shares(seats: int, kinds: list[str]) -> list[int]:
    """Terminals per station: even, but the emulated USB station carries at most
    ``USB_TERMINALS`` (each of its transfers goes through umockdev's socket to this
    process: a full room's share would make it the room's bottleneck, ~15 results/s)."""
    shares = [0] * len(kinds)
    usb = [k for k, kind in enumerate(kinds) if kind == "usb"]
    rest = [k for k, kind in enumerate(kinds) if kind != "usb"] or usb
    for k in usb:
        shares[k] = min(USB_TERMINALS, -(-seats // len(kinds)))
    left = seats - sum(shares)
    for n, k in enumerate(rest):
        shares[k] += left // len(rest) + (1 if n < left % len(rest) else 0)
    return shares


def usb_unavailable() -> str | None:
    """None when the emulated USB station can run here, else why not."""
    try:
        from simulator import usb_line
    except ImportError as e:
        return f"simulator.usb_line missing ({e})"
    try:
        return usb_line.available()
    except Exception as e:  # a broken umockdev is a reason, not a crash
        return f"{type(e).__name__}: {e}"


@dataclass
class StationInfo:
    """One base station of the room and its kind (pty, tcp, usb)."""

    station: VirtualBaseStation
    kind: str
    unplugged_at: float | None = None
    line_back_s: list[float] = field(default_factory=list)


class Room:
    """Stations, terminals and the clock display of one campaign run (nothing started)."""

    def __init__(
        self,
        folder: Path,
        size: Size,
        rates: FrameFaults,
        seed: int,
        speed: float,
        use_usb: bool,
    ) -> None:
        self.folder, self.size = folder, size
        self.event_file = folder / "campaign.toml"
        self.event_file.write_text(event_text(size), "utf-8")
        self.stations: list[StationInfo] = []
        self.terminals: list[VirtualTerminal] = []
        self.usb_env: dict[str, str] = {}
        kinds = ["pty"] * size.stations
        if size.stations >= 2:
            kinds[-1] = "tcp"
        if size.stations >= 3 and use_usb:
            kinds[-2] = "usb"
        seats = [(s, t) for s in letters(size.sections) for t in range(1, size.tables + 1)]
        shares = station_shares(len(seats), kinds)
        first = [sum(shares[:k]) for k in range(len(kinds))]
        for k, kind in enumerate(kinds):
            serial = f"BS-{k + 1:04d}"
            line: Any
            if kind == "tcp":
                line = SocketLine("127.0.0.1", 0)
            elif kind == "usb":
                from simulator import usb_line

                line = usb_line.UsbLine(*USB_IDS, f"BHBS{k + 1:04d}")
                self.usb_env = dict(usb_line.hub_environment())
            else:
                line = PtyLine(folder / f"base-{k + 1}")
            station = VirtualBaseStation(
                line, serial=serial, faults=make_faults(rates, seed * 100 + k)
            )
            mine = seats[first[k] : first[k] + shares[k]]
            for address, (letter, table) in enumerate(mine, 1):
                bot = PlayerBot(seed=seed * 100_000 + len(self.terminals), minutes_per_board=7.0)
                terminal = VirtualTerminal(
                    address,
                    f"BM-{letter}{table:03d}",
                    letter,
                    table,
                    bot,
                    speed=speed,
                    keying_s=KEYING_S,
                )
                station.add_terminal(terminal)
                self.terminals.append(terminal)
            self.stations.append(StationInfo(station, kind))
        self.clock = VirtualPanel(PtyLine(folder / "clock-1"))
        self.clock_unplugged_at: float | None = None
        self.clock_back_s: list[float] = []
        self._clock_seen = 0

    # -- what the hub opens -----------------------------------------------------------------
    def station_urls(self) -> list[str]:
        return [info.station.line.url for info in self.stations]

    def clock_spec(self) -> str:
        return f"panel:{self.clock.line.url}"

    def by_kind(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for info in self.stations:
            out[info.kind] = out.get(info.kind, 0) + 1
        return out

    def station(self, serial: str) -> StationInfo:
        return next(i for i in self.stations if i.station.serial == serial)

    def terminal(self, serial: str) -> VirtualTerminal:
        return next(t for t in self.terminals if t.serial == serial)

    # -- running ----------------------------------------------------------------------------
    def start(self) -> None:
        for info in self.stations:
            info.station.start()
        self.clock.start()

    async def stop(self) -> None:
        for info in self.stations:
            await info.station.stop()
            info.station.line.close()
        self.clock.detach()
        self.clock.line.close()

    # -- faults -----------------------------------------------------------------------------
    def unplug(self, serial: str) -> None:
        info = self.station(serial)
        info.station.unplug()
        info.unplugged_at = None

    def replug(self, serial: str) -> None:
        info = self.station(serial)
        info.station.replug()
        info.unplugged_at = info.station.clock()

    def unplug_clock(self) -> None:
        self.clock.unplug()
        self.clock_unplugged_at = None

    def replug_clock(self) -> None:
        self.clock.replug()
        self._clock_seen = self.clock.state.received
        self.clock_unplugged_at = time.monotonic()

    def reboot(self, serial: str) -> None:
        """Power the terminal off and on now, mid-entry or not."""
        self.terminal(serial).reboot()

    def watch_lines(self) -> None:
        """Record, for each replugged line, the time to the hub's next intact frame (the
        station's ``hub_heard``) and for the clock display its next line from the hub."""
        for info in self.stations:
            at = info.unplugged_at
            heard = info.station.hub_heard
            if at is not None and heard is not None and heard > at:
                info.line_back_s.append(heard - at)
                info.unplugged_at = None
        at = self.clock_unplugged_at
        if at is not None and self.clock.state.received > self._clock_seen:
            self.clock_back_s.append(time.monotonic() - at)
            self.clock_unplugged_at = None

    def lines_down(self) -> list[str]:
        """Replugged lines the hub has not spoken on yet."""
        out = [i.station.serial for i in self.stations if i.unplugged_at is not None]
        return out + (["clock"] if self.clock_unplugged_at is not None else [])

    # -- counts -----------------------------------------------------------------------------
    def confirmed(self) -> int:
        """Distinct result keys the terminals were told are stored (accepted or held)."""
        keys = set()
        for t in self.terminals:
            for r in (*t.log.accepted, *t.log.held):
                keys.add((r.section, r.table, r.round, r.board))
        return len(keys)

    def hub_epochs(self) -> set[int | None]:
        """The epochs of every hub heard so far (its HELLO, or its ACKs)."""
        acked = {e for t in self.terminals for e in t.log.acks_by_hub_epoch}
        return acked | {t.hub_epoch for t in self.terminals} | {None}

    def acks_under_other_hubs(self, known: set[int | None]) -> int:
        """Results acknowledged under a hub epoch not in ``known``: by a hub started since."""
        return sum(
            n for t in self.terminals for e, n in t.log.acks_by_hub_epoch.items() if e not in known
        )

    def acks(self) -> int:
        return sum(len(t.log.accepted) + len(t.log.held) for t in self.terminals)

    def unacked(self) -> int:
        return sum(len(t.unacked) for t in self.terminals)

    def frame_faults(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for info in self.stations:
            for k, v in info.station.faults.counts.items():
                out[k] = out.get(k, 0) + v
        return out

    def where(self) -> list[str]:
        """Each table not done: its round and boards confirmed there (for a stuck room)."""
        out = []
        for t in self.terminals:
            a = t.assignment
            done = {(r.round, r.board) for r in (*t.log.accepted, *t.log.held)}
            if len(done) < self.size.rounds * self.size.boards:
                rnd = a.round if a is not None else 0
                now = sum(1 for r, _ in done if r == rnd)
                out.append(
                    f"{t.section}{t.table}: round {rnd}, {now}/{self.size.boards} boards of "
                    f"the round, {len(done)} in all, {len(t.unacked)} unacknowledged, "
                    f"{t.log.gave_up} given up, last refusals {t.log.refused[-2:]}, "
                    f"last shown {t.log.shown[-2:]}"
                )
        return out
