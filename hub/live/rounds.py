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
from hub.live import round_controller as rc
from hub.live.alerts import Alerts
from hub.live.gateway import Seat, TerminalGateway
from hub.live.next_seating import next_seating
from hub.live.round_clock import RoundClock
from hub.live.slow_play import TableRound
from hub.live.terminal_port import ClockView, SessionView, TableAssignment

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
    ) -> None:
        self.sections = sections
        self.gateway = gateway
        self.feed = feed
        self.alerts = alerts
        self.clock = clock
        self.record_clock = record_clock
        self.on_round_complete: RoundDone | None = None  # publication
        self.on_table_finished: TableDone | None = None  # slow play
        self.session_done = asyncio.Event()
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
        return effects

    @staticmethod
    def _guarded(apply: Callable[..., None], *args: object) -> None:
        try:
            apply(*args)
        except Exception:
            log.exception("carrying out %r", args[-1])

    def _apply_now(self, section: str, state: SectionRounds, effect: rc.Effect) -> None:
        if isinstance(effect, rc.RoundStarted):
            state.clock.start_round(effect.round, effect.at)
            for seat in self.gateway.in_section(section):
                self.assign(seat)
            if not effect.resumed:
                tables = self.tables(section, effect.round)
                self.feed.publish(
                    "round_started", section=section, round=effect.round, tables=tables
                )
        elif isinstance(effect, rc.RoundComplete):
            unplayed = [{"table": u.table, "boards": list(u.boards)} for u in effect.unplayed]
            self.feed.publish(
                "round_complete", section=section, round=effect.round, unplayed=unplayed
            )
            if unplayed:
                text = (
                    f"round {effect.round} of section {section} ended by the director; "
                    "not played: "
                    + ", ".join(
                        f"table {u.table} boards {', '.join(map(str, u.boards))}"
                        for u in effect.unplayed
                    )
                )
                self.alerts.raise_(text, section=section, round=effect.round)
        elif isinstance(effect, rc.SessionComplete):
            if all(s.controller.is_complete(s.movement.rounds) for s in self.sections.values()):
                self.session_done.set()
        elif isinstance(effect, rc.PaceChanged):
            self.feed.publish(
                "behind", section=section, round=effect.round, tables=list(effect.tables)
            )

    def _tell_next(self, section: str, state: SectionRounds, effect: rc.Effect) -> None:
        """NEXT_SEATING (docs/protocol.md §4): a table that finished the round is told where
        its pairs go next; when the round ends (the director may end it early) every table
        not yet told is. Once per table and round, always before the next assignment."""
        if isinstance(effect, rc.TableFinished):
            rnd, tables = effect.table_round.round, [effect.table_round.table]
        elif isinstance(effect, rc.RoundComplete):
            rnd, tables = (
                effect.round,
                [r.table for r in state.movement.round_rows(effect.round, section)],
            )
        else:
            return
        for table in tables:
            if (section, table, rnd) not in self._moving:
                self._moving.add((section, table, rnd))
                views = next_seating(state.movement, section, table, rnd)
                self.gateway.next_seating(section, table, views)

    async def _apply_later(self, section: str, state: SectionRounds, effect: rc.Effect) -> None:
        if isinstance(effect, rc.RoundComplete) and self.on_round_complete is not None:
            await self.on_round_complete(section, effect.round)
        elif isinstance(effect, rc.TableFinished) and self.on_table_finished is not None:
            await self.on_table_finished(section, effect.table_round)
        elif isinstance(effect, rc.RoundStarted):
            await self.record_clock(section, "start", effect.at, effect.round, None)

    async def resume(self, section: str, played: frozenset[tuple[int, int, int]]) -> None:
        """At start: the section's controller learns what the store holds and the round the
        stored clock started; a round without an official start starts now."""
        state = self.sections[section]
        starts = [r for r in range(1, state.movement.rounds + 1) if state.clock.official_start(r)]
        now = self.clock()
        await self.handle(section, rc.Resume(played, max(starts) if starts else None, now))
        if state.clock.official_start(state.round) is None:
            state.clock.start_round(state.round, now)
            await self.record_clock(section, "start", now, state.round, None)

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

    async def start_clock(self, section: str) -> float:
        """The current round's clock (and the slow-play measure) runs from now."""
        state = self.sections[section]
        now = self.clock()
        state.clock.start_round(state.round, now)
        await self.record_clock(section, "start", now, state.round, None)
        return now

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
        self.gateway.session(seat, SessionView(seat.section, state.movement.rounds))
        self.gateway.assign(
            seat,
            TableAssignment(
                seat.section, seat.table, state.round, row.ns_pair, row.ew_pair, row.boards
            ),
        )
        show = state.clock.show(self.clock())
        if show is not None:  # a table that just logged on needs the clock now
            view = ClockView(seat.section, show.round, show.phase.name.lower(), show.seconds_left)
            self.gateway.clock(seat, view)
        played = state.controller.table_round(seat.table, state.round)
        if played is not None and played.done:  # waiting for the next round (or the end)
            self._moving.add((seat.section, seat.table, state.round))
            views = next_seating(state.movement, seat.section, seat.table, state.round)
            self.gateway.next_seating(seat.section, seat.table, views)

    def tables(self, section: str, rnd: int | None = None) -> list[dict[str, Any]]:
        """The room as the console draws it: each table of the round, its progress."""
        state = self.sections[section]
        rnd = state.round if rnd is None else rnd
        ctl = state.controller
        return [
            {
                "table": row.table,
                "ns": row.ns_pair,
                "ew": row.ew_pair,
                "boards": list(row.boards),
                "done": ctl.done(row.table) if rnd == ctl.round else 0,
                "unverified": ctl.unverified(row.table) if rnd == ctl.round else 0,
                "minutes_behind": 0.0,
                "online": self.gateway.online(section, row.table),
                "battery": self.gateway.battery(section, row.table),
            }
            for row in state.movement.round_rows(rnd, section)
        ]
