"""The director's commands on a knockout section (``hub.api.knockout_models``): the bracket,
a team's choice of opponent, a walk-over, the next round published. Each change goes
through ``Knockouts`` one at a time; on the hub's asyncio loop."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from hub.api.knockout_models import (
    KoAbsent,
    KoChoose,
    KoDecide,
    KoPublish,
    KoRedraw,
    KoSeating,
    KoShow,
    KoWalkOver,
)
from hub.api.server import CommandError
from hub.event.knockout_bracket import entries_for
from hub.event.knockout_rounds import first_movement
from hub.event.movement.model import MovementError
from hub.live.knockout.bracket_view import seating_turn
from hub.live.knockout.knockouts import Knockouts
from hub.live.knockout.ko_section import KoSection, plan_of
from hub.live.teams.team_withdrawal import taken_out, without_team
from hub.standings.knockout_decisions import CHOICE, SEATING, WALK_OVER
from scoring.errors import ScoringInputError
from scoring.knockout.choice_groups import ABSENT, ARRIVED
from scoring.knockout.routing import Entry


class KnockoutCommands:
    """``ko_show``, ``ko_choose``, ``ko_absent``, ``ko_seating``, ``ko_walk_over``,
    ``ko_publish``, ``ko_decide`` and ``ko_redraw``; on the hub's asyncio loop."""

    def __init__(self, knockouts: Knockouts) -> None:
        self.ko = knockouts

    async def cmd_ko_show(self, args: KoShow, actor: str) -> dict[str, Any]:
        return self.ko.view(args.section)

    async def cmd_ko_publish(self, args: KoPublish, actor: str) -> dict[str, Any]:
        ko = self.ko
        ko.section(args.section)
        async with ko.changing:
            held = ko.proposals.get(args.section)
            if held is None:
                raise CommandError(
                    f"section {args.section}: no knockout round is waiting to be published "
                    "(ko_show says what the next one waits for)"
                )
            if held.name != args.round:
                raise CommandError(
                    f"section {args.section}: the round waiting is {held.name}, not {args.round}"
                )
            await ko.publish(args.section, held, actor)
        ko.publish_view(args.section)
        return ko.view(args.section)

    async def cmd_ko_choose(self, args: KoChoose, actor: str) -> dict[str, Any]:
        ko = self.ko
        section = ko.section(args.section)
        async with ko.changing:
            state = section.state(ko.movement(args.section))
            for g in section.bracket.choices:
                procedure = state.choosing(g.name)
                chooser = procedure.next_chooser() if procedure is not None else None
                if procedure is None or chooser is None or chooser.team != str(args.team):
                    continue
                try:
                    procedure.choose(str(args.team), str(args.opponent))
                except ScoringInputError as e:
                    raise CommandError(f"section {args.section}: {e.message}") from None
                detail = {
                    "section": args.section,
                    "group": g.name,
                    "team": str(args.team),
                    "opponent": str(args.opponent),
                }
                await asyncio.to_thread(ko.store.audit, ko.event_id, actor, CHOICE, detail)
                ko.recorded(CHOICE, detail)
                await ko.offer_next(args.section, actor)
                break
            else:
                raise CommandError(
                    f"section {args.section}: team {args.team} has no choice to make now "
                    "(ko_show's choosing says whose turn it is)"
                )
        ko.publish_view(args.section)
        return ko.view(args.section)

    async def cmd_ko_absent(self, args: KoAbsent, actor: str) -> dict[str, Any]:
        ko = self.ko
        section = ko.section(args.section)
        team, step = str(args.team), ARRIVED if args.present else ABSENT
        async with ko.changing:
            state = section.state(ko.movement(args.section))
            for g in section.bracket.choices:
                procedure = state.choosing(g.name)
                if procedure is None or procedure.done:
                    continue
                if team not in {c.team for c in procedure.teams}:
                    continue
                try:
                    procedure.arrived(team) if args.present else procedure.absent(team)
                except ScoringInputError as e:
                    raise CommandError(f"section {args.section}: {e.message}") from None
                detail = {"section": args.section, "group": g.name, "team": team, "opponent": step}
                await asyncio.to_thread(ko.store.audit, ko.event_id, actor, CHOICE, detail)
                ko.recorded(CHOICE, detail)
                await ko.offer_next(args.section, actor)
                break
            else:
                raise CommandError(
                    f"section {args.section}: team {args.team} has no choice of opponent to make"
                )
        ko.publish_view(args.section)
        return ko.view(args.section)

    async def cmd_ko_seating(self, args: KoSeating, actor: str) -> dict[str, Any]:
        ko = self.ko
        section = ko.section(args.section)
        async with ko.changing:
            movement = ko.movement(args.section)
            if not any(m.name == args.match for m in section.bracket.matches):
                raise CommandError(f"section {args.section}: no match {args.match}")
            m = section.bracket.match(args.match)
            if seating_turn(section, movement, m) is None:
                raise CommandError(
                    f"section {args.section}: {args.match} has no seating choice to make "
                    '(seating = "captains_draw" chooses in the last round only)'
                )
            made = section.decisions.seating.get(m.name, [])
            if not 1 <= args.segment <= m.segments or args.segment in made:
                taken = ", ".join(map(str, made)) or "none"
                raise CommandError(
                    f"section {args.section}: segment {args.segment}: give 1-{m.segments}, "
                    f"not one taken ({taken})"
                )
            detail = {"section": args.section, "match": m.name, "segment": args.segment}
            await asyncio.to_thread(ko.store.audit, ko.event_id, actor, SEATING, detail)
            ko.recorded(SEATING, detail)
        ko.publish_view(args.section)
        return ko.view(args.section)

    async def cmd_ko_walk_over(self, args: KoWalkOver, actor: str) -> dict[str, Any]:
        ko = self.ko
        section = ko.section(args.section)
        team = str(args.team)
        async with ko.changing:
            movement = ko.movement(args.section)
            state = section.state(movement)
            playing = {name for _, _, name in section.in_play(movement)}
            match = next(
                (
                    name
                    for name in (*playing, *state.ready())
                    if team in state.teams(name) and name not in section.decisions.outcomes
                ),
                None,
            )
            if match is None:
                raise CommandError(
                    f"section {args.section}: team {args.team} has no match in play or ready"
                )
            if section.bracket.match(match).three_way:
                raise CommandError(
                    f"section {args.section}: team {args.team} plays the three-way {match}: "
                    "a walk-over there is not the hub's yet (score its boards)"
                )
            teams = [str(t) for t in state.teams(match)]
            other = next(t for t in teams if t != team)
            detail = {"section": args.section, "match": match, "team": team, "order": [other, team]}
            if match in playing:  # its seats emptied in the same transaction
                await self._take_out(args.section, [int(t) for t in teams], actor, detail)
            else:
                await asyncio.to_thread(ko.store.audit, ko.event_id, actor, WALK_OVER, detail)
            ko.recorded(WALK_OVER, detail)
            ko.proposals.pop(args.section, None)
        await ko.round_complete(args.section)
        ko.publish_view(args.section)
        return ko.view(args.section)

    async def cmd_ko_decide(self, args: KoDecide, actor: str) -> dict[str, Any]:
        ko = self.ko
        section = ko.section(args.section)
        async with ko.changing:
            movement = ko.movement(args.section)
            playing = {name for _, _, name in section.in_play(movement)}
            playing |= {name for _, _, name in section.three_ways_in_play(movement)}
            if args.match in section.decisions.outcomes:
                raise CommandError(f"section {args.section}: {args.match} is decided already")
            if args.match not in playing:
                raise CommandError(
                    f"section {args.section}: {args.match} is not at the tables: only a match "
                    "in play is decided by the director"
                )
            teams = [str(t) for t in section.state(movement).teams(args.match)]
            if str(args.winner) not in teams:
                raise CommandError(
                    f"section {args.section}: team {args.winner} does not play {args.match} "
                    f"({', '.join(teams)} do)"
                )
            order = [str(args.winner)] + [t for t in teams if t != str(args.winner)]
            more = {"reason": args.reason}
            await ko.record(args.section, args.match, order, "director", "0", more, actor)
        await ko.round_complete(args.section)
        return ko.view(args.section)

    async def cmd_ko_redraw(self, args: KoRedraw, actor: str) -> dict[str, Any]:
        ko = self.ko
        section = ko.section(args.section)
        async with ko.changing:
            movement = ko.movement(args.section)
            played = await asyncio.to_thread(ko.store.live_results, ko.event_id, args.section)
            if played or section.decisions.outcomes:
                raise CommandError(
                    f"section {args.section}: the knockout has begun (a board played or a "
                    "walk-over given): its first round can no longer be drawn again"
                )
            plan = plan_of(movement)
            seed = plan.lot_seed
            if args.order is None:
                seed = secrets.randbelow(2**31)
                entries = entries_for(section.spec, section.teams, seed, section.bracket.entries)
            else:
                entries = self._ordered(args.section, section.spec.teams, args.order, section)
            try:
                new = first_movement(
                    section.bracket, entries, args.section, seed, plan.bracket, section.spec.teams
                )
            except MovementError as e:
                raise CommandError(f"section {args.section}: {e}") from None
            detail = {
                "section": args.section,
                "before": list(plan.entries),
                "after": [int(e.team) for e in entries],
                "lot_seed": seed,
            }
            stored = await asyncio.to_thread(
                ko.store.replace_movement_from_round,
                ko.event_id, args.section, 1, new, actor, "ko_redrawn", detail,
            )  # fmt: skip
            ko.draws.follow(args.section, stored)
            await ko.rounds.change_movement(args.section, stored, frozenset())
            ko.proposals.pop(args.section, None)
        ko.publish_view(args.section)
        return ko.view(args.section)

    @staticmethod
    def _ordered(
        letter: str, teams: int, order: list[int], section: KoSection
    ) -> tuple[Entry, ...]:
        if sorted(order) != list(range(1, teams + 1)):
            raise CommandError(
                f"section {letter}: order must name every team 1-{teams} once, by rank"
            )
        return tuple(
            Entry(str(t), rank, section.countries.get(t, "")) for rank, t in enumerate(order, 1)
        )

    async def _take_out(
        self, section: str, teams: list[int], actor: str, detail: dict[str, Any]
    ) -> None:
        """The match's seats emptied where it is not finished, stored with the walk-over's
        audit entry (``detail``) in one transaction; the round stops waiting for its
        tables."""
        ko = self.ko
        movement = ko.movement(section)
        live = await asyncio.to_thread(ko.store.live_results, ko.event_id, section)
        played = frozenset((r.table, r.round, r.board) for r in live)
        over = ko.rounds.controller(section).is_complete
        left = taken_out(movement, section, teams[0], over, played)
        if not left:
            await asyncio.to_thread(ko.store.audit, ko.event_id, actor, WALK_OVER, detail)
            return
        changed = without_team(movement, section, teams[0], left)
        changed = without_team(changed, section, teams[1], left)
        first = min(m.round for m in left)
        stored = await asyncio.to_thread(
            ko.store.replace_movement_from_round,
            ko.event_id, section, first, changed, actor, WALK_OVER, detail,
        )  # fmt: skip
        ko.draws.follow(section, stored)
        await ko.rounds.change_movement(section, stored, played)
