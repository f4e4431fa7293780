"""Live scores of every board: each accepted result rescores its board, is checked for a
suspicious score, and the table is shown its traveller; a director's change rescores the
board from the store and tells the tables that played it.

``Scores`` belongs to the hub's asyncio loop; store reads and double dummy run in worker
threads and come back as plain data.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable

from hub.api.feed import Feed
from hub.event.double_dummy import DoubleDummy
from hub.event.event_file import EventFile
from hub.live.port.gateway import TerminalGateway
from hub.live.results.hand_record_solver import HandRecordSolver
from hub.live.results.intake import Intake
from hub.live.results.suspicious_scores import SuspiciousScores
from hub.live.results.table_hands import TableHands
from hub.live.teams.team_matches import round_matches, table_match
from hub.live.teams.team_tables import TeamTables, rankings_hidden
from hub.live.views import LiveViews
from hub.store.store import LiveLine, Store, StoredResult

log = logging.getLogger(__name__)
TOLD = {
    "erased": "The director erased board {board}: enter it again",
    "td_entry": "The director entered a result on board {board}",
    "accepted_held": "The director accepted your result on board {board}",
}


class Scores:
    """Live scores and travellers per board; on the hub's loop, store reads and double dummy
    in worker threads."""

    def __init__(
        self,
        store: Store,
        event_id: int,
        event: EventFile,
        views: LiveViews,
        suspicious: SuspiciousScores,
        gateway: TerminalGateway,
        feed: Feed,
        intake: Intake,
        current_round: Callable[[str], int],
    ) -> None:
        self.store = store
        self.event_id = event_id
        self.event = event
        self.views = views
        self.suspicious = suspicious
        self.gateway = gateway
        self.feed = feed
        self.intake = intake
        self.current_round = current_round
        self._version: dict[tuple[str, int], int] = {}  # results applied per board
        # the flags of a section changed on a terminal's result (a correction that clears
        # one): withheld standings may now go out (publication's ``publish_if_clear``)
        self.on_flags_changed: Callable[[str], Awaitable[None]] | None = None
        # a teams section's match changed on a result: a knockout's bracket view follows
        self.on_match: Callable[[str], None] | None = None
        self._checks: set[asyncio.Task[None]] = set()
        # hand records loaded by the director, by section: its older solutions are stale
        self.deals_loaded: dict[str, int] = {}
        self._waiting: list[StoredResult] | None = None  # accepted while loading (warm start)
        self.hands = TableHands(gateway)  # the hand records known, the tables owed one
        self.solver = HandRecordSolver(self.hands, self._deal_known)
        # a team match's other room and running score (issue 16 [TEAMS])
        self.team_tables = TeamTables(
            event, views, lambda s: self.intake.movements.get(s), gateway, current_round
        )

    @property
    def travellers_shown(self) -> bool:
        return self.event.rules.display.travellers != "never"

    def load(self, lines: list[LiveLine], penalties: list[dict]) -> None:
        """After a (re)start: everything stored, read in a worker thread."""
        self.views.load(lines, penalties)
        self.suspicious.load(lines)

    def begin_loading(self) -> None:
        """The hub answers its lines before the live scores are built (hub.live.service.warm_start):
        results accepted until ``load_soon`` ends are scored then, in their order."""
        self._waiting = []

    async def load_soon(
        self, lines: list[LiveLine], penalties: list[dict], every: int = 16
    ) -> None:
        """``load`` in slices of ``every`` boards, the loop free between them; then the
        results accepted meanwhile, ``every`` at a time too: after a restart under load
        they are thousands, and scored in one go they held the loop for seconds (a
        replugged line waited as long to be opened again: issue 12). Those accepted while
        these are scored join the queue, in their order (scoring one twice changes
        nothing: its line replaces itself)."""
        steps = itertools.chain(
            self.views.load_steps(lines, penalties), self.suspicious.load_steps(lines)
        )
        for n, _ in enumerate(steps, 1):
            if n % every == 0:
                await asyncio.sleep(0)
        waiting = self._waiting if self._waiting is not None else []
        done = 0
        while done < len(waiting):  # ``accepted`` appends to it until it is None
            stored = waiting[done]
            done += 1
            try:  # as on the way in: a scoring fault never stops the others
                self._score(stored)
            except Exception:
                log.exception("scoring result %d", stored.id)
            if done % every == 0:
                await asyncio.sleep(0)
        self._waiting = None  # no await since the queue was seen empty: none is left
        for section in self.views.sections:  # the matches as the drain left them, once
            self.publish_matches(section)

    def accepted(self, stored: StoredResult) -> None:
        """A terminal's result was stored: rescore, check, show the table its traveller."""
        if self._waiting is not None:  # the live scores are being built: scored after
            self._waiting.append(stored)
            return
        self._score(stored)

    def _score(self, stored: StoredResult) -> None:
        line = stored.line()
        key = (stored.section, stored.board)
        self._version[key] = self._version.get(key, 0) + 1
        self.views.result_stored(line)
        if self._waiting is None:  # the warm start's drain publishes once, at its end
            self.publish_match(stored.section, stored.table, stored.round)
            if self.on_match is not None:
                self.on_match(stored.section)
        if self.suspicious.put(line):
            self.publish_flags(stored.section, stored.board)
            self._flags_changed(stored.section)
        if self.travellers_shown:
            view = self.views.traveller(stored.section, stored.board, stored.table, stored.round)
            if view is not None:
                self.gateway.show_result(stored.section, stored.table, view)
                # what was makeable, once the table has played it: now or once known
                self.hands.played(stored.section, stored.board, stored.table)
        self.team_tables.result(stored.section, stored.table, stored.round, stored.board)

    def _flags_changed(self, section: str) -> None:
        """Decisions D12: standings withheld for a flag go out once no question is left,
        also when the table itself corrected the result (no director's act follows)."""
        if self.on_flags_changed is None:
            return
        task = asyncio.ensure_future(self.on_flags_changed(section))
        self._checks.add(task)
        task.add_done_callback(self._check_done)

    def _check_done(self, task: asyncio.Task[None]) -> None:
        self._checks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("publishing settled standings failed", exc_info=task.exception())

    def publish_flags(self, section: str, board: int) -> None:
        """A board's flags changed: its full list to the feed (empty: none open now)."""
        flags = [f.as_dict() for f in self.suspicious.board_flags(section, board)]
        self.feed.publish("suspicious", section=section, board=board, flags=flags)

    def publish_match(self, section: str, table: int, rnd: int) -> None:
        """A table's result in a teams section: its one match to the feed (``match``), when
        it is of the current round (the round's other matches did not change)."""
        movement = self.intake.movements.get(section)
        if movement is None or rnd != self.current_round(section):
            return
        match = table_match(self.views.sections.get(section), movement, section, table, rnd)
        if match is not None:
            hidden = rankings_hidden(self.event, movement, rnd)  # for the result screens
            self.feed.publish("match", section=section, round=rnd, match=match, hidden=hidden)

    def publish_matches(self, section: str) -> None:
        """A teams section's scores changed at large (a director's change of a board every
        match of the round plays, the end of a warm start): its round's matches."""
        movement = self.intake.movements.get(section)
        if self.views.unit(section) == "VP" and movement is not None:
            rnd = self.current_round(section)
            matches = round_matches(self.views.sections.get(section), movement, section, rnd)
            hidden = rankings_hidden(self.event, movement, rnd)
            self.feed.publish("matches", section=section, round=rnd, matches=matches, hidden=hidden)

    async def changed(
        self, section: str, board: int, why: str, table: int | None, rnd: int | None
    ) -> None:
        """A director's act changed a board: read it again, rescore, check, tell the feed,
        and show the new traveller at the tables of the current round that played it."""
        for _ in range(5):  # a terminal's result on the board stored meanwhile: read again
            seen = self._version.get((section, board), 0)
            lines, live = await asyncio.to_thread(self._board_from_store, section, board)
            if self._version.get((section, board), 0) == seen:
                break
        self.intake.board_changed(section, board, live)
        self.views.reload_board(section, board, lines)
        self.publish_matches(section)
        if self.on_match is not None:  # a knockout's bracket: what the change would do
            self.on_match(section)
        if self.suspicious.reload(section, board, lines):
            self.publish_flags(section, board)
        self.feed.publish("board_changed", section=section, board=board, why=why)
        self._tell_tables(section, board, why, table, rnd)

    def _board_from_store(
        self, section: str, board: int
    ) -> tuple[list[LiveLine], list[StoredResult]]:
        lines = [x for x in self.store.live_lines(self.event_id, section) if x.board == board]
        live = [r for r in self.store.live_results(self.event_id, section) if r.board == board]
        return lines, live

    def _tell_tables(
        self, section: str, board: int, why: str, table: int | None, rnd: int | None
    ) -> None:
        current = self.current_round(section)
        if table is not None and rnd == current:
            text = TOLD.get(why, "The director changed board {board}").format(board=board)
            self.gateway.message_table(section, table, text)
        if not self.travellers_shown:
            return
        for t, r in sorted(self.suspicious.played(section, board)):
            if r == current:
                view = self.views.traveller(section, board, t, r)
                if view is not None:
                    self.gateway.show_result(section, t, view)
        self.team_tables.board_changed(section, board)

    async def solve_deals(
        self, deals: dict[tuple[str, int], str], tricks: dict[tuple[str, int], str] | None = None
    ) -> None:
        """Double-dummy tables of the hand records by (section, board): the file's
        ``tricks`` where it has them, the others solved one at a time on the solver's own
        worker; each board is checked again as it is known, and its hand record goes to
        each table that has played it and to each that plays it from then on."""
        sections = {s for s, _ in deals}
        loaded = {s: self.deals_loaded.get(s, 0) for s in sections}
        self.hands.forget(sections)  # the director's new hand records replace
        await self.solver.solve(
            deals, tricks or {}, lambda s: loaded.get(s) == self.deals_loaded.get(s, 0)
        )

    def _deal_known(self, section: str, dd: DoubleDummy) -> None:
        self.hands.known(section, dd)
        if self.suspicious.deal_solved(section, dd.board, dict(dd.tricks)):
            self.publish_flags(section, dd.board)
