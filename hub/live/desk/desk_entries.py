"""The director's desk: a score the TD gives one table on one board, checked against the
movement and turned into a result to store (issue [EVENING], TD trial F4). Any table, round
and board the movement has, played or not; the pairs from the movement when not given; a
result, an artificial score (Law 12C2) or a weighted score (Law 12C1(c)). Pure: a refusal
is a ``DeskRefusal`` with the reason in the TD's words."""

from __future__ import annotations

from collections.abc import Mapping

from hub.api.desk_models import ResultLine
from hub.event.movement.model import Movement
from hub.event.result_key import KeyVerdict, check_key
from hub.store.values import ResultEntry
from scoring.contract import parse_play
from scoring.deal import normalise_card
from scoring.errors import ScoringInputError
from scoring.traveller import Artificial, WeightedPart, parse_weight


class DeskRefusal(ValueError):
    """A score the hub cannot store as given; the text says what to change."""


def where(line: ResultLine) -> str:
    return f"table {line.section}{line.table} round {line.round} board {line.board}"


def adjustment(line: ResultLine) -> str | None:
    """The artificial or weighted score as stored (``60/40``, ``1/2 4S N =; 1/2 4S N -1``),
    checked; None for a played result."""
    if line.adjusted is not None and line.weighted is not None:
        raise DeskRefusal("give either an artificial score (adjusted) or a weighted score")
    if line.adjusted is not None:
        return str(Artificial.parse(line.adjusted))
    if line.weighted is not None:
        parts = [
            WeightedPart(parse_weight(p.weight), parse_play(p.contract, p.declarer, p.result))
            for p in line.weighted
        ]
        return str(Artificial.weighted_of(parts))
    return None


def desk_entry(movements: Mapping[str, Movement], line: ResultLine, actor: str) -> ResultEntry:
    """The result the director gives ``line``'s table, or a ``DeskRefusal`` saying why not
    (a key outside the movement, a board the table does not play that round, a sit-out,
    pairs that do not sit there, a result that cannot be read)."""
    movement = movements.get(line.section)
    if movement is None:
        raise DeskRefusal(f"section {line.section} is not in this event")
    row = movement.row(line.section, line.table, line.round)
    if row is None:
        key = check_key(movement, line.section, line.table, line.round, line.board, 1, 1)
        raise DeskRefusal(key.reason or f"{where(line)} is not in the movement")
    if 0 in (row.ns_pair, row.ew_pair):
        raise DeskRefusal(
            f"table {line.section}{line.table} sits out in round {line.round}: there is no "
            "result to score"
        )
    ns = row.ns_pair if line.ns_pair is None else line.ns_pair
    ew = row.ew_pair if line.ew_pair is None else line.ew_pair
    key = check_key(movement, line.section, line.table, line.round, line.board, ns, ew)
    if key.verdict is not KeyVerdict.OK:
        raise DeskRefusal(key.reason)
    base = (line.section, line.table, line.round, line.board, ns, ew)
    try:
        adjusted = adjustment(line)
        if adjusted is not None:
            if line.contract or line.lead:
                raise DeskRefusal(
                    "an adjusted score has no contract or lead: leave them out, or give the "
                    "result without the adjustment"
                )
            return ResultEntry(*base, adjusted=adjusted, entered_by=actor)
        if not line.contract:
            raise DeskRefusal(
                "give the contract, declarer and result (4S N =, or PASS), an artificial "
                "score such as A+/A- or 60/40, or a weighted score"
            )
        play = parse_play(line.contract, line.declarer, line.result)
        lead = normalise_card(line.lead) if line.lead and play.contract else None
    except ScoringInputError as e:
        raise DeskRefusal(e.message) from None
    return ResultEntry(
        *base,
        contract=str(play.contract) if play.contract else "PASS",
        declarer=play.declarer.name if play.declarer else None,
        lead=lead,
        tricks=play.tricks,
        entered_by=actor,
    )
