"""The draws of team sections drawn while the event runs (decisions D19): the next round's
draw is held as a proposal once the round it is drawn from is over; the director reviews,
edits and publishes it (``draw_show``, ``draw_swap``, ``draw_publish``:
``hub.live.teams.draw_edit``), or the event publishes it at once.
Publishing appends the round to the movement in the store (earlier rounds untouched),
audited with the draw and its lot seed, and every table of the section is told its next
assignment. The director's commands and a team's withdrawal (``hub.live.teams.team_withdrawal``)
work on the draws through ``TeamDraws``'s public methods, one change at a time (``changing``).

``TeamDraws`` belongs to the hub's asyncio loop.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import Any

from hub.api.feed import Feed
from hub.api.server import CommandError
from hub.event.event_file import EventFile
from hub.event.movement.drawn import free_board, with_round
from hub.event.movement.model import Movement, MovementError
from hub.live.oversight.alerts import Alerts
from hub.live.port.next_seating import next_seating
from hub.live.rounds import round_controller as rc
from hub.live.rounds.round_times import timed
from hub.live.rounds.section_rounds import RoundDone, Rounds
from hub.live.teams.draw_proposal import DrawSpec, NotReady, draw_json, draw_spec, played, propose
from hub.live.views import LiveViews, TeamsLive
from hub.store.store import Store
from hub.store.values import StoreError
from scoring.draw.model import Draw, MatchPlayed

log = logging.getLogger(__name__)
LOT_SEED = "draw_lot_seed"  # the audit entry of a lot seed the hub drew for a round


class TeamDraws:
    """Every drawn section's next draw: proposed, held for the director (``proposals``;
    ``bases``: the draws the director's edits were made from), published. On the hub's
    loop; ``movements`` is the hub's one map of section to movement (the intake reads it)."""

    def __init__(
        self,
        store: Store,
        event_id: int,
        event: EventFile,
        movements: dict[str, Movement],
        rounds: Rounds,
        views: LiveViews,
        feed: Feed,
        alerts: Alerts,
        clock: Callable[[], float],
    ) -> None:
        self.store, self.event_id = store, event_id
        self.movements, self.rounds, self.views = movements, rounds, views
        self.feed, self.alerts, self.clock = feed, alerts, clock
        self.specs: dict[str, DrawSpec] = {
            s: spec for s in movements if (spec := draw_spec(event, s)) is not None
        }
        self.proposals: dict[str, Draw] = {}
        self.bases: dict[str, Draw] = {}  # an edited proposal's draw as the hub made it
        self._seeds: dict[tuple[str, int], int] = {}  # a lot seed drawn once per round
        self.changing = asyncio.Lock()  # one change at a time: a publish, an edit, a withdrawal
        self._offering = asyncio.Lock()  # one draw worked out and offered at a time
        self._ready = asyncio.Event()  # the live scores are built (a restart's load is done)
        self._tasks: set[asyncio.Task[None]] = set()  # the draws after rounds, under way
        self.matches_changed: Callable[[str], None] | None = None  # the round's matches out

    # -- the proposal ------------------------------------------------------------------------
    def spec(self, section: str) -> DrawSpec:
        """How the section is drawn; a command for a section whose movement is fixed is
        refused (``CommandError``)."""
        spec = self.specs.get(section)
        if spec is None:
            raise CommandError(
                f"section {section} is not drawn while it runs: its movement is fixed "
                "(a Swiss, Danish or Monrad section has draw = ... in its movement)"
            )
        return spec

    def live(self, section: str) -> TeamsLive:
        """The section's live team scores."""
        live = self.views.sections[section]
        assert isinstance(live, TeamsLive)
        return live

    def history(self, section: str) -> list[MatchPlayed]:
        """Every drawn round's matches and byes as the next draw counts them (an edit
        counts its repeats and second byes against them)."""
        spec, movement = self.spec(section), self.movements[section]
        over = self.rounds.controller(section).is_complete
        return played(spec, movement, section, self.live(section), over)

    async def draw(self, section: str) -> Draw:
        """The next round's draw as the standings stand now (``NotReady``, ``ValueError``)."""
        spec, movement = self.spec(section), self.movements[section]
        live = self.live(section)
        seed = await self._lot_seed(section, movement.layout.drawn + 1)
        over = self.rounds.controller(section).is_complete
        return propose(spec, movement, section, live, over, seed)

    async def _lot_seed(self, section: str, rnd: int) -> int:
        """The seed of every lot of the round's draw when the event gives none: drawn once
        and recorded before it is used, so a restarted hub draws the same (D19)."""
        if self.spec(section).lot_seed is None and (section, rnd) not in self._seeds:
            seed = secrets.randbelow(2**31)
            detail = {"section": section, "round": rnd, "lot_seed": seed}
            await asyncio.to_thread(self.store.audit, self.event_id, "hub", LOT_SEED, detail)
            self._seeds.setdefault((section, rnd), seed)
        return self._seeds.get((section, rnd), 0)

    async def draw_or_refuse(self, section: str) -> Draw:
        """The next round's draw for a director's command, which is refused
        (``CommandError``) with what the draw waits for or why it cannot be made."""
        try:
            return await self.draw(section)
        except NotReady as e:
            raise CommandError(f"section {section}: {e}") from None
        except ValueError as e:
            raise CommandError(f"section {section}: the draw cannot be made: {e}") from None

    def shown(self, draw: Draw, section: str) -> dict[str, Any]:
        """The draw as the console, the API and the audit trail show it (``draw_json``)."""
        names, movement = self.views.names.get(section, {}), self.movements[section]
        return draw_json(draw, names, section, movement, free_board(self.movements.values()))

    async def round_complete(self, section: str, rnd: int) -> None:
        """After a round: the next draw, if it can be made now, goes to the director (or
        is published at once when the event says so, and the next after it). Nothing
        before the live scores are built: a draw is never made from half-loaded scores."""
        spec = self.specs.get(section)
        if spec is None or not self._ready.is_set():
            return
        async with self._offering:
            while section not in self.proposals:
                try:
                    draw = await self.draw(section)
                except NotReady:
                    return
                except ValueError as e:
                    why = f"section {section}: the next draw cannot be made: {e}"
                    return self.alerts.raise_(why, section=section)
                if not spec.at_once:
                    return self._offer(section, draw)
                try:
                    await self._publish(section, draw, "hub")
                except CommandError as e:
                    return self.alerts.raise_(f"{e} (not published)", section=section)

    def _offer(self, section: str, draw: Draw) -> None:
        self.proposals[section] = draw
        self.feed.publish("draw_proposed", **self.shown(draw, section))
        self.alerts.raise_(
            f"round {draw.round} of section {section} is drawn: review and publish it "
            "(the console's D key)",
            section=section,
            round=draw.round,
        )

    def after(self, publication: RoundDone) -> RoundDone:
        """The hub's round-complete hook: the standings' publication, then the draw."""

        async def round_done(section: str, rnd: int) -> None:
            await publication(section, rnd)
            # its own task: a round that ends while a draw is published never waits for it
            task = asyncio.get_running_loop().create_task(self.round_complete(section, rnd))
            self._tasks.add(task)
            task.add_done_callback(self._finished)

        return round_done

    def cancel(self) -> None:
        """The hub stops: the draws under way stop with it (the next start offers them)."""
        for task in list(self._tasks):
            task.cancel()

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("the next draw after a round failed", exc_info=task.exception())

    async def after_start(self, ready: asyncio.Event) -> None:
        """Once a restarted hub's live scores are built: a draw that can be made and is
        not published yet goes to the director again (or out, ``at_once``), with the lot
        seeds already drawn."""
        recorded = await asyncio.to_thread(self.store.audit_log, self.event_id, LOT_SEED)
        for entry in recorded:
            d = entry["detail"]
            self._seeds[(str(d["section"]), int(d["round"]))] = int(d["lot_seed"])
        await ready.wait()
        self._ready.set()
        for section in self.specs:
            await self.round_complete(section, 0)

    # -- publishing --------------------------------------------------------------------------
    def forget(self, section: str) -> None:
        """The proposal and any edit of it go (published, or to be drawn again)."""
        self.proposals.pop(section, None)
        self.bases.pop(section, None)

    def follow(self, section: str, movement: Movement) -> None:
        """The section's stored movement changed: the hub's one map of movements, the live
        scores and the round state follow."""
        self.movements[section] = movement
        self.live(section).follow(movement)
        self.rounds.sections[section].movement = movement

    def with_draw(self, section: str, draw: Draw) -> Movement:
        """The section's movement with the draw's round in it (``MovementError``: the draw
        does not fit), its boards after every section's (the session's deals are one set)."""
        pairs = [(int(p.home), int(p.away)) for p in draw.matches]
        return with_round(
            self.movements[section], section, draw.round, pairs,
            teams=len(self.spec(section).teams), three_way=tuple(int(t) for t in draw.three_way),
            first_board=free_board(self.movements.values()),
        )  # fmt: skip

    async def publish(self, section: str, draw: Draw, actor: str) -> dict[str, Any]:
        """The round joins the movement, stored and audited at once; the room follows.
        Then the next draw, if the standings it is drawn from are already there."""
        shown = await self._publish(section, draw, actor)
        await self.round_complete(section, draw.round)
        return shown

    async def _publish(self, section: str, draw: Draw, actor: str) -> dict[str, Any]:
        async with self.changing:
            shown = self.shown(draw, section)
            try:
                movement = self.with_draw(section, draw)
                stored = await asyncio.to_thread(
                    self.store.replace_movement_from_round,
                    self.event_id, section, draw.round, movement, actor, "draw_published",
                    {"draw": shown},
                )  # fmt: skip
            except (MovementError, StoreError) as e:
                raise CommandError(f"section {section}: round {draw.round}: {e}") from None
            self.follow(section, stored)
            await self.room_follows(section, stored, draw.round)
            if self.rounds.current(section) == draw.round and self.matches_changed is not None:
                self.matches_changed(section)  # the round started: its matches, none played
            self.forget(section)
            self.feed.publish("draw_published", **shown)
            log.info("section %s: round %d drawn and published by %s", section, draw.round, actor)
            return shown

    async def room_follows(self, section: str, movement: Movement, rnd: int) -> None:
        """The section's controller and clock learn round ``rnd`` and those after it (a
        knockout's segments, appended together); a section waiting for it moves on, and
        every table is told where it plays next."""
        state = self.rounds.sections[section]
        timed(state.clock, movement, section, rnd)
        controller = self.rounds.controller(section)
        if controller.is_complete(controller.round):  # the room waited for this draw
            for row in movement.round_rows(controller.round, section):
                if not (row.ns_pair and row.ew_pair):
                    continue  # a table with nobody to move
                views = next_seating(movement, section, row.table, controller.round)
                self.rounds.gateway.next_seating(section, row.table, views)
        effects = await self.rounds.handle(section, rc.Drawn(movement, self.clock()))
        if any(isinstance(e, rc.RoundStarted) for e in effects):
            return  # every table was told its new round
        controller = self.rounds.controller(section)  # the new controller's round
        for seat in self.rounds.gateway.in_section(section):  # the tables already done
            played = controller.table_round(seat.table or 0, controller.round)
            if played is not None and played.done:
                self.rounds.assign(seat)  # where they play the round just drawn
