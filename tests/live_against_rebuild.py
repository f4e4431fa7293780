"""The live views against a full rebuild of the store, step by step (decisions D17; the
architecture: the store is the truth), for the tests: hypothesis state machines that send
results, corrections, erasures and TD entries to a real store and to the live views as the
hub hands them in, and after every step compare the live rows with a rebuild. Subclass
one to add rules (tests/standings/test_team_live_agrees.py)."""

from __future__ import annotations

from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from hub.event.event_file import Scoring
from hub.event.pair_labels import PairLabels
from hub.live.views import LiveViews
from hub.standings.rebuild import pairs_view, teams_view, traveller_line
from hub.standings.rows import boards_played, names_of, pairs_rows, teams_rows
from hub.store.store import ResultEntry, Store
from scoring.board import Side
from scoring.imps import imps
from scoring.methods import kind_of


def hub_views(store: Store, eid: int) -> LiveViews:
    """The live views as the hub builds them after a restart: every live line, then the
    confirmed penalties."""
    sections = store.sections(eid)
    views = LiveViews(
        store.event(eid),
        {s: store.movement(eid, s) for s in sections},
        {s: names_of(store.contestants(eid, s)) for s in sections},
    )
    views.load(store.live_lines(eid), store.penalties(eid))
    return views


def rows_of(event: Any, view: Any, names: dict[int, str]) -> list[dict[str, Any]]:
    """A batch view's rows."""
    if event.rules.scoring is Scoring.TEAMS:
        return teams_rows(view.team_standings, boards_played(view.matches), names)
    labels = PairLabels.of(view.movement, view.section)  # the room's "EW 3" on each row
    return pairs_rows(view.standings, kind_of(event.pairs_rules()), names, labels)


def entry(
    store: Store,
    eid: int,
    table: int,
    rnd: int,
    board: int,
    contract: str | None = None,
    declarer: str | None = None,
    tricks: int | None = None,
    **kw: Any,
) -> ResultEntry:
    """Board ``board`` at section A's ``table`` in round ``rnd``, its pairs (or teams) from
    the movement; ``kw`` more of ``ResultEntry``'s fields."""
    row = store.movement(eid, "A").row("A", table, rnd)
    return ResultEntry(
        "A", table, rnd, board, row.ns_pair, row.ew_pair, contract, declarer, tricks=tricks, **kw
    )


PLAYS = st.tuples(
    st.sampled_from([("4S", "N"), ("3NT", "S"), ("2HX", "E"), ("6NT", "W"), ("1C", "N")]),
    st.integers(5, 13),
).map(lambda p: (p[0][0], p[0][1], p[1], None)) | st.just(("PASS", None, None, None))
ARTIFICIAL = st.sampled_from(["60/40", "40/60", "50/50", "40/40", "A+/A-", "A-/A+", "A/A"]).map(
    lambda a: (None, None, None, a)
)


