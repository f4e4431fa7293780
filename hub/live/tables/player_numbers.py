"""Member numbers keyed at the tables (issue 13 "Names"): the number is stored for the
player at that seat; the name comes from the event's players, or else from the club roster
(``[event] roster``), and goes back to the terminal (PLAYER_NAME), into the store and onto
the standings. A roster the hub cannot read is reported to the director once, with its
line, and the number is still stored.

``PlayerNumbers`` belongs to the hub's asyncio loop; store and file work runs in worker
threads."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from sqlalchemy.engine import make_url

from hub.event.roster import RosterError, read_roster, roster_file
from hub.live.oversight.alerts import Alerts
from hub.live.port import terminal_port as tp
from hub.live.port.gateway import Seat, TerminalGateway
from hub.live.rounds.section_rounds import Rounds
from hub.live.views import LiveViews
from hub.standings.rows import names_of
from hub.store.store import Store

log = logging.getLogger(__name__)


class PlayerNumbers:
    """A member number keyed at a seat: the player's name found and told; on the hub's loop.
    ``event_dir``: the event file's folder, where the roster is (without it: the SQLite
    store's folder, then the working directory)."""

    def __init__(
        self,
        store: Store,
        event_id: int,
        gateway: TerminalGateway,
        rounds: Rounds,
        views: LiveViews,
        alerts: Alerts,
        event_dir: Path | None = None,
    ) -> None:
        self.store = store
        self.event_id = event_id
        self.gateway = gateway
        self.rounds = rounds
        self.views = views
        self.alerts = alerts
        self.event_dir = event_dir
        self._reported: set[str] = set()  # roster problems the director has been told

    async def keyed(self, seat: Seat, m: tp.PlayerKeyed) -> None:
        """Store the number for the pair at that seat; send the name back (empty if no one
        knows it)."""
        state = self.rounds.sections.get(m.section)
        row = state.movement.row(m.section, m.table, m.round) if state else None
        if row is None or m.seat > 3:
            return
        pair = row.ns_pair if m.seat in (0, 2) else row.ew_pair
        index = 0 if m.seat in (0, 1) else 1
        if pair <= 0:  # the sit-out's side: nobody sits there, no "pair 0" is stored
            log.warning("member number %s keyed for an empty seat at %s", m.number, seat.serial)
            view = tp.PlayerNameView(m.section, m.table, m.round, m.seat, m.number, "")
            self.gateway.player_name(seat, view)
            return
        name, problem = await asyncio.to_thread(self.member_name, m.number)
        if problem is not None and problem not in self._reported:  # told once
            self._reported.add(problem)
            log.warning("club roster: %s", problem)
            self.alerts.raise_(f"the club roster cannot be read: {problem}", section=m.section)
        await asyncio.to_thread(
            self.store.set_player,
            self.event_id,
            m.section,
            pair,
            index,
            name=name,
            number=m.number,
            actor=seat.serial,
        )
        names = await asyncio.to_thread(self.store.contestants, self.event_id, m.section)
        self.views.set_names(m.section, names_of(names))  # the standings show them
        view = tp.PlayerNameView(m.section, m.table, m.round, m.seat, m.number, name or "")
        self.gateway.player_name(seat, view)

    # -- worker thread -------------------------------------------------------------------
    def member_name(self, number: str) -> tuple[str | None, str | None]:
        """The event's player with this number, else the club roster's member; and the
        roster's problem, if it cannot be read (the director's pair commands use it too:
        hub.live.desk.member_names)."""
        for c in self.store.contestants(self.event_id):
            for player in c["players"] or []:
                if player.get("number") == number and player.get("name"):
                    return str(player["name"]), None
        name = self.store.event(self.event_id).event.roster
        if name is None:
            return None, None
        try:  # read now: a club may fix the file during the evening
            return read_roster(roster_file(name, self._places())).name(number), None
        except RosterError as e:
            return None, str(e)

    def _places(self) -> list[Path]:
        places = [self.event_dir] if self.event_dir is not None else []
        url = make_url(self.store.engine.url)
        if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
            places.append(Path(url.database).resolve().parent)
        return [*places, Path.cwd()]
