"""The rounds of every section: each section's round controller (a pure state machine) and
round clock, and what the hub does with the controller's effects — the next round's
assignments and clock, the feed, the director's alerts, publication and slow play.

``Rounds`` belongs to the hub's asyncio loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from hub.api.feed import Feed
from hub.event.movement.model import Movement
from hub.live.oversight import crash_points
from hub.live.oversight.alerts import Alerts
from hub.live.port.gateway import Seat, TerminalGateway
from hub.live.port.next_seating import next_seating
from hub.live.port.terminal_port import ClockView, SessionView, TableAssignment
from hub.live.rounds import round_controller as rc
from hub.live.rounds.room_view import room_tables
from hub.live.rounds.round_clock import RoundClock
from hub.live.rounds.round_events import ended_early
from hub.live.rounds.round_times import timed
from hub.live.rounds.slow_play import TableRound

log = logging.getLogger(__name__)
RecordClock = Callable[[str, str, float, int | None, float | None], Awaitable[None]]
RoundDone = Callable[[str, int], Awaitable[None]]
TableDone = Callable[[str, TableRound], Awaitable[None]]


@dataclass
class SectionRounds:
    """One section: its movement, round clock and round controller."""

    movement: Movement
    clock: RoundClock
    controller: rc.RoundController
    waiting: bool = False  # the round's clock waits for the director's start (issue 13)

    @property
    def round(self) -> int:
        return self.controller.round


class Rounds:
    """Every section's rounds and what their controllers' effects do; on the hub's loop."""

    def __init__(
        self,
        sections: dict[str, SectionRounds],
        gateway: TerminalGateway,
        feed: Feed,
        alerts: Alerts,
        clock: Callable[[], float],
        record_clock: RecordClock,
        wait_for_director: bool = False,
    ) -> None:
        self.sections = sections
        self.gateway = gateway
        self.feed = feed
        self.alerts = alerts
        self.clock = clock
        self.record_clock = record_clock
        self.on_round_complete: RoundDone | None = None  # publication
        self.on_table_finished: TableDone | None = None  # slow play
        self.on_event: Callable[[str, rc.Event], Awaitable[None]] | None = None  # late starts
        self.on_session_complete: Callable[[str], Awaitable[None]] | None = None
        self.on_round_started: Callable[[str], None] = lambda section: None  # the matches
        self.session_done = asyncio.Event()  # every section's end recorded and announced
        self.wait_for_director = wait_for_director  # round 1's clock waits for start_clock
        self.final: set[str] = set()  # sections whose session is over (final results)
        self._moving: set[tuple[str, int, int]] = set()  # (section, table, round) told where next

    def controller(self, section: str) -> rc.RoundController:
        return self.sections[section].controller

    def current(self, section: str) -> int:
        return self.sections[section].round

    # -- events in ---------------------------------------------------------------------------
    async def handle(self, section: str, event: rc.Event) -> list[rc.Effect]:
        """Feed the section's controller and carry out its effects in order: first what
        decides (clock, assignments, feed), then what waits for the store. One effect that
        fails is logged and does not stop the others (the controller has decided)."""
        state = self.sections.get(section)
        if state is None:
            return []
        effects = state.controller.handle(event)
        for effect in effects:
            self._guarded(self._apply_now, section, state, effect)
            if not isinstance(event, rc.Resume):
                self._guarded(self._tell_next, section, state, effect)
        for effect in effects:
            if isinstance(event, rc.Resume) and isinstance(
                effect, rc.TableFinished | rc.RoundComplete
            ):
                continue  # settled before the restart: publication decides once deals are solved
            try:
                await self._apply_later(section, state, effect)
            except Exception:
                log.exception("carrying out %r in section %s", effect, section)
        if self.on_event is not None:  # after the controller: its first actions, its ticks
            try:
                await self.on_event(section, event)
            except Exception:
                log.exception("watching %r in section %s", event, section)
        return effects

    @staticmethod
    def _guarded(apply: Callable[..., None], *args: object) -> None:
        try:
            apply(*args)
        except Exception:
            log.exception("carrying out %r", args[-1])

    def _apply_now(self, section: str, state: SectionRounds, effect: rc.Effect) -> None:
        if isinstance(effect, rc.RoundStarted):  # a round played on starts it; round 1's
            fresh = self.wait_for_director and state.clock.official_start(1) is None  # D19
            state.waiting = (state.waiting and effect.resumed) or (fresh and effect.round == 1)
            if not state.waiting:
                state.clock.start_round(effect.round, effect.at)
            for seat in self.gateway.in_section(section):
                self.assign(seat)
            if not effect.resumed:  # then the round's matches (a three-way's rooms move)
                tables, rnd = self.tables(section, effect.round), effect.round
                self.feed.publish("round_started", section=section, round=rnd, tables=tables)
                self.on_round_started(section)
        elif isinstance(effect, rc.RoundComplete):
            unplayed = [{"table": u.table, "boards": list(u.boards)} for u in effect.unplayed]
            self.feed.publish(
                "round_complete", section=section, round=effect.round, unplayed=unplayed
            )
            if unplayed:
                text = ended_early(section, effect.round, effect.unplayed)
                self.alerts.raise_(text, section=section, round=effect.round)
        elif isinstance(effect, rc.SessionComplete):
            self.final.add(section)
            for seat in self.gateway.in_section(section):  # SETTINGS final: final results
                self.tell_session(seat)
        elif isinstance(effect, rc.PaceChanged):
            self.feed.publish(
                "behind", section=section, round=effect.round, tables=list(effect.tables)
            )

    def _tell_next(self, section: str, state: SectionRounds, effect: rc.Effect) -> None:
        """NEXT_SEATING (docs/protocol.md §4): a finished table, then at the round's end every
        table not yet told, once, before the next assignment, learns where its pairs go."""
        if isinstance(effect, rc.TableFinished):
            rnd, tables = effect.table_round.round, [effect.table_round.table]
        elif isinstance(effect, rc.RoundComplete):
            rnd, tables = (
                effect.round,
                [r.table for r in state.movement.round_rows(effect.round, section)],
            )
        else:
            return
        if rnd == state.round and state.controller.waits_for_draw():
            return  # D19: told when the next round's draw is published (rounds.assign)
        for table in tables:
            if (section, table, rnd) not in self._moving:
                self._moving.add((section, table, rnd))
                views = next_seating(state.movement, section, table, rnd)
                self.gateway.next_seating(section, table, views)

    async def _apply_later(self, section: str, state: SectionRounds, effect: rc.Effect) -> None:
        plan = crash_points.PLAN  # a round told to the tables, its start not yet recorded:
        if plan is not None and isinstance(effect, rc.RoundStarted) and not effect.resumed:
            plan.reached(crash_points.CrashKind.ROUND_CHANGE)
        if isinstance(effect, rc.RoundComplete) and self.on_round_complete is not None:
            await self.on_round_complete(section, effect.round)
        elif isinstance(effect, rc.TableFinished) and self.on_table_finished is not None:
            await self.on_table_finished(section, effect.table_round)
        elif isinstance(effect, rc.RoundStarted) and not state.waiting:
            await self.record_clock(section, "start", effect.at, effect.round, None)
        elif isinstance(effect, rc.SessionComplete):  # done once recorded and announced
            try:
                if self.on_session_complete is not None:
                    await self.on_session_complete(section)
            finally:
                if self.final >= set(self.sections):
                    self.session_done.set()

    async def resume(self, section: str, played: frozenset[tuple[int, int, int]]) -> None:
        """At start: the section's controller learns what the store holds and the round the
        stored clock started; a round without an official start starts now."""
        state = self.sections[section]
        starts = [r for r in range(1, state.movement.rounds + 1) if state.clock.official_start(r)]
        now = self.clock()
        # nothing started: the TD starts it; a round 1 not drawn yet waits for its draw (D19)
        state.waiting = (self.wait_for_director and not starts) or state.movement.layout.undrawn(1)
        await self.handle(section, rc.Resume(played, max(starts) if starts else None, now))
        if state.clock.official_start(state.round) is None and not state.waiting:
            state.clock.start_round(state.round, now)
            await self.record_clock(section, "start", now, state.round, None)
        if self.final >= set(self.sections):  # ended before the restart (recorded)
            self.session_done.set()

    # -- the director ------------------------------------------------------------------------
    async def next_round(self, section: str) -> dict[str, Any]:
        """The director moves the section on now (raises ``RoundRefused`` in the last
        round); the boards not played are reported for the director's scores."""
        effects = await self.handle(section, rc.NextRound(self.clock()))
        unplayed = [
            {"table": u.table, "boards": list(u.boards)}
            for e in effects
            if isinstance(e, rc.RoundComplete)
            for u in e.unplayed
        ]
        return {"round": self.current(section), "unplayed": unplayed}

    async def start_clock(self, section: str, restart: bool = False) -> float:
        """The current round's clock (and the slow-play measure) runs from now; a round
        whose clock runs starts again from full time only when ``restart`` is given (raises
        ``RoundRefused`` otherwise, saying the time left). The tables are told."""
        state = self.sections[section]
        now = self.clock()
        show = state.clock.show(now)
        running = not state.waiting and state.clock.official_start(state.round) is not None
        if section in self.final:
            raise rc.RoundRefused(f"the session of section {section} is over: final results")
        if running and show is not None and not restart:
            left = show.seconds_left
            raise rc.RoundRefused(
                f"round {state.round} of section {section} is running "
                f"({'-' * (left < 0)}{abs(left) // 60}:{abs(left) % 60:02d} left): "
                "restart its clock from full time? (send restart: true)"
            )
        state.clock.start_round(state.round, now)
        state.waiting = False
        await self.record_clock(section, "start", now, state.round, None)
        for seat in self.gateway.in_section(section):  # SETTINGS without "waiting", CLOCK
            self.tell_session(seat)
        return now

    async def change_movement(
        self, section: str, movement: Movement, played: frozenset[tuple[int, int, int]]
    ) -> None:
        """Another movement from the current round on (late pair, withdrawal, new movement):
        a controller for it, resumed from what is played as after a restart, its clock's
        board counts; every seated terminal is told its table again."""
        state, old = self.sections[section], self.sections[section].controller
        state.movement = movement
        state.controller = rc.RoundController(
            section,
            movement,
            auto_advance=old.auto_advance,
            needs_verification=old.needs_verification,
        )
        state.clock.boards_per_round.clear()
        timed(state.clock, movement, section)
        await self.handle(section, rc.Resume(played, old.round, self.clock()))
        for seat in self.gateway.in_section(section):
            self.assign(seat)

    # -- the tables ------------------------------------------------------------------------
    def assign(self, seat: Seat) -> None:
        """Tell a seated terminal its table's current round, and the clock; a table that
        has finished the round is told again where its pairs go next (docs/protocol.md
        §4.3 step 6): its NEXT_SEATING may have died with a hub killed before it went out,
        and a terminal shown the same one twice just shows it again."""
        assert seat.section is not None and seat.table is not None
        state = self.sections.get(seat.section)
        if state is None:
            return
        row = state.movement.row(seat.section, seat.table, state.round)
        if row is None:
            return
        if state.movement.layout.undrawn(state.round):  # D19: its table once drawn
            return self.tell_session(seat)
        self.tell_session(
            seat,
            assignment=TableAssignment(
                seat.section, seat.table, state.round, row.ns_pair, row.ew_pair, row.boards
            ),
        )
        played = state.controller.table_round(seat.table, state.round)
        if played is not None and played.done and not state.controller.waits_for_draw():
            self._moving.add((seat.section, seat.table, state.round))
            views = next_seating(state.movement, seat.section, seat.table, state.round)
            self.gateway.next_seating(seat.section, seat.table, views)

    def tell_session(self, seat: Seat, assignment: TableAssignment | None = None) -> None:
        """SETTINGS (waiting for the director, final), the ``assignment`` if given, and the
        clock (none once the session is over): a table that just logged on needs it now."""
        assert seat.section is not None
        state, final = self.sections[seat.section], seat.section in self.final
        view = SessionView(seat.section, state.movement.rounds, state.waiting, final)
        self.gateway.session(seat, view)
        if assignment is not None:
            self.gateway.assign(seat, assignment)
        show = state.clock.show(self.clock())
        if show is not None and not final:
            clock = ClockView(seat.section, show.round, show.phase.name.lower(), show.seconds_left)
            self.gateway.clock(seat, clock)

    def tables(self, section: str, rnd: int | None = None) -> list[dict[str, Any]]:
        """The room as the console draws it: each table of the round, its progress."""
        state = self.sections[section]
        return room_tables(state.movement, state.controller, self.gateway, section, rnd)