class LiveAgreesWithRebuild(RuleBasedStateMachine):
    """Results, corrections, erasures and TD entries go to a real store and to the live
    views as the hub hands them in (``result_stored`` for a new result, ``reload_board``
    with the board's live lines after a TD change); after every step the live rows equal a
    full rebuild of the store (the architecture: the store is the truth)."""

    def __init__(self, store: Store, event_text: str) -> None:
        super().__init__()
        self.store = store
        self.eid = store.create_event(event_text)
        self.event = store.event(self.eid)
        self.movement = store.movement(self.eid, "A")
        self.names = names_of(store.contestants(self.eid, "A"))
        self.keys = sorted(
            (r.table, r.round, b) for r in self.movement.rows if r.ns_pair for b in r.boards
        )
        self.content: dict[tuple[int, int, int], tuple] = {}
        self.sent = 0
        self.views = hub_views(store, self.eid)

    def _store(self, key, result, **kw):
        table, rnd, board = key
        contract, declarer, tricks, adjusted = result
        e = entry(
            self.store,
            self.eid,
            table,
            rnd,
            board,
            contract,
            declarer,
            tricks,
            adjusted=adjusted,
            **kw,
        )
        (stored,) = self.store.record(self.eid, [e])
        if kw.get("erased"):
            self.content.pop(key, None)
        else:
            self.content[key] = result
        return stored

    def _director_changed(self, board):
        lines = [x for x in self.store.live_lines(self.eid, "A") if x.board == board]
        self.views.reload_board("A", board, lines)

    @precondition(lambda self: len(self.content) < len(self.keys))
    @rule(data=st.data(), result=PLAYS)
    def terminal_result(self, data, result):
        key = data.draw(st.sampled_from([k for k in self.keys if k not in self.content]))
        self.sent += 1
        stored = self._store(key, result, entered_by="T", submission_key=f"T:1:{self.sent}")
        self.views.result_stored(stored.line())

    @precondition(lambda self: self.content)
    @rule(data=st.data())
    def correction(self, data):
        key = data.draw(st.sampled_from(sorted(self.content)))
        was = self.content[key]
        self._store(key, data.draw((PLAYS | ARTIFICIAL).filter(lambda r: r != was)))
        self._director_changed(key[2])

    @precondition(lambda self: self.content)
    @rule(data=st.data())
    def erasure(self, data):
        key = data.draw(st.sampled_from(sorted(self.content)))
        self._store(key, (None, None, None, None), erased=True)
        self._director_changed(key[2])

    @rule(data=st.data(), result=PLAYS | ARTIFICIAL)
    def td_entry(self, data, result):
        key = data.draw(st.sampled_from(self.keys))
        self._store(key, result)
        self._director_changed(key[2])

    @rule()
    def hub_restarts(self):
        again = hub_views(self.store, self.eid)
        assert again.rows("A") == self.views.rows("A")
        self.views = again

    @invariant()
    def live_equals_a_full_rebuild(self):
        """The batch views over every live line of the store, as ``rebuild`` makes them."""
        lines = self.store.live_lines(self.eid, "A")
        view = self.batch(self.event, "A", self.movement, lines)
        assert self.views.rows("A") == rows_of(self.event, view, self.names)
        self.check_travellers(view, lines)


class PairsMachine(LiveAgreesWithRebuild):
    batch = staticmethod(pairs_view)

    def check_travellers(self, view, lines):
        """Each board as scored live is the rebuilt board; each table's own value is its
        NS line's on the rebuilt board."""
        boards = {b.board: b for b in view.boards}
        for board in self.movement.boards():
            live = self.views.scored_board("A", board)
            assert (live is None) == (board not in boards)
            if live is not None:
                assert live.scored_lines() == boards[board].scored_lines()
        for table, rnd, board in self.content:
            shown = self.views.traveller("A", board, table, rnd)
            row = self.movement.row("A", table, rnd)
            scored = boards[board]
            i = next(i for i, x in enumerate(scored.traveller.lines) if x.ns == row.ns_pair)
            assert shown is not None and shown.own_value == scored.score(i, Side.NS)


class TeamsMachine(LiveAgreesWithRebuild):
    batch = staticmethod(teams_view)

    def check_travellers(self, view, lines):
        """Each table's own value: IMPs of its NS score against the other room's."""
        by_key = {(x.table, x.round, x.board): x for x in lines}
        other = {a: b for a, b in self.movement.layout.matches} | {
            b: a for a, b in self.movement.layout.matches
        }
        for table, rnd, board in self.keys:
            shown = self.views.traveller("A", board, table, rnd)
            if (table, rnd, board) not in by_key:
                assert shown is None
                continue
            mine = traveller_line(by_key[(table, rnd, board)]).score_ns
            theirs_line = by_key.get((other[table], rnd, board))
            theirs = None if theirs_line is None else traveller_line(theirs_line).score_ns
            want = 0 if mine is None or theirs is None else imps(mine - theirs)
            assert shown is not None and shown.own_value == want


STATEFUL = settings(max_examples=25, stateful_step_count=20, deadline=None)
