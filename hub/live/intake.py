"""Result intake: check a terminal's result against the movement and the rules, store it
durably, and only then say how to answer (decisions D9: accepted, held or refused; a
repeat is a duplicate, never a second record)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from drivers.protocol.messages import NO_DECLARER, NO_PLAY, NakCode, Result
from hub.event.result_key import KeyVerdict, check_key
from hub.store.store import ResultEntry, Store, StoredResult, StoreError
from scoring.board import Seat
from scoring.contract import Play, parse_contract
from scoring.deal import normalise_card, opening_leader, parse_deal
from scoring.errors import ScoringInputError


class Verdict(Enum):
    ACCEPTED = "accepted"
    HELD = "held"
    DUPLICATE = "duplicate"
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class Pending:
    """A checked result waiting for its commit."""

    serial: str
    entry: ResultEntry
    status: str
    alert: str | None


@dataclass(frozen=True, slots=True)
class IntakeResult:
    verdict: Verdict
    text: str = ""
    code: NakCode | None = None
    stored: StoredResult | None = None
    alert: str | None = None


class Intake:
    """Intake for one event. ``holders`` maps (section, table) to the terminal serial that
    holds the table (set at log-on; see ``logon``)."""

    def __init__(self, store: Store, event_id: int) -> None:
        self.store = store
        self.event_id = event_id
        self.holders: dict[tuple[str, int], str] = {}
        self.takeovers: set[tuple[str, int]] = set()
        self._live: dict[tuple[str, int, int, int], StoredResult] | None = None
        self._deals: dict[int, str] | None = None

    def allow_takeover(self, section: str, table: int) -> None:
        """The TD confirmed with the PIN: the next terminal to log on takes the table."""
        self.takeovers.add((section, table))

    # -- log-on (decisions: security) --------------------------------------------------------
    def logon(self, serial: str, section: str, table: int, pin_ok: bool = False) -> IntakeResult:
        """A terminal claims a table. A table held by another terminal is refused unless
        the TD's PIN came with the claim; every refusal is audited."""
        try:
            movement = self.store.movement(self.event_id, section)
        except StoreError:
            return self._refuse(
                serial, NakCode.NOT_IN_MOVEMENT, f"section {section} is not in this event"
            )
        if table not in movement.tables(section):
            return self._refuse(
                serial, NakCode.NOT_IN_MOVEMENT, f"section {section} has no table {table}"
            )
        holder = self.holders.get((section, table))
        if (section, table) in self.takeovers:
            pin_ok = True
            self.takeovers.discard((section, table))
        if holder is not None and holder != serial and not pin_ok:
            return self._refuse(
                serial,
                NakCode.TABLE_HELD,
                f"table {section}{table} is held by another terminal: ask "
                "the director to confirm with the PIN",
            )
        self.holders = {k: v for k, v in self.holders.items() if v != serial}
        self.holders[(section, table)] = serial
        self.store.audit(
            self.event_id,
            serial,
            "logon",
            {"section": section, "table": table, "takeover": holder not in (None, serial)},
        )
        return IntakeResult(Verdict.ACCEPTED, f"table {section}{table}")

    def _refuse(self, who: str, code: NakCode, text: str) -> IntakeResult:
        self.store.audit(self.event_id, who, "refused", {"code": code.name, "reason": text})
        return IntakeResult(Verdict.REFUSED, text, code)

    # -- results ------------------------------------------------------------------------------
    def entry(self, serial: str, msg: Result) -> ResultEntry:
        """The store entry of a terminal's result (raises ScoringInputError when invalid)."""
        contract = parse_contract(msg.contract.strip())
        declarer: Seat | None = None
        if contract is not None:
            if msg.declarer == NO_DECLARER or msg.declarer > 3:
                raise ScoringInputError("declarer", f"{contract} needs a declarer: N, E, S or W")
            declarer = Seat(msg.declarer)
            Play(contract, declarer, msg.tricks)  # tricks 0-13
        lead = normalise_card(msg.lead) if msg.lead.strip() and contract is not None else None
        if lead is not None and declarer is not None:
            if self._deals is None:
                self._deals = self.store.hand_records(self.event_id)
            deal = self._deals.get(msg.board)
            if deal is not None:
                leader = opening_leader(declarer)
                if lead not in parse_deal(deal)[leader]:
                    raise ScoringInputError(
                        "lead",
                        f"the lead {lead} is not in {leader.name}'s hand (the opening leader)",
                    )
        return ResultEntry(
            msg.section,
            msg.table,
            msg.round,
            msg.board,
            msg.ns_pair,
            msg.ew_pair,
            contract=str(contract) if contract else "PASS",
            declarer=declarer.name if declarer else None,
            lead=lead,
            tricks=msg.tricks if contract is not None else None,
            entered_by=serial,
            submission_key=f"{serial}:{msg.section}:{msg.table}:{msg.round}:{msg.board}:"
            f"{msg.revision}",
        )

    def submit(self, serial: str, msg: Result) -> IntakeResult:
        """Check, store, answer: one result."""
        pending = self.prepare(serial, msg)
        if isinstance(pending, IntakeResult):
            return pending
        return self.commit([pending])[0]

    # -- the two halves, so that a burst shares one durable commit ---------------------------
    def live_index(self) -> dict[tuple[str, int, int, int], StoredResult]:
        if self._live is None:
            self._live = {
                (r.section, r.table, r.round, r.board): r
                for r in self.store.live_results(self.event_id)
            }
        return self._live

    def invalidate(self) -> None:
        """The director changed results: read the live results again when next needed."""
        self._live = None

    def prepare(self, serial: str, msg: Result) -> Pending | IntakeResult:
        """Everything but the write: who may submit, validity, the movement, a clash with
        the live result of the key. Returns what to store, or the answer at once."""
        if self.holders.get((msg.section, msg.table)) != serial:
            return self._refuse(
                serial, NakCode.NOT_LOGGED_ON, f"log on to table {msg.section}{msg.table} first"
            )
        if msg.tricks == NO_PLAY:
            text = (
                f"board {msg.board} not played at table {msg.section}{msg.table} in "
                f"round {msg.round}"
            )
            self.store.audit(
                self.event_id,
                serial,
                "no_play",
                {"board": msg.board, "table": msg.table, "round": msg.round},
            )
            return IntakeResult(
                Verdict.ACCEPTED, "no play: the director will assign a score", alert=text
            )
        try:
            entry = self.entry(serial, msg)
        except ScoringInputError as e:
            return self._refuse(serial, NakCode.INVALID_RESULT, e.message)
        movement = self.store.movement(self.event_id, msg.section)
        key = check_key(
            movement, msg.section, msg.table, msg.round, msg.board, msg.ns_pair, msg.ew_pair
        )
        if key.verdict is KeyVerdict.REFUSE:
            return self._refuse(serial, NakCode.NOT_IN_MOVEMENT, key.reason)
        if key.verdict is KeyVerdict.HOLD:
            return Pending(serial, entry, "held", key.reason)
        prior = self.live_index().get(entry.key)
        if prior is not None and not prior.same_result(entry):
            correction = prior.entered_by == serial and msg.revision > self._revision_of(prior)
            if not correction:
                return Pending(
                    serial,
                    entry,
                    "held",
                    f"a second, different result for table {msg.table} round "
                    f"{msg.round} board {msg.board}",
                )
        return Pending(serial, entry, "accepted", None)

    def commit(self, batch: list[Pending]) -> list[IntakeResult]:
        """Store a batch durably (one transaction for the accepted ones, one for the held
        ones), then say how to answer each, in order."""
        out: dict[int, IntakeResult] = {}
        for status in ("accepted", "held"):
            chosen = [(k, p) for k, p in enumerate(batch) if p.status == status]
            if not chosen:
                continue
            stored = self.store.record(self.event_id, [p.entry for _, p in chosen], status=status)
            for (k, p), st in zip(chosen, stored, strict=True):
                if st.duplicate:
                    out[k] = IntakeResult(Verdict.DUPLICATE, "already stored", stored=st)
                elif status == "held":
                    self.store.audit(
                        self.event_id, p.serial, "held", {"result": st.id, "reason": p.alert}
                    )
                    out[k] = IntakeResult(
                        Verdict.HELD, "held for the director", stored=st, alert=p.alert
                    )
                else:
                    self.live_index()[p.entry.key] = st
                    out[k] = IntakeResult(Verdict.ACCEPTED, "", stored=st)
        return [out[k] for k in range(len(batch))]

    @staticmethod
    def _revision_of(stored: StoredResult) -> int:
        key = stored.submission_key or ""
        tail = key.rsplit(":", 1)[-1]
        return int(tail) if tail.isdigit() else 0
