"""What a terminal was told is stored, and how the campaign finds it in the store
(issue 12 [FAULTS], the "lost" invariant of ``campaign.invariants``): a ``Confirmed``
result as the terminal sent it, normalised as intake stores it, and the comparison with a
stored revision (its content, and its pairs in the room's numbers or the hub's)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hub.event.pair_labels import PairLabels
from hub.store.store import StoredResult
from scoring.contract import parse_contract
from scoring.deal import normalise_card
from scoring.errors import ScoringInputError

SEATS = "NESW"
Key = tuple[str, int, int, int]  # section, table, round, board
Content = tuple[str | None, str | None, int | None, str | None]  # contract, declarer, tricks, lead


@dataclass(frozen=True, slots=True)
class Confirmed:
    """A result a terminal was told is stored (``VirtualTerminal.log.accepted`` or
    ``.held``), as the terminal sent it: ``declarer`` a seat letter or the wire's seat
    number (0 N … 3 W, 255 none), ``tricks`` 255 or None without a contract, ``contract``
    ``""`` for a NO PLAY; pairs and lead are checked when given."""

    section: str
    table: int
    round: int
    board: int
    contract: str
    declarer: str | int | None
    tricks: int | None
    lead: str | None = None
    ns_pair: int | None = None
    ew_pair: int | None = None

    @classmethod
    def of(cls, result: Any) -> Confirmed:
        """From a wire ``Result`` message (``drivers.protocol.messages.Result``) as the
        terminal logged it."""
        return cls(
            result.section,
            result.table,
            result.round,
            result.board,
            result.contract,
            result.declarer,
            result.tricks,
            result.lead or None,
            result.ns_pair,
            result.ew_pair,
        )

    @property
    def key(self) -> Key:
        return (self.section, self.table, self.round, self.board)

    @property
    def no_play(self) -> bool:
        return not self.contract.strip()

    def content(self) -> Content | None:
        """What the store would hold: (contract, declarer letter, tricks, lead), normalised
        as intake stores them; None when the contract cannot be read."""
        try:
            parsed = parse_contract(self.contract)
        except ScoringInputError:
            return None
        if parsed is None:
            return ("PASS", None, None, None)
        return (str(parsed), _seat(self.declarer), self.tricks, _card(self.lead))

    def text(self) -> str:
        """``4S N 10`` (tricks), ``PASS``, ``NO PLAY``."""
        if self.no_play:
            return "NO PLAY"
        c = self.content()
        if c is None:
            return repr(self.contract)
        if c[0] == "PASS":
            return "PASS"
        lead = f" lead {c[3]}" if c[3] else ""
        return f"{c[0]} {c[1] or '?'} {c[2]}{lead}"


def _seat(declarer: str | int | None) -> str | None:
    if declarer is None or declarer == 255 or declarer == "":
        return None
    if isinstance(declarer, int):
        return SEATS[declarer] if 0 <= declarer < 4 else f"seat {declarer}"
    return declarer.strip().upper()[:1] or None


def _card(lead: str | None) -> str | None:
    if not lead or not lead.strip():
        return None
    try:
        return normalise_card(lead)
    except ScoringInputError:
        return lead.strip()


def stored_content(r: StoredResult) -> Content:
    """A stored revision's (contract, declarer, tricks, lead), to compare with ``content``."""
    return (r.contract, r.declarer, r.tricks, r.lead)


def where(key: Key) -> str:
    """``A3 round 2 board 5``: a finding's place, as a TD finds it."""
    section, table, rnd, board = key
    return f"{section}{table} round {rnd} board {board}"


def holds(
    c: Confirmed, want: Content | None, r: StoredResult, numbering: PairLabels | None
) -> bool:
    """The stored revision holds the confirmed result: its content, and its pairs when
    given, in the room's numbers (the wire's, docs/protocol.md §4: EW 3, not 10) or the
    hub's."""
    if want is None or r.erased:
        return False
    if c.ns_pair is not None:
        pairs = (r.ns_pair, r.ew_pair)
        room = pairs
        if numbering is not None:
            room = (room_number(numbering, r.ns_pair), room_number(numbering, r.ew_pair))
        if (c.ns_pair, c.ew_pair) not in (pairs, room):
            return False
    got = stored_content(r)
    if want[0] == "PASS":
        return got[0] == "PASS"
    lead_ok = want[3] is None or got[3] == want[3]
    return got[:3] == want[:3] and lead_ok


def room_number(numbering: PairLabels, pair: int) -> int:
    """The hub's pair number as the room (and the wire) numbers it: Mitchell EW 3, not 10."""
    return numbering.to_room(pair)[1] if pair > 0 else 0


def stored_text(r: StoredResult) -> str:
    """A stored revision as a finding names it: ``4S N 10 lead HA (held)``, an erasure."""
    if r.erased:
        return "an erasure"
    if r.adjusted:
        return f"adjusted {r.adjusted}"
    if r.contract == "PASS":
        return "PASS"
    lead = f" lead {r.lead}" if r.lead else ""
    return f"{r.contract} {r.declarer or '?'} {r.tricks}{lead} ({r.status})"
