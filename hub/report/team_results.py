"""A teams section's matches as the results out of the room list them (issue [MENDS] #25):
each match with its event round, its rooms, every board's scores in both rooms and the
home team's IMPs on it, and the match's IMPs and VPs; and each bye with the VPs it scores.

Scored by ``hub.standings.team_section.TeamSection``, the one place the live view and the
batch rebuild ask, over the same usable lines (``usable_lines``), so the match list always
adds up to the standings. Exact values (``Fraction``): the report's cells round them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hub.event.event_file import EventFile
from hub.event.movement.model import Movement
from hub.standings.left_out import usable_lines
from hub.standings.rebuild import traveller_line
from hub.standings.team_section import PlannedMatch, TeamSection, team_penalties
from hub.store.store import LiveLine, Store, StoredResult
from scoring.imps import imps
from scoring.team_match import MatchResult

Where = tuple[int, int, int]  # table, movement round, board


@dataclass(frozen=True, slots=True)
class Room:
    """Where one segment of a match is played: the movement round, the table where the
    home team sits NS (``home_ns_table``) and the one where it sits EW."""

    round: int
    home_ns_table: int
    home_ew_table: int
    ew_round: int


@dataclass(frozen=True, slots=True)
class MatchBoard:
    """One board of a match: the NS score where the home team sits NS and where it sits EW
    (None: not in yet, or an artificial score), and the home team's IMPs on it (None until
    both rooms have a score)."""

    board: int
    home_ns_score: int | None
    home_ew_score: int | None
    home_imps: int | None


@dataclass(frozen=True, slots=True)
class TeamMatch:
    """A match of event round ``round`` (``number`` from 1, the movement's order) between
    ``home`` and ``away``: its rooms, its boards and its score (None before a board is in
    from both rooms)."""

    round: int
    number: int
    home: int
    away: int
    rooms: tuple[Room, ...]
    boards: tuple[MatchBoard, ...]
    result: MatchResult | None

    def side(self, team: int) -> MatchResult | None:
        """The score from ``team``'s side (the away team's: swapped)."""
        if self.result is None:
            return None
        return self.result if team == self.home else self.result.swapped()

    def opponent(self, team: int) -> int:
        return self.away if team == self.home else self.home


@dataclass(frozen=True, slots=True)
class Bye:
    """A team without a match in event round ``round``, and the VPs the bye scores."""

    round: int
    team: int
    vp: Fraction


@dataclass(frozen=True, slots=True)
class TeamResults:
    """Every match and bye of a teams section, and each result's IMPs for its NS and EW
    teams by (table, movement round, board) for the travellers."""

    matches: tuple[TeamMatch, ...]
    byes: tuple[Bye, ...]
    board_imps: Mapping[Where, tuple[int, int]]

    def rounds(self) -> list[int]:
        return sorted({m.round for m in self.matches} | {b.round for b in self.byes})


def team_results(
    event: EventFile,
    section: str,
    movement: Movement,
    results: Sequence[StoredResult | LiveLine],
    penalties: Sequence[Mapping[str, Any]] = (),
) -> TeamResults:
    """The matches and byes of ``section`` from its live results and the confirmed
    ``penalties`` (the IMP ones go into their match, as the standings take them)."""
    good, _bad = usable_lines(results, traveller_line)  # the bad ones: the standings name them
    scores: dict[Where, int | None] = {(r.table, r.round, r.board): ln.score_ns for r, ln in good}
    rooms_in = {  # the match as the standings score it: adjusted boards too (Law 86)
        (r.table, r.round, r.board): ln.score_ns if ln.artificial is None else ln.artificial
        for r, ln in good
    }
    plan = TeamSection(event, section, movement)
    mine = [p for x in penalties if x.get("section", section) == section for p in team_penalties(x)]
    imp_penalties = plan.imp_penalties(mine)
    matches: list[TeamMatch] = []
    scored = {}
    board_imps: dict[Where, tuple[int, int]] = {}
    for key in sorted(plan.plan, key=lambda k: (k[1], k[0])):
        m = plan.plan[key]
        played = plan.score(key, lambda t, r, b: rooms_in.get((t, r, b)), imp_penalties.get(key))
        if played is not None:
            scored[key] = played
        boards = _boards(m, scores, board_imps)
        rooms = tuple(
            Room(s.round, s.home_ns_table, s.home_ew_table, s.home_ew_round) for s in m.segments
        )
        result = played.result if played is not None else None
        matches.append(TeamMatch(key[1], key[0] + 1, m.home, m.away, rooms, boards, result))
    reached = max((k for _, k in scored), default=0)
    byes = tuple(Bye(k, t, plan.bye_vp(scored, t)) for t, k in plan.byes(reached))
    return TeamResults(tuple(_numbered(matches)), byes, board_imps)


def _numbered(matches: list[TeamMatch]) -> list[TeamMatch]:
    """Matches numbered 1, 2, … within each round, in the movement's order."""
    out: list[TeamMatch] = []
    count: dict[int, int] = {}
    for m in matches:
        count[m.round] = count.get(m.round, 0) + 1
        out.append(TeamMatch(m.round, count[m.round], m.home, m.away, m.rooms, m.boards, m.result))
    return out


def _boards(
    m: PlannedMatch, scores: Mapping[Where, int | None], board_imps: dict[Where, tuple[int, int]]
) -> tuple[MatchBoard, ...]:
    """Each board of the match in both rooms; the IMPs of each room's NS and EW team are
    noted in ``board_imps`` (the home team's net: its NS room's score less its EW room's)."""
    out = []
    seen: set[int] = set()
    for seg in m.segments:
        for b in seg.boards:
            if b in seen:
                continue
            seen.add(b)
            at_ns: Where = (seg.home_ns_table, seg.round, b)
            at_ew: Where = (seg.home_ew_table, seg.home_ew_round, b)
            ns, ew = scores.get(at_ns), scores.get(at_ew)
            home = imps(ns - ew) if ns is not None and ew is not None else None
            if home is not None:
                board_imps[at_ns] = (home, -home)  # home NS there
                board_imps[at_ew] = (-home, home)  # away NS there, home EW
            out.append(MatchBoard(b, ns, ew, home))
    return tuple(out)


def section_team_results(
    store: Store, event_id: int, section: str, movement: Movement
) -> TeamResults:
    """``team_results`` of a section from the store: its live lines and the confirmed
    penalties, as ``hub.standings.rebuild`` scores the standings."""
    penalties = [p for p in store.penalties(event_id) if p.get("status") == "confirmed"]
    lines = [x for x in store.live_lines(event_id) if x.section == section]
    return team_results(store.event(event_id), section, movement, lines, penalties)
