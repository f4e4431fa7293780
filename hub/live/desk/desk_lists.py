"""The director's desk lists of the API snapshot (issue [EVENING]; TD trial F4, F7):

- held results with what the terminal sent (contract, declarer, result, tricks, lead, the
  Law 77 score, the pairs, the terminal), why they are held, the live result accepting
  them would replace (``conflict``) and whether accepting them as sent can succeed;
- boards not played: the boards of rounds that are over (ended by the director or
  otherwise) with neither a result nor a score, which empties as the director scores them.

``finished_boards`` reads the loop's round state (on the loop); ``desk_lists`` reads the
store (in a worker thread)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hub.event.movement.model import Movement
from hub.event.result_key import KeyVerdict, check_key
from hub.live.desk.traveller_rows import law77_ns
from hub.live.rounds.section_rounds import Rounds
from hub.store.store import Store
from hub.store.values import StoredResult, conflict_text, result_form

Key = tuple[str, int, int, int]


@dataclass(frozen=True, slots=True)
class BoardDue:
    """A board a table played, or should have played, in a round that is over."""

    section: str
    table: int
    round: int
    board: int
    ns_pair: int
    ew_pair: int

    @property
    def key(self) -> Key:
        return (self.section, self.table, self.round, self.board)


def finished_boards(rounds: Rounds) -> list[BoardDue]:
    """Every board of every playing table in the rounds that are over (sit-outs have no
    boards to score)."""
    out = []
    for letter, state in rounds.sections.items():
        controller = state.controller
        for rnd in range(1, state.movement.rounds + 1):
            if not (rnd < state.round or controller.is_complete(rnd)):
                continue
            for tr in controller.playing(rnd):
                out += [
                    BoardDue(letter, tr.table, rnd, b, tr.ns_pair, tr.ew_pair) for b in tr.boards
                ]
    return out


def _live(results: list[StoredResult]) -> dict[Key, StoredResult]:
    """The live result of each key: its latest accepted revision, unless that erased it."""
    latest: dict[Key, StoredResult] = {}
    for r in results:
        if r.status == "accepted" and (r.key not in latest or r.revision > latest[r.key].revision):
            latest[r.key] = r
    return {k: r for k, r in latest.items() if not r.erased}


def held_row(
    r: StoredResult,
    reason: str | None,
    live: Mapping[Key, StoredResult],
    movements: Mapping[str, Movement],
) -> dict[str, Any]:
    """One held result as the director decides it (TD trial F7)."""
    movement = movements.get(r.section)
    verdict = (
        None
        if movement is None
        else check_key(movement, r.section, r.table, r.round, r.board, r.ns_pair, r.ew_pair)
    )
    if reason is None and verdict is not None and verdict.verdict is not KeyVerdict.OK:
        reason = verdict.reason
    there = live.get(r.key)
    return {
        "id": r.id,
        "section": r.section,
        "table": r.table,
        "round": r.round,
        "board": r.board,
        "contract": r.contract,
        "declarer": r.declarer,
        "result": result_form(r.contract, r.tricks),
        "tricks": r.tricks,
        "lead": r.lead,
        "score_ns": law77_ns(r),
        "adjusted": r.adjusted,
        "entered_by": r.entered_by,
        "ns_pair": r.ns_pair,
        "ew_pair": r.ew_pair,
        "reason": reason or "held for the director",
        "conflict": None if there is None else conflict_text(there),
        "can_accept_as_sent": verdict is not None and verdict.verdict is KeyVerdict.OK,
    }


def held_details(
    store: Store, event_id: int, movement: Movement | None, r: StoredResult, reason: str | None
) -> dict[str, Any]:
    """What the director needs to decide a result just held, for its alert on the feed (the
    snapshot's held row without the keys the alert already carries; a worker thread)."""
    live = {x.key: x for x in store.live_results(event_id, r.section)}
    row = held_row(r, reason, live, {} if movement is None else {r.section: movement})
    return {k: v for k, v in row.items() if k not in {"id", "section", "table", "round", "board"}}


def desk_lists(
    store: Store, event_id: int, movements: Mapping[str, Movement], due: list[BoardDue]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The held results and the boards not played, read from the store."""
    results = store.results(event_id)
    reasons = {
        a["detail"].get("result"): a["detail"].get("reason")
        for a in store.audit_log(event_id, "held")
        if isinstance(a.get("detail"), dict)
    }
    live = _live(results)
    held_results = [r for r in results if r.status == "held"]
    held = [held_row(r, reasons.get(r.id), live, movements) for r in held_results]
    waiting = {r.key for r in held_results}  # decided on the held list first
    not_played = [
        {
            "section": d.section,
            "table": d.table,
            "round": d.round,
            "board": d.board,
            "ns_pair": d.ns_pair,
            "ew_pair": d.ew_pair,
        }
        for d in due
        if d.key not in live and d.key not in waiting
    ]
    return held, not_played
