"""Result intake (decisions D9): who may submit for a table, and how a submission is
answered — accepted, held for the director, a duplicate, or refused with the reason the
players can act on. Intake decides; the result writer stores; the answer goes out only
after the commit (D11).

Domain types only (decisions D18): submissions and verdicts of the terminal port, never
wire messages. ``Intake`` belongs to the hub's asyncio loop: it reads no store; the hub
hands it the live results and hand records it reads in a worker thread.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from hub.event.movement.model import Movement
from hub.event.result_key import KeyVerdict, check_key
from hub.live.terminal_port import Outcome, Reason, ResultSubmission, Verdict
from hub.store.store import ResultEntry, StoredResult
from scoring.board import Seat
from scoring.contract import Play, parse_contract
from scoring.deal import normalise_card, opening_leader, parse_deal
from scoring.errors import ScoringInputError

Audit = Callable[[str, str, dict[str, Any]], None]
Key = tuple[str, int, int, int]


@dataclass(frozen=True, slots=True)
class Pending:
    """A checked result waiting for its commit: stored ``accepted`` or ``held``."""

    serial: str
    entry: ResultEntry
    status: str
    alert: str | None


@dataclass(frozen=True, slots=True)
class IntakeResult:
    """How a submission is answered, with what was stored and what the director is told."""

    verdict: Verdict
    stored: StoredResult | None = None
    alert: str | None = None

    @property
    def outcome(self) -> Outcome:
        return self.verdict.outcome


def submission_key(serial: str, s: ResultSubmission) -> str:
    return f"{serial}:{s.section}:{s.table}:{s.round}:{s.board}:{s.revision}"


class Intake:
    """Intake for one event, on the hub's loop. ``holders`` maps (section, table) to the
    terminal serial that holds the table (set at log-on)."""

    def __init__(self, movements: dict[str, Movement], audit: Audit) -> None:
        self.movements = movements
        self.audit = audit
        self.holders: dict[tuple[str, int], str] = {}
        self.takeovers: set[tuple[str, int]] = set()
        self.live: dict[Key, StoredResult] = {}
        self.deals: dict[int, str] = {}

    def load(self, live: Iterable[StoredResult], deals: dict[int, str]) -> None:
        """What the store holds (read in a worker thread at start)."""
        self.live = {r.key: r for r in live}
        self.deals = deals

    def board_changed(self, section: str, board: int, live: Iterable[StoredResult]) -> None:
        """A director's change: the board's live results as the store now has them."""
        for key in [k for k in self.live if k[0] == section and k[3] == board]:
            del self.live[key]
        self.live.update((r.key, r) for r in live)

    def allow_takeover(self, section: str, table: int) -> None:
        """The TD confirmed with the PIN: the next terminal to log on takes the table."""
        self.takeovers.add((section, table))

    # -- log-on ---------------------------------------------------------------------------
    def logon(self, serial: str, section: str, table: int, pin_ok: bool = False) -> Verdict:
        """A terminal claims a table. A table held by another terminal is refused unless
        the TD's PIN came with the claim; every refusal is audited."""
        movement = self.movements.get(section)
        if movement is None:
            return self._refuse(
                serial, Reason.NOT_IN_MOVEMENT, f"section {section} is not in this event"
            )
        if table not in movement.tables(section):
            return self._refuse(
                serial, Reason.NOT_IN_MOVEMENT, f"section {section} has no table {table}"
            )
        holder = self.holders.get((section, table))
        if (section, table) in self.takeovers:
            pin_ok = True
            self.takeovers.discard((section, table))
        if holder is not None and holder != serial and not pin_ok:
            return self._refuse(
                serial,
                Reason.TABLE_HELD,
                f"table {section}{table} is held by another terminal: ask "
                "the director to confirm with the PIN",
            )
        self.holders = {k: v for k, v in self.holders.items() if v != serial}
        self.holders[(section, table)] = serial
        takeover = holder not in (None, serial)
        self.audit(serial, "logon", {"section": section, "table": table, "takeover": takeover})
        return Verdict(Outcome.OK, f"table {section}{table}")

    def _refuse(self, who: str, reason: Reason, text: str) -> Verdict:
        self.audit(who, "refused", {"code": reason.name, "reason": text})
        return Verdict.refused(reason, text)

    # -- results --------------------------------------------------------------------------
    def entry(self, serial: str, s: ResultSubmission) -> ResultEntry:
        """The store entry of a submission (raises ScoringInputError when invalid)."""
        contract = parse_contract(s.contract)
        declarer: Seat | None = None
        if contract is not None:
            if s.declarer is None:
                raise ScoringInputError("declarer", f"{contract} needs a declarer: N, E, S or W")
            declarer = Seat.parse(s.declarer)
            Play(contract, declarer, s.tricks)  # tricks 0-13
        lead = normalise_card(s.lead) if s.lead and contract is not None else None
        if lead is not None and declarer is not None:
            deal = self.deals.get(s.board)
            if deal is not None:
                leader = opening_leader(declarer)
                if lead not in parse_deal(deal)[leader]:
                    raise ScoringInputError(
                        "lead",
                        f"the lead {lead} is not in {leader.name}'s hand (the opening leader)",
                    )
        return ResultEntry(
            s.section,
            s.table,
            s.round,
            s.board,
            s.ns_pair,
            s.ew_pair,
            contract=str(contract) if contract else "PASS",
            declarer=declarer.name if declarer else None,
            lead=lead,
            tricks=s.tricks if contract is not None else None,
            entered_by=serial,
            submission_key=submission_key(serial, s),
        )

    def prepare(self, serial: str, s: ResultSubmission) -> Pending | IntakeResult:
        """Everything but the write: who may submit, validity, the movement, a clash with
        the live result of the key. Returns what to store, or the answer at once."""
        if self.holders.get((s.section, s.table)) != serial:
            return IntakeResult(
                self._refuse(
                    serial, Reason.NOT_LOGGED_ON, f"log on to table {s.section}{s.table} first"
                )
            )
        if s.no_play:
            text = f"board {s.board} not played at table {s.section}{s.table} in round {s.round}"
            self.audit(serial, "no_play", {"board": s.board, "table": s.table, "round": s.round})
            verdict = Verdict(Outcome.ACCEPTED, "no play: the director will assign a score")
            return IntakeResult(verdict, alert=text)
        try:
            entry = self.entry(serial, s)
        except ScoringInputError as e:
            return IntakeResult(self._refuse(serial, Reason.INVALID_RESULT, e.message))
        movement = self.movements.get(s.section)
        if movement is None:
            text = f"section {s.section} is not in this event"
            return IntakeResult(self._refuse(serial, Reason.NOT_IN_MOVEMENT, text))
        key = check_key(movement, s.section, s.table, s.round, s.board, s.ns_pair, s.ew_pair)
        if key.verdict is KeyVerdict.REFUSE:
            return IntakeResult(self._refuse(serial, Reason.NOT_IN_MOVEMENT, key.reason))
        if key.verdict is KeyVerdict.HOLD:
            return Pending(serial, entry, "held", key.reason)
        prior = self.live.get(entry.key)
        if prior is not None and not prior.same_result(entry):
            correction = prior.entered_by == serial and s.revision > _revision_of(prior)
            if not correction:
                text = (
                    f"a second, different result for table {s.table} round {s.round} "
                    f"board {s.board}"
                )
                return Pending(serial, entry, "held", text)
        return Pending(serial, entry, "accepted", None)

    def stored(self, pending: Pending, st: StoredResult) -> IntakeResult:
        """The commit holding ``pending`` is durable: how to answer it."""
        if st.duplicate:
            return IntakeResult(Verdict(Outcome.DUPLICATE, "already stored"), stored=st)
        if pending.status == "held":
            self.audit(pending.serial, "held", {"result": st.id, "reason": pending.alert})
            held = Verdict(Outcome.HELD, "held for the director")
            return IntakeResult(held, stored=st, alert=pending.alert)
        self.live[pending.entry.key] = st
        return IntakeResult(Verdict(Outcome.ACCEPTED, ""), stored=st)


def _revision_of(stored: StoredResult) -> int:
    tail = (stored.submission_key or "").rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else 0
