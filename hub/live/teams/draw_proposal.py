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
from hub.event.movement.drawn import with_round
from hub.event.movement.model import Layout, Movement, MovementError, ThreeWay
from hub.live.views.teams import TeamsLive
from scoring.draw.methods import DEFAULT_RULE, next_draw
from scoring.draw.model import Draw, MatchPlayed, Team
from scoring.draw.seating import HomeRule
from scoring.draw.three_way import three_way_draw
from scoring.team_tie_criteria import from_played
from scoring.team_ties import TieBreakRule, rule_from_names

RoundOver = Callable[[int], bool]


class NotReady(ValueError):
    """The next round cannot be drawn yet (the message says what it waits for)."""


@dataclass(frozen=True)
class DrawSpec:
    """How a section is drawn: the method, one round delayed or not, the entered teams,
    the standing's tie-break rule, the event's lot seed (None: one is drawn and recorded
    with each draw), who publishes it and whether an odd field plays a three-way match
    instead of a bye (``three_way``, movements.md 5.5)."""

    method: str
    delayed: bool
    teams: tuple[Team, ...]
    rule: TieBreakRule
    lot_seed: int | None
    at_once: bool = False  # published as soon as it can be made, not by the director
    first_round: dict[int, int] = field(default_factory=dict)  # late joiners (seeds 000-002)
    home: HomeRule | None = None  # None: the method's own (scoring.draw.methods)
    three_way: bool = False

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
            lot_seed, three_way = event.rules.lot_seed, g.odd == "three_way"
            return DrawSpec(
                g.draw, g.delayed, teams, rule, lot_seed, at_once, joining, home, three_way
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
    meetings only while it is at the tables (a Swiss one round delayed). A three-way's
    three matches (``three_way``) are scored once its second round is over; its teams have
    no bye in either round."""
    out: list[MatchPlayed] = []
    layout = movement.layout
    for rnd in range(1, layout.drawn + 1):
        seated = {t for w in layout.three_ways if rnd - w.round in (0, 1) for t in w.teams}
        for way in (w for w in layout.three_ways if w.round == rnd):
            out += _three_way_played(way, movement, live, over)
        for open_t, _ in layout.matches:
            if layout.three_way_at(open_t, rnd):
                continue
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


def _three_way_played(
    way: ThreeWay, movement: Movement, live: TeamsLive, over: RoundOver
) -> list[MatchPlayed]:
    """A three-way's three matches: scored (counted in its second round, as the standings
    count it) once that round is drawn and over, else meetings of its first round."""
    second = way.round + 1
    done = second <= movement.layout.drawn and over(second)
    out = []
    for home, away, (ns_t, ns_r), _ in way.matches():
        scored = live.match(ns_t, ns_r) if done else None
        if scored is not None:
            m = from_played(scored, second)
            out.append(replace(m, home=str(m.home), away=str(m.away), three_way=True))
        else:
            out.append(  # not scored (no board played in both rooms): a meeting
                MatchPlayed(second if done else way.round, str(home), str(away), three_way=True)
            )
    return out


def seated_before(movement: Movement, rnd: int) -> tuple[int, ...]:
    """The teams round ``rnd`` already seats: a three-way drawn the round before plays its
    second round (they are left out of the round's draw)."""
    return tuple(t for w in movement.layout.three_ways if w.round == rnd - 1 for t in w.teams)


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
    seated = seated_before(movement, rnd)
    entered = tuple(t for t in spec.playing(rnd, movement.layout) if t.number not in seated)
    joiners = [t.team for t in entered if spec.first_round.get(t.number, 1) == rnd]
    draw = next_draw(
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
    draw = replace(draw, round=rnd)  # a round only a three-way played adds no history
    if spec.three_way and rnd < movement.rounds and (len(entered) + len(seated)) % 2:
        return three_way_draw(draw, matches)  # an odd field (a withdrawal may even it)
    return draw


def draw_json(
    draw: Draw, names: dict[int, str], section: str, movement: Movement, first_board: int = 0
) -> dict[str, Any]:
    """The draw as the console, the API and the audit trail show it: team numbers and
    names by table (the tables the published round gives them in ``movement``, the one
    it is drawn into), byes, the three-way it starts and the one it continues (null when
    none, with its own board sets from ``first_board``), repeats and the lot seed."""

    def named(team: str | int) -> dict[str, Any]:
        return {"team": int(team), "name": names.get(int(team), "")}

    def way_json(w: ThreeWay | None, seated: Movement) -> dict[str, Any] | None:
        if w is None:
            return None
        rows = [seated.row(section, t, w.round) for t in w.tables]
        return {
            "teams": [named(t) for t in w.teams],
            "tables": list(w.tables),
            "rounds": [w.round, w.round + 1],
            "boards": [list(r.boards) if r is not None else [] for r in rows],  # X, Y, Z
        }

    tables, way, after = _placed(draw, movement, section, first_board)
    before = [w for w in movement.layout.three_ways if w.round == draw.round - 1]
    return {
        "section": section,
        "round": draw.round,
        "matches": [
            {
                "table": p.table,
                "tables": tables[i],  # open room, closed room
                "home": named(p.home),
                "away": named(p.away),
            }
            for i, p in enumerate(draw.matches)
        ],
        "byes": [named(b) for b in draw.byes],
        "three_way": way_json(way, after),
        "three_way_continued": way_json(before[0] if before else None, movement),
        "repeats": draw.repeats,
        "lot_seed": draw.lot_seed,
    }


def _placed(
    draw: Draw, movement: Movement, section: str, first_board: int
) -> tuple[list[list[int]], ThreeWay | None, Movement]:
    """Each match's (open, closed) tables and the three-way as publishing the draw into
    ``movement`` seats them (free tables only: a three-way holds its tables two rounds),
    and the movement so published; by match number (2m−1, 2m) when the draw does not fit
    the movement."""
    pairs = [(int(p.home), int(p.away)) for p in draw.matches]
    way = tuple(int(t) for t in draw.three_way)
    plain = [[2 * p.table - 1, 2 * p.table] for p in draw.matches]
    try:
        after = with_round(
            movement, section, draw.round, pairs, three_way=way, first_board=first_board
        )
    except MovementError:
        return plain, None, movement
    ns = {r.ns_pair: r.table for r in after.round_rows(draw.round, section) if r.ns_pair}
    tables = [[ns.get(h, o), ns.get(a, c)] for (h, a), (o, c) in zip(pairs, plain, strict=True)]
    new = [w for w in after.layout.three_ways if w.round == draw.round and way]
    return tables, (new[-1] if new else None), after
