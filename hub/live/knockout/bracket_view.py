"""A knockout section's bracket as the console, the result screens and the web pages draw
it (issue [KNOCKOUT]): every match with its teams, tables, carry-over, each segment's IMPs
and the running total, the winner and how the match was decided or what it plays next;
who chooses an opponent next and from whom; the round held for the director; the final
places so far. Exact values travel as strings (decisions D4)."""

from __future__ import annotations

from typing import Any

from hub.event.knockout_rounds import NextRound
from hub.event.movement.model import Movement
from hub.live.knockout.ko_section import KoSection, plan_of
from hub.live.views import TeamsLive
from scoring.errors import ScoringInputError
from scoring.knockout.bracket import Match, Slot, SlotKind
from scoring.knockout.ko_match import KoOutcome
from scoring.knockout.routing import BracketState
from scoring.knockout.seating import (
    SeatingRule,
    Side,
    alternate_home_first,
    captains_draw,
    draw_for_choice,
    lineup_order,
    sits_second,
)


def bracket_view(
    ko: KoSection, movement: Movement, live: TeamsLive, proposal: NextRound | None
) -> dict[str, Any]:
    state = ko.state(movement)
    names = live.names

    def team(t: str | int | None) -> dict[str, Any] | None:
        if t is None or t == "":  # "": a chooser left with no opponent (seed 002 BC08-A)
            return None
        return {"team": int(t), "name": names.get(int(t), "")}

    return {
        "section": ko.section,
        "name": ko.bracket.name,
        "rounds": list(ko.bracket.rounds),
        "matches": [_match(ko, movement, live, state, m, team) for m in ko.bracket.matches],
        "choosing": _choosing(ko, state, team),
        "proposal": None if proposal is None else _proposal(movement, proposal, team),
        "places": [{**(team(p.team) or {}), "place": str(p)} for p in state.places()],
        "finished": state.finished,
    }


def _match(
    ko: KoSection, movement: Movement, live: TeamsLive, state: BracketState, m: Match, team: Any
) -> dict[str, Any]:
    teams = state.teams(m.name)
    plan = plan_of(movement)
    at = next(((k, i) for k, i, name in plan.matches if name == m.name), None)
    way = next(((k, j) for k, j, name in plan.three_ways if name == m.name), None)
    fixed = ko.decisions.outcomes.get(m.name)
    known = all(t is not None for t in teams)
    out: dict[str, Any] = {
        "match": m.name,
        "round": m.round,
        "boards": m.segments * m.boards_per_segment,
        "segment_count": m.segments,
        "teams": [team(t) for t in teams],
        "feeds": [_feed(slot) for slot in m.slots],
        "bye": state.bye(m.name),
        "tables": (
            list(movement.layout.matches[at[1]])
            if at
            else list(movement.layout.three_ways[way[1]].tables)
            if way
            else None
        ),
        "carry": [str(c) for c in state.carry_over(m.name)] if known else None,
        "segments": [],
        "totals": None,
        "winner": None,
        "decided_by": None,
        "next": None,
        "walk_over": m.name in ko.decisions.walk_overs,
    }
    if fixed is not None:
        out["winner"] = teams.index(fixed.order[0]) if fixed.order[0] in teams else None
        out["decided_by"] = "walk_over" if fixed.walk_over else "result"
    outcome = _live(ko, movement, live, at, m.name)
    if outcome is not None:
        out["segments"] = [
            {"segment": s.segment, "home": str(s.home_imps), "away": str(s.away_imps)}
            for s in outcome.segments
        ]
        out["totals"] = [str(outcome.home), str(outcome.away)]
        now = None if outcome.winner is None else (0 if outcome.winner is Side.HOME else 1)
        if fixed is None or fixed.walk_over:
            out["decided_by"] = None if outcome.decided_by is None else outcome.decided_by.value
        elif now != out["winner"]:  # D23: a correction never moves a team by itself
            out["would_change"] = {"winner": now, "next": _value(outcome.next)}
        elif outcome.decided_by is not None:
            out["decided_by"] = outcome.decided_by.value
        out["next"] = None if fixed is not None else _value(outcome.next)
        out["under_way"] = outcome.under_way
    if way is not None:
        out["pairs"] = _pairs(movement, live, *way)
    elif known and not out["bye"]:
        planned = live.plan.plan.get((at[1], at[0])) if at else None
        seated = len(planned.segments) if planned is not None else 0  # extensions too
        out["lineups"] = _lineups(ko, movement, state, m, teams, seated)
        turn = seating_turn(ko, movement, m)
        if turn is not None:  # seed 000 §8: the captains choose where they sit first
            out["seating_turn"] = team(teams[0] if turn is Side.HOME else teams[1])
    out["state"] = (
        "bye" if out["bye"] else "decided" if fixed else "playing" if at or way
        else "ready" if known else "waiting"
    )  # fmt: skip
    return out


