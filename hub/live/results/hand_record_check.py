"""Do the hand records match the boards played? (TD trial F3, issue [EVENING].)

A rotated or wrong PBN file is a common slip. Each opening lead the tables send is a
witness: the lead card is in exactly one hand of the file's deal, so it says under which
rotation of the file the leader would hold it. After a few results on two boards or more
(at most three witnesses a board) the verdict is plain: the leads are in the leaders'
hands (the file is right), all of them fit one rotation (the file is rotated), or they fit
no rotation (another set of boards). The director is told once, in plain words, with how
to load the right file.

Rotation ``k``: the room's seat holds the hand the file gives the seat ``k`` places
anticlockwise; "rotated one seat clockwise" means the file's North hand is East's in the
room. Pure: no I/O, on the hub's loop.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field

from hub.store.store import ResultEntry
from scoring.board import Seat
from scoring.deal import opening_leader, parse_deal

log = logging.getLogger(__name__)

FIRST_LOOK = 4  # results with a lead before the first verdict
FIRST_BOARDS = 2  # ... on at least this many boards
PER_BOARD = 3  # witnesses a board gives at most (its results share one deal)
LAST_LOOK = 12  # witnesses after which an unclear picture is decided by the majority
HOW_TO_LOAD = (
    "Load the right file with `bridgehub hand-records FILE.pbn --api ws://HOST:PORT/v1` "
    "(the director's command load_hand_records); results held for their lead are checked "
    "again then"
)
ROTATED = {
    1: "one seat clockwise (the file's North hand is East's in the room)",
    2: "two seats (the file's North hand is South's in the room, East's is West's)",
    3: "one seat anticlockwise (the file's North hand is West's in the room)",
}


def rotations_fitting(deal: str, leader: Seat, lead: str) -> frozenset[int]:
    """The rotations of the file under which ``leader`` holds ``lead`` (0: as written)."""
    hands = parse_deal(deal)
    return frozenset(k for k in range(4) if lead in hands[Seat((leader.value - k) % 4)])


def lead_misfit(deals: Mapping[tuple[str, int], str], entry: ResultEntry) -> str | None:
    """Why the opening lead cannot be right by the hand records (the card is not in the
    opening leader's hand), or None: no lead, no contract, or no deal for the board."""
    deal = deals.get((entry.section, entry.board))
    if deal is None or entry.lead is None or entry.declarer is None:
        return None
    leader = opening_leader(Seat.parse(entry.declarer))
    if entry.lead in parse_deal(deal)[leader]:
        return None
    return (
        f"the lead {entry.lead} is not in {leader.name}'s hand (the opening leader) on board "
        f"{entry.board} by the hand records: check the lead card, or the hand records"
    )


@dataclass
class HandRecordCheck:
    """The leads seen per section (at most ``PER_BOARD`` a board) and the verdict, given
    once. Intake's, on the hub's loop."""

    seen: dict[str, dict[tuple[int, int, int], frozenset[int]]] = field(default_factory=dict)
    decided: set[str] = field(default_factory=set)

    def reset(self, section: str) -> None:
        """New hand records for the section: look again from the next lead."""
        self.seen.pop(section, None)
        self.decided.discard(section)

    def witness(self, deals: Mapping[tuple[str, int], str], e: ResultEntry) -> str | None:
        """A stored result's lead as a witness (nothing without a lead or a deal); the
        director's notice when the verdict is in, logged."""
        deal = deals.get((e.section, e.board))
        if deal is None or e.lead is None or e.declarer is None:
            return None
        leader = opening_leader(Seat.parse(e.declarer))
        notice = self.observe(e.section, (e.board, e.table, e.round), leader, e.lead, deal)
        if notice is not None:
            log.warning("section %s: %s", e.section, notice)
        return notice

    def observe(
        self, section: str, where: tuple[int, int, int], leader: Seat, lead: str, deal: str
    ) -> str | None:
        """One stored result's opening lead at ``where`` (board, table, round); the
        director's notice when the verdict is that the file does not match (once per
        section and file), else None."""
        if section in self.decided:
            return None
        seen = self.seen.setdefault(section, {})
        on_board = sum(k[0] == where[0] for k in seen if k != where)
        if on_board >= PER_BOARD:
            return None
        seen[where] = rotations_fitting(deal, leader, lead)
        return self._verdict(section, seen)

    def _verdict(
        self, section: str, seen: dict[tuple[int, int, int], frozenset[int]]
    ) -> str | None:
        """Right (almost every lead fits), rotated (every lead, or all but one of six or
        more, fits one rotation), another set (most leads fit neither), or wait for more."""
        n = len(seen)
        if n < FIRST_LOOK or len({k[0] for k in seen}) < FIRST_BOARDS:
            return None
        counts = [sum(k in fits for fits in seen.values()) for k in range(4)]
        if counts[0] >= n - 1 or (n >= LAST_LOOK and 2 * counts[0] >= n):
            self.decided.add(section)  # the file is right; a wrong lead is held on its own
            return None
        best = max(range(1, 4), key=lambda k: counts[k])
        if counts[best] == n or (n >= 6 and counts[best] >= n - 1):
            self.decided.add(section)
            return (
                f"the hand records do not match the boards played: {counts[best]} of {n} "
                f"opening leads fit the deals rotated {ROTATED[best]} — is the PBN file "
                f"rotated? {HOW_TO_LOAD}"
            )
        if (2 * counts[0] < n and counts[best] < n - 1) or n >= LAST_LOOK:
            self.decided.add(section)
            return (
                f"the hand records do not match the boards played: {n - counts[0]} of {n} "
                "opening leads are not in the leader's hand, and no rotation of the file "
                "explains them — is it another set of boards (another session's file)? "
                f"{HOW_TO_LOAD}"
            )
        return None
