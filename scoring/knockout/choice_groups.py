"""The matches of a choice group (issue [KNOCKOUT]): its teams paired by the choices made
so far (replayed through ``choice.ChoiceProcedure``), or by a fold, onto its matches.

The pairs go onto the group's matches in order, the chooser at home: with ``LISTED`` and
``TOP_HALF`` in the choosers' turn order (chooser i's pair plays ``matches[i]``: an absent
chooser keeps its table, seed 002 §17), with ``RANK`` the k-th pair made plays
``matches[k]``; a fold pairs best v worst, second v second worst … in that order.
Teams of equal rank (after inheritance) are ordered by their entry rank. A chooser left
with no opponent (a walk over after a withdrawal, seed 002 BC08-A) faces a missing team:
its match is a bye and it goes through.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scoring.errors import ScoringInputError
from scoring.knockout.bracket import ChoiceGroup, ChoiceOrder
from scoring.knockout.choice import WALK_OVER, ChoiceProcedure, ChoiceRefused, Contender

# a step of ``made`` that is not a choice: (team, ABSENT) the team is not there when its
# turn comes, (team, ARRIVED) it has come (seed 002 §17)
ABSENT, ARRIVED = "(absent)", "(arrived)"


@dataclass(frozen=True, slots=True)
class Seat:
    """A slot or finishing position: ``present`` False for a missing team (a bye, fewer
    entries than the bracket); ``team`` None while not known (or missing)."""

    present: bool
    team: str | None = None


MISSING = Seat(False)


def pair_group(
    g: ChoiceGroup,
    seats: Sequence[Seat],
    made: Sequence[tuple[str, str]],
    order_key: Callable[[str], tuple[int, int]],
    contender: Callable[[str], Contender],
    *,
    withdrawn: Sequence[str] = (),
) -> tuple[ChoiceProcedure | None, list[Seat]]:
    """The group's procedure (None for a fold or while its teams are unknown) and the
    seats of its matches' slots, match by match. ``seats``: the group's choosers then its
    pool; ``made``: (chooser, chosen) team names in the order made, or (team, ``ABSENT``)
    and (team, ``ARRIVED``) where a chooser was not there when its turn came and came (seed
    002 §17: once every chooser there has chosen, the absent get the teams left, the
    best-placed the worst-placed); ``order_key``: better
    teams first; ``withdrawn``: teams of the group that withdrew before the choice, in
    that order (seed 002 BC08-A, a choice by the better half only)."""
    choosers, pool = list(seats[: len(g.choosers)]), list(seats[len(g.choosers) :])
    unknown = [Seat(True)] * (2 * len(g.matches))
    where = f"choices[{g.name}]"
    if any(s.present and s.team is None for s in seats):
        if made or withdrawn:
            raise ScoringInputError(where, f"{g.name}: its teams are not known yet")
        return None, unknown
    if g.order is ChoiceOrder.FOLD:
        if made or withdrawn:
            raise ScoringInputError(where, f"{g.name} is a fold: no choice is made")
        ranked = sorted((s for s in pool if s.present), key=lambda s: order_key(str(s.team)))
        ranked += [s for s in pool if not s.present]  # a missing team ranks last: a bye
        n = len(ranked)
        return None, [ranked[i if j == 0 else n - 1 - i] for i in range(n // 2) for j in (0, 1)]
    if not all(s.present for s in seats):
        raise ScoringInputError(
            where,
            f"{g.name}: a team of the choice is missing (fewer entries than the bracket): "
            "only a fold can give a bye",
        )
    contenders = {str(s.team): contender(str(s.team)) for s in seats}

    def ordered(some: list[Seat]) -> list[Contender]:
        return [contenders[t] for t in sorted((str(s.team) for s in some), key=order_key)]

    if g.order is ChoiceOrder.LISTED:
        proc = ChoiceProcedure.listed(
            [contenders[str(s.team)] for s in choosers], ordered(pool), g.rules
        )
    elif g.order is ChoiceOrder.RANK:
        proc = ChoiceProcedure.by_rank(ordered(pool), g.rules)
    else:
        proc = ChoiceProcedure.top_half(ordered(pool), g.rules)
    for team in withdrawn:
        if team not in contenders:
            raise ScoringInputError(
                "withdrawn", f"{g.name}: {team} must be among {sorted(contenders)}"
            )
        try:
            proc = proc.withdraw(team)
        except ChoiceRefused as e:
            raise ScoringInputError("withdrawn", f"{g.name}: {e}") from None
    for i, (chooser, chosen) in enumerate(made):
        if chosen in (ABSENT, ARRIVED) and chooser in contenders:  # seed 002 §17
            try:
                proc = proc.absent(chooser) if chosen == ABSENT else proc.arrived(chooser)
            except ChoiceRefused as e:
                raise ScoringInputError(f"{where}[{i}]", f"{g.name}: {e}") from None
            continue
        if chooser not in contenders or chosen not in contenders:
            raise ScoringInputError(
                f"{where}[{i}]",
                f"{g.name}: {chooser} and {chosen} must both be among {sorted(contenders)}",
            )
        try:
            proc = proc.choose(contenders[chooser], contenders[chosen])
        except ChoiceRefused as e:
            raise ScoringInputError(f"{where}[{i}]", f"{g.name}: {e}") from None
    if not proc.done and proc.next_chooser() is None and proc.waiting:
        proc = proc.close()  # the present have chosen: the absent get the teams left
    if not proc.done:
        return proc, unknown
    return proc, [_seat(team) for pair in proc.match_pairs for team in pair]


def _seat(team: str) -> Seat:
    """A paired team's seat; a chooser left with no opponent (``WALK_OVER``, seed 002
    BC08-A) faces a missing team: its match is a bye and it goes through."""
    return MISSING if team == WALK_OVER else Seat(True, team)
