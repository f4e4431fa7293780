"""Live scores of a teams section: each match is its two tables (open room: home team NS;
closed room: home team EW). A result rescores only its own match: board IMPs where both rooms
have played, match IMPs and VPs on the event's scale; the standings rank the matches with
the event's tie-break rule (``scoring.team_ties``, as ``bridgehub teams standings`` does).
``hub.standings.rebuild.teams_view`` is the batch reference.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

from hub.event.event_file import EventFile
from hub.event.movement.model import Movement, MovementRow
from hub.event.vp_table_file import load_scale
from hub.live.views.base import TravellerView, traveller_row
from hub.live.views.pairs import payer_shares
from hub.standings.left_out import LeftOut, left_out
from hub.standings.rebuild import traveller_line
from hub.standings.rows import boards_played, teams_rows
from hub.store.store import LiveLine
from scoring.board_score import BoardScore
from scoring.imps import imps
from scoring.team_match import TeamBoard, score_match
from scoring.team_standings import PlayedMatch, team_standings
from scoring.team_ties import rule_from_names

Key = tuple[int, int, int]  # table, round, board
MatchKey = tuple[int, int]  # the match's place in the movement's list, round


class TeamsLive:
    """One teams section's live matches and standings. Owned by the hub's asyncio loop
    (no store access: the hub hands the lines in)."""

    unit = "VP"

    def __init__(
        self, event: EventFile, section: str, movement: Movement, names: dict[int, str]
    ) -> None:
        self.section = section
        self.scale = load_scale(event.rules.vp_scale)
        self.rule = rule_from_names(event.rules.tie_breaks)
        self.lot_seed = event.rules.lot_seed
        self.names = dict(names)
        # table → (match index, open table, closed table)
        self._match_of: dict[int, tuple[int, int, int]] = {}
        for i, (open_t, closed_t) in enumerate(movement.layout.matches):
            self._match_of[open_t] = self._match_of[closed_t] = (i, open_t, closed_t)
        self._rows_of: dict[tuple[int, int], MovementRow] = {
            (r.table, r.round): r for r in movement.rows if r.section == section
        }
        self._lines: dict[Key, LiveLine] = {}
        self._board_keys: dict[int, set[Key]] = {}
        self._matches: dict[MatchKey, PlayedMatch] = {}
        self._vp_adjustments: dict[Hashable, Fraction] = {}
        self._rows: list[dict[str, Any]] | None = None
        # told of each stored line a match is scored without (F2); the hub alerts the TD
        self.on_left_out: Callable[[LeftOut], None] | None = None

    def _ns_score(self, line: LiveLine | None) -> int | None:
        """The NS score of a played result; None for none, an artificial score (a board
        with an artificial score in either room is not scored, as in the batch view) or a
        stored line scoring cannot read (left out and named: one bad line never takes
        down the match, the standings or the traveller)."""
        if line is None:
            return None
        try:
            return traveller_line(line).score_ns
        except ValueError as e:  # ScoringInputError too
            if self.on_left_out is not None:
                self.on_left_out(left_out(line, str(e)))
            return None

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
        opens = {(self._match_of[t][1], r) for t, r in touched if t in self._match_of}
        for table, rnd in opens:
            self._rescore_match(table, rnd)
        self._rows = None

    def _add(self, line: LiveLine) -> None:
        key = (line.table, line.round, line.board)
        self._lines[key] = line
        self._board_keys.setdefault(line.board, set()).add(key)

    def _rescore_match(self, table: int, rnd: int) -> None:
        """Score again the one match that table ``table`` plays in round ``rnd``."""
        self._rows = None
        where = self._match_of.get(table)
        if where is None:
            return
        index, open_t, closed_t = where
        self._matches.pop((index, rnd), None)
        row = self._rows_of.get((open_t, rnd))
        if row is None or not (row.ns_pair and row.ew_pair):
            return
        boards = []
        for b in row.boards:
            o = self._ns_score(self._lines.get((open_t, rnd, b)))
            c = self._ns_score(self._lines.get((closed_t, rnd, b)))
            if o is not None and c is not None:
                boards.append(TeamBoard(b, o, c))
        if boards:
            result = score_match(boards, scale=self.scale)
            self._matches[(index, rnd)] = PlayedMatch(row.ns_pair, row.ew_pair, result)

    # -- penalties -------------------------------------------------------------------------
    def apply_penalty(self, penalty: dict[str, Any]) -> bool:
        """VPs off each paying team's total; other units are not team standings' (False)."""
        payers = payer_shares(penalty)
        if penalty["unit"] != "VP" or not payers:
            return False
        amount = Fraction(penalty["amount"])
        for _, team, share in payers:
            self._vp_adjustments[team] = self._vp_adjustments.get(team, Fraction(0)) - (
                amount * share
            )
        self._rows = None
        return True

    # -- views out -------------------------------------------------------------------------
    def match(self, open_table: int, rnd: int) -> PlayedMatch | None:
        """The match at ``open_table``'s pair of tables in round ``rnd`` as the standings
        score it now (None before a board is played in both rooms)."""
        where = self._match_of.get(open_table)
        return None if where is None else self._matches.get((where[0], rnd))

    def matches(self) -> list[PlayedMatch]:
        """The matches scored so far, in the movement's order (match, then round)."""
        return [self._matches[k] for k in sorted(self._matches)]

    def rename(self, names: dict[int, str]) -> None:
        self.names = dict(names)
        self._rows = None

    def rows(self) -> list[dict[str, Any]]:
        if self._rows is None:
            matches = self.matches()
            ranked = team_standings(
                matches,
                self.rule,
                vp_adjustments=self._vp_adjustments or None,
                lot_seed=self.lot_seed,
            )
            self._rows = teams_rows(ranked, boards_played(matches), self.names)
        return list(self._rows)

    def scored_board(self, board: int) -> BoardScore | None:
        return None

    def traveller(self, board: int, table: int, rnd: int) -> TravellerView | None:
        """The two results of the table's match on the board, each valued in IMPs to its NS
        (0 while the other room has not played it)."""
        where = self._match_of.get(table)
        own = self._lines.get((table, rnd, board))
        if where is None or own is None:
            return None
        _, open_t, closed_t = where
        played = {t: self._lines.get((t, rnd, board)) for t in (open_t, closed_t)}
        scores = {t: self._ns_score(x) for t, x in played.items()}
        rows = []
        own_row = None
        for t, x in played.items():
            if x is None:
                continue
            mine, theirs = scores[t], scores[closed_t if t == open_t else open_t]
            value = imps(mine - theirs) if mine is not None and theirs is not None else 0
            rows.append(traveller_row(x, mine, Fraction(value)))
            if t == table:
                own_row = rows[-1]
        assert own_row is not None
        return TravellerView(
            self.section, board, own_row.score_ns, own_row.value, True, tuple(rows)
        )
