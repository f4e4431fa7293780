"""Does a hand-record file the director loads fit what the session has played? (TD trial
G11, issue [MENDS] #25.)

Loaded during or after a session, a file replaces the published deals. Two checks come
before it is stored, each overridden by ``force``:

- it covers every board the session plays (a 16-board file for a 21-board session is
  refused, naming the boards not in it);
- the opening leads already stored are witnesses (``hand_record_check``): a lead card is in
  the opening leader's hand by the right file. A slip now and then is a wrong lead keyed at
  a table (held on its own); more than one stored lead in ten, and at least two, not in the
  leader's hand says the file is another set or rotated, and it is refused.

Pure: no I/O; the caller hands in the stored results.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from hub.live.results.hand_record_check import ROTATED, rotations_fitting
from hub.store.store import ResultEntry
from scoring.board import Seat
from scoring.deal import opening_leader

MISFITS_TOLERATED = 10  # one stored lead in this many may be a slip at the table
FORCE = "load it anyway with force (`bridgehub hand-records FILE.pbn --force`)"


@dataclass(frozen=True, slots=True)
class LeadFit:
    """The stored opening leads against a file: how many could be checked, how many are
    not in the leader's hand (by board), and the rotation of the file that fits the most."""

    checked: int
    misfit_boards: tuple[int, ...]  # one entry per lead that does not fit, board order
    rotation: int  # 0: as written
    rotated_fits: int

    @property
    def misfits(self) -> int:
        return len(self.misfit_boards)

    @property
    def fits(self) -> bool:
        """Few enough misfits to be slips at the tables."""
        return self.misfits < 2 or self.misfits * MISFITS_TOLERATED <= self.checked


def stored_leads_fit(deals: Mapping[int, str], results: Iterable[ResultEntry]) -> LeadFit:
    """Every stored result with a lead, a declarer and a deal in ``deals`` (board → deal)
    checked against it, and under each rotation of the file."""
    checked = 0
    misfit: list[int] = []
    per_rotation = [0, 0, 0, 0]
    for r in results:
        deal = deals.get(r.board)
        if deal is None or r.lead is None or r.declarer is None:
            continue
        fitting = rotations_fitting(deal, opening_leader(Seat.parse(r.declarer)), r.lead)
        checked += 1
        if 0 not in fitting:
            misfit.append(r.board)
        for k in fitting:
            per_rotation[k] += 1
    best = max(range(1, 4), key=lambda k: per_rotation[k])
    return LeadFit(checked, tuple(sorted(misfit)), best, per_rotation[best])


def leads_refusal(fit: LeadFit) -> str | None:
    """What the director is told when the stored leads say the file is not this session's
    (nothing is changed), or None."""
    if fit.fits:
        return None
    boards = ", ".join(map(str, sorted(set(fit.misfit_boards))))
    if fit.rotated_fits * MISFITS_TOLERATED >= fit.checked * (MISFITS_TOLERATED - 1):
        why = (
            f"rotated {ROTATED[fit.rotation]} it would fit {fit.rotated_fits} of them — is "
            "the PBN file rotated?"
        )
    else:
        why = "no rotation of the file explains them — is it another set of boards?"
    return (
        f"the file does not fit the results stored: {fit.misfits} of {fit.checked} opening "
        f"leads are not in the leader's hand by it (boards {boards}), and {why} Nothing was "
        f"changed: load the session's own file, or {FORCE}"
    )


def coverage_refusal(held: list[int], played: list[int], session: int) -> str | None:
    """The file (boards ``held``) leaves out some of the session's boards (``played``):
    what the director is told, or None."""
    missing = [b for b in played if b not in set(held)]
    if not missing:
        return None
    return (
        f"the file holds boards {span(held)}; session {session} plays boards {span(played)}: "
        f"boards {span(missing)} are not in the file. Nothing was changed: load the "
        f"session's whole file, or {FORCE}"
    )


def span(boards: list[int]) -> str:
    """``1-3, 7`` for [1, 2, 3, 7]."""
    out: list[str] = []
    for b in sorted(boards):
        if out and out[-1].split("-")[-1] == str(b - 1):
            out[-1] = f"{out[-1].split('-')[0]}-{b}"
        else:
            out.append(str(b))
    return ", ".join(out)
