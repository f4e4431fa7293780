"""A team of a drawn section withdraws (``withdraw_team``, decisions D19; [MENDS] #25).

It is left out of every draw after the rounds already published, and out of the published
rounds it has not finished: in each such round its match is taken out of the movement (its
seats there are empty), so its opponents have no match that round and score a bye by the
event's ``[rules.teams.bye]`` (0 VP without one). A match not begun is a *bye*; one
already under way is a *walk-over*: its boards stay stored, counted in no match, and the
round no longer waits for its two tables. A match it has finished stands, and so do its
earlier results. A three-way it plays in stays as drawn (docs/hub.md): the director scores
its half-matches. The reply says, round by round, what its opponents get.

``TeamWithdrawal`` belongs to the hub's asyncio loop; ``taken_out`` is pure.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from hub.api.draw_models import WithdrawTeam
from hub.api.server import CommandError
from hub.event.movement.model import Movement, MovementError
from hub.store.values import StoreError

if TYPE_CHECKING:
    from hub.live.teams.team_draws import TeamDraws


@dataclass(frozen=True, slots=True)
class LeftMatch:
    """A published match the team leaves: the round, its tables, the opponent, and how
    many of the match's boards had been played at either table (0: a bye; else a
    walk-over)."""

    round: int
    tables: tuple[int, ...]
    opponent: int
    played: int

    @property
    def award(self) -> str:
        return "walk_over" if self.played else "bye"


def taken_out(
    movement: Movement,
    section: str,
    team: int,
    over: Callable[[int], bool],
    played: Collection[tuple[int, int, int]],
) -> list[LeftMatch]:
    """The team's matches in published rounds not ``over`` that it has not finished (a
    result on every board at both tables), three-ways left out."""
    out = []
    for rnd in range(1, movement.layout.drawn + 1):
        if over(rnd):
            continue
        rows = [
            r
            for r in movement.round_rows(rnd, section)
            if team in (r.ns_pair, r.ew_pair) and not movement.layout.three_way_at(r.table, rnd)
        ]
        if not rows:
            continue
        boards = [(r.table, rnd, b) for r in rows for b in r.boards]
        done = sum(key in played for key in boards)
        if done == len(boards):
            continue  # finished: the match stands
        opponent = next((p for r in rows for p in (r.ns_pair, r.ew_pair) if p != team), 0)
        out.append(LeftMatch(rnd, tuple(r.table for r in rows), opponent, done))
    return out


def without_team(movement: Movement, section: str, team: int, left: list[LeftMatch]) -> Movement:
    """The movement with the team's seats empty in the matches it leaves."""
    where = {(t, m.round) for m in left for t in m.tables}

    def empty(p: int) -> int:
        return 0 if p == team else p

    rows = tuple(
        replace(r, ns_pair=empty(r.ns_pair), ew_pair=empty(r.ew_pair))
        if r.section == section and (r.table, r.round) in where
        else r
        for r in movement.rows
    )
    return replace(movement, rows=rows)


class TeamWithdrawal:
    """The ``withdraw_team`` command, with the draws' state (``TeamDraws``): one change of
    a section's movement at a time, the room following it. On the hub's asyncio loop."""

    def __init__(self, draws: TeamDraws) -> None:
        self.draws = draws

    async def cmd_withdraw_team(self, args: WithdrawTeam, actor: str) -> dict[str, Any]:
        d = self.draws
        section, team = args.section, args.team
        if team not in {t.number for t in d.spec(section).teams}:
            raise CommandError(f"section {section} has no team {team}")
        async with d.changing:
            movement = d.movements[section]
            unpublished = movement.layout.drawn + 1
            if not movement.layout.plays(team, unpublished):
                raise CommandError(f"team {team} of section {section} has already withdrawn")
            live = await asyncio.to_thread(d.store.live_results, d.event_id, section)
            played = frozenset((r.table, r.round, r.board) for r in live)
            controller = d.rounds.controller(section)
            left = taken_out(movement, section, team, controller.is_complete, played)
            first = min([m.round for m in left] + [unpublished])
            if first > movement.rounds:
                raise CommandError(
                    f"section {section}: every round is drawn and team {team} has finished "
                    "its matches: there is nothing left to withdraw it from"
                )
            withdrawn = (*movement.layout.withdrawn, (team, first))
            changed = without_team(movement, section, team, left)
            changed = replace(changed, layout=replace(changed.layout, withdrawn=withdrawn))
            detail: dict[str, Any] = {"team": team, "from_round": first}
            detail["opponents"] = [self._award(section, m) for m in left]
            try:
                stored = await asyncio.to_thread(
                    d.store.replace_movement_from_round,
                    d.event_id, section, first, changed, actor, "team_withdrawn", detail,
                )  # fmt: skip
            except (MovementError, StoreError) as e:
                raise CommandError(f"section {section}: team {team} cannot withdraw: {e}") from None
            d.follow(section, stored)
            if left:  # the round at the tables stops waiting for the match's two tables
                await d.rounds.change_movement(section, stored, played)
                if d.matches_changed is not None:
                    d.matches_changed(section)
        d.forget(section)  # a draw shown before (or an edit of it) is drawn again without it
        d.feed.publish("pairs_changed", section=section, action="withdraw_team", pair=team)
        await d.round_complete(section, unpublished - 1)
        controller = d.rounds.controller(section)
        seated = [  # a three-way not over where it still plays: the TD scores it
            r.round
            for r in stored.rows
            if r.section == section and team in (r.ns_pair, r.ew_pair)
            and not controller.is_complete(r.round)
        ]  # fmt: skip
        return detail | {"still_drawn": sorted(set(seated))}

    def _award(self, section: str, left: LeftMatch) -> dict[str, Any]:
        """What the opponent gets, in the reply and the audit: a bye or a walk-over, worth
        the event's bye VP as it stands now (own_average follows its later matches)."""
        live = self.draws.live(section)
        rule = live.plan.rules.bye
        vp = live.bye_vp(left.opponent, left.round) if left.opponent else Fraction(0)
        said = "no [rules.teams.bye]: 0 VP" if rule is None else f"[rules.teams.bye] {rule.rule}"
        return {
            "round": left.round,
            "team": left.opponent,
            "award": left.award,
            "boards_played": left.played,
            "vp": str(vp),
            "rule": said,
        }
