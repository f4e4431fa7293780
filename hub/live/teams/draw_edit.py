"""The director's review of a drawn section's next draw (decisions D19): ``draw_show`` shows
it as the standings give it now, ``draw_publish`` publishes it, and before that the director
may edit it ([MENDS] #25, TD trial G9: "A proposed draw can only be published or postponed,
not edited (e.g. to avoid two teams from one club)"): ``draw_swap`` makes two teams of the
draw shown change places.

The edit is checked as the hub's own draw is: every team once, the draw still fits the
movement (``with_round``), the home team by the event's rule where it is the higher
number; the repeats are counted again against every meeting so far. What the edit gives
up (a repeat, a second bye or three-way) is said in ``notes``, not refused: the director
decides. The edit is audited (``draw_edited``) and held as the section's proposal over the
hub's draw it was made from (``TeamDraws.bases``): ``draw_publish`` publishes it while the
standings still give that draw; a draw that changed since it was shown is refused.

``DrawEdits`` belongs to the hub's asyncio loop; ``swap_teams`` is pure.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from hub.api.draw_models import DrawPublish, DrawShow, DrawSwap
from hub.api.server import CommandError
from hub.event.movement.model import MovementError
from scoring.draw.methods import DEFAULT_HOME
from scoring.draw.model import Draw, Pairing, had_bye, meetings
from scoring.draw.seating import HomeRule

if TYPE_CHECKING:
    from hub.live.teams.team_draws import TeamDraws


def swap_teams(
    draw: Draw,
    team: str,
    other: str,
    met: frozenset[frozenset[Any]],
    byes_had: frozenset[Any],
    home_rule: HomeRule,
) -> tuple[Draw, list[str]]:
    """The draw with ``team`` and ``other`` in each other's places, its repeats counted
    again, and notes on what the edit gives up (``ValueError``: a team not in the draw)."""
    if team == other:
        raise ValueError(f"team {team} cannot change places with itself")
    drawn = {t for p in draw.matches for t in (p.home, p.away)} | {*draw.byes, *draw.three_way}
    for t in (team, other):
        if t not in drawn:
            raise ValueError(f"team {t} is not in round {draw.round}'s draw")

    def moved(t: str) -> str:
        return other if t == team else team if t == other else t

    matches = []
    for p in draw.matches:
        home, away = moved(p.home), moved(p.away)
        if home_rule is HomeRule.HIGHER_NUMBER and int(away) > int(home):
            home, away = away, home  # seed 000 §8: the higher number at home
        matches.append(Pairing(p.table, home, away))
    byes = tuple(moved(t) for t in draw.byes)
    way: tuple[str, str, str] | tuple[()] = ()
    if draw.three_way:
        a, b, c = draw.three_way
        way = (moved(a), moved(b), moved(c))
    notes = [f"{p.home} v {p.away} have met before" for p in matches if _met(p, met)]
    notes += [f"team {t} has had a bye (or a three-way) before" for t in byes if t in byes_had]
    notes += [f"team {t} has had a bye or a three-way before" for t in way if t in byes_had]
    repeats = sum(_met(p, met) for p in matches)
    edited = replace(draw, matches=tuple(matches), byes=byes, three_way=way, repeats=repeats)
    return edited, notes


def _met(p: Pairing, met: frozenset[frozenset[Any]]) -> bool:
    return frozenset((p.home, p.away)) in met


class DrawEdits:
    """The director's ``draw_show``, ``draw_swap`` and ``draw_publish``, on the draws held
    by ``TeamDraws``; on the hub's asyncio loop."""

    def __init__(self, draws: TeamDraws) -> None:
        self.draws = draws

    def _edit_of(self, section: str, draw: Draw) -> Draw | None:
        """The director's edit held over ``draw`` (the hub's draw as the standings give it
        now); None when there is none, or it was made from another draw."""
        d = self.draws
        return d.proposals.get(section) if d.bases.get(section) == draw else None

    async def cmd_draw_show(self, args: DrawShow, actor: str) -> dict[str, Any]:
        """The draw as the standings give it now, or the director's edit of that draw."""
        d, section = self.draws, args.section
        draw = await d.draw_or_refuse(section)
        edited = self._edit_of(section, draw)
        if edited is not None:
            return d.shown(edited, section) | {"edited": True}
        d.bases.pop(section, None)  # the standings changed: the edit is gone
        d.proposals[section] = draw
        return d.shown(draw, section)

    async def cmd_draw_publish(self, args: DrawPublish, actor: str) -> dict[str, Any]:
        d, section = self.draws, args.section
        draw = await d.draw_or_refuse(section)
        if args.round != draw.round:
            raise CommandError(
                f"section {section}: round {args.round} cannot be published: the next "
                f"round to draw is {draw.round}"
            )
        shown, base = d.proposals.get(section), d.bases.pop(section, None)
        if base is not None and base == draw and shown is not None:
            draw = shown  # the director's edit (draw_swap), of the draw still made
        elif shown is not None and shown != draw:
            d.proposals[section] = draw
            raise CommandError(
                f"section {section}: round {draw.round}'s draw changed since it was shown "
                "(a score changed): review it again (draw_show), then publish"
            )
        return await d.publish(section, draw, actor)

    async def cmd_draw_swap(self, args: DrawSwap, actor: str) -> dict[str, Any]:
        """One change of the draws at a time (a publish or a withdrawal finishing while
        this one waits for the store would be overwritten)."""
        async with self.draws.changing:
            return await self._swap(args, actor)

    async def _swap(self, args: DrawSwap, actor: str) -> dict[str, Any]:
        d, section = self.draws, args.section
        fresh = await d.draw_or_refuse(section)
        if args.round != fresh.round:
            raise CommandError(
                f"section {section}: round {args.round}'s draw cannot be edited: the next "
                f"round to draw is {fresh.round}"
            )
        base = d.bases.get(section)
        shown = d.proposals.get(section) if base == fresh else fresh  # an edit goes on
        assert shown is not None
        spec, history = d.spec(section), d.history(section)
        home = spec.home or DEFAULT_HOME[spec.method]
        try:
            edited, notes = swap_teams(
                shown, str(args.team), str(args.other), meetings(history), had_bye(history), home
            )
            d.with_draw(section, edited)  # the edit still fits the movement
        except (ValueError, MovementError) as e:
            raise CommandError(f"section {section}: the draw cannot be edited so: {e}") from None
        before, after = d.shown(shown, section), d.shown(edited, section)
        detail = {"section": section, "round": edited.round, "swap": [args.team, args.other]}
        detail |= {"before": before, "after": after, "notes": notes}
        await asyncio.to_thread(d.store.audit, d.event_id, actor, "draw_edited", detail)
        d.bases[section], d.proposals[section] = fresh, edited
        d.feed.publish("draw_proposed", **after, edited=True, notes=notes)
        return after | {"edited": True, "notes": notes}
