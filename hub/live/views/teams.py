"""Live scores of a teams section: each match is its two tables (open room: home team NS;
closed room: home team EW) over its segments. A result rescores only its own match: board
IMPs where both rooms have played (assigned IMPs where a room has an adjusted score), match
IMPs (carry-over and IMP penalties in) and VPs on its round's scale; the standings add
byes, late joiners, carried VPs and VP penalties (``hub.standings.team_section``, which the
batch reference ``teams_view`` asks too) and rank with the event's tie-break rule
in force after the round reached (``tie_rule``; ``scoring.team_ties``, as ``bridgehub teams
standings``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

from hub.event.event_file import EventFile
from hub.event.movement.model import Movement
from hub.event.movement.rooms import other_room
from hub.event.team_rules import RoomResult
from hub.live.views.base import TravellerView, traveller_row
from hub.standings.left_out import LeftOut, left_out
from hub.standings.rebuild import traveller_line
from hub.standings.rows import boards_played, teams_rows
from hub.standings.team_section import (
    MatchKey,
    TeamPenalty,
    TeamSection,
    team_penalties,
    tie_rule,
)
from hub.store.store import LiveLine
from scoring.board_score import BoardScore
from scoring.imps import imps
from scoring.team_standings import PlayedMatch, team_standings

Key = tuple[int, int, int]  # table, round, board


class TeamsLive:
    """One teams section's live matches and standings. Owned by the hub's asyncio loop
    (no store access: the hub hands the lines in)."""

    unit = "VP"

    def __init__(
        self, event: EventFile, section: str, movement: Movement, names: dict[int, str]
    ) -> None:
        self.section = section
        self._event = event
        self._set_movement(movement)
        self.lot_seed = event.rules.lot_seed
        self.names = dict(names)
        self._lines: dict[Key, LiveLine] = {}
        self._board_keys: dict[int, set[Key]] = {}
        self._matches: dict[MatchKey, PlayedMatch] = {}
        self._penalties: list[TeamPenalty] = []  # confirmed, in VP or IMP
        self._imp_penalties: dict[MatchKey, dict[int, Fraction]] = {}
        self._rows: list[dict[str, Any]] | None = None
        # told of each stored line a match is scored without (F2); the hub alerts the TD
        self.on_left_out: Callable[[LeftOut], None] | None = None

    def _set_movement(self, movement: Movement) -> None:
        self.plan = TeamSection(self._event, self.section, movement)  # matches, the rules
        self._layout = movement.layout
        self._open_tables = {open_t for open_t, _ in movement.layout.matches}
        self._seated = {
            (r.table, r.round): r.ns_pair for r in movement.rows if r.section == self.section
        }

    def _ns_score(self, line: LiveLine | None) -> int | None:
        """The NS score of a played result; None for none, an adjusted score, or a stored
        line scoring cannot read (``_result``)."""
        result = self._result(line)
        return result if isinstance(result, int) else None

    def _result(self, line: LiveLine | None) -> RoomResult | None:
        """A room's result as the match scores it: its NS score or the director's adjusted
        score (assigned IMPs, as in the batch view); None for none or a stored line scoring
        cannot read (left out and named: one bad line never takes down the match, the
        standings or the traveller)."""
        if line is None:
            return None
        try:
            x = traveller_line(line)
        except ValueError as e:  # ScoringInputError too
            if self.on_left_out is not None:
                self.on_left_out(left_out(line, str(e)))
            return None
        return x.score_ns if x.artificial is None else x.artificial

    # -- results in ------------------------------------------------------------------------
    def put(self, line: LiveLine) -> None:
        self._add(line)
        self._rescore_match(line.table, line.round)

    def reload_board(self, board: int, lines: list[LiveLine]) -> None:
        touched = set()
        for key in self._board_keys.pop(board, set()):
            del self._lines[key]
            touched.add(key[:2])
        for x in lines:
            if x.board == board:
                self._add(x)
                touched.add((x.table, x.round))
        for match in {self.plan.key_of(t, r) for t, r in touched}:
            if match is not None:
                self._score(match)
        self._rows = None

    def _add(self, line: LiveLine) -> None:
        key = (line.table, line.round, line.board)
        self._lines[key] = line
        self._board_keys.setdefault(line.board, set()).add(key)

    def _rescore_match(self, table: int, rnd: int) -> None:
        """Score again the one match that table ``table`` plays in movement round ``rnd``
        (over every segment of it)."""
        self._rows = None
        key = self.plan.key_of(table, rnd)
        if key is not None:
            self._score(key)

    def _score(self, key: MatchKey) -> None:
        def ns_score(table: int, rnd: int, board: int) -> RoomResult | None:
            return self._result(self._lines.get((table, rnd, board)))

        played = self.plan.score(key, ns_score, self._imp_penalties.get(key))
        if played is None:
            self._matches.pop(key, None)
        else:
            self._matches[key] = played

    # -- penalties -------------------------------------------------------------------------
    def apply_penalty(self, penalty: dict[str, Any]) -> bool:
        """A confirmed team penalty: VPs off each paying team's total, or IMPs off its
        match in the penalty's round before the VPs (False for other units, a penalty
        with no payer, or IMPs where the paying team has no match in that round)."""
        mine = team_penalties(penalty)
        imps_by_match = self.plan.imp_penalties(mine)
        mine = [p for p in mine if p.unit == "VP" or self.plan.match_of(p.team, p.round or 0)]
        if not mine:
            return False
        self._penalties += mine
        for key, per_team in imps_by_match.items():
            into = self._imp_penalties.setdefault(key, {})
            for team, amount in per_team.items():
                into[team] = into.get(team, Fraction(0)) + amount
            self._score(key)
        self._rows = None
        return True

    # -- views out -------------------------------------------------------------------------
    def match(self, open_table: int, rnd: int) -> PlayedMatch | None:
        """The match at ``open_table``'s pair of tables in movement round ``rnd`` as the
        standings score it now, over all its segments so far, seen from the team that sits
        NS at ``open_table`` in that round (None before a board is played in both rooms); at
        a three-way's table, the match of which that table-round is one room."""
        key = self.plan.key_of(open_table, rnd)
        played = None if key is None else self._matches.get(key)
        if played is None or self._seated.get((open_table, rnd)) == played.home:
            return played
        return PlayedMatch(played.away, played.home, played.result.swapped())

    def match_boards(self, key: MatchKey) -> list[tuple[int, int, int, int]]:
        """(segment from 1, board, the NS score where the home team sits NS, the NS score
        where it sits EW) of each board of match ``key`` both rooms have played: a
        knockout decides on them (``hub.live.knockout``)."""
        m = self.plan.plan.get(key)
        out: list[tuple[int, int, int, int]] = []
        for n, seg in enumerate(m.segments if m is not None else (), start=1):
            for b in seg.boards:
                ns = self._ns_score(self._lines.get((seg.home_ns_table, seg.round, b)))
                ew = self._ns_score(self._lines.get((seg.home_ew_table, seg.home_ew_round, b)))
                if ns is not None and ew is not None:
                    out.append((n, b, ns, ew))
        return out

    def played(self, key: MatchKey) -> PlayedMatch | None:
        """Match ``key`` as the standings score it now (home first)."""
        return self._matches.get(key)

    def matches(self) -> list[PlayedMatch]:
        """The matches scored so far, in the movement's order (match, then round)."""
        return [self._matches[k] for k in sorted(self._matches)]

    def follow(self, movement: Movement) -> None:
        """A round drawn while the event runs (D19) joins the movement: the earlier rounds'
        rows, and every result, stay as they are; the matches are planned again from the
        new movement and rescored (IMP penalties re-placed in them)."""
        self._set_movement(movement)
        self._imp_penalties = self.plan.imp_penalties(self._penalties)
        self._matches.clear()
        for key in self.plan.plan:
            self._score(key)
        self._rows = None

    # -- for the draw (D19): the standings' VPs beyond the matches -------------------------
    def vp_adjustments(self) -> dict[Hashable, Fraction]:
        """Each team's VPs beyond its matches and byes (carried VPs, late joiners, VP
        penalties): the draw counts the byes itself, at ``bye_vp``."""
        return self.plan.vp_adjustments(self._matches, self._penalties, byes=False)

    def bye_vp(self, team: int, rnd: int) -> Fraction:
        """The VPs a bye of ``team`` scores now, by the event's ``[rules.teams.bye]``."""
        return self.plan.bye_vp(self._matches, team)

    def rename(self, names: dict[int, str]) -> None:
        self.names = dict(names)
        self._rows = None

    def rows(self) -> list[dict[str, Any]]:
        if self._rows is None:
            matches = self.matches()
            adjustments = self.plan.vp_adjustments(self._matches, self._penalties)
            reached = max((k for _, k in self._matches), default=0)
            rule = tie_rule(self._event, self.plan.layout, reached)  # seed 000 §6-1
            ranked = team_standings(
                matches, rule, vp_adjustments=adjustments or None, lot_seed=self.lot_seed
            )
            self._rows = teams_rows(ranked, boards_played(matches), self.names)
        return list(self._rows)

    def scored_board(self, board: int) -> BoardScore | None:
        return None

    def traveller(self, board: int, table: int, rnd: int) -> TravellerView | None:
        """The two results of the table's match on the board, each valued in IMPs to its NS
        (0 while the other room has not played it): the other room is the paired table in
        the same round, or a three-way's other room a round apart (``other_room``). The
        rooms in order: the earlier round's first, else the pair's open table's."""
        other = self.other_room(table, rnd)
        own = self._lines.get((table, rnd, board))
        if other is None or own is None:
            return None
        rooms = sorted(((table, rnd), other), key=lambda r: (r[1], r[0] not in self._open_tables))
        played = {room: self._lines.get((*room, board)) for room in rooms}
        scores = {room: self._ns_score(x) for room, x in played.items()}
        rows = []
        own_row = None
        for room, x in played.items():
            if x is None:
                continue
            mine, theirs = scores[room], scores[other if room == (table, rnd) else (table, rnd)]
            value = imps(mine - theirs) if mine is not None and theirs is not None else 0
            rows.append(traveller_row(x, mine, Fraction(value)))
            if room == (table, rnd):
                own_row = rows[-1]
        assert own_row is not None
        return TravellerView(
            self.section, board, own_row.score_ns, own_row.value, True, tuple(rows)
        )

    def other_room(self, table: int, rnd: int) -> tuple[int, int] | None:
        """The (table, round) of the other room of ``table``'s match in round ``rnd``: as
        the match is planned, else as the layout pairs the tables (a row the plan leaves
        out, such as a segment seating other teams)."""
        return self.plan.other_room(table, rnd) or other_room(self._layout, table, rnd)
