"""The traveller's rows as a TD checks them (TD trial F14): contract, by, the result in the
``+1/-2`` form, lead, the table's score in the column of the side that scored it (Law 77),
matchpoints or IMPs each way, who entered it and who accepted it. Pure: the Traveller tab
and the held results' rows read it."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from hub.console.labels import pair_label
from scoring.board import Seat, board_vulnerability
from scoring.contract import Play, parse_contract
from scoring.errors import ScoringInputError
from scoring.imps import imps
from scoring.law77 import score_ns

Row = tuple[Any, ...]


def traveller_row(
    r: dict[str, Any], flagged: bool, board: int, sec: dict[str, Any] | None = None
) -> Row:
    """One result as a TD checks it (TD trial F14): contract, by, result in the ``+1/-2``
    form, lead, NS and EW score (the side that scored), matchpoints or IMPs each way, who
    entered it and who accepted it; a suspicious score gets a ``?`` to check. The pairs by
    the room's numbers (the section's ``pairs`` directory: EW 3, not 10)."""
    played: str | Text = r.get("adjusted") or f"{r.get('contract') or ''}"
    if flagged:
        played = Text(f"{played} ?", style="bold yellow")
    points_ns, points_ew = table_points(r, board)
    who = str(r.get("entered_by") or "")
    if r.get("accepted_by"):
        who += f" (accepted by {r['accepted_by']})"
    return (
        r["table"],
        r["round"],
        pair_label(sec or {}, r["ns"], "NS"),
        pair_label(sec or {}, r["ew"], "EW"),
        played,
        r.get("declarer") or "",
        result_text(r),
        r.get("lead") or "",
        points_ns,
        points_ew,
        _two_places(r.get("ns_score")),
        _two_places(r.get("ew_score")),
        who,
    )


def result_text(r: dict[str, Any]) -> str:
    """The result as the table says it: ``=``, ``+1``, ``-2`` (the hub's ``result`` when it
    sends one, else from the contract's level and the tricks); blank when there is none."""
    if r.get("result"):
        return str(r["result"])
    if r.get("adjusted") or not r.get("contract") or r.get("tricks") is None:
        return ""
    try:
        contract = parse_contract(r["contract"])
    except (ScoringInputError, ValueError, TypeError):
        return ""
    if contract is None:
        return ""
    over = int(r["tricks"]) - contract.level - 6
    return "=" if over == 0 else f"{over:+d}"


def table_points(r: dict[str, Any], board: int) -> tuple[str | int, str | int]:
    """The table's score in the column of the side that scored it (Law 77): the hub's
    ``points_ns``/``points_ew`` when it sends them, else from the NS score; a pass-out
    scores 0 to NS."""
    if "points_ns" in r or "points_ew" in r:
        return _blank(r.get("points_ns")), _blank(r.get("points_ew"))
    s = ns_score(r, board)
    if s is None:
        return "", ""
    return (s, "") if s >= 0 else ("", -s)


def _two_places(x: float | None) -> str:
    return "" if x is None else f"{float(x):.2f}"


def ns_score(r: dict[str, Any], board: int) -> int | None:
    """NS's score at the table (Law 77): the score keyed instead of a contract, else the
    contract's on this board's vulnerability (the hub sends the contract, not its score);
    None for an adjusted score, or a result the scoring rules cannot read."""
    if r.get("score_ns") is not None:
        return int(r["score_ns"])
    if r.get("adjusted") or not r.get("contract"):
        return None
    try:
        contract = parse_contract(r["contract"])
        if contract is None:
            return 0  # passed out
        if r.get("declarer") is None or r.get("tricks") is None:
            return None
        play = Play(contract, Seat.parse(r["declarer"]), int(r["tricks"]))
    except (ScoringInputError, ValueError, TypeError):  # odd data never stops the console
        return None
    return score_ns(play, board_vulnerability(board))


def _blank(x: int | None) -> str | int:
    return "" if x is None else x


def double_dummy_line(dd: dict[str, Any]) -> str:
    """The hub's double dummy of a board (``docs/api.md``, the ``traveller`` read) as a
    hand-record sheet gives it: ``Makeable: NS 4♠, EW 3♥ · Par: NS 620: 4♠ N, 4♠ S``."""
    makeable = ", ".join(str(x) for x in dd.get("makeable") or []) or "nothing above 6 tricks"
    par = dd.get("par")
    return f"Makeable: {makeable}" + (f"  ·  Par: {par}" if par else "")


def with_team_imps(results: list[dict[str, Any]], board: int) -> list[dict[str, Any]]:
    """A team board's results with each line's IMPs for its NS and EW team as
    ``ns_score``/``ew_score`` (issue [MENDS] #25): the match's other room is the line with
    the same two teams the other way round (the nearest round, a three-way's rooms being a
    round apart); the NS team's net is its NS score less the other room's NS score (Law
    78B). A line whose other room has no score yet keeps what the hub sent."""
    out = []
    for r in results:
        mine = ns_score(r, board)
        rooms = [
            x
            for x in results
            if x is not r and (x.get("ns"), x.get("ew")) == (r.get("ew"), r.get("ns"))
        ]
        rooms.sort(key=lambda x: abs(int(x.get("round") or 0) - int(r.get("round") or 0)))
        theirs = ns_score(rooms[0], board) if rooms else None
        if mine is None or theirs is None:
            out.append(r)
            continue
        won = imps(mine - theirs)
        out.append({**r, "ns_score": won, "ew_score": -won})
    return out
