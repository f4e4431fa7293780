"""A board's traveller as the director checks it (issue [EVENING], TD trial F14): per
table the contract, declarer, result in the ``+1/-2`` form, lead, the Law 77 points of the
side that scored, the board's matchpoints or IMPs, who entered the result and who accepted
it. Pure: rows from the stored results and the board's scores."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hub.store.values import StoredResult, result_form
from scoring.board import board_vulnerability
from scoring.board_score import BoardScore
from scoring.contract import parse_play
from scoring.errors import ScoringInputError
from scoring.law77 import score_ns


def law77_ns(r: StoredResult) -> int | None:
    """The NS score of a played result by Law 77 (the keyed score when there is no
    contract); None for an adjusted score or a result that cannot be read."""
    if r.adjusted:
        return None
    if not r.contract:
        return r.score_ns
    form = result_form(r.contract, r.tricks)
    if form is None:
        return None
    try:
        play = parse_play(r.contract, r.declarer or "", form)
    except ScoringInputError:
        return None
    return score_ns(play, board_vulnerability(r.board))


def _number(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


def traveller_rows(results: list[StoredResult], scored: BoardScore | None) -> list[dict[str, Any]]:
    """The board's live results as traveller rows, in round then table order."""
    by_pairs = {(sl.line.ns, sl.line.ew): sl for sl in (scored.scored_lines() if scored else [])}
    rows = []
    for r in sorted(results, key=lambda r: (r.round, r.table)):
        sl = by_pairs.get((r.ns_pair, r.ew_pair))
        points = law77_ns(r)
        rows.append(
            {
                "table": r.table,
                "round": r.round,
                "ns": r.ns_pair,
                "ew": r.ew_pair,
                "contract": r.contract,
                "declarer": r.declarer,
                "result": result_form(r.contract, r.tricks),
                "lead": r.lead,
                "tricks": r.tricks,
                "score_ns": points,
                "points_ns": points if points is not None and points > 0 else None,
                "points_ew": -points if points is not None and points < 0 else None,
                "adjusted": r.adjusted,
                "entered_by": r.entered_by,
                "accepted_by": r.accepted_by,
                "revision": r.revision,
                "ns_score": None if sl is None else float(sl.ns_score),
                "ew_score": None if sl is None else float(sl.ew_score),
                "ns_mp": None if sl is None else _number(sl.ns_mp),
                "ew_mp": None if sl is None else _number(sl.ew_mp),
            }
        )
    return rows
