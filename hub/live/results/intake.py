"""Result intake (decisions D9): who may submit for a table, and how a submission is
answered — accepted, held for the director, a duplicate, or refused with the reason the
players can act on. Intake decides; the result writer stores; the answer goes out only
after the commit (D11). Domain types only (D18): submissions and verdicts of the terminal
port, never wire messages. ``Intake`` belongs to the hub's asyncio loop: it reads no
store; the hub hands it the live results and hand records it reads in a worker thread.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from hub.event.movement.model import Movement
from hub.event.result_key import KeyVerdict, check_key
from hub.live.port.terminal_port import Outcome, Reason, ResultSubmission, TerminalLink, Verdict
from hub.live.results.hand_record_check import HandRecordCheck, lead_misfit
from hub.live.results.no_play import NoPlay
from hub.live.results.sit_out import held_reason, held_text, sit_out_reason
from hub.store.store import ResultEntry, StoredResult
from scoring.board import Seat
from scoring.contract import Play, parse_contract
from scoring.deal import normalise_card
from scoring.errors import ScoringInputError

log = logging.getLogger(__name__)
Audit = Callable[[str, str, dict[str, Any]], None]
Key = tuple[str, int, int, int]
MAX_SERIAL = 64  # a terminal's serial as the store keeps it (results' entered_by, audit actor)
DUPLICATE = Verdict(Outcome.DUPLICATE, "already stored")  # nothing changes


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
    terminal serial that holds the table and ``links`` to the link it logged on over
    (decisions D20: a table belongs to both); ``registered`` lists the serials the event
    allows (None: any terminal)."""

    def __init__(
        self, movements: dict[str, Movement], audit: Audit, registered: Iterable[str] | None = None
    ) -> None:
        self.movements = movements
        self.audit = audit
        self.registered = None if registered is None else frozenset(registered)
        self.holders: dict[tuple[str, int], str] = {}
        self.links: dict[tuple[str, int], TerminalLink] = {}
        # tables the next log-on may take: any terminal's (None), or only the serial named
        self.takeovers: dict[tuple[str, int], str | None] = {}
        self.live: dict[Key, StoredResult] = {}
        self.deals: dict[tuple[str, int], str] = {}
        # F3: do the hand records fit the leads? The director is told (section, text) once
        self.hand_check = HandRecordCheck()
        self.on_notice: Callable[[str, str], None] | None = None

    def load(self, live: Iterable[StoredResult], deals: dict[tuple[str, int], str]) -> None:
        """What the store holds (read in a worker thread at start); ``deals`` by (section,
        board), each section its own session's hand records."""
        self.live = {r.key: r for r in live}
        self.deals = deals

    def board_changed(self, section: str, board: int, live: Iterable[StoredResult]) -> None:
        """A director's change: the board's live results as the store now has them."""
        for key in [k for k in self.live if k[0] == section and k[3] == board]:
            del self.live[key]
        self.live.update((r.key, r) for r in live)

    def allow_takeover(self, section: str, table: int, serial: str | None = None) -> None:
        """The TD confirmed with the PIN: the next terminal to log on takes the table
        (``serial``: only that one, the phone with the table's re-issued code)."""
        self.takeovers[(section, table)] = serial

    # -- log-on ---------------------------------------------------------------------------
    def logon(
        self,
        serial: str,
        section: str,
        table: int,
        pin_ok: bool = False,
        link: TerminalLink | None = None,
    ) -> Verdict:
        """A terminal claims a table over ``link``. Refused: a terminal the event does not
        register, a table not in the movement, and a table held by another terminal or by
        the same serial over another link (another address or station), unless the TD's PIN
        came with the claim or the TD allowed a takeover. The holder's own link after a
        reboot (same address, new session) logs on again. Refusals are not audited here:
        the caller counts them per link and minute (a stranger repeating LOGONs must not
        force a write per message, decisions D20)."""
        if len(serial) > MAX_SERIAL:  # the store keeps who entered a result in 64 characters
            return Verdict.refused(
                Reason.NOT_REGISTERED,
                f"terminal serial of {len(serial)} characters: the hub keeps at most "
                f"{MAX_SERIAL}; ask the director",
            )
        if not serial.isprintable():  # a NUL or control character: no store can keep it
            text = f"terminal serial {serial!r} has characters that cannot be printed"
            return Verdict.refused(Reason.NOT_REGISTERED, text + ": ask the director")
        if self.registered is not None and serial not in self.registered:
            return Verdict.refused(
                Reason.NOT_REGISTERED,
                f"terminal {serial} is not registered for this event: ask the director",
            )
        movement = self.movements.get(section)
        if movement is None:
            text = f"section {section} is not in this event"
            return Verdict.refused(Reason.NOT_IN_MOVEMENT, text)
        if table not in movement.tables(section):
            text = f"section {section} has no table {table}"
            return Verdict.refused(Reason.NOT_IN_MOVEMENT, text)
        key = (section, table)
        holder, bound = self.holders.get(key), self.links.get(key)
        same_link = bound is None or link is None or bound.ref == link.ref
        if key in self.takeovers and self.takeovers[key] in (None, serial):
            pin_ok = True
            del self.takeovers[key]
        if holder is not None and not (holder == serial and same_link) and not pin_ok:
            other = "another terminal" if holder != serial else "this serial on another link"
            return Verdict.refused(
                Reason.TABLE_HELD,
                f"table {section}{table} is held by {other}: ask the director to confirm "
                "with the PIN",
            )
        for k in [k for k, v in self.holders.items() if self._moved(k, v, serial, link)]:
            self.holders.pop(k, None)
            self.links.pop(k, None)
        self.holders[key] = serial
        if link is not None:
            self.links[key] = link
        else:
            self.links.pop(key, None)
        takeover = holder is not None and not (holder == serial and same_link)
        detail: dict[str, Any] = {"section": section, "table": table, "takeover": takeover}
        self.audit(serial, "logon", detail | _where(link))
        return Verdict(Outcome.OK, f"table {section}{table}")

    def _moved(
        self, key: tuple[str, int], holder: str, serial: str, link: TerminalLink | None
    ) -> bool:
        """The terminal logging on leaves the table ``key`` it held: the same link (a
        device at a new table), or the same serial where no link is known. The same serial
        over another link keeps its table (a claim cannot evict the holder)."""
        bound = self.links.get(key)
        if link is not None and bound is not None:
            return bound.ref == link.ref
        return holder == serial

    def holds(self, link: TerminalLink, section: str, table: int) -> bool:
        """The terminal on ``link`` (in this session) holds the table."""
        return self.links.get((section, table)) == link

    def _refuse(
        self, who: str, reason: Reason, text: str, link: TerminalLink | None = None
    ) -> Verdict:
        self.audit(who, "refused", {"code": reason.name, "reason": text} | _where(link))
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

    def prepare(self, serial: str, s: ResultSubmission) -> Pending | NoPlay | IntakeResult:
        """Everything but the write: who may submit, validity, the movement, a clash with
        the live result of the key. Returns what to store, or the answer at once."""
        if self.holders.get((s.section, s.table)) != serial:
            return IntakeResult(
                self._refuse(
                    serial, Reason.NOT_LOGGED_ON, f"log on to table {s.section}{s.table} first"
                )
            )
        sit_out = sit_out_reason(self.movements, s)
        if sit_out is not None:  # F2: never a result against pair 0
            log.warning("refused from %s: %s", serial, sit_out)
            return IntakeResult(self._refuse(serial, Reason.NOT_IN_MOVEMENT, sit_out))
        if s.board < 1:  # no such board: nothing to score or re-key (a held board 0 broke views)
            text = f"board {s.board} is not a board number: boards are numbered from 1"
            return IntakeResult(self._refuse(serial, Reason.INVALID_RESULT, text))
        if s.no_play:  # recorded by the writer, answered after its commit (D11)
            sent = submission_key(serial, s)
            return NoPlay(serial, s.section, s.table, s.round, s.board, sent)
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
        if key.verdict is KeyVerdict.HOLD:  # the room's pair numbers ("EW 3")
            return Pending(serial, entry, "held", held_reason(movement, entry, key))
        wrong_lead = lead_misfit(self.deals, entry)
        if wrong_lead is not None:  # F3: held for the director, the table goes on
            return Pending(serial, entry, "held", wrong_lead)
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

    def no_play_recorded(self, no_play: NoPlay, recorded: bool) -> IntakeResult:
        """The commit holding the NO PLAY is durable: accepted, the director alerted; a
        resend of one recorded before (``recorded`` False) is a duplicate."""
        if not recorded:
            return IntakeResult(DUPLICATE)
        verdict = Verdict(Outcome.ACCEPTED, "no play: the director will assign a score")
        return IntakeResult(verdict, alert=no_play.alert)

    def stored(self, pending: Pending, st: StoredResult) -> IntakeResult:
        """The commit holding ``pending`` is durable: how to answer it."""
        if st.duplicate:  # a resend: nothing changes; one still held is told so again
            held = st.status == "held"
            again = Verdict(Outcome.HELD, held_text(pending.alert)) if held else DUPLICATE
            return IntakeResult(again, stored=st)
        notice = self.hand_check.witness(self.deals, pending.entry)  # F3: the file fits?
        if notice is not None and self.on_notice is not None:
            self.on_notice(pending.entry.section, notice)
        alert = pending.alert
        if st.key_clash:  # D21: a submission sent before with other content
            e = pending.entry
            alert = (
                f"same submission, different content: table {e.section}{e.table} round "
                f"{e.round} board {e.board} was sent before with another result"
            )
        if st.status == "held":
            self.audit(pending.serial, "held", {"result": st.id, "reason": alert})
            return IntakeResult(Verdict(Outcome.HELD, held_text(alert)), stored=st, alert=alert)
        self.live[pending.entry.key] = st
        return IntakeResult(Verdict(Outcome.ACCEPTED, ""), stored=st)


def _where(link: TerminalLink | None) -> dict[str, Any]:
    """The link of an audited act (port, address, session), when known."""
    if link is None:
        return {}
    return {"port": link.ref.port, "address": link.ref.address, "session": link.session}


def _revision_of(stored: StoredResult) -> int:
    """The terminal's revision in a stored submission key (``...:rev`` or ``...:rev#n``)."""
    tail = (stored.submission_key or "").rsplit(":", 1)[-1].partition("#")[0]
    return int(tail) if tail.isdigit() else 0