def _lineups(
    ko: KoSection,
    movement: Movement,
    state: BracketState,
    m: Match,
    teams: tuple[str | None, ...],
    played: int,
) -> list[dict[str, Any]]:
    """Who hands in the line-up first in each segment (the other sits second, seeing it),
    by the event's seating rule; extra segments go on in turn."""
    home, away = str(teams[0]), str(teams[1])
    segments = max(m.segments, played)
    if ko.spec.seating == "captains_draw":
        return _drawn_lineups(ko, movement, m, home, away, segments)
    if ko.spec.seating == "higher_placed" and m.segments >= 2:
        higher = Side.HOME if state.rank(home) <= state.rank(away) else Side.AWAY
        final = m.round == ko.bracket.rounds[-1] and m.places[:1] == ("1",)
        second = sits_second(SeatingRule.HIGHER_PLACED, m.segments, higher=higher, final=final)
        second += alternate_home_first(segments)[m.segments :]
    else:
        second = alternate_home_first(segments)
    return [
        {"segment": t.segment, "first": int(t.first), "second": int(t.second)}
        for t in lineup_order(second, home, away)
    ]


def seating_lot(ko: KoSection, movement: Movement, match: str) -> Side:
    """Seed 000 §8: the side that wins the captains' draw for the match (a lot of its own:
    the match's tie-rule seed plus 10,000)."""
    return draw_for_choice(ko.lot_seed(movement, match) + 10_000)


def seating_turn(ko: KoSection, movement: Movement, m: Match) -> Side | None:
    """The side that chooses the next segment to sit first in (None: blind seating, or
    every choice made)."""
    if ko.spec.seating != "captains_draw" or m.round != ko.bracket.rounds[-1]:
        return None
    made = ko.decisions.seating.get(m.name, [])
    if len(made) >= m.segments - 1:
        return None
    first = seating_lot(ko, movement, m.name)
    return first if len(made) % 2 == 0 else first.other


def _drawn_lineups(
    ko: KoSection, movement: Movement, m: Match, home: str, away: str, segments: int
) -> list[dict[str, Any]]:
    """Seed 000 §8: blind seating (no line-up order) but in the last round, whose order
    follows the captains' choices once all are made."""
    made = ko.decisions.seating.get(m.name, [])
    if m.round != ko.bracket.rounds[-1] or len(made) < m.segments - 1:
        return []
    second = captains_draw(m.segments, seating_lot(ko, movement, m.name), made)
    second += alternate_home_first(segments)[m.segments :]
    return [
        {"segment": t.segment, "first": int(t.first), "second": int(t.second)}
        for t in lineup_order(second, home, away)
    ]


def _pairs(movement: Movement, live: TeamsLive, k: int, j: int) -> list[dict[str, Any]]:
    """A three-way's three matches so far: teams, IMPs (carry-over in) and VPs."""
    out = []
    first = len(movement.layout.matches) + 3 * j
    for n in range(3):
        played = live.played((first + n, k))
        if played is None:
            continue
        r = played.result
        out.append(
            {
                "home": played.home,
                "away": played.away,
                "imps": [
                    str(r.home_imps + r.home_carry_over),
                    str(r.away_imps + r.away_carry_over),
                ],
                "vps": [str(r.home_vp or 0), str(r.away_vp or 0)],
            }
        )
    return out


def _value(x: Any) -> Any:
    return None if x is None else x.value


def _feed(slot: Slot) -> dict[str, Any]:
    """Where a slot's team comes from: a match's winner (``place`` 1) or loser, a rank, a
    team by name, or a choice of opponent."""
    if slot.kind is SlotKind.PLACED:
        return {"match": slot.match, "place": slot.place}
    if slot.kind is SlotKind.RANK:
        return {"rank": slot.rank}
    if slot.kind is SlotKind.TEAM:
        return {"team": slot.team}
    return {"choice": slot.choice}


def _live(
    ko: KoSection, movement: Movement, live: TeamsLive, at: tuple[int, int] | None, match: str
) -> KoOutcome | None:
    """The match's score from the live results (None before it is published; a match the
    rule cannot read yet, a board out of turn, shows no score rather than failing)."""
    if at is None:
        return None
    try:
        return ko.outcome(movement, live, at[0], at[1], match)
    except ScoringInputError:
        return None


def _choosing(ko: KoSection, state: BracketState, team: Any) -> list[dict[str, Any]]:
    out = []
    for g in ko.bracket.choices:
        procedure = state.choosing(g.name)
        chooser = procedure.next_chooser() if procedure is not None else None
        if procedure is not None and chooser is not None:
            out.append(
                {
                    "group": g.name,
                    "chooser": team(chooser.team),
                    "options": [team(c.team) for c in procedure.options()],
                    "made": [{"team": team(a), "opponent": team(b)} for a, b in procedure.pairs],
                    "absent": [team(c.team) for c in procedure.waiting],
                }
            )
    return out


def _proposal(movement: Movement, nxt: NextRound, team: Any) -> dict[str, Any]:
    return {
        "round": nxt.name,
        "matches": [
            {
                "match": m.match,
                "home": team(m.home),
                "away": team(m.away),
                "tables": list(movement.layout.matches[m.pair]),
                "carry": [str(c) for c in m.carry],
            }
            for m in nxt.matches
        ],
    }


def corrections(view: dict[str, Any]) -> list[tuple[tuple[str, str, Any], str]]:
    """What the director is told of each decided match a correction would change (D23:
    the bracket stands as decided), keyed by (section, match, the winner it would have)."""
    out = []
    for m in view["matches"]:
        change = m.get("would_change")
        if change is None:
            continue
        now = change["winner"]
        who = (
            "nobody yet" if now is None else (m["teams"][now] or {}).get("name") or "the other team"
        )
        text = (
            f"section {view['section']}: a correction changed {m['match']}, decided before: its "
            f"result now gives it to {who}; the bracket stands as decided, the director decides"
        )
        out.append(((view["section"], m["match"], now), text))
    return out
