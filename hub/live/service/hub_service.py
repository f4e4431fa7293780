"""The composition root of ``bridgehub run`` (decisions D1, D17): it reads what the store
holds, builds the hub's parts, wires them and runs their tasks under a supervisor. It
decides nothing itself; ``docs/hub.md`` maps the parts and how a result travels.

``HubService`` belongs to the asyncio loop that runs it; only the loop touches the parts'
state, and every blocking store call runs in a worker thread.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drivers.base_station import BaseStationDriver
from drivers.clock.driver import ClockDriver
from hub.api.feed import Feed
from hub.api.server import ApiServer
from hub.event.pair_labels import numbering
from hub.live.desk.director_parts import director_commands
from hub.live.oversight.alerts import Alerts
from hub.live.oversight.audit_trail import AuditTrail
from hub.live.oversight.supervisor import Supervisor
from hub.live.port.base_station import BaseStationPort
from hub.live.port.gateway import TerminalGateway
from hub.live.results.hand_record_solver import lines_open
from hub.live.results.intake import Intake
from hub.live.results.no_play import tell_again
from hub.live.results.stored import Stored
from hub.live.results.suspicious_scores import SuspiciousScores
from hub.live.rounds.clock_log import ClockLog
from hub.live.rounds.clock_ticker import ClockTicker
from hub.live.rounds.section_rounds import SectionRounds
from hub.live.service.closing import close_all
from hub.live.service.devices import devices_read
from hub.live.service.hub_parts import (
    api_server,
    round_parts,
    scoring_parts,
    snapshots,
    table_parts,
)
from hub.live.tables.silent_tables import SilentTables
from hub.live.teams.bye_warning import bye_warnings
from hub.live.views import LiveViews
from hub.store.store import Store
from hub.web_terminal import web_terminals

if TYPE_CHECKING:  # the browser terminals' server is imported only when there are some
    from hub.web_terminal.server import WebTerminals

log = logging.getLogger(__name__)


class HubService:
    """The live hub, composed from its parts; runs on the asyncio loop that starts it."""

    def __init__(
        self,
        store: Store,
        event_id: int,
        station_urls: list[str],
        *,
        clock: Callable[[], float] = time.time,
        auto_advance: bool = True,
        clock_displays: list[tuple[str, str]] | None = None,
        tick_s: float = 1.0,
        api: tuple[str, int] | None = None,
        td_pin: str = "",
        allow_remote_feed: bool = False,
        wait_for_director: bool = False,  # round 1's clock waits for start_clock (issue 13)
        event_dir: Path | None = None,  # the event file's folder: the club roster is there
        terminals: tuple[str, int] | None = None,  # browser terminals (issue 15): host, port
    ) -> None:
        self.store = store
        self.event_id = event_id
        self.clock = clock
        self.auto_advance = auto_advance
        self.tick_s = tick_s
        self.ports = [
            BaseStationPort(BaseStationDriver(url), f"station-{k}")
            for k, url in enumerate(station_urls)
        ]
        self.displays = [ClockDriver(url, protocol) for protocol, url in clock_displays or []]
        self.feed = Feed()
        self.supervisor = Supervisor()
        self.api: ApiServer | None = None
        self.web: WebTerminals | None = None  # the browser terminals, when ``terminals``
        self._api_at, self._pin, self._remote_feed = api, td_pin, allow_remote_feed
        self._wait, self._event_dir, self._terminals_at = wait_for_director, event_dir, terminals

    async def start(self) -> None:
        """Read what the lines need, build the parts, open the API, then the lines; then
        (the lines already answered) the live results and scores (hub.live.service.warm_start)."""
        stored = await asyncio.to_thread(Stored.first, self.store, self.event_id)
        epoch = await asyncio.to_thread(self.store.next_boot)  # the lines' epoch (protocol §3)
        for station in self.ports:  # base stations: the epoch, the room's pair numbers (F16)
            station.driver.begin_epoch(epoch)
            station.set_numbering(numbering(stored.movements))
        self._compose(stored)
        tell_again(self.alerts, stored.no_plays)  # D21: a NO PLAY waiting for a score
        try:  # a warning only: an odd movement it cannot read must not stop the start
            for letter, text in bye_warnings(stored.event, stored.movements):  # [MENDS] #25
                self.alerts.raise_(text, section=letter)
        except Exception:
            log.exception("foreseeing the byes")
        self.intake.load([], stored.deals)  # the live results: WarmStart.run, and priors
        self.rounds.final |= await self.session_end.load()  # ended before a restart
        played = stored.played()
        for letter in self.rounds.sections:
            await self.rounds.resume(letter, played.get(letter, frozenset()))
        try:
            if self.api is not None:  # first: a port in use leaves no line open
                await self.api.start()
            if self.web is not None:  # its table codes, then its port
                await self.web.start()
            self._run_tasks(stored)
            await self.warm.ready.wait()  # the lines answer meanwhile
        except BaseException:
            await self.stop()
            raise

    def _compose(self, stored: Stored) -> None:
        """The parts, each given those built before it; a group of them is built and joined
        to the others in ``hub.live.service.hub_parts`` (the director's commands in
        ``hub.live.desk.director_parts``)."""
        event, feed, clock = stored.event, self.feed, self.clock
        self.event = event
        self.alerts = Alerts(feed)
        self.audit = AuditTrail(self.store, self.event_id, clock, self.alerts.raise_)
        self.intake = Intake(stored.movements, self.audit.record, event.room.terminals)
        self.web = web_terminals(self.store, self.event_id, stored, self.intake, self._terminals_at)
        self.gateway = TerminalGateway([*self.ports, *([self.web.port] if self.web else [])])
        for station in self.ports:  # a line that cannot be opened: the director is told
            station.driver.on_problem = self.alerts.raise_
        self.views = LiveViews(event, stored.movements, stored.names, self.alerts.raise_)
        self.suspicious = SuspiciousScores(event.rules.suspicious.limits(), stored.valid_marks)
        self.clock_log = ClockLog(self.store, self.event_id)
        verification = event.rules.display.verification != "none"
        self.rounds, self.session_end = round_parts(
            self,
            stored,
            auto_advance=self.auto_advance,
            verification=verification,
            wait_for_director=self._wait,
        )
        self.scores, self.publication, self.warm = scoring_parts(self, stored)
        self.requests = table_parts(
            self, verification=verification, td_pin=self._pin, event_dir=self._event_dir
        )
        self.ticker = ClockTicker(
            self.rounds, self.gateway, self.displays, feed, clock, tick_s=self.tick_s
        )
        self.silent = SilentTables(self.rounds, self.gateway, feed, self.alerts, clock)
        self.snapshots = snapshots(self)
        member_name = self.requests.player_numbers.member_name  # the club roster (G7)
        self.commands, self.pairs, self.draws, self.knockouts = director_commands(
            self, stored, member_name
        )
        self.api = api_server(self, self._api_at, self._pin, self._remote_feed)

    def _run_tasks(self, stored: Stored) -> None:
        sup = self.supervisor
        for port in self.gateway.ports.values():  # base stations, browser terminals
            for name, job in port.tasks().items():
                sup.spawn(name, job)
            sup.spawn(f"{port.name} requests", partial(self.requests.serve, port))
        for display in self.displays:
            sup.spawn(f"clock display {display.url}", display.run)
        sup.spawn("warm start", self.warm.run)
        sup.spawn("result writer", self.requests.writer.run)
        sup.spawn("round clock", self.ticker.run)
        sup.spawn("silent tables", self.silent.run)
        sup.spawn("audit trail", self.audit.run)
        sup.spawn("team draws", partial(self.draws.after_start, self.warm.ready))
        sup.spawn("knockouts", partial(self.knockouts.after_start, self.warm.ready))
        sup.spawn("device register", self.requests.devices.run)
        limits = self.suspicious.limits
        checked = limits is not None and limits.double_dummy is not None
        solve = stored.deals if checked or self.scores.travellers_shown else {}  # + HAND_RECORD
        name = "double dummy" if solve else "publish settled rounds"
        lines = [p.driver.connected for p in self.ports if isinstance(p, BaseStationPort)]
        opened = partial(lines_open, lines)
        sup.spawn(name, partial(self.warm.settle, solve, stored.tricks, opened))

    async def stop(self) -> None:
        """Stop serving; every driver is closed, whatever fails on the way (logged)."""
        closing = [self.supervisor.stop(), *(p.stop() for p in self.ports)]
        closing += [d.stop() for d in self.displays]
        closing[:0] = [s.stop() for s in (self.api, self.web) if s is not None]
        if hasattr(self, "audit"):
            closing += [self.audit.flush(), self.requests.devices.flush()]
        if hasattr(self, "draws"):
            self.draws.cancel()
            self.knockouts.cancel()
        await close_all(closing)
        if hasattr(self, "scores"):  # its task stopped with the supervisor: no more solving
            self.scores.solver.close()

    @property
    def session_done(self) -> asyncio.Event:
        return self.rounds.session_done

    @property
    def sections(self) -> dict[str, SectionRounds]:
        return self.rounds.sections

    async def snapshot(self) -> dict[str, Any]:
        return await self.snapshots.build()

    def standings_rows(self, section: str) -> list[dict[str, Any]]:
        return self.views.rows(section)

    def devices(self) -> dict[str, Any]:
        now, silent = self.clock(), self.silent.rows()
        return devices_read(self.gateway, self.displays, self.supervisor, now, silent)
