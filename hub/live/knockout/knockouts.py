"""The knockout sections of the running hub (issue [KNOCKOUT], decisions D23). When the
last round appended to a knockout is over, each match in play is decided by the event's
rule and its outcome fixed (audited ``ko_outcome``); a level match gets an extension (an
extra set or sudden-death boards, ``ko_extension``) at its own tables; once every match
is decided the bracket gives the next round, held for the director (``ko_publish``) or
published at once, and appended to the movement (``ko_round_published``); when the bracket
is decided the section ends (``ko_decided``). Every change of the movement is stored with
its audit entry in one transaction (an outcome is audited before the movement change it
leads to: a restart that finds the outcome and not the change makes the change then); the
room (tables, clock) follows as a drawn round's does. A round that cannot go on (a match
level with its tie rule used up, boards missing, a correction that no longer fits) is told
to the director as an alert, never a silent stall.

``Knockouts`` belongs to the hub's asyncio loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from hub.api.feed import Feed
from hub.api.server import CommandError
from hub.event.knockout_rounds import NextRound, NotYet, next_round
from hub.event.movement.knockout import (
    KoTableMatch,
    decided,
    first_free_board,
    with_extension,
    with_ko_round,
)
from hub.event.movement.model import Movement, MovementError
from hub.live.knockout.bracket_feed import BracketFeed
from hub.live.knockout.ko_section import KoSection, plan_of
from hub.live.oversight.alerts import Alerts
from hub.live.rounds import round_controller as rc
from hub.live.rounds.section_rounds import RoundDone, Rounds
from hub.live.teams.team_draws import TeamDraws
from hub.live.views import TeamsLive
from hub.standings.knockout_decisions import OUTCOME, decisions_of
from hub.store.store import Store
from hub.store.values import StoreError
from scoring.errors import ScoringInputError
from scoring.knockout.ko_match import Decider, KoOutcome, Next, Side

log = logging.getLogger(__name__)


class Knockouts:
    """Every knockout section's matches, decisions and next round, on the hub's loop."""

    def __init__(
        self,
        store: Store,
        event_id: int,
        sections: dict[str, KoSection],
        draws: TeamDraws,
        rounds: Rounds,
        feed: Feed,
        alerts: Alerts,
        clock: Callable[[], float],
    ) -> None:
        self.store, self.event_id, self.sections = store, event_id, sections
        self.draws, self.rounds, self.feed, self.alerts, self.clock = (
            draws, rounds, feed, alerts, clock
        )  # fmt: skip
        self.proposals: dict[str, NextRound] = {}
        self.changing = asyncio.Lock()  # one change of a knockout at a time
        self._ready = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self.rounds_seen = 0  # rounds complete whose next step is done (a waiter's count)
        self.brackets = BracketFeed(
            sections, self.movement, self.live, self.proposals, feed, alerts
        )

    def movement(self, section: str) -> Movement:
        return self.draws.movements[section]

    def live(self, section: str) -> TeamsLive:
        return self.draws.live(section)

    def section(self, section: str) -> KoSection:
        """The knockout section a director's command names (``CommandError``: none, or
        the hub is still reading its decisions back after a start)."""
        ko = self.sections.get(section)
        if ko is None:
            raise CommandError(f"section {section} is not a knockout")
        if not self._ready.is_set():
            raise CommandError(
                f"section {section}: the hub is still reading the knockout back: try again "
                "in a moment"
            )
        return ko

    def view(self, section: str) -> dict[str, Any]:
        return self.brackets.view(section)

    def publish_view(self, section: str) -> None:
        self.brackets.publish(section)

    # -- after a round -----------------------------------------------------------------------
    def after(self, done: RoundDone) -> RoundDone:
        """The hub's round-complete hook: what came before, then the knockout's turn."""

        async def round_done(section: str, rnd: int) -> None:
            await done(section, rnd)
            if section in self.sections:
                task = asyncio.get_running_loop().create_task(self.round_complete(section))
                self._tasks.add(task)
                task.add_done_callback(self._finished)
            else:
                self.rounds_seen += 1

        return round_done

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        self.rounds_seen += 1
        if not task.cancelled() and task.exception() is not None:
            log.error("a knockout's next step after a round failed", exc_info=task.exception())

    def cancel(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    async def after_start(self, ready: asyncio.Event) -> None:
        """Once a restarted hub's live scores are built: the recorded decisions back, and
        what a round that ended meanwhile leads to."""
        async with self.changing:  # no command's decision is read back over
            entries = await asyncio.to_thread(self.store.audit_log, self.event_id)
            for section, decisions in decisions_of(entries).items():
                if section in self.sections:
                    self.sections[section].decisions = decisions
        await ready.wait()
        self._ready.set()
        for section in self.sections:
            await self.round_complete(section)

    def recorded(self, action: str, detail: dict[str, Any]) -> None:
        """A decision just audited, taken in as a restart would read it."""
        ko = self.sections.get(str(detail["section"]))
        if ko is not None:
            ko.decisions.apply(action, detail)

    async def round_complete(self, section: str) -> None:
        """The last round appended is over: decide, extend, or offer the next round."""
        if not self._ready.is_set():
            return
        async with self.changing:
            movement = self.movement(section)
            if not movement.rows or not self.rounds.controller(section).is_complete(
                movement.rounds
            ):
                return
            try:
                level = await self._decide(section)
                if level is None:
                    return self.publish_view(section)  # a match waits: the director knows
                if level:
                    await self._extend(section, level)
                else:
                    await self.offer_next(section, "hub")
            except (ScoringInputError, CommandError) as e:  # never a silent stall (D17)
                why = getattr(e, "message", str(e))
                self.alerts.raise_(f"section {section}: the knockout is stopped: {why}",
                                   section=section)  # fmt: skip
            self.publish_view(section)

    async def _decide(self, section: str) -> list[tuple[KoTableMatch, Next]] | None:
        """Each match in play decided and fixed; the level ones to extend; None when one
        cannot be decided yet (boards missing, the tie rule used up: alerted)."""
        ko, movement = self.sections[section], self.movement(section)
        level: list[tuple[KoTableMatch, Next]] = []
        for k, pair, match in ko.in_play(movement):
            if match in ko.decisions.outcomes:
                continue
            outcome = ko.outcome(movement, self.live(section), k, pair, match)
            home, away = ko.teams_at(movement, k, pair)
            if outcome.winner is not None:
                await self._fix(section, match, (home, away), outcome.winner, outcome)
            elif outcome.next is not None:
                size = (
                    ko.spec.extra_set_boards
                    if outcome.next is Next.EXTRA_SET
                    else ko.spec.sudden_death_boards
                )
                level.append((KoTableMatch(match, pair, home, away, 1, size), outcome.next))
            elif outcome.under_way:
                self._waits(section, f"{match} is not complete: enter its boards")
                return None
            else:
                self._waits(
                    section,
                    f"{match} is level and the event's tie rule is used up: decide it "
                    "(ko_decide, the console's K then d)",
                )
                return None
        for k, j, match in ko.three_ways_in_play(movement):
            if match in ko.decisions.outcomes:
                continue
            order = ko.three_way_order(movement, self.live(section), k, j, match)
            if order is None:
                self._waits(section, f"{match} is not complete: enter its boards")
                return None
            await self.record(section, match, order, "three_way", "0")
        return level

    def _waits(self, section: str, why: str) -> None:
        self.alerts.raise_(f"section {section}: {why}", section=section)

    async def _fix(
        self, section: str, match: str, teams: tuple[int, int], winner: Side, outcome: KoOutcome
    ) -> None:
        """The match's outcome is fixed and audited (D23: later corrections do not move
        a team by themselves); ``margin`` the winner's IMPs over the loser's."""
        order = [str(t) for t in (teams if winner is Side.HOME else teams[::-1])]
        by = "" if outcome.decided_by is None else outcome.decided_by.value
        margin = str(abs(outcome.home - outcome.away))
        more = {"home": str(outcome.home), "away": str(outcome.away), "lot_seed": outcome.lot_seed}
        await self.record(section, match, order, by, margin, more)

    async def record(
        self,
        section: str,
        match: str,
        order: Sequence[str],
        decided_by: str,
        margin: str,
        more: dict[str, Any] | None = None,
        actor: str = "hub",
    ) -> None:
        """A match's outcome fixed: audited (``ko_outcome``) and taken in."""
        detail = {
            "section": section,
            "match": match,
            "order": list(order),
            "walk_over": decided_by == Decider.WALK_OVER.value,
            "decided_by": decided_by,
            "margin": margin,
            **(more or {}),
        }
        await asyncio.to_thread(self.store.audit, self.event_id, actor, OUTCOME, detail)
        self.recorded(OUTCOME, detail)

    async def _store(
        self, section: str, old: Movement, new: Movement, actor: str, action: str, detail: dict
    ) -> Movement:
        try:
            stored = await asyncio.to_thread(
                self.store.replace_movement_from_round,
                self.event_id, section, old.rounds + 1, new, actor, action, detail,
            )  # fmt: skip
        except (MovementError, StoreError) as e:
            raise CommandError(f"section {section}: {e}") from None
        self.draws.follow(section, stored)
        return stored

    async def _extend(self, section: str, level: list[tuple[KoTableMatch, Next]]) -> None:
        """Level matches play on: one more round at their own tables."""
        movement = self.movement(section)
        k = plan_of(movement).event_round(movement.rounds)
        new = with_extension(
            movement,
            section,
            k,
            [m for m, _ in level],
            boards=max(m.boards_per_segment for m, _ in level),
            first_board=first_free_board(self.draws.movements.values()),
            minutes=self._minutes(section, [n for _, n in level]),
        )
        detail = {"matches": [m.match for m, _ in level], "kinds": [n.value for _, n in level]}
        stored = await self._store(section, movement, new, "hub", "ko_extension", detail)
        await self.draws.room_follows(section, stored, stored.rounds)
        for m, n in level:
            what = "an extra set" if n is Next.EXTRA_SET else "sudden death"
            self.alerts.raise_(
                f"section {section}: {m.match} is level: {what} follows", section=section
            )

    def _minutes(self, section: str, kinds: list[Next]) -> Fraction | None:
        """An extension round's own time, where the event gives one (the longest of its
        kinds: an extra set and a sudden death in one round)."""
        spec = self.sections[section].spec
        times = [
            spec.extra_set_minutes if n is Next.EXTRA_SET else spec.sudden_death_minutes
            for n in kinds
        ]
        given = [Fraction(str(t)) for t in times if t is not None]
        return max(given) if given else None

    async def offer_next(self, section: str, actor: str) -> None:
        """The next round, held for the director or published; the end of the bracket."""
        ko, movement = self.sections[section], self.movement(section)
        state = ko.state(movement)
        try:
            nxt = next_round(ko.bracket, state, plan_of(movement))
        except NotYet as e:
            self.proposals.pop(section, None)
            return self.alerts.raise_(f"section {section}: {e}", section=section)
        if nxt is None:
            if state.finished and plan_of(movement).to_come:
                await self._close(section)
            return
        if ko.spec.publish == "at_once":
            await self.publish(section, nxt, actor)
            return
        self.proposals[section] = nxt
        self.alerts.raise_(
            f"section {section}: the knockout's {nxt.name} is drawn: review and publish it",
            section=section,
        )

    async def publish(self, section: str, nxt: NextRound, actor: str) -> Movement:
        """The round's matches join the movement; the room follows."""
        movement = self.movement(section)
        new = with_ko_round(
            movement,
            section,
            nxt.k,
            nxt.matches,
            first_board=first_free_board(self.draws.movements.values()),
            three_ways=nxt.three_ways,
        )
        detail = {
            "round": nxt.name,
            "matches": [
                {
                    "match": m.match,
                    "home": m.home,
                    "away": m.away,
                    "tables": list(new.layout.matches[m.pair]),
                    "carry": [str(c) for c in m.carry],
                }
                for m in nxt.matches
            ],
        }
        stored = await self._store(section, movement, new, actor, "ko_round_published", detail)
        self.proposals.pop(section, None)
        await self.draws.room_follows(section, stored, movement.rounds + 1)
        self.feed.publish("ko_round_published", section=section, **detail)
        return stored

    async def _close(self, section: str) -> None:
        """The bracket is decided: no round is to come, and the section ends."""
        movement = self.movement(section)
        places = [
            {"team": int(p.team), "first": p.first, "last": p.last}
            for p in self.sections[section].state(movement).places()
        ]
        stored = await self._store(
            section, movement, decided(movement), "hub", "ko_decided", {"places": places}
        )
        await self.rounds.handle(section, rc.Drawn(stored, self.clock()))
