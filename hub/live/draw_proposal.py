"""The next round's draw of a team event drawn while it runs (decisions D19), worked out
from the live scores: which round is next, whether it can be drawn yet, and the draw.

Pure over its inputs (the event, the movement, the section's ``TeamsLive`` and which rounds
are over): the running hub and ``bridgehub teams draw --db`` use it alike, any thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from hub.event.event_file import EventFile, GeneratedMovement
from hub.event.movement.model import Layout, Movement
from hub.live.views.teams import TeamsLive
from scoring.draw.methods import DEFAULT_RULE, next_draw
from scoring.draw.model import Draw, MatchPlayed, Team
from scoring.draw.seating import HomeRule
from scoring.team_tie_criteria import from_played
from scoring.team_ties import TieBreakRule, rule_from_names

RoundOver = Callable[[int], bool]


class NotReady(ValueError):
    """The next round cannot be drawn yet (the message says what it waits for)."""


@dataclass(frozen=True)
class DrawSpec:
    """How a section is drawn: the method, one round delayed or not, the entered teams,
    the standing's tie-break rule, the event's lot seed (None: one is drawn and recorded
    with each draw) and who publishes it."""

    method: str
    delayed: bool
    teams: tuple[Team, ...]
    rule: TieBreakRule
    lot_seed: int | None
    at_once: bool = False  # published as soon as it can be made, not by the director
    first_round: dict[int, int] = field(default_factory=dict)  # late joiners (seeds 000-002)
    home: HomeRule | None = None  # None: the method's own (scoring.draw.methods)

    def playing(self, rnd: int, layout: Layout) -> tuple[Team, ...]:
        """The teams that play round ``rnd``: a late joiner from its first round on, a team
        that withdrew until it did."""
        return tuple(
            t
            for t in self.teams
            if self.first_round.get(t.number, 1) <= rnd and layout.plays(t.number, rnd)
        )


def draw_spec(event: EventFile, section: str) -> DrawSpec | None:
    """The section's draw as its event file gives it; None for a section not drawn."""
    for session in event.sessions:
        for sec in session.sections:
            g = sec.movement
            if sec.letter != section or not isinstance(g, GeneratedMovement) or not g.draw:
                continue
            listed = {t.number: t for t in sec.teams}
            teams = tuple(
                Team(str(n), listed[n].name if n in listed else f"Team {n}", n, _mp(listed.get(n)))
                for n in range(1, (g.teams or 0) + 1)
            )
            names = event.rules.tie_breaks
            rule = rule_from_names(names) if names else DEFAULT_RULE[g.draw]
            at_once = g.publish == "at_once"
            joining = {n: j.first_round for j in event.rules.teams.late_joiners for n in j.teams}
            home = HomeRule(g.home) if g.home else None
            return DrawSpec(
                g.draw, g.delayed, teams, rule, event.rules.lot_seed, at_once, joining, home
            )
    return None


def _mp(team: Any) -> Fraction | None:
    """The team's average masterpoints (seed 001 seeds round 1 by it), if every player's
    are known."""
    points = [p.masterpoints for p in getattr(team, "players", [])]
    if not points or any(x is None for x in points):
        return None
    return Fraction(str(sum(points))) / len(points)


def next_round(movement: Movement) -> int:
    return movement.layout.drawn + 1


def waits_for(spec: DrawSpec, movement: Movement, over: RoundOver) -> str | None:
    """Why the next round cannot be drawn yet, or None: a draw is made from the standings
    after round N−1 (N−2 one round delayed); none after the last round."""
    rnd = next_round(movement)
    if rnd > movement.rounds:
        return f"all {movement.rounds} rounds are drawn"
    after = rnd - (2 if spec.delayed else 1)
    if after >= 1 and not over(after):
        return f"round {rnd} is drawn from the standings after round {after}, still in play"
    return None


def played(
    spec: DrawSpec, movement: Movement, section: str, live: TeamsLive, over: RoundOver
) -> list[MatchPlayed]:
    """Every drawn round's matches, byes included: with VPs once the round is over, as
    meetings only while it is at the tables (a Swiss one round delayed)."""
    out: list[MatchPlayed] = []
    for rnd in range(1, movement.layout.drawn + 1):
        seated: set[int] = set()
        for open_t, _ in movement.layout.matches:
            row = movement.row(section, open_t, rnd)
            if row is None or not (row.ns_pair and row.ew_pair):
                continue
            seated |= {row.ns_pair, row.ew_pair}
            scored = live.match(open_t, rnd) if over(rnd) else None
            if scored is not None:
                m = from_played(scored, rnd)
                out.append(replace(m, home=str(m.home), away=str(m.away)))
            else:
                out.append(MatchPlayed(rnd, str(row.ns_pair), str(row.ew_pair)))
        for t in spec.playing(rnd, movement.layout):
            if t.number not in seated:
                out.append(MatchPlayed(rnd, t.team, None, bye_vp(live, t.number, rnd)))
    return out


def bye_vp(live: TeamsLive, team: int, rnd: int) -> Fraction:
    """The VPs a bye scores in the standings (the event's rule, as the live view has it)."""
    award = getattr(live, "bye_vp", None)
    return Fraction(award(team, rnd)) if callable(award) else Fraction(0)


def propose(
    spec: DrawSpec,
    movement: Movement,
    section: str,
    live: TeamsLive,
    over: RoundOver,
    lot_seed: int,
) -> Draw:
    """The next round's draw (raises ``NotReady`` while it cannot be made, ``ValueError``
    when the method cannot draw it)."""
    why = waits_for(spec, movement, over)
    if why is not None:
        raise NotReady(why)
    matches = played(spec, movement, section, live, over)
    adjustments = getattr(live, "vp_adjustments", None)
    rnd = next_round(movement)
    entered = spec.playing(rnd, movement.layout)
    joiners = [t.team for t in entered if spec.first_round.get(t.number, 1) == rnd]
    return next_draw(
        spec.method,
        entered,
        matches,
        joiners=joiners if rnd > 1 else (),
        home_rule=spec.home,
        delayed=spec.delayed,
        rule=spec.rule,
        vp_adjustments={str(k): v for k, v in adjustments().items()} if adjustments else None,
        lot_seed=spec.lot_seed if spec.lot_seed is not None else lot_seed,
    )


def draw_json(draw: Draw, names: dict[int, str], section: str) -> dict[str, Any]:
    """The draw as the console, the API and the audit trail show it: team numbers and
    names by table, byes, repeats and the lot seed."""

    def named(team: str) -> dict[str, Any]:
        return {"team": int(team), "name": names.get(int(team), "")}

    return {
        "section": section,
        "round": draw.round,
        "matches": [
            {
                "table": p.table,
                "tables": [2 * p.table - 1, 2 * p.table],  # open room, closed room
                "home": named(p.home),
                "away": named(p.away),
            }
            for p in draw.matches
        ],
        "byes": [named(b) for b in draw.byes],
        "repeats": draw.repeats,
        "lot_seed": draw.lot_seed,
    }
