"""A table erases its own result (the terminal's ERASE, docs/protocol.md): the board's live
result at that table is erased the way the director erases one (a new, erased revision in
the store; the board rescored; the round controller opens the board again), audited with
the terminal as the actor, and the table may enter it again. The director sees it on the
feed (``board_changed``, why ``erased_at_table``).

Refused, with the reason shown at the table: a board with no live result of the table, a
result the director entered, a revision other than the one stored, and any board of a
round that is over (its standings may be out): then only the director erases. While the hub
is still loading its live results after a start (hub.live.service.warm_start) an erasure is refused
at once, "again in a moment": waiting would stop its base station's other requests.

``TableErasures`` belongs to the hub's asyncio loop; store work runs in worker threads.
"""

from __future__ import annotations

import asyncio
import logging

from hub.live.oversight.audit_trail import AuditTrail
from hub.live.port.terminal_port import EraseRequest, Reason, Verdict
from hub.live.results.intake import Intake
from hub.live.results.scores import Scores
from hub.live.rounds import round_controller as rc
from hub.live.rounds.section_rounds import Rounds
from hub.store.store import ResultEntry, Store, StoredResult, StoreError

log = logging.getLogger(__name__)
WHY = "erased_at_table"


class TableErasures:
    """Erasures asked for by the tables; on the hub's loop, store work in worker threads."""

    def __init__(
        self,
        store: Store,
        event_id: int,
        intake: Intake,
        rounds: Rounds,
        scores: Scores,
        audit: AuditTrail,
    ) -> None:
        self.store = store
        self.event_id = event_id
        self.intake = intake
        self.rounds = rounds
        self.scores = scores
        self.audit = audit
        self.ready: asyncio.Event | None = None  # set by the hub: its start has loaded all

    def refusal(self, e: EraseRequest) -> str | None:
        """Why the table may not erase this board itself (None: it may)."""
        where = f"table {e.section}{e.table}"
        if self.ready is not None and not self.ready.is_set():  # never waited for: the
            # port's requests are handled one at a time, so a wait here silences its station
            return f"the hub is starting: erase board {e.board} again in a moment"
        state = self.rounds.sections.get(e.section)
        if state is None:
            return f"section {e.section} is not in this event"
        ctl = state.controller
        if e.round != ctl.round or ctl.is_complete(e.round):
            return f"round {e.round} is over at {where}: ask the director to erase board {e.board}"
        prior = self.intake.live.get((e.section, e.table, e.round, e.board))
        if prior is None:
            return f"board {e.board} has no result to erase at {where} in round {e.round}"
        if prior.submission_key is None:
            return f"the director entered board {e.board} at {where}: ask the director"
        stored = terminal_revision(prior)
        if e.revision and stored is not None and stored != e.revision:
            return (
                f"board {e.board} at {where} holds revision {stored}, not {e.revision}: "
                "look at the result again"
            )
        return None

    async def erase(self, serial: str, e: EraseRequest) -> Verdict:
        """Erase the table's result of the board (checked by ``refusal`` first)."""
        why_not = self.refusal(e)
        if why_not is not None:
            detail = {"section": e.section, "table": e.table, "round": e.round, "board": e.board}
            self.audit.record(serial, "erase_refused", detail | {"reason": why_not})
            return Verdict.refused(Reason.NOT_ALLOWED, why_not)
        prior = self.intake.live[(e.section, e.table, e.round, e.board)]
        entry = ResultEntry(
            e.section,
            e.table,
            e.round,
            e.board,
            prior.ns_pair,
            prior.ew_pair,
            erased=True,
            entered_by=serial,
        )
        try:
            await asyncio.to_thread(self.store.record, self.event_id, [entry])
        except StoreError as err:
            return Verdict.refused(Reason.NOT_ALLOWED, str(err))
        self.audit.record(
            serial,
            "erase",
            {
                "section": e.section,
                "table": e.table,
                "round": e.round,
                "board": e.board,
                "result": prior.id,
                "port": e.ref.port,
                "address": e.ref.address,
            },
        )
        log.info("table %s%d erased its result of board %d", e.section, e.table, e.board)
        await self.scores.changed(e.section, e.board, WHY, None, None)  # no director's message
        await self.rounds.handle(e.section, rc.Erased(e.table, e.round, e.board))
        return Verdict.ok(f"board {e.board} erased: enter it again")


def terminal_revision(stored: StoredResult) -> int | None:
    """The revision the terminal gave a stored result (the end of its submission key)."""
    tail = (stored.submission_key or "").rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else None
