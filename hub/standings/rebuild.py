"""Views rebuilt from the store: travellers, scored boards and standings of each section.

The store is the truth (architecture); after a restart every view is rebuilt from it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hub.event.event_file import EventFile, Scoring
from hub.event.movement.model import Movement
from hub.event.team_rules import RoomResult
from hub.standings.left_out import LeftOut, board_plays, score_without_bad, usable_lines
from hub.standings.team_section import MatchKey, TeamSection, team_penalties, tie_rule
from hub.store.store import LiveLine, Store, StoredResult
from scoring.board import board_vulnerability
from scoring.board_score import BoardScore
from scoring.contract import Play, Seat, parse_contract
from scoring.law77 import score_ns
from scoring.methods import kind_of, section_rules
from scoring.standings import Standing, Tally, standings_by_direction
from scoring.team_standings import PlayedMatch, TeamStanding, team_standings
from scoring.traveller import Artificial, Traveller, TravellerLine

_PLAYS: dict[tuple[str, str | None, int | None, int], tuple[int, Play]] = {}


def _play(contract: str, declarer: str | None, tricks: int | None, board: int) -> tuple[int, Play]:
    """NS score and play of a contract result, memoised (a session repeats few of them)."""
    key = (contract, declarer, tricks, (board - 1) % 16)
    hit = _PLAYS.get(key)
    if hit is None:
        parsed = parse_contract(contract)
        play = Play(None) if parsed is None else Play(parsed, Seat.parse(declarer or ""), tricks)
        hit = _PLAYS[key] = (score_ns(play, board_vulnerability(board)), play)
    return hit


def traveller_line(r: StoredResult | LiveLine) -> TravellerLine:
    """A stored result as a traveller line (its NS score from the contract and tricks)."""
    if r.adjusted:
        return TravellerLine(
            r.ns_pair, r.ew_pair, None, Artificial.parse(r.adjusted), round=r.round
        )
    if r.contract:
        score, play = _play(r.contract, r.declarer, r.tricks, r.board)
        return TravellerLine(r.ns_pair, r.ew_pair, score, None, 0, play, r.round)
    if r.score_ns is None:
        raise ValueError(
            f"the result at table {r.table}, round {r.round}, board {r.board} "
            "has no contract, score or adjustment"
        )
    return TravellerLine(r.ns_pair, r.ew_pair, r.score_ns, round=r.round)


def travellers(results: Sequence[StoredResult | LiveLine]) -> list[Traveller]:
    by_board: dict[int, list[TravellerLine]] = defaultdict(list)
    for r in results:
        by_board[r.board].append(traveller_line(r))
    return [Traveller.of(b, lines) for b, lines in sorted(by_board.items())]


@dataclass
class SectionView:
    section: str
    movement: Movement
    boards: list[BoardScore]
    tally: Tally | None
    standings: dict[str | None, list[Standing]]
    matches: list[PlayedMatch]
    team_standings: list[TeamStanding]
    left_out: list[LeftOut] = field(default_factory=list)  # stored lines scoring cannot use


def pairs_view(
    event: EventFile, section: str, movement: Movement, results: Sequence[StoredResult | LiveLine]
) -> SectionView:
    """Every board scored from the lines it can use (F2: a pair-0 row or an unreadable
    line of an older store is left out and named, never an exception for the section)."""
    by_board: dict[int, list[StoredResult | LiveLine]] = defaultdict(list)
    for r in results:
        by_board[r.board].append(r)
    # every board to the section's common top (decisions D22)
    plays = (board_plays(mine, traveller_line) for mine in by_board.values())
    rules = section_rules(event.pairs_rules(), plays)
    scored: list[BoardScore] = []
    bad: list[LeftOut] = []
    for board, mine in sorted(by_board.items()):
        score, _, left = score_without_bad(board, mine, rules, traveller_line)
        bad += left
        if score is not None:
            scored.append(score)
    tally = Tally(kind_of(rules), movement.layout.winners)
    for s in scored:
        tally.set_board(s)
    table = standings_by_direction(tally, event.rules.tie_breaks, event.rules.lot_seed)
    return SectionView(section, movement, scored, tally, table, [], [], bad)


def teams_view(
    event: EventFile,
    section: str,
    movement: Movement,
    results: Sequence[StoredResult | LiveLine],
    penalties: Sequence[Mapping[str, Any]] = (),
) -> SectionView:
    """Matches from the two tables of each match over its segments (open: home NS; closed:
    home EW; the seating switched between segments; a room's adjusted score gives assigned
    IMPs), with the event's carry-over, the
    confirmed ``penalties`` (VP and IMP) and the VPs outside matches, as
    ``hub.standings.team_section`` says for the live view too."""
    good, bad = usable_lines(results, traveller_line)
    live: dict[tuple[int, int, int], RoomResult | None] = {
        (r.table, r.round, r.board): line.score_ns if line.artificial is None else line.artificial
        for r, line in good
    }
    plan = TeamSection(event, section, movement)
    mine = [p for x in penalties if x.get("section", section) == section for p in team_penalties(x)]
    imp_penalties = plan.imp_penalties(mine)
    scored: dict[MatchKey, PlayedMatch] = {}
    for key in sorted(plan.plan):
        played = plan.score(key, lambda t, r, b: live.get((t, r, b)), imp_penalties.get(key))
        if played is not None:
            scored[key] = played
    matches = list(scored.values())
    reached = max((k for _, k in scored), default=0)  # standings after this event round
    rule = tie_rule(event, movement.layout, reached)  # the one team engine, as the CLI's
    adjustments = plan.vp_adjustments(scored, mine)
    ranked = team_standings(
        matches, rule, vp_adjustments=adjustments or None, lot_seed=event.rules.lot_seed
    )
    return SectionView(section, movement, [], None, {}, matches, ranked, bad)


def rebuild(store: Store, event_id: int) -> dict[str, SectionView]:
    """Every section's view, from the store alone."""
    event = store.event(event_id)
    live = store.live_lines(event_id)
    by_section: dict[str, list[LiveLine]] = defaultdict(list)
    for r in live:
        by_section[r.section].append(r)
    out = {}
    for section in store.sections(event_id):
        movement = store.movement(event_id, section)
        lines = by_section.get(section, [])
        if event.rules.scoring is Scoring.TEAMS:
            confirmed = [p for p in store.penalties(event_id) if p.get("status") == "confirmed"]
            out[section] = teams_view(event, section, movement, lines, confirmed)
        else:
            out[section] = pairs_view(event, section, movement, lines)
    return out
